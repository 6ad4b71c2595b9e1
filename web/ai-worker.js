// The computer players' Web Worker: Pyodide with the engine, so a search never freezes the page.
//
// Started once by ai.js (after the page is interactive) and reused for every move. It loads the
// same pyodide/ files (Python restored from the same snapshot: pyodide-start.js), engine.zip and
// ui.zip as the page (the service worker precaches them all, so it works offline too), then
// answers each message {id, request} with {type: "answer", id, answer}: request and answer are
// JSON text, handled by ui/think.py (`answer_json`). Messages that arrive while Pyodide is still
// loading wait for it, in order.
import { startPython } from "./pyodide-start.js";

const here = (path) => new URL(path, import.meta.url).href;
const reason = (error) => String((error && error.message) || error);

async function download(name) {
  const response = await fetch(here(name));
  if (!response.ok) throw new Error(`${name} could not be loaded (HTTP ${response.status})`);
  return response.arrayBuffer();
}

// The worker's Python (and where it came from: "snapshot" or "fresh", told to the page when ready)
const started = (async () => {
  const [{ python, from }, engine, ui] = await Promise.all([
    startPython(here("./pyodide/")),
    download("./engine.zip"),
    download("./ui.zip"),
  ]);
  python.unpackArchive(engine, "zip", { extractDir: "/stones" });
  python.unpackArchive(ui, "zip", { extractDir: "/stones" });
  python.runPython("import sys; sys.path.insert(0, '/stones')");
  return { answerJson: python.pyimport("ui.think").answer_json, from };
})();

started.then(
  ({ from }) => postMessage({ type: "ready", python: from }),
  (error) => postMessage({ type: "failed", error: reason(error) }),
);

onmessage = async ({ data }) => {
  let answer;
  try {
    answer = (await started).answerJson(data.request);
  } catch (error) {
    answer = JSON.stringify({ error: reason(error) });
  }
  postMessage({ type: "answer", id: data.id, answer });
};
