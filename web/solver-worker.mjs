/* The solver's worker: a plain module worker that loads the vendored Pyodide itself, imports
   the solver (py/solitaire/web/solver_worker.py) and answers the page's calls, so that a search
   never freezes the board. The page's side is py/solitaire/web/solver_client.py.

   Why not a PyScript worker: PyScript started the worker's interpreter afresh at every visit
   (no memory snapshot) and ran part of that start on the main thread (long tasks measured in
   docs/performance.md, "First hint"). This worker restores the solver from a memory snapshot
   on later visits: Pyodide's memory taken once the solver's modules were imported and warmed
   up, so a restored worker has little left to do.

   Messages, all JSON strings:
   - page -> worker, first: {"start": {"save": bool}}. "save": the page is controlled by the
     service worker (the visitor will likely come back), so a fresh boot may store a snapshot;
     never otherwise, so that one-off visitors do not pay for it. Not controlled, the worker
     fetches the wasm packed, as the page did (pyodide-boot.mjs, packedWasmFetch).
   - worker -> page: {"ready": {"boot": "snapshot" | "fresh", "snapshot": "restored" |
     "saved" | "failed" | "bad" | "none", "ms": boot milliseconds}} or {"failed": "reason"}.
   - page -> worker: {"id": n, "name": "hint" | ..., "args": [...]}; worker -> page:
     {"id": n, "result": "<the function's JSON answer>"} or {"id": n, "error": "reason"}.
   Calls run one at a time, in the order they came.

   The snapshot lives in the page's snapshot cache ("pyodide-snapshot-<Pyodide version>",
   web/pyodide-boot.mjs) under a key naming a digest of the solver's Python files, so a deploy
   that changes them never restores old code (the snapshots of other code are deleted when a
   new one is saved). A snapshot that cannot be restored (garbage, another Pyodide build) is
   deleted and the worker boots normally; that is no error (console.info only). */
import { loadPyodide } from "../vendor/pyodide/pyodide.mjs";
/* Shared with the page's interpreter module (which starts nothing when imported in a worker). */
import { CACHE_NAME, fetchOk, packedWasmFetch, STDLIB_URL, writeFiles } from "./pyodide-boot.mjs";

const INDEX_URL = new URL("../vendor/pyodide/", import.meta.url).href;
const SITE_URL = new URL("../", import.meta.url).href;
/* The build's files map for workers: {URL: interpreter path} of every Python file of the
   package and its bytecode (tools/build_site.py). */
const FILES_URL = new URL("../pyscript-worker.json", import.meta.url).href;
const KEY_PREFIX = `${INDEX_URL}solver-memory-snapshot?code=`;
/* Run at every boot before the worker says it is ready (solver_worker.warm_up: every solver
   family imported, a short search in each game), so that the player's first hint costs what
   later ones do; at a fresh boot, before the snapshot is taken, so the snapshot holds it all. */
const WARM_UP = `
import gc
import solitaire.web.solver_worker as _worker
_worker.warm_up()
del _worker
gc.collect()
`;

/* [[path, bytes], ...] of the files map, and a hex SHA-256 of all of them (the snapshot key;
   null where there is no crypto.subtle, outside a secure context: then no Cache Storage
   either, and no snapshot). */
async function fetchFiles() {
  const map = (await (await fetchOk(FILES_URL)).json()).files || {};
  const files = await Promise.all(
    Object.entries(map).map(async ([url, path]) => {
      const data = await (await fetchOk(new URL(url, SITE_URL))).arrayBuffer();
      return [path, new Uint8Array(data)];
    }),
  );
  files.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  if (!globalThis.crypto || !crypto.subtle) return { files, digest: null };
  const encoder = new TextEncoder();
  const parts = files.flatMap(([path, data]) => [encoder.encode(`${path}\0${data.length}\0`), data]);
  const all = new Uint8Array(parts.reduce((n, part) => n + part.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", all));
  const hex = [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
  return { files, digest: hex.slice(0, 32) };
}

async function openCache() {
  try {
    return await caches.open(CACHE_NAME);
  } catch {
    return null; // no Cache Storage: every boot is a fresh one
  }
}

async function cachedSnapshot(cache, key) {
  try {
    const hit = await cache.match(key);
    return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
  } catch {
    return null;
  }
}

const quiet = { stdout: () => {}, stderr: (line) => console.info(line) };

/* Restores the snapshot; null (and the entry deleted) if it cannot be restored. */
async function restore(cache, key, snapshot, files) {
  try {
    const py = await loadPyodide({ ...quiet, indexURL: INDEX_URL, stdLibURL: STDLIB_URL, _loadSnapshot: snapshot });
    writeFiles(py, files); // for any module imported later than the snapshot
    // The snapshot holds the random generator's state: reseed (the FreeCell search uses it).
    py.runPython("import random; random.seed()");
    py.runPython(WARM_UP); // the search code's first run in this worker
    return py;
  } catch (err) {
    console.info("Solver memory snapshot not usable; deleted, starting normally.", err);
    await cache.delete(key).catch(() => {});
    return null;
  }
}

async function saveSnapshot(cache, key, py) {
  try {
    const snapshot = py.makeMemorySnapshot();
    for (const request of await cache.keys()) {
      if (request.url.startsWith(KEY_PREFIX) && request.url !== key) await cache.delete(request);
    }
    await cache.put(key, new Response(snapshot));
    return "saved";
  } catch (err) {
    console.info("Solver memory snapshot not made:", err);
    return "failed";
  }
}

async function boot(options) {
  const t0 = performance.now();
  // A page no service worker controls (a first visit) downloaded the wasm packed, and so does
  // this worker (a worker cannot ask whether it is controlled itself): from the HTTP cache.
  if (!options.save) globalThis.fetch = packedWasmFetch(globalThis.fetch);
  const { files, digest } = await fetchFiles();
  const key = KEY_PREFIX + digest;
  const cache = digest === null ? null : await openCache();
  const snapshot = cache && (await cachedSnapshot(cache, key));
  let py = snapshot && (await restore(cache, key, snapshot, files));
  let outcome = snapshot ? (py ? "restored" : "bad") : "none";
  const boot = py ? "snapshot" : "fresh";
  if (!py) {
    // not right after a bad snapshot: the next visit saves one
    const save = Boolean(options.save && cache && outcome === "none");
    py = await loadPyodide({ ...quiet, indexURL: INDEX_URL, stdLibURL: STDLIB_URL, _makeSnapshot: save });
    writeFiles(py, files);
    py.runPython(WARM_UP);
    if (save) outcome = await saveSnapshot(cache, key, py);
  }
  const module = py.pyimport("solitaire.web.solver_worker");
  const exported = new Set(module.__export__.toJs());
  return { module, exported, info: { boot, snapshot: outcome, ms: Math.round(performance.now() - t0) } };
}

let started = null;

function answer(message) {
  postMessage(JSON.stringify(message));
}

async function handle(message) {
  if (message.start) {
    if (started) return;
    started = boot(message.start);
    try {
      answer({ ready: (await started).info });
    } catch (err) {
      answer({ failed: String(err && err.message ? err.message : err) });
    }
    return;
  }
  const { id, name, args } = message;
  try {
    if (!started) throw new Error("the solver was not started");
    const { module, exported } = await started;
    if (!exported.has(name)) throw new Error(`no such call: ${name}`);
    answer({ id, result: String(module[name](...(args || []))) });
  } catch (err) {
    answer({ id, error: String(err && err.message ? err.message : err) });
  }
}

/* One message at a time, in order: a call that comes while the worker boots or searches waits
   for the ones before it. */
let queue = Promise.resolve();
self.onmessage = (event) => {
  let message;
  try {
    message = JSON.parse(String(event.data));
  } catch {
    return; // not ours
  }
  queue = queue.then(() => handle(message));
};
