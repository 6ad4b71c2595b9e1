// Python bytecode for the first screen, compiled by the Pyodide the page runs (build.py calls this).
//
//   node build_bytecode.mjs < {"sources": {"ui/home.py": "...", ...}}  →  JSON on stdout
//
// Pyodide compiles every module from source on import: under WebAssembly that is a good part of the
// time between Pyodide up and the first screen, most of it for PyScript's own `pyscript` package,
// which PyScript writes and imports before main.py runs. This compiles those modules and the given
// ones (the page's first-screen modules) to .pyc files with Python's "unchecked hash" invalidation:
// Python takes them as they are, whatever the source file's time, so PyScript rewriting its sources
// at every start does not make them stale. Only the same Python can read them: hence Pyodide itself,
// from node_modules, with no network.
//
// Output: {"cache_tag": "cpython-314", "sources": {path: text}, "bytecode": {pyc path: base64}}, where
// "sources" is every module compiled (PyScript's as its package ships them) and each pyc path is where
// Python looks for that module's bytecode (importlib.util.cache_from_source), relative to the page.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = dirname(fileURLToPath(import.meta.url));
const indexURL = join(root, "node_modules", "pyodide") + "/";
// PyScript's package as its core chunk writes it at start-up (the same artifact its build embeds)
const { default: pyscriptPackage } = await import(join(root, "node_modules/@pyscript/core/src/stdlib/pyscript.js"));

function flatten(tree, base, into) {
  for (const [name, value] of Object.entries(tree)) {
    if (typeof value === "string") into[`${base}${name}`] = value;
    else flatten(value, `${base}${name}/`, into);
  }
  return into;
}

const request = JSON.parse(readFileSync(0, "utf-8"));
const sources = { ...flatten(pyscriptPackage, "", {}), ...request.sources };

const { loadPyodide } = await import(join(indexURL, "pyodide.mjs"));
const pyodide = await loadPyodide({ indexURL });
pyodide.setStdout({ batched: (line) => process.stderr.write(`${line}\n`) });  // stdout carries the answer
const work = "/tmp/bytecode";
for (const [path, text] of Object.entries(sources)) {
  const target = `${work}/${path}`;
  pyodide.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
  pyodide.FS.writeFile(target, text);
}
pyodide.globals.set("WORK", work);
pyodide.globals.set("PATHS", pyodide.toPy(Object.keys(sources)));
const compiled = pyodide.runPython(`
import base64, importlib.util, py_compile, sys

def compiled(path):
    source = f"{WORK}/{path}"
    target = importlib.util.cache_from_source(source)
    py_compile.compile(source, target, doraise=True, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    with open(target, "rb") as pyc:
        return target.removeprefix(f"{WORK}/"), base64.b64encode(pyc.read()).decode()

{"cache_tag": sys.implementation.cache_tag, "bytecode": dict(compiled(path) for path in PATHS)}
`).toJs({ dict_converter: Object.fromEntries });
process.stdout.write(JSON.stringify({ ...compiled, sources }));
