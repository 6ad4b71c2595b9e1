// Runs as Python starts (python.js, which index.html runs first, on its own). Once Python has drawn the first screen
// ("stones:ready", sent by main.py) it loads the boards' zoom and pan (zoom.js), registers the service worker that makes
// the app work offline and starts the computer players' worker (ai.js) in the background: all
// wait so they never slow the start. It also shows a readable message if Python fails to start, and
// puts the loading screen in the page's language first (build.py writes each language's words in
// #stones-words; Python's catalogs take over once it runs), and the home screen, unseen until Python shows it.
import "./ai.js";
import { language } from "./python.js";  // the language python.js picked (the same module instance)

const words = JSON.parse(document.getElementById("stones-words")?.textContent || "{}");
const startWords = words[language] || {};
document.documentElement.lang = language;
for (const node of document.querySelectorAll("[data-words]")) {
  node.textContent = startWords[node.dataset.words] || node.textContent;
}

// The home screen build.py wrote into the page (a template, in English) goes in after the loading screen, to be laid
// out while Pyodide starts and wait there unseen (style.css) for Python. This module runs once python.js has asked for
// Pyodide, so that layout does not come first. In another language its words are put in here, text by text (build.py
// lists each language's in #stones-home, in the order of the screen's text outside the boards' pictures), and its
// data-language says which it speaks: main.py shows it if that is the language Python chose, and draws it if not.
const written = document.getElementById("stones-home-screen");
if (written) {
  const homeWords = JSON.parse(document.getElementById("stones-home")?.textContent || "{}")[language];
  const home = written.content.querySelector(".home[data-language]");
  const texts = home && homeWords ? textOutsidePictures(home) : [];
  if (homeWords && texts.length === homeWords.length) {
    texts.forEach((node, index) => { node.nodeValue = homeWords[index]; });
    home.dataset.language = language;
  }
  written.replaceWith(written.content);
  // laid out now, in this task: left to the next frame, it could wait behind Pyodide's start (one long task on this
  // thread) and come on the way to the first screen
  home?.getBoundingClientRect();
}

function textOutsidePictures(root) {
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT, {
    acceptNode: (node) => (node.nodeName.toLowerCase() === "svg" ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  const texts = [];
  while (walker.nextNode()) {
    if (walker.currentNode.nodeType === Node.TEXT_NODE) texts.push(walker.currentNode);
  }
  return texts;
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
