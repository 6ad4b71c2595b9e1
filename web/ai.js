// The page's side of the computer players: one Web Worker (ai-worker.js) that thinks off the
// page's thread, started once in the background and reused for every move and hint.
//
//   window.stonesAI.ask(requestJson, timeoutMs) → Promise of the answer's JSON text
//   window.stonesAI.status                      → "idle" | "starting" | "ready" | "failed"
//   window.stonesAI.error                       → why it failed, in words
//   window.stonesAI.answered                    → how many answers arrived so far
//   window.stonesAI.python                      → where the worker's Python came from: "snapshot" or "fresh"
//
// main.py (Python) awaits ask() once the worker is ready (until then it thinks on its own thread);
// every change of status is announced as a "stones:ai" event so the page can say so or offer its
// fallback (thinking on the page itself). A worker that cannot start, is not ready in time, or
// gives no answer in time, rejects every pending request with the reason: nothing waits silently.
const ai = { status: "idle", error: "", python: "", worker: null, nextId: 1, pending: new Map(), answered: 0, startTimer: 0 };
// Until the worker is ready the page thinks on its own thread (main.py); a worker not ready after this
// long counts as failed, so the page says so instead of thinking there for good without a word.
const START_TIMEOUT_MS = 120_000;

function announce() {
  dispatchEvent(new CustomEvent("stones:ai", { detail: ai.status }));
}

function fail(reason) {
  clearTimeout(ai.startTimer);
  ai.status = "failed";
  ai.error = reason;
  if (ai.worker) ai.worker.terminate();
  ai.worker = null;
  for (const { reject, timer } of ai.pending.values()) {
    clearTimeout(timer);
    reject(new Error(reason));
  }
  ai.pending.clear();
  announce();
}

function receive({ data }) {
  if (data.type === "ready") {
    clearTimeout(ai.startTimer);
    ai.status = "ready";
    ai.python = data.python;
    announce();
  } else if (data.type === "failed") {
    fail(`it could not start (${data.error})`);
  } else if (data.type === "answer" && ai.pending.has(data.id)) {
    ai.answered += 1;
    const { resolve, timer } = ai.pending.get(data.id);
    ai.pending.delete(data.id);
    clearTimeout(timer);
    resolve(data.answer);
  }
}

function start() {
  if (ai.worker || ai.status === "failed") return;
  ai.status = "starting";
  try {
    ai.worker = new Worker(new URL("./ai-worker.js", import.meta.url), { type: "module", name: "stones-ai" });
  } catch (error) {
    fail(`this browser cannot run it in the background (${error.message || error})`);
    return;
  }
  ai.startTimer = setTimeout(
    () => fail(`it did not start within ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
  ai.worker.onmessage = receive;
  ai.worker.onerror = (event) => {
    event.preventDefault();
    fail(`it could not start (${event.message || "its script did not load"})`);
  };
  announce();
}

function ask(request, timeoutMs) {
  start();
  if (ai.status === "failed") return Promise.reject(new Error(ai.error));
  const id = ai.nextId++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => fail(`it gave no answer within ${Math.round(timeoutMs / 1000)} s`), timeoutMs);
    ai.pending.set(id, { resolve, reject, timer });
    ai.worker.postMessage({ id, request });
  });
}

function retry() {
  if (ai.status !== "failed") return;
  ai.status = "idle";
  ai.error = "";
  start();
}

window.stonesAI = {
  start, ask, retry,
  get status() { return ai.status; },
  get error() { return ai.error; },
  get answered() { return ai.answered; },  // answers received (stale ones included): for tests and the bench
  get python() { return ai.python; },
};
