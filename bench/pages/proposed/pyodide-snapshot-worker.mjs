/* Module worker started by pyodide-boot.mjs once the first visit's page is ready: start a
   second Pyodide, snapshot its memory and store it for the next visits (Cache Storage,
   `pyodide-snapshot-<version>`; snapshots of other versions are deleted). Posts "saved" or
   "failed" to the page. */
import { loadPyodide, version } from "../vendor/pyodide/pyodide.mjs";

const INDEX_URL = new URL("../vendor/pyodide/", import.meta.url).href;
const CACHE_NAME = `pyodide-snapshot-${version}`;
try {
  const py = await loadPyodide({ indexURL: INDEX_URL, _makeSnapshot: true });
  const snapshot = py.makeMemorySnapshot();
  for (const name of await caches.keys()) {
    if (name.startsWith("pyodide-snapshot-") && name !== CACHE_NAME) await caches.delete(name);
  }
  const cache = await caches.open(CACHE_NAME);
  await cache.put(`${INDEX_URL}memory-snapshot`, new Response(snapshot));
  postMessage("saved");
} catch (err) {
  console.warn("Pyodide snapshot not made:", err);
  postMessage("failed");
}
