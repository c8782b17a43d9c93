/* The interpreter module of the page (pyscript.json "interpreter", written by
   tools/build_site.py): the vendored Pyodide, started as early as the page allows, restored from
   a memory snapshot when an earlier visit saved one, with the page's Python files already in its
   file system. PyScript imports this module and calls its loadPyodide() like Pyodide's own.

   Early start: index.html also loads this module from its <head>, and importing it on a page
   starts the interpreter at once (and fetches pyodide-files.json and the files it lists), while
   PyScript's own modules and config are still loading; PyScript's loadPyodide() call then takes
   over that interpreter. Without this, Pyodide would only start once PyScript's module waterfall
   is done (~0.4 s later) and our files would only be fetched once Pyodide is up.

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

   First visit: the build also makes such a snapshot (tools/make_boot_snapshot.mjs, in Node) and
   writes its URL into BOOT_SNAPSHOT; with no snapshot in Cache Storage the page restores that
   one, fetched once most of the wasm is in (Pyodide, told the snapshot's size, compiles,
   instantiates and links the wasm meanwhile), and needs no second interpreter: the same
   worker keeps the build's snapshot, unpacked, for later visits.

   Markers on <html> for tests and benchmarks: data-boot="snapshot|build-snapshot|fresh" (how
   this page's interpreter started), data-snapshot="saved|failed" (the background snapshot's
   outcome); and performance marks "pyodide-boot:start", "pyodide-boot:restore" (a snapshot was
   found), "pyodide-boot:snapshot-fetch" (the build's snapshot is asked for),
   "pyodide-boot:snapshot-unpacked" (its bytes are in and unpacked),
   "pyodide-boot:started" (Pyodide is up), "pyodide-boot:ready" (files written) and, after a
   start from the build's snapshot, "pyodide-boot:stdlib-fetch" (the page is ready: the zip is
   asked for) and "pyodide-boot:stdlib" (the zip is in, STDLIB_LATER_URL); on
   the page each is also dispatched at once as the event "pyodide-boot" (detail: the name), which
   the loading screen's text follows (web/boot.js).

   This module holds the build's facts (the lines tools/build_site.py writes: LOCKFILE_INFO,
   BOOT_SNAPSHOT, BOOT_SNAPSHOT_SIZE, PACKED_WASM), what the memory snapshot is kept under, and
   the start itself (start, boot, loadPyodide); the mechanisms it uses are the modules of
   web/boot/, each imported here directly (the browser fetches them all as soon as it has read
   this one) and importing only each other:
   - web/boot/urls.mjs: the site's root, Pyodide's folder, the wasm's URL;
   - web/boot/page.mjs: the boot marks, and what the start waits for from the page;
   - web/boot/unpack.mjs: gzip, zstd and tar, on the page or in a worker;
   - web/boot/downloads.mjs: the download watcher that wraps fetch() during the start, the
     packed wasm, the wasm's byte count, and how a failure is reported;
   - web/boot/page-files.mjs: the page's Python files, fetched and written.
   The workers (pyodide-snapshot-worker.mjs, solver-worker.mjs) import what they share from
   here; importing this module in a worker starts nothing. */
import * as pyodide from "../vendor/pyodide/pyodide.mjs";
import {
  armWasmArrival,
  reportFailure,
  countBytes,
  expectBytes,
  stopCountingBytes,
  watchDownloads,
  watching,
  withPackedWasm,
} from "./boot/downloads.mjs";
import {
  appReady,
  bootMark,
  mark,
  nextTask,
  tableDrawn,
  whenReadyAndControlled,
} from "./boot/page.mjs";
import { fetchPageFiles, writeFiles } from "./boot/page-files.mjs";
import { unpackOffThread } from "./boot/unpack.mjs";
import { INDEX_URL, SITE_URL } from "./boot/urls.mjs";

/* What the workers import from here (and the tests, from the page), whichever module of
   web/boot/ holds it. */
export { fetchOk, writeFiles } from "./boot/page-files.mjs";
export {
  FZSTD_URL,
  gunzip,
  importZstd,
  unpackedStream,
  unpackedStreamOffThread,
  unpackOffThread,
  unpackResponse,
  untar,
} from "./boot/unpack.mjs";
export { WASM_URL } from "./boot/urls.mjs";

export const version = pyodide.version;
/* The site's trimmed standard library (tools/stdlib_trim.py), not Pyodide's full zip; also
   used by the solver's worker and the snapshot worker. */
export const STDLIB_URL = `${INDEX_URL}python_stdlib_trimmed.zip`;
/* What a page restoring the build's snapshot gives Pyodide as its standard library: the
   fetch wrapper of watchDownloads() (web/boot/downloads.mjs) answers it with an empty zip at
   once. Such a page imports nothing from the zip (the snapshot holds every module it imports:
   e2e/test_stdlib_later.py), so the zip is fetched once the page is ready, off the link that
   the wasm and the snapshot need and out of the first visit's bytes until ready, and written
   into the file system when it arrives (installStdlibLater()). Only Python's zip importer reads the file, when a module
   not yet imported is imported; the table of contents it reads it by is in the snapshot. */
const STDLIB_LATER_URL = `${STDLIB_URL}#later`;
export const CACHE_NAME = `pyodide-snapshot-${version}`;
export const KEY = `${INDEX_URL}memory-snapshot`;

/* The "info" of the vendored pyodide-lock.json, written here by tools/build_site.py
   (LOCKFILE_INFO). The page loads no package, so it gives Pyodide a package index with that
   info and no package (lockFileContents) instead of letting it fetch and parse the 119 KB lock
   file at every start; Pyodide only checks that the ABI version matches its own. null (this
   source, unbuilt): Pyodide fetches the lock file as usual. Workers (the solver's, the snapshot
   worker) load Pyodide themselves and still fetch it. */
const LOCKFILE_INFO = null;
/* The site URL of the build's memory snapshot, written here by tools/build_site.py; null: none
   (unbuilt, or the build could not make one). */
const BOOT_SNAPSHOT = null;
/* Its size unpacked, written by the build too: given to Pyodide (`_snapshotSize`, a loader
   patch of the build's), the wasm is compiled and instantiated while the snapshot still
   downloads, instead of after (docs/performance.md, "Build-time snapshot"). */
const BOOT_SNAPSHOT_SIZE = null;
/* The site URL of pyodide.asm.wasm as zstd (tools/build_site.py PACKED_WASM), written by the
   build; null: none (unbuilt, or built without zstd). packedWasmFetch() fetches it instead of
   the wasm where no service worker answers. */
const PACKED_WASM = null;
/* The bytes a first visit downloads of the packed wasm and of the build's snapshot (their
   files' sizes), written by the build too; null: unknown. The loading screen's progress counts
   them (countBytes of web/boot/downloads.mjs): the two make most of a first visit's bytes. */
const PACKED_WASM_BYTES = null;
const BOOT_SNAPSHOT_BYTES = null;
/* fetch() with pyodide.asm.wasm as this build's zstd copy (withPackedWasm of
   web/boot/downloads.mjs, which the page's download watcher uses too), for the solver's worker
   while no service worker answers it. */
export function packedWasmFetch(fetcher) {
  return withPackedWasm(fetcher, PACKED_WASM);
}
/* The page's fetch, before watchDownloads() wraps it: the build's snapshot may fail to load
   without failing the start. */
const pageFetch = globalThis.fetch;

/* localStorage key holding what the snapshot saved last was made for. Only when it is this
   page's SNAPSHOT_ID does the start look in Cache Storage: its first access alone delayed
   Pyodide's start by 40-80 ms of every cold boot (docs/performance.md, "Boot trims"). */
const SAVED_KEY = "pyodide-snapshot";
/* A snapshot fits only the standard library zip it was made with, and the build's holds the
   page's modules too: after a deploy that changed either, a snapshot saved before must not be
   restored. The build's snapshot is named after a digest of its content, and a site without one
   changes nothing but Pyodide's version between such snapshots. */
export const SNAPSHOT_ID = BOOT_SNAPSHOT ?? version;

function snapshotSaved() {
  try {
    return localStorage.getItem(SAVED_KEY) === SNAPSHOT_ID;
  } catch {
    return false;
  }
}

function rememberSnapshot(saved) {
  try {
    if (saved) localStorage.setItem(SAVED_KEY, SNAPSHOT_ID);
    else localStorage.removeItem(SAVED_KEY);
  } catch {
    // no localStorage: every start boots normally
  }
}

async function openCache() {
  try {
    return await caches.open(CACHE_NAME);
  } catch {
    return null; // no Cache Storage (not a secure context, private mode...): plain boot
  }
}

/* The snapshot kept in Cache Storage: {bytes, size}, `bytes` a promise of its 31 MB (read
   while Pyodide instantiates the wasm: that read took 0.4-0.8 s of a phone's return visit),
   `size` its length as stored with it (null for an entry stored without one: Pyodide then
   waits for the bytes to size its memory); null when there is none. */
async function cachedSnapshot(cache) {
  try {
    const hit = await cache.match(KEY);
    if (!hit) return null;
    const size = Number(hit.headers.get("Content-Length")) || null;
    const bytes = hit.arrayBuffer();
    bytes.catch(() => {}); // reported by loadPyodide
    return { bytes, size };
  } catch {
    return null;
  }
}

/* Keeps a memory snapshot for the next visits, in a worker (pyodide-snapshot-worker.mjs: the
   page's thread only creates it), once the page is ready and controlled. task: {make: true}, a
   second interpreter's snapshot; {keep: URL}, the build's snapshot, fetched again (from the
   service worker's cache by then) and unpacked there. */
function keepSnapshotInBackground(task) {
  whenReadyAndControlled(async () => {
    if (!(await openCache())) return; // no Cache Storage to keep it in
    const worker = new Worker(new URL("./pyodide-snapshot-worker.mjs", import.meta.url), {
      type: "module",
    });
    const finish = (outcome) => {
      if (outcome === "saved") rememberSnapshot(true);
      mark("snapshot", outcome);
      worker.terminate();
    };
    worker.onmessage = (event) => finish(String(event.data));
    worker.onerror = (event) => {
      event.preventDefault(); // e.g. the worker file could not load: no snapshot, no error
      finish("failed");
    };
    worker.postMessage(task);
  });
}

/* Pyodide's output functions are fixed when it starts, but the early start (below) happens before
   PyScript hands over its own: route the output through these, which PyScript's loadPyodide()
   call repoints (until then: the console, as Pyodide's defaults). */
const sinks = { stdout: (line) => console.log(line), stderr: (line) => console.error(line) };
const output = { stdout: (line) => sinks.stdout(line), stderr: (line) => sinks.stderr(line) };

/* The build's snapshot is ~3.5 MB more to download and saves starting CPython (~8 s of a
   mid-range phone's CPU, docs/performance.md "Build-time snapshot"): on a slow link (below
   ~3.5 Mbit/s) the download costs more than it saves. navigator.connection (Chromium only) says
   so only roughly: its downlink is a guess of 1.5 Mbit/s before anything was measured, so only
   its coarse effectiveType (2g, 3g: round trips over ~270 ms) and the player's data saver keep
   the snapshot back. Elsewhere the snapshot is used. */
const SLOW_LINKS = ["slow-2g", "2g", "3g"];

function linkTooSlowForSnapshot() {
  const link = typeof navigator === "object" ? navigator.connection : undefined;
  return Boolean(link && (link.saveData || SLOW_LINKS.includes(link.effectiveType)));
}

/* This start downloads the packed wasm: a page that no service worker answers
   (withPackedWasm, applied by the page's download watcher). */
function downloadsPackedWasm() {
  const worker = typeof navigator === "object" ? navigator.serviceWorker : undefined;
  return Boolean(PACKED_WASM && typeof document === "object" && !worker?.controller);
}

async function start(config) {
  const cache = snapshotSaved() ? await openCache() : null;
  const kept = cache && (await cachedSnapshot(cache));
  if (kept) {
    bootMark("pyodide-boot:restore");
    try {
      // with its size known, Pyodide instantiates and links the wasm while the bytes are read
      const snapshot = kept.size
        ? { _loadSnapshot: kept.bytes, _snapshotSize: kept.size }
        : { _loadSnapshot: await kept.bytes };
      const py = await pyodide.loadPyodide({ ...config, ...snapshot });
      // Pyodide's start-up imports `random`, so the snapshot holds its seed: reseed, or every
      // visit would deal the same "random" deals. (str hashes stay as in the snapshot, which
      // the game does not depend on.)
      py.runPython("import random; random.seed()");
      mark("boot", "snapshot");
      return py;
    } catch (err) {
      console.info("Pyodide memory snapshot not usable; deleted, starting normally.", err);
      rememberSnapshot(false);
      await cache.delete(KEY).catch(() => {});
    }
  }
  let counted = false; // the loading screen counts this start's downloads
  if (BOOT_SNAPSHOT && typeof document === "object" && !linkTooSlowForSnapshot()) {
    try {
      // With its size known, Pyodide compiles, instantiates and links the wasm without the
      // snapshot; the snapshot's download starts once most of the wasm is in, so that the
      // wasm ends first and that work is done while the snapshot still downloads (unpacked as
      // it arrives). Without it, both start at once.
      // the loading screen counts both downloads against their sizes
      expectBytes((downloadsPackedWasm() ? PACKED_WASM_BYTES : 0) + (BOOT_SNAPSHOT_BYTES ?? 0));
      counted = true;
      const count = BOOT_SNAPSHOT_SIZE && watching && "serviceWorker" in navigator;
      const after = count ? armWasmArrival() : Promise.resolve();
      after.then(() => bootMark("pyodide-boot:snapshot-fetch"));
      const snapshot = after
        .then(() => pageFetch(new URL(BOOT_SNAPSHOT, SITE_URL)))
        .then((response) => {
          if (!response.ok) throw new Error(`HTTP ${response.status}`);
          return unpackOffThread(countBytes(response)); // a .bin.zst (or .bin.gz)
        })
        .then((bytes) => {
          bootMark("pyodide-boot:snapshot-unpacked");
          return bytes;
        });
      snapshot.catch(() => {}); // reported by loadPyodide
      const size = BOOT_SNAPSHOT_SIZE ? { _snapshotSize: BOOT_SNAPSHOT_SIZE } : {};
      const py = await pyodide.loadPyodide({
        ...config,
        stdLibURL: STDLIB_LATER_URL,
        _loadSnapshot: snapshot,
        ...size,
      });
      py.runPython("import random; random.seed()"); // as above
      installStdlibLater(py); // once the page is ready (STDLIB_LATER_URL)
      mark("boot", "build-snapshot");
      // kept as it is unpacked, so that a later visit restores it at once, with no download
      // through the service worker and no unpacking of 31 MB
      keepSnapshotInBackground({ keep: new URL(BOOT_SNAPSHOT, SITE_URL).href });
      return py;
    } catch (err) {
      console.info("The build's Pyodide memory snapshot is not usable; starting normally.", err);
    }
  }
  if (!counted) expectBytes(downloadsPackedWasm() ? PACKED_WASM_BYTES : 0);
  const py = await pyodide.loadPyodide(config);
  mark("boot", "fresh");
  if (typeof caches === "object" && typeof Worker === "function" && typeof document === "object") {
    keepSnapshotInBackground({ make: true });
  }
  return py;
}

/* Once the page is ready (mark "pyodide-boot:stdlib-fetch"), fetches the standard library zip
   and writes it where Pyodide wrote the empty one (STUB_ZIP, web/boot/downloads.mjs); then
   marks "pyodide-boot:stdlib". A zip that cannot be fetched is no error: the page has every
   module it imports. */
async function installStdlibLater(py) {
  await appReady();
  bootMark("pyodide-boot:stdlib-fetch");
  try {
    const answer = await pageFetch(STDLIB_URL);
    if (!answer.ok) throw new Error(`HTTP ${answer.status} ${answer.statusText}`);
    const data = new Uint8Array(await answer.arrayBuffer());
    const name = py.FS.readdir("/lib").find((entry) => /^python\d+\.zip$/.test(entry));
    if (!name) throw new Error("Pyodide wrote no standard library zip to replace");
    py.FS.writeFile(`/lib/${name}`, data, { canOwn: true });
    bootMark("pyodide-boot:stdlib");
  } catch (err) {
    console.info("The standard library zip could not be fetched after the start.", err);
  }
}

/* No package to load, no lock file of the caller's: the package index needs no fetch. */
function packageIndex(options) {
  const own = ["packages", "lockFileURL", "lockFileContents"].some((key) => key in options);
  return LOCKFILE_INFO && !own ? { lockFileContents: { info: LOCKFILE_INFO, packages: {} } } : {};
}

async function boot(options, early = false) {
  if (early) await tableDrawn();
  bootMark("pyodide-boot:start");
  const onPage = typeof document === "object";
  const watch = onPage ? watchDownloads(PACKED_WASM, STDLIB_LATER_URL) : null;
  try {
    const files = fetchPageFiles();
    files.catch(() => {}); // awaited below, once Pyodide has started
    // ...but a file that cannot be fetched or unpacked ends the start at once
    const filesFailed = files.then(() => new Promise(() => {}));
    filesFailed.catch(() => {});
    const started = start({
      ...packageIndex(options),
      ...options,
      indexURL: INDEX_URL,
      stdLibURL: STDLIB_URL,
    });
    const race = (promise) => (watch ? Promise.race([promise, watch.failed]) : promise);
    const py = await race(Promise.race([started, filesFailed]));
    bootMark("pyodide-boot:started");
    await nextTask(); // Pyodide's set-up ended a task: what follows, up to our script, is another
    writeFiles(py, await race(files));
    bootMark("pyodide-boot:ready");
    return py;
  } catch (err) {
    if (onPage) reportFailure(err);
    throw err;
  } finally {
    watch?.stop();
    stopCountingBytes();
  }
}

/* The early start. PyScript only calls loadPyodide() ~0.4 s after navigation (core.js -> core
   chunk -> pyscript.json and the plugin chunks -> this module), so index.html also loads this
   module from its <head> (<script type="module" async>): importing it on the page starts the
   interpreter at once, and PyScript's loadPyodide() call then takes over that interpreter,
   already half started (docs/performance.md, "Where the start-up goes"). In a worker, or
   without WebAssembly (PyScript reports that itself), nothing starts early. */
let early = null;
if (typeof document === "object" && typeof WebAssembly === "object") {
  early = boot(output, true);
  // A failure is shown on the loading screen at once (boot() reports it) and also reaches
  // whoever takes the interpreter.
  early.catch(() => {});
}

/* What PyScript passes (polyscript's pyodide engine): indexURL (ignored: ours is this module's
   vendored Pyodide), stdout and stderr (line callbacks, applied through `sinks`). Only with
   `packages` in the config would it pass more (packages, lockFileContents), which only apply
   at start: such a call gets an interpreter of its own. */
const LATE_OPTIONS = new Set(["indexURL", "stdout", "stderr"]);

export async function loadPyodide(options = {}) {
  const fits = Object.keys(options).every((key) => LATE_OPTIONS.has(key));
  if (early && fits) {
    const py = early;
    early = null; // one taker: a second loadPyodide() gets a new interpreter, as Pyodide's does
    if (options.stdout) sinks.stdout = options.stdout;
    if (options.stderr) sinks.stderr = options.stderr;
    return py;
  }
  return boot(options);
}
