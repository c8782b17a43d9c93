/* Registers the service worker (../sw.js, i.e. the site root) once Python is ready, and switches
 * to a newer version when the player asks for it.
 *
 * Loaded by index.html as a classic script: <script src="web/register-sw.js" defer></script>.
 * It waits until the UI sets <html data-app="ready">, so that the first visit does not download
 * the runtime twice (page and precache at the same moment).
 *
 * - ?nosw in the page URL (debugging): no registration, and this scope's worker, if any, is
 *   unregistered (from the next load on, every file comes from the server); also when service
 *   workers are unavailable.
 * - When a newer version has been installed and waits, sets <html data-update="ready">; the UI
 *   then offers "Update", saves the game and calls window.solitaireApplyUpdate(), which posts
 *   {type: "skip-waiting"} to the waiting worker and reloads the page once it has taken over
 *   (controllerchange): the new version starts from the saved game.
 * - A first install that fails (a file of the precache that does not download) is tried again
 *   a few times while the page stays open (RETRY_MS).
 * - window.solitaireFirstInstall(ms): undefined, unless this page is registering its service
 *   worker with no worker controlling it yet (a first visit, until the registration answers
 *   whether a first install is under way); then a promise of whether the new worker took over
 *   the page (sw.js: clients.claim) within `ms` (false at once when the registration says it is
 *   no first install). The solver's worker waits for it before its background start, so that
 *   it may keep its memory snapshot for the next visit (py/solitaire/web/app.py,
 *   docs/performance.md "First hint"). Everywhere else (return visits, no service workers,
 *   ?nosw, before the page is ready) it is undefined and nothing waits.
 */
(() => {
  "use strict";
  const root = document.documentElement;
  let firstInstall = null; // a promise while a first install is under way
  window.solitaireFirstInstall = (ms) =>
    firstInstall
      ? Promise.race([firstInstall, new Promise((resolve) => setTimeout(() => resolve(false), ms))])
      : undefined;
  if (!("serviceWorker" in navigator)) return;
  const sw = navigator.serviceWorker;
  if (new URLSearchParams(location.search).has("nosw")) {
    sw.getRegistration("./")
      .then((registration) => registration && registration.unregister())
      .then((done) => done && console.info("?nosw: service worker unregistered"))
      .catch(() => {});
    return;
  }

  let current = null; // this page's registration, once registered

  /* A first install that failed is tried again, after each of RETRY_MS in turn, while no
     worker controls the page: one file of the precache that does not download (a phone's link
     dropping for a moment) fails the whole install, and the browser itself would only try
     again on the next visit, which would then not play offline. */
  const RETRY_MS = [5000, 30000, 120000];
  let retries = 0;
  const watched = new WeakSet(); // installing workers, each watched once

  function retryIfItFails(worker) {
    if (watched.has(worker)) return;
    watched.add(worker);
    worker.addEventListener("statechange", () => {
      if (worker.state !== "redundant" || sw.controller || retries >= RETRY_MS.length) return;
      const wait = RETRY_MS[retries++];
      console.info(`The offline copy of the game was not saved; trying again in ${wait / 1000} s.`);
      setTimeout(() => {
        if (!sw.controller) registerAndWatch();
      }, wait);
    });
  }

  function watchUpdates(registration) {
    if (!registration) return; // e.g. registration blocked by a test harness
    current = registration;
    const mark = () => {
      if (registration.waiting && sw.controller) root.dataset.update = "ready";
    };
    mark();
    if (registration.installing) retryIfItFails(registration.installing);
    registration.addEventListener("updatefound", () => {
      const worker = registration.installing;
      if (!worker) return;
      worker.addEventListener("statechange", mark);
      retryIfItFails(worker);
    });
  }

  /* The player chose "Update" (the game is saved): let the waiting worker take over, then
     reload into the new version. Without a waiting worker, a plain reload. */
  window.solitaireApplyUpdate = () => {
    const waiting = current && current.waiting;
    if (!waiting || !sw.controller) {
      location.reload();
      return;
    }
    let reloading = false;
    sw.addEventListener("controllerchange", () => {
      if (reloading) return;
      reloading = true;
      location.reload();
    });
    waiting.postMessage({ type: "skip-waiting" });
  };

  /* Registers ./sw.js (resolved against the page URL: the worker lives at the site root, its
     scope the whole site) and watches the registration; the registration's promise. */
  function registerAndWatch() {
    const registering = sw.register("./sw.js");
    registering
      .then(watchUpdates)
      .catch((err) => console.warn("service worker not registered:", err));
    return registering;
  }

  let started = false;
  function register() {
    if (started) return;
    started = true;
    const registering = registerAndWatch();
    if (!sw.controller) {
      // No worker controls this page: it may be a first install. Known only once the
      // registration answers, so whoever asks meanwhile waits for that answer too (else the
      // solver's worker could start by a race before it, and keep no snapshot).
      firstInstall = registering.then(
        (registration) => {
          const installing = registration && registration.installing;
          if (!installing || registration.active || sw.controller) return false;
          return new Promise((resolve) => {
            sw.addEventListener("controllerchange", () => resolve(true), { once: true });
            installing.addEventListener("statechange", () => {
              if (installing.state === "redundant") resolve(false); // the install failed
            });
          });
        },
        () => false,
      );
    }
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
