/* Module worker started by pyodide-boot.mjs once a page that booted without a snapshot is ready
   and controlled by the service worker: starts a second Pyodide with _makeSnapshot, takes a
   snapshot of its memory and stores it in Cache Storage for the next visits. Done in a worker
   so that the page stays responsive while this interpreter starts (~4 s of CPU).

   The cache is named after the Pyodide version (a snapshot only restores into the same build);
   the snapshots of other versions are deleted here. Posts "saved" or "failed" to the page;
   failing is harmless (the next visit simply boots normally), so it is only reported with
   console.info. Names must match pyodide-boot.mjs. */
import { loadPyodide, version } from "../vendor/pyodide/pyodide.mjs";

const INDEX_URL = new URL("../vendor/pyodide/", import.meta.url).href;
const CACHE_NAME = `pyodide-snapshot-${version}`;
const KEY = `${INDEX_URL}memory-snapshot`;
/* The trimmed standard library, as the page's (pyodide-boot.mjs STDLIB_URL). */
const STDLIB_URL = `${INDEX_URL}python_stdlib_trimmed.zip`;

try {
  const py = await loadPyodide({
    indexURL: INDEX_URL,
    stdLibURL: STDLIB_URL,
    _makeSnapshot: true,
  });
  const snapshot = py.makeMemorySnapshot();
  for (const name of await caches.keys()) {
    if (name.startsWith("pyodide-snapshot-") && name !== CACHE_NAME) await caches.delete(name);
  }
  const cache = await caches.open(CACHE_NAME);
  await cache.put(KEY, new Response(snapshot));
  postMessage("saved");
} catch (err) {
  console.info("Pyodide memory snapshot not made:", err);
  postMessage("failed");
}
