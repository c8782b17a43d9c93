/* The interpreter module PyScript loads (pyscript.json "interpreter"): the vendored Pyodide,
   restored from a memory snapshot when an earlier visit saved one.

   A snapshot is the interpreter's memory right after start-up (no code of ours in it). It cannot
   be taken from the page's own interpreter (an interpreter started with _makeSnapshot cannot
   touch the DOM), so after the first visit's boot a module worker starts a second interpreter,
   snapshots it and stores it in Cache Storage, keyed by the Pyodide version; a snapshot of
   another Pyodide build is refused by Pyodide, deleted, and the page boots normally. */
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

function whenReady(fn) {
  const root = document.documentElement;
  const go = () => setTimeout(fn, 500);
  if (root.dataset.app === "ready") return go();
  const observer = new MutationObserver(() => {
    if (root.dataset.app === "ready") {
      observer.disconnect();
      go();
    }
  });
  observer.observe(root, { attributes: true, attributeFilter: ["data-app"] });
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
    whenReady(() => {
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
