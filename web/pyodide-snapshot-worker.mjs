/* Module worker started by pyodide-boot.mjs once the page is ready and controlled by the service
   worker, to keep a Pyodide memory snapshot in Cache Storage for the next visits. The page posts
   one task:

   - {make: true} (the page booted without a snapshot): starts a second Pyodide with
     _makeSnapshot and takes a snapshot of its memory (~4 s of CPU);
   - {keep: URL} (the page started from the build's snapshot): fetches that .bin.gz (from the
     service worker's cache by then) and unpacks it (31 MB).

   Either way the work, and storing 31 MB in Cache Storage (on the page's thread, 2-3 s of a
   phone's main thread: a frozen board just after it appeared), happens here, so that the page
   stays responsive.

   The cache is named after the Pyodide version (a snapshot only restores into the same build);
   the snapshots of other versions are deleted here. Posts "saved" or "failed" to the page;
   failing is harmless (the next visit simply boots normally, or from the build's snapshot), so
   it is only reported with console.info. Names must match pyodide-boot.mjs. */
import { loadPyodide, version } from "../vendor/pyodide/pyodide.mjs";

const INDEX_URL = new URL("../vendor/pyodide/", import.meta.url).href;
const CACHE_NAME = `pyodide-snapshot-${version}`;
const KEY = `${INDEX_URL}memory-snapshot`;
/* The trimmed standard library, as the page's (pyodide-boot.mjs STDLIB_URL). */
const STDLIB_URL = `${INDEX_URL}python_stdlib_trimmed.zip`;

async function makeSnapshot() {
  const py = await loadPyodide({
    indexURL: INDEX_URL,
    stdLibURL: STDLIB_URL,
    _makeSnapshot: true,
  });
  return py.makeMemorySnapshot();
}

/* The build's snapshot, unpacked; as it comes when a server already decoded it. */
async function buildSnapshot(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const data = new Uint8Array(await response.arrayBuffer());
  if (data[0] !== 0x1f || data[1] !== 0x8b) return data;
  const stream = new Blob([data]).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function store(snapshot) {
  for (const name of await caches.keys()) {
    if (name.startsWith("pyodide-snapshot-") && name !== CACHE_NAME) await caches.delete(name);
  }
  const cache = await caches.open(CACHE_NAME);
  await cache.put(KEY, new Response(snapshot));
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
