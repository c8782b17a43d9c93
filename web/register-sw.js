/* Registers the service worker (../sw.js, i.e. the site root) once Python is ready.
 *
 * Loaded by index.html as a classic script: <script src="web/register-sw.js" defer></script>.
 * It exports nothing and waits until the UI sets <html data-app="ready">, so that the first
 * visit does not download the runtime twice (page and precache at the same moment).
 *
 * - Opt out with ?nosw in the page URL (debugging), or when service workers are unavailable.
 * - When a newer version has been installed and waits, sets <html data-update="ready">; the UI
 *   may then offer a reload and post {type: "skip-waiting"} to registration.waiting.
 */
(() => {
  "use strict";
  const root = document.documentElement;
  if (!("serviceWorker" in navigator) || new URLSearchParams(location.search).has("nosw")) {
    return;
  }

  function watchUpdates(registration) {
    if (!registration) return; // e.g. registration blocked by a test harness
    const mark = () => {
      if (registration.waiting && navigator.serviceWorker.controller) {
        root.dataset.update = "ready";
      }
    };
    mark();
    registration.addEventListener("updatefound", () => {
      const worker = registration.installing;
      if (worker) worker.addEventListener("statechange", mark);
    });
  }

  let started = false;
  function register() {
    if (started) return;
    started = true;
    // Resolved against the page URL: the worker lives at the site root (scope: whole site).
    navigator.serviceWorker
      .register("./sw.js")
      .then(watchUpdates)
      .catch((err) => console.warn("service worker not registered:", err));
  }

  if (root.dataset.app === "ready") {
    register();
  } else {
    const observer = new MutationObserver(() => {
      if (root.dataset.app === "ready") {
        observer.disconnect();
        register();
      }
    });
    observer.observe(root, { attributes: true, attributeFilter: ["data-app"] });
  }
})();
