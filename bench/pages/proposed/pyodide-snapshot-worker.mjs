/* Module worker started by pyodide-boot.mjs after the first boot: start Pyodide, snapshot its
   memory, store the snapshot for the next visits. */
import { loadPyodide, version } from "../vendor/pyodide/pyodide.mjs";

const INDEX_URL = new URL("../vendor/pyodide/", import.meta.url).href;
try {
  const py = await loadPyodide({ indexURL: INDEX_URL, _makeSnapshot: true });
  const snapshot = py.makeMemorySnapshot();
  const cache = await caches.open(`pyodide-snapshot-${version}`);
  await cache.put(`${INDEX_URL}memory-snapshot`, new Response(snapshot));
  postMessage("saved");
} catch (err) {
  console.warn("Pyodide snapshot not made:", err);
  postMessage("failed");
}
