/* What the start tells the page and waits for from it: the boot marks (bootMark: a
   performance mark and a "pyodide-boot" event the loading screen follows; mark: a data-*
   marker on <html>), the page being ready (appReady) and controlled by a service worker
   (whenReadyAndControlled), the preview table's first frame (tableDrawn) and a task boundary
   (nextTask).

   Separate from the entry (web/pyodide-boot.mjs) because these are the page's signals and
   timing, the same whichever way the interpreter starts. Imports nothing. */

/* A performance mark of the start, told to the loading screen too (a PerformanceObserver would
   only hear of it once the start no longer holds the main thread). */
export function bootMark(name) {
  performance.mark(name);
  if (typeof document === "object") {
    dispatchEvent(new CustomEvent("pyodide-boot", { detail: name }));
  }
}

export function mark(name, value) {
  if (typeof document === "object") document.documentElement.dataset[name] = value;
}

/* Let the page settle (first paint, service worker bookkeeping) before a second interpreter
   competes for the CPU. */
const SNAPSHOT_DELAY_MS = 500;

/* Runs fn once the page is ready and a service worker controls it: the site is then cached for
   offline play and the visitor is likely to come back. Never without a service worker (?nosw,
   or the e2e tests' default context, which blocks them), so nobody else pays for a second
   interpreter. */
export function whenReadyAndControlled(fn) {
  const sw = navigator.serviceWorker;
  if (!sw) return;
  const controlled = () =>
    sw.controller ||
    new Promise((resolve) => sw.addEventListener("controllerchange", resolve, { once: true }));
  appReady()
    .then(controlled)
    .then(() => setTimeout(fn, SNAPSHOT_DELAY_MS));
}

/* Resolves once the page's Python shows the game (html[data-app="ready"], app.py). */
export function appReady() {
  const root = document.documentElement;
  return new Promise((resolve) => {
    const check = () => {
      if (root.dataset.app !== "ready") return false;
      observer.disconnect();
      resolve();
      return true;
    };
    const observer = new MutationObserver(check);
    if (!check()) observer.observe(root, { attributes: true, attributeFilter: ["data-app"] });
  });
}

/* A macrotask through a message channel: unlike setTimeout(0), never clamped, nor held back to
   once a second in a background tab. */
export function nextTask() {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/* With a table to show before Python (web/table-preview.js sets html[data-preview] from the
   <head> and writes the table at the end of parsing), the early start waits until the frame
   that draws it is on the screen, at most TABLE_FRAME_MS (a hidden tab draws no frame).
   Otherwise the interpreter module (web/pyodide-boot.mjs), which often arrives first, runs
   Pyodide's loader and starts the downloads before that frame: the table and its card backs
   were drawn 0.1-0.25 s after they were written, while the runtime's downloads already shared
   the link (docs/performance.md, "The table before Python"). */
const TABLE_FRAME_MS = 250;

export function tableDrawn() {
  const root = document.documentElement;
  if (!root.dataset.preview) return Promise.resolve();
  return new Promise((resolve) => {
    setTimeout(resolve, TABLE_FRAME_MS);
    // the frame that draws it, then the next one: by then the first is on the screen (the
    // browser's paint timing counts it when it is presented, not when it is drawn)
    const drawn = () => requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
    if (document.readyState !== "loading") drawn();
    else document.addEventListener("readystatechange", drawn, { once: true });
  });
}
