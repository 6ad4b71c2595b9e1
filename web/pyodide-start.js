// Pyodide started from the snapshot build.py made: Python's memory just after its own start, taken once in Node.js
// with the same pinned Pyodide. Restoring it skips Python's start (most of a cold start); the page (python.js) and the
// computer players' worker (ai-worker.js) both start Python here. If the snapshot cannot be had (no
// DecompressionStream, a failed download, a build of another Pyodide) Python starts afresh, as it would without one.
import { loadPyodide } from "./pyodide/pyodide.mjs";

export const SNAPSHOT = "./pyodide/snapshot.bin.gz";  // build.py's SNAPSHOT, beside pyodide.mjs

// What differs between starts and the snapshot froze: the random module's state (every start would draw the same
// numbers: computer players' choices, new games' seeds) and the language in the environment (Emscripten takes it from
// the browser at Python's start, Node.js had none). Python's string hashes keep the snapshot's seed.
function afterRestore(python) {
  const lang = `${(globalThis.navigator?.language ?? "C").replace("-", "_")}.UTF-8`;
  python.globals.set("_stones_lang", lang);
  python.runPython("import os, random\nrandom.seed()\nos.environ['LANG'] = _stones_lang\ndel _stones_lang");
}

async function snapshotBytes(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} could not be loaded (HTTP ${response.status})`);
  const memory = response.body.pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(memory).arrayBuffer());
}

// Python, and where it came from: "snapshot", or "fresh" (with why the snapshot was not used).
export async function startPython(indexURL) {
  if (typeof DecompressionStream === "function") {
    try {
      const python = await loadPyodide({ indexURL, _loadSnapshot: snapshotBytes(new URL(SNAPSHOT, import.meta.url)) });
      afterRestore(python);
      return { python, from: "snapshot" };
    } catch (error) {
      console.warn("Python's start-up snapshot could not be used; starting Python afresh:", error);
      return { python: await loadPyodide({ indexURL }), from: "fresh", why: String(error?.message || error) };
    }
  }
  return { python: await loadPyodide({ indexURL }), from: "fresh", why: "no DecompressionStream in this browser" };
}
