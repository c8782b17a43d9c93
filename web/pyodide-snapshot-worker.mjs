/* Module worker started by pyodide-boot.mjs once the page is ready and controlled by the service
   worker, to keep a Pyodide memory snapshot in Cache Storage for the next visits. The page posts
   one task:

   - {make: true} (the page booted without a snapshot): starts a second Pyodide with
     _makeSnapshot and takes a snapshot of its memory (~4 s of CPU);
   - {keep: URL} (the page started from the build's snapshot): fetches that .bin.zst (from the
     service worker's cache by then) and unpacks it (31 MB).

   Either way the work, and storing 31 MB in Cache Storage (on the page's thread, 2-3 s of a
   phone's main thread: a frozen board just after it appeared), happens here, so that the page
   stays responsive.

   The cache is named after the Pyodide version (a snapshot only restores into the same build);
   the snapshots of other versions are deleted here. Posts "saved" or "failed" to the page;
   failing is harmless (the next visit simply boots normally, or from the build's snapshot), so
   it is only reported with console.info. */
import { loadPyodide } from "../vendor/pyodide/pyodide.mjs";
/* Shared with the page's interpreter module (which starts nothing when imported in a worker). */
import {
  CACHE_NAME,
  KEY,
  STDLIB_URL,
  fetchOk,
  importZstd,
  unpackResponse,
} from "./pyodide-boot.mjs";

const INDEX_URL = new URL("../vendor/pyodide/", import.meta.url).href;

async function makeSnapshot() {
  const py = await loadPyodide({
    indexURL: INDEX_URL,
    stdLibURL: STDLIB_URL,
    _makeSnapshot: true,
  });
  return py.makeMemorySnapshot();
}

/* The build's snapshot, unpacked. */
async function buildSnapshot(url) {
  return unpackResponse(await fetchOk(url), importZstd);
}

async function store(snapshot) {
  for (const name of await caches.keys()) {
    if (name.startsWith("pyodide-snapshot-") && name !== CACHE_NAME) await caches.delete(name);
  }
  const cache = await caches.open(CACHE_NAME);
  // its length with it: the page's next start sizes Pyodide's memory from that and reads the
  // bytes meanwhile (cachedSnapshot in pyodide-boot.mjs)
  const headers = { "Content-Length": String(snapshot.byteLength) };
  await cache.put(KEY, new Response(snapshot, { headers }));
}

onmessage = async (event) => {
  const task = event.data || {};
  try {
    await store(task.keep ? await buildSnapshot(task.keep) : await makeSnapshot());
    postMessage("saved");
  } catch (err) {
    console.info("Pyodide memory snapshot not kept:", err);
    postMessage("failed");
  }
};
