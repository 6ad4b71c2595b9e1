// Runs as Python starts (python.js, which index.html runs first, on its own). Once Python has drawn the first screen
// ("stones:ready", sent by main.py) it loads the boards' zoom and pan (zoom.js), registers the service worker that makes
// the app work offline and starts the computer players' worker (ai.js) in the background: all
// wait so they never slow the start. It also shows a readable message if Python fails to start, and
// puts the loading screen in the page's language first (build.py writes each language's words in
// #stones-words; Python's catalogs take over once it runs).
import "./ai.js";
import { language } from "./python.js";  // the language python.js picked (the same module instance)

const words = JSON.parse(document.getElementById("stones-words")?.textContent || "{}");
const startWords = words[language] || {};
document.documentElement.lang = language;
for (const node of document.querySelectorAll("[data-words]")) {
  node.textContent = startWords[node.dataset.words] || node.textContent;
}

const started = performance.now();
window.stonesStartedAt = started;

function registerOffline() {
  // Service workers need a secure context: https, or localhost (a phone on plain http plays online only).
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register("./sw.js").then(
    (registration) => { window.stonesServiceWorker = registration; },
    (error) => { console.warn("offline mode unavailable:", error); }
  );
}

addEventListener("stones:ready", () => {
  import("./zoom.js");
  registerOffline();
  const whenIdle = window.requestIdleCallback || ((task) => setTimeout(task, 300));
  whenIdle(() => window.stonesAI.start(), { timeout: 2000 });
}, { once: true });

addEventListener("py:error", (event) => {
  const loading = document.getElementById("loading");
  if (loading) {
    const message = document.createElement("p");
    message.textContent = startWords.failed || "The rules engine could not start. Reload the page to try again.";
    loading.replaceChildren(message);
  }
  console.error("python failed to start", event.detail);
});
