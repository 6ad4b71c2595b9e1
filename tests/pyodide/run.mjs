// Run the engine's tests inside real Pyodide (the Python of the web app), in Node.js.
//
//   python tests/pyodide/fetch_wheels.py      # once: pytest + hypothesis wheels
//   node tests/pyodide/run.mjs [pytest args]  # exit code = pytest's
//
// Pyodide comes from the npm package (node_modules/pyodide, `npm ci`), read from disk:
// no network. The repository is mounted with NODEFS at /repo; the wheels are unzipped
// into Pyodide's in-memory file system and put on sys.path. Without arguments it runs
// every tests/test_*.py that imports nothing but the standard library, the engine,
// pytest and hypothesis, plus tests/pyodide/test_*.py (the page's Python).
import { existsSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const started = Date.now();
const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, "..", "..");
const indexURL = join(repo, "node_modules", "pyodide") + "/";
const wheels = join(here, ".wheels");

if (!existsSync(join(indexURL, "pyodide.asm.wasm"))) {
  console.error("run.mjs: node_modules/pyodide is missing: run `npm ci` in the repository first");
  process.exit(2);
}
if (!existsSync(wheels) || !readdirSync(wheels).some((f) => f.startsWith("pytest-"))) {
  console.error("run.mjs: no wheels: run `python tests/pyodide/fetch_wheels.py` first");
  process.exit(2);
}

const { loadPyodide } = await import(join(indexURL, "pyodide.mjs"));
const pyodide = await loadPyodide({ indexURL });
// raw writes, so pytest's progress dots stay on one line
pyodide.setStdout({ write: (buffer) => { process.stdout.write(buffer); return buffer.length; } });
pyodide.setStderr({ write: (buffer) => { process.stderr.write(buffer); return buffer.length; } });
const loaded = Date.now();

pyodide.FS.mkdirTree("/repo");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: repo }, "/repo");
pyodide.globals.set("PYTEST_ARGS", pyodide.toPy(process.argv.slice(2)));

const code = String.raw`
import ast, os, sys, time, zipfile
from pathlib import Path

sys.dont_write_bytecode = True          # leave no __pycache__ in the mounted repository
SITE = Path("/tmp/site-packages")
SITE.mkdir(parents=True, exist_ok=True)
for wheel in sorted(Path("/repo/tests/pyodide/.wheels").glob("*.whl")):
    with zipfile.ZipFile(wheel) as archive:
        archive.extractall(SITE)
sys.path[:0] = [str(SITE), "/repo", "/repo/web"]

ALLOWED = set(sys.stdlib_module_names) | {"engine", "pytest", "_pytest", "hypothesis", "conftest", "__future__"}
# Emscripten has no processes, no threads and no sockets: tests that need them run in CPython only.
NOT_HERE = {"subprocess", "multiprocessing", "concurrent", "threading", "socket", "asyncio", "signal"}

def imported_roots(path):
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    roots = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            roots.add(node.module.split(".")[0])
    return roots

def engine_only(path):
    roots = imported_roots(path)
    return roots <= ALLOWED and not roots & NOT_HERE

tests = Path("/repo/tests")
args = list(PYTEST_ARGS)
chosen = [str(p) for p in sorted(tests.glob("test_*.py")) if engine_only(p)]
skipped = [p.name for p in sorted(tests.glob("test_*.py")) if not engine_only(p)]
chosen += [str(p) for p in sorted((tests / "pyodide").glob("test_*.py"))]
extra = []
conftest = tests / "conftest.py"
if conftest.exists() and not engine_only(conftest):
    extra.append("--noconftest")
    print("pyodide: tests/conftest.py imports more than the engine: running with --noconftest")
if skipped and not args:
    print("pyodide: not run here (they need more than the engine, or processes/threads):", ", ".join(skipped))

# Hypothesis under Pyodide: no example database on the mounted repository, no deadline
# (Pyodide is slower than CPython and timing-based failures would be noise).
PLUGIN = Path("/tmp/plugins")
PLUGIN.mkdir(exist_ok=True)
(PLUGIN / "stones_pyodide.py").write_text('''
def pytest_configure(config):
    try:
        from hypothesis import settings, HealthCheck
    except ImportError:
        return
    settings.register_profile("pyodide", database=None, deadline=None,
                              suppress_health_check=[HealthCheck.too_slow])
    settings.load_profile("pyodide")
''')
sys.path.insert(0, str(PLUGIN))

os.chdir("/repo")
import pytest
print(f"pyodide: Python {sys.version.split()[0]} on {sys.platform}, pytest {pytest.__version__}")
base = ["-q", "-p", "no:cacheprovider", "-p", "stones_pyodide", "--rootdir=/repo",
        "-W", "ignore::pytest.PytestConfigWarning", *extra]
if args:
    targets = [a if a.startswith("-") or a.startswith("/") else "/repo/" + a for a in args]
    exit_code = int(pytest.main(base + targets))
elif not chosen:
    print("pyodide: no engine test files found")
    exit_code = 5
else:
    exit_code = int(pytest.main(base + chosen))
exit_code
`;

let exitCode;
try {
  exitCode = await pyodide.runPythonAsync(code);
} catch (error) {
  console.error(String(error));
  exitCode = 3;
}
const seconds = (ms) => (ms / 1000).toFixed(1);
console.log(`pyodide: exit ${exitCode}; Pyodide ${pyodide.version} start ${seconds(loaded - started)} s, total ${seconds(Date.now() - started)} s`);
process.exit(exitCode);
