/* The interpreter module of the page (pyscript.json "interpreter", written by
   tools/build_site.py): the vendored Pyodide, restored from a memory snapshot when an earlier
   visit saved one. PyScript imports this module and calls its loadPyodide() like Pyodide's own.

   Why: starting CPython costs ~4 s on every visit, even with every file in the service
   worker's cache; restoring a snapshot of the interpreter's memory takes a fraction of that
   (warm boot ~0.4x of the cold one, docs/performance.md).

   The snapshot is the interpreter's memory right after start-up, with no code or state of ours
   in it. It cannot be taken from the page's own interpreter (one started with _makeSnapshot
   cannot touch the DOM), so once the page is ready and a service worker controls it, a module
   worker (pyodide-snapshot-worker.mjs) starts a second interpreter, snapshots it and stores it
   in Cache Storage ("pyodide-snapshot-<Pyodide version>", outside the service worker's
   "solitaire-*" caches, so a new deploy with the same runtime keeps it).

   A snapshot that cannot be restored (corrupted, or made by another Pyodide build) is deleted
   and the page boots normally; that is not an error (console.info only).

   Markers on <html> for tests and benchmarks: data-boot="snapshot|fresh" (how this page's
   interpreter started), data-snapshot="saved|failed" (the background snapshot's outcome). */
import * as pyodide from "../vendor/pyodide/pyodide.mjs";

export const version = pyodide.version;
const INDEX_URL = new URL("../vendor/pyodide/", import.meta.url).href;
export const CACHE_NAME = `pyodide-snapshot-${version}`;
export const KEY = `${INDEX_URL}memory-snapshot`;
/* Let the page settle (first paint, service worker bookkeeping) before a second interpreter
   competes for the CPU. */
const SNAPSHOT_DELAY_MS = 500;

function mark(name, value) {
  if (typeof document === "object") document.documentElement.dataset[name] = value;
}

async function openCache() {
  try {
    return await caches.open(CACHE_NAME);
  } catch {
    return null; // no Cache Storage (not a secure context, private mode...): plain boot
  }
}

async function cachedSnapshot(cache) {
  try {
    const hit = await cache.match(KEY);
    return hit ? await hit.arrayBuffer() : null;
  } catch {
    return null;
  }
}

/* Runs fn once the page is ready and a service worker controls it: the site is then cached for
   offline play and the visitor is likely to come back. Never without a service worker (?nosw,
   or the e2e tests' default context, which blocks them), so nobody else pays for a second
   interpreter. */
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
    setTimeout(fn, SNAPSHOT_DELAY_MS);
  }
  observer.observe(root, { attributes: true, attributeFilter: ["data-app"] });
  sw.addEventListener("controllerchange", check);
  check();
}

function makeSnapshotInBackground() {
  whenReadyAndControlled(() => {
    const worker = new Worker(new URL("./pyodide-snapshot-worker.mjs", import.meta.url), {
      type: "module",
    });
    const finish = (outcome) => {
      mark("snapshot", outcome);
      worker.terminate();
    };
    worker.onmessage = (event) => finish(String(event.data));
    worker.onerror = (event) => {
      event.preventDefault(); // e.g. the worker file could not load: no snapshot, no error
      finish("failed");
    };
  });
}

export async function loadPyodide(options = {}) {
  const config = { ...options, indexURL: INDEX_URL };
  const cache = await openCache();
  const snapshot = cache && (await cachedSnapshot(cache));
  if (snapshot) {
    try {
      const py = await pyodide.loadPyodide({ ...config, _loadSnapshot: snapshot });
      // Pyodide's start-up imports `random`, so the snapshot holds its seed: reseed, or every
      // visit would deal the same "random" deals. (str hashes stay as in the snapshot, which
      // the game does not depend on.)
      py.runPython("import random; random.seed()");
      mark("boot", "snapshot");
      return py;
    } catch (err) {
      console.info("Pyodide memory snapshot not usable; deleted, starting normally.", err);
      await cache.delete(KEY).catch(() => {});
    }
  }
  const py = await pyodide.loadPyodide(config);
  mark("boot", "fresh");
  if (cache && typeof Worker === "function" && typeof document === "object") {
    makeSnapshotInBackground();
  }
  return py;
}
