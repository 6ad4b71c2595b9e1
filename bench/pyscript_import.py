"""CPU of PyScript's Python step before main.py, its package as shipped and as build.py patches it.

    python bench/pyscript_import.py [--pairs 10]

PyScript writes its `pyscript` package into Pyodide's file system and imports it before running the
page's main.py. This runs that step (PyScript's own code string, the package's sources as each build
gives them) in fresh Node.js processes with the pinned Pyodide, the JavaScript modules the package
reaches for stood in, and reports the CPU milliseconds of the whole step and of `import pyscript`
alone, pair by pair (shipped, then patched), with the medians and the machine's load.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import build  # noqa: E402

STEP = """
import { loadPyodide } from "%(pyodide)s";
import { stdlib } from "%(stdlib)s";
import { readFileSync } from "node:fs";
const [packagesFile, which] = process.argv.slice(2);
const packages = JSON.parse(readFileSync(packagesFile, "utf-8"));
let code = stdlib;  // PyScript's step: write the package, then `import pyscript as _pyscript`
for (const [name, text] of Object.entries(packages.shipped)) {
  if (!code.includes(JSON.stringify(text))) throw new Error(`${name} is not in PyScript's step`);
  code = code.replace(JSON.stringify(text), JSON.stringify(packages[which][name]));
}
const [write, imports] = code.split("import pyscript as _pyscript");
const cpu = () => { const used = process.cpuUsage(); return (used.user + used.system) / 1000; };
globalThis.document = { currentScript: null };
const pyodide = await loadPyodide({ indexURL: "%(index)s" });
pyodide.registerJsModule("_pyscript", { PyWorker() {}, fs: {}, interpreter: {}, js_import() {}, target: "" });
pyodide.registerJsModule("polyscript", { storage: async () => ({}), workers: {}, lazy_py_modules() {}, config: {},
  js_modules: {}, xworker: undefined });
const start = cpu();
pyodide.runPython(write);
const written = cpu();
pyodide.runPython("import pyscript as _pyscript" + imports);
console.log(JSON.stringify({ step: cpu() - start, imported: cpu() - written }));
"""


def packages() -> dict[str, dict[str, str]]:
    """PyScript's package as npm ships it and as build.py patches it: file name -> source."""
    dist = build.NODE_MODULES / "@pyscript" / "core" / "dist"
    core = build.pyscript_core_chunk({"pyscript/core.js": (dist / "core.js").read_bytes()})
    if core is None:
        sys.exit("pyscript_import.py: PyScript's core.js names no core chunk")
    shipped = (dist / core).read_bytes()
    return {
        "shipped": build.pyscript_sources(shipped),
        "patched": build.pyscript_sources(build.with_pyscript_patched(shipped)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=10, help="fresh Node.js processes of each package")
    args = parser.parse_args()
    build.ensure_node_modules()
    pyodide = build.NODE_MODULES / "pyodide"
    results: dict[str, list[dict[str, float]]] = {"shipped": [], "patched": []}
    print("load average before: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()), flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        script, data = Path(tmp) / "step.mjs", Path(tmp) / "packages.json"
        stdlib = build.NODE_MODULES / "@pyscript" / "core" / "src" / "stdlib.js"
        script.write_text(STEP % {"pyodide": pyodide / "pyodide.mjs", "stdlib": stdlib, "index": f"{pyodide}/"})
        data.write_text(json.dumps(packages()))
        for pair in range(args.pairs):
            for which in results:
                run = subprocess.run(
                    ["node", str(script), str(data), which], capture_output=True, text=True, check=True
                )
                results[which].append(json.loads(run.stdout.splitlines()[-1]))
            shipped, patched = results["shipped"][-1], results["patched"][-1]
            print(
                f"pair {pair + 1}: step {shipped['step']:.0f} -> {patched['step']:.0f} ms, "
                f"import pyscript {shipped['imported']:.0f} -> {patched['imported']:.0f} ms",
                flush=True,
            )
    for part in ("step", "imported"):
        medians = {which: statistics.median(r[part] for r in runs) for which, runs in results.items()}
        lower = sum(p[part] < s[part] for s, p in zip(results["shipped"], results["patched"]))
        print(
            f"{part}: shipped {medians['shipped']:.0f} ms, patched {medians['patched']:.0f} ms (median), "
            f"patched lower in {lower} of {args.pairs} pairs"
        )
    print("load average after: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    main()
