// Python for the page, started the moment the page loads: index.html runs this module on its own
// (async, before start.js), so Pyodide is asked for once this file and Pyodide's loader arrive, not
// once start.js and everything it imports have. PyScript's config (inline in index.html) names this
// module as its interpreter: PyScript imports it (the same module instance) and calls loadPyodide(), which hands
// over the Pyodide started here. Without it Pyodide would start only once PyScript's own modules,
// its config and its storage were ready.
//
// Python comes from the snapshot build.py made of its memory (pyodide-start.js: its own start skipped), else afresh;
// window.stonesPython says which, and why not the snapshot.
//
// Before Python runs, the first screen's files are written into its file system: the modules the
// list of games needs and the chosen language's catalog (English needs none: the text is the
// message id). build.py lists them in #stones-start. The engine and the rest of the page
// (engine.zip, ui.zip) download meanwhile and are kept as bytes: controllers/later.py unpacks them
// when a screen first needs them, so the first screen waits for no unpacking or import of theirs.
import { version } from "./pyodide/pyodide.mjs";
import { startPython } from "./pyodide-start.js";

export { version };

const LANGUAGE_KEY = "stones/language";  // the language picked in the header (controllers/store.py)
const words = JSON.parse(document.getElementById("stones-words")?.textContent || "{}");
const start = JSON.parse(document.getElementById("stones-start")?.textContent || "{}");
const here = (path) => new URL(path, import.meta.url).href;

function pickedLanguage() {
  try { return localStorage.getItem(LANGUAGE_KEY); } catch { return null; }  // storage may be disabled
}

// The language picked before, else the first of the browser's the app speaks: what main.py chooses
// (ui/i18n.py's choose(), from the same list), so the catalog written here is the one it reads.
const browserLanguages = navigator.languages?.length ? navigator.languages : [navigator.language];
export const language = [pickedLanguage(), ...browserLanguages]
  .map((tag) => (tag || "").split(/[-_]/)[0].toLowerCase())
  .find((code) => code in words) || "en";

async function download(path) {
  const response = await fetch(here(path));
  if (!response.ok) throw new Error(`${path} could not be loaded (HTTP ${response.status})`);
  return new Uint8Array(await response.arrayBuffer());
}

performance.mark("stones: Pyodide asked for");  // bench/web.py --timeline shows these marks
const pyodide = startPython(here("./pyodide/")).then(({ python, from, why }) => {
  window.stonesPython = { from, why };
  performance.mark("stones: Pyodide started");
  return python;
});

const catalog = (start.catalogs || {})[language];
const firstScreen = Promise.all([
  ...(start.files || []).map(async (path) => [path, await download(path)]),
  // a catalog that cannot be had leaves the words English (ui/i18n.py), it does not stop the page
  ...(catalog ? [download(catalog).then((bytes) => [catalog, bytes], () => null)] : []),
]);
const later = Promise.all((start.later || []).map(async (path) => [path, await download(path)]));

// What PyScript calls: its output handlers are the only options that matter here (the rest only
// say where Pyodide is, and it is started already).
export async function loadPyodide({ stdout, stderr } = {}) {
  const [python, files, bundles] = await Promise.all([pyodide, firstScreen, later]);
  if (stdout) python.setStdout({ batched: stdout });
  if (stderr) python.setStderr({ batched: stderr });
  const home = python.FS.cwd();
  for (const [path, bytes] of files.filter(Boolean)) {
    const target = `${home}/${path}`;
    python.FS.mkdirTree(target.slice(0, target.lastIndexOf("/")));
    python.FS.writeFile(target, bytes);
  }
  window.stonesLater = new Map(bundles);
  performance.mark("stones: first screen's files written");
  return python;
}
