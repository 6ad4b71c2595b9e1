// Runs before Python starts: registers the service worker that makes the app work offline,
// and shows a readable message if Python fails to start.
const started = performance.now();
window.stonesStartedAt = started;

// Service workers need a secure context: https, or localhost (a phone on plain http plays online only).
if ("serviceWorker" in navigator && window.isSecureContext) {
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("./sw.js").then(
      (registration) => { window.stonesServiceWorker = registration; },
      (error) => { console.warn("offline mode unavailable:", error); }
    );
  });
}

addEventListener("py:error", (event) => {
  const loading = document.getElementById("loading");
  if (loading) loading.innerHTML = "<p>The rules engine could not start. Reload the page to try again.</p>";
  console.error("python failed to start", event.detail);
});
