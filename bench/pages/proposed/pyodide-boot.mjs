/* The interpreter module PyScript loads (pyscript.json "interpreter"): the vendored Pyodide,
   restored from a memory snapshot when an earlier visit saved one.

   A snapshot is the interpreter's memory right after start-up (no code of ours in it). It cannot
   be taken from the page's own interpreter (an interpreter started with _makeSnapshot cannot
   touch the DOM), so once the page is ready and the service worker controls it, a module worker
   (pyodide-snapshot-worker.mjs) starts a second interpreter, snapshots it and stores it in
   Cache Storage, keyed by the Pyodide version. Restoring takes ~0.3 s instead of ~4 s of
   start-up. A snapshot that cannot be restored (another Pyodide build) is deleted and the page
   boots normally. <html data-snapshot="saved|failed"> tells tests and benchmarks. Measured in
   bench/bench_boot_options.py; see docs/performance.md. */
import * as pyodide from "../vendor/pyodide/pyodide.mjs";

export const version = pyodide.version;
const INDEX_URL = new URL("../vendor/pyodide/", import.meta.url).href;
export const CACHE_NAME = `pyodide-snapshot-${version}`;
export const KEY = `${INDEX_URL}memory-snapshot`;

async function openCache() {
  try {
    return await caches.open(CACHE_NAME);
  } catch {
    return null; // no Cache Storage (not a secure context, private mode...): plain boot
  }
}

/* Runs fn once the page is ready and a service worker controls it: the site is then cached for
   offline play and the visitor is likely to come back. Never without a service worker (e.g.
   ?nosw, or the e2e tests, which block workers), so no test pays for a second interpreter. */
function whenReadyAndControlled(fn) {
  const sw = navigator.serviceWorker;
  if (!sw) return;
  const root = document.documentElement;
  let done = false;
  const observer = new MutationObserver(() => check());
  function check() {
    if (done || root.dataset.app !== "ready" || !sw.controller) return;
    done = true;
    observer.disconnect();
    sw.removeEventListener("controllerchange", check);
    setTimeout(fn, 500);
  }
  observer.observe(root, { attributes: true, attributeFilter: ["data-app"] });
  sw.addEventListener("controllerchange", check);
  check();
}

export async function loadPyodide(options = {}) {
  const config = { ...options, indexURL: INDEX_URL };
  const cache = await openCache();
  const hit = cache && (await cache.match(KEY));
  if (hit) {
    try {
      const py = await pyodide.loadPyodide({ ...config, _loadSnapshot: hit.arrayBuffer() });
      // Pyodide's start-up imports `random`: reseed it, or every visit would deal the same
      // "random" deals (str hashes stay as in the snapshot, which the game does not mind).
      py.runPython("import random; random.seed()");
      return py;
    } catch (err) {
      console.warn("Pyodide snapshot not usable, starting from scratch:", err);
      await cache.delete(KEY);
    }
  }
  const py = await pyodide.loadPyodide(config);
  if (cache && typeof Worker === "function" && typeof document === "object") {
    whenReadyAndControlled(() => {
      const worker = new Worker(new URL("./pyodide-snapshot-worker.mjs", import.meta.url), {
        type: "module",
      });
      worker.onmessage = (event) => {
        document.documentElement.dataset.snapshot = String(event.data);
        worker.terminate();
      };
    });
  }
  return py;
}
