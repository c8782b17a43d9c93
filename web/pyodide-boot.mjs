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
   the loading screen's text follows (web/boot.js). */
import * as pyodide from "../vendor/pyodide/pyodide.mjs";

export const version = pyodide.version;
const INDEX_URL = new URL("../vendor/pyodide/", import.meta.url).href;
/* The site's trimmed standard library (tools/stdlib_trim.py), not Pyodide's full zip; also
   used by the solver's worker and the snapshot worker. */
export const STDLIB_URL = `${INDEX_URL}python_stdlib_trimmed.zip`;
/* What a page restoring the build's snapshot gives Pyodide as its standard library: the
   fetch wrapper of watchDownloads() answers it with STUB_ZIP at once. Such a page imports
   nothing from the zip (the snapshot holds every module it imports: e2e/test_stdlib_later.py),
   so the zip is fetched once the page is ready, off the link that the wasm and the snapshot
   need and out of the first visit's bytes until ready, and written into the file system when
   it arrives (installStdlibLater()). Only Python's zip importer reads the file, when a module
   not yet imported is imported; the table of contents it reads it by is in the snapshot. */
const STDLIB_LATER_URL = `${STDLIB_URL}#later`;
/* An empty zip: its end-of-central-directory record alone. */
const STUB_ZIP = new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]);
export const CACHE_NAME = `pyodide-snapshot-${version}`;
export const KEY = `${INDEX_URL}memory-snapshot`;
const SITE_URL = new URL("../", import.meta.url).href;
const FILES_URL = new URL("../pyodide-files.json", import.meta.url).href;
/* Let the page settle (first paint, service worker bookkeeping) before a second interpreter
   competes for the CPU. */
const SNAPSHOT_DELAY_MS = 500;
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
export const WASM_URL = `${INDEX_URL}pyodide.asm.wasm`;
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

/* A performance mark of the start, told to the loading screen too (a PerformanceObserver would
   only hear of it once the start no longer holds the main thread). */
function bootMark(name) {
  performance.mark(name);
  if (typeof document === "object") {
    dispatchEvent(new CustomEvent("pyodide-boot", { detail: name }));
  }
}

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

/* Runs fn once the page is ready and a service worker controls it: the site is then cached for
   offline play and the visitor is likely to come back. Never without a service worker (?nosw,
   or the e2e tests' default context, which blocks them), so nobody else pays for a second
   interpreter. */
function whenReadyAndControlled(fn) {
  const sw = navigator.serviceWorker;
  if (!sw) return;
  const controlled = () =>
    sw.controller ||
    new Promise((resolve) => sw.addEventListener("controllerchange", resolve, { once: true }));
  appReady()
    .then(controlled)
    .then(() => setTimeout(fn, SNAPSHOT_DELAY_MS));
}

/* Resolves once the page's Python shows the game (html[data-app="ready"], app.py). */
function appReady() {
  const root = document.documentElement;
  return new Promise((resolve) => {
    const check = () => {
      if (root.dataset.app !== "ready") return false;
      observer.disconnect();
      resolve();
      return true;
    };
    const observer = new MutationObserver(check);
    if (!check()) observer.observe(root, { attributes: true, attributeFilter: ["data-app"] });
  });
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

/* The page's Python files, listed by the build in pyodide-files.json ({URL: path}, URLs relative
   to the site root, paths to the interpreter's working directory, like PyScript's "files" map),
   fetched while Pyodide starts instead of after it (what PyScript's "files" would do). The
   modules come as their bytecode, compiled by the build for this Pyodide, in one gzipped tar
   archive ({"./py/page.tar.gz": "./"}: an archive URL maps to the folder it is unpacked into),
   unpacked here while Pyodide starts; each pyc lies where its source would (solitaire/x.pyc),
   and Python imports it without compiling (docs/build.md, "Bytecode"). The archive also holds
   PyScript's own package (./pyscript/), which PyScript's set-up writes only in workers
   (tools/build_site.py PYSCRIPT_SETUP_PATCH). A build without bytecode lists the files one by
   one. */
export async function fetchOk(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} ${response.statusText}`);
  return response;
}

/* The zstd decoder (the npm package fzstd, vendored by the build): imported only where a zstd
   stream is unpacked, the build's snapshot (tools/build_site.py, SNAPSHOT_ZSTD_LEVEL). */
export const FZSTD_URL = new URL("../vendor/fzstd/fzstd.mjs", import.meta.url).href;
export const importZstd = () => import(FZSTD_URL);

/* The bytes of a compressed response, unpacked while they arrive: a gzip stream (1f 8b) by
   DecompressionStream, a zstd frame (28 b5 2f fd) by fzstd's streaming Decompress, from
   `zstd()` (a promise of the fzstd module), anything else as it is (a server that already
   decoded its Content-Encoding, or a file that was never packed). Stringified into the
   unpacking worker (UNPACK_WORKER), with unpackedStream(): they refer to nothing else. */
export async function unpackResponse(response, zstd) {
  return new Uint8Array(await new Response(await unpackedStream(response, zstd)).arrayBuffer());
}

/* The body of a compressed response as a stream of its unpacked bytes (unpackResponse()). */
export async function unpackedStream(response, zstd) {
  const reader = response.body.getReader();
  let head = new Uint8Array(0); // at least the four bytes that tell the format
  let done = false;
  while (head.length < 4 && !done) {
    const chunk = await reader.read();
    done = chunk.done;
    if (!done) {
      const joined = new Uint8Array(head.length + chunk.value.length);
      joined.set(head);
      joined.set(chunk.value, head.length);
      head = joined;
    }
  }
  const body = new ReadableStream({
    start(controller) {
      if (head.length) controller.enqueue(head);
      if (done) controller.close();
    },
    async pull(controller) {
      const chunk = await reader.read();
      if (chunk.done) controller.close();
      else controller.enqueue(chunk.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  const [a, b, c, d] = head;
  let stream = body;
  if (a === 0x28 && b === 0xb5 && c === 0x2f && d === 0xfd) {
    const { Decompress } = await zstd();
    let decoder = null;
    stream = body.pipeThrough(
      new TransformStream({
        start(controller) {
          decoder = new Decompress((part) => controller.enqueue(part));
        },
        transform(chunk) {
          decoder.push(chunk);
        },
        flush() {
          decoder.push(new Uint8Array(0), true); // throws on a stream cut short
        },
      }),
    );
  } else if (a === 0x1f && b === 0x8b) {
    stream = body.pipeThrough(new DecompressionStream("gzip"));
  }
  return stream;
}

/* fetch() as `fetcher` does it, except that pyodide.asm.wasm comes as the build's zstd copy
   (PACKED_WASM: 2.9 MB instead of 3.5 MB gzipped, ~0.5 s less at 10 Mbit/s), unpacked in a
   worker as it arrives (unpackedStreamOffThread) into a response that
   WebAssembly.instantiateStreaming compiles as it comes. For a page or worker that no service
   worker answers: the service worker keeps the wasm itself, unpacked (web/sw.js, PACKED), and
   Chromium keeps the wasm's compiled code only next to such an entry. Where the packed file
   cannot be fetched, the wasm itself is. Without PACKED_WASM: `fetcher` itself. */
export function packedWasmFetch(fetcher) {
  if (!PACKED_WASM) return fetcher;
  return function (input, init) {
    const url = input instanceof Request ? input.url : String(input);
    if (new URL(url, SITE_URL).href !== WASM_URL) return fetcher.call(this, input, init);
    return fetchPackedWasm(fetcher, input, init);
  };
}

async function fetchPackedWasm(fetcher, input, init) {
  const packed = await fetcher(new URL(PACKED_WASM, SITE_URL).href).catch(() => null);
  if (!packed || !packed.ok || !packed.body) return fetcher(input, init);
  let body = null;
  try {
    body = await unpackedStreamOffThread(packed);
  } catch {
    return fetcher(input, init); // no decoder (its file failed to load), no unpacking worker
  }
  const response = new Response(body, { headers: { "Content-Type": "application/wasm" } });
  // the wasm's URL: web/boot.js and countWasm() tell the compiled response by it
  Object.defineProperty(response, "url", { value: WASM_URL });
  packedResponses.add(response);
  return response;
}

/* The responses fetchPackedWasm() made: the page's compile of one that fails is retried with
   the wasm itself (watchDownloads). */
const packedResponses = new WeakSet();

/* The bytes of a compressed response, unpacked in a worker where the browser can hand a stream
   to one (a transferable ReadableStream), else as unpackResponse() does on the page. Why: the
   build's snapshot is 31 MB unpacked, and decoding it is work for the thread that reads it: on
   the page's thread it was one task of ~0.46 s on the phone profile when the bytes come fast
   (gzip; 0.11 s on desktop), during which the page answers nothing (docs/performance.md,
   "Build-time snapshot"). The page still fetches the bytes itself (its service worker, its
   network emulation and byte counts in the benchmarks see them as before) and only hands the
   body over; the worker, made from a blob (no file to fetch before it starts), imports the
   zstd decoder itself and sends the bytes back by transfer (no copy). A worker that fails once
   the body is handed over rejects: the start then goes on without the snapshot (start()). */
export function unpackOffThread(response) {
  return offThread(response, false, () => unpackResponse(response, importZstd));
}

/* The body of a compressed response as a stream of its unpacked bytes, as unpackedStream(),
   decoded in such a worker as it arrives (the packed wasm: fzstd's first calls on a page, not yet
   optimised, took up to ~0.1 s per 64 KB even in Node); the worker ends with the stream. */
export function unpackedStreamOffThread(response) {
  return offThread(response, true, () => unpackedStream(response, importZstd));
}

const UNPACK_WORKER = `${unpackResponse}
${unpackedStream}
const zstd = () => import(${JSON.stringify(FZSTD_URL)});
onmessage = async ({ data }) => {
  try {
    if (data.stream) {
      const stream = await unpackedStream(new Response(data.body), zstd);
      postMessage({ stream }, [stream]);
      return;
    }
    const bytes = await unpackResponse(new Response(data.body), zstd);
    postMessage({ bytes }, [bytes.buffer]);
  } catch (err) {
    postMessage({ error: String((err && err.message) || err) });
  }
};`;

function streamsTransfer() {
  if (typeof Worker !== "function" || typeof MessageChannel !== "function") return false;
  const channel = new MessageChannel();
  try {
    const stream = new ReadableStream();
    channel.port1.postMessage(stream, [stream]);
    return true;
  } catch {
    return false;
  } finally {
    channel.port1.close();
    channel.port2.close();
  }
}

/* The worker's answer for `response` (its bytes, or with `stream` a stream of them); `here()`
   where no such worker can run. */
function offThread(response, stream, here) {
  let worker = null;
  let url = null;
  try {
    if (!response.body || !streamsTransfer()) return here();
    url = URL.createObjectURL(new Blob([UNPACK_WORKER], { type: "text/javascript" }));
    // a module worker: import() of the decoder is certain there
    worker = new Worker(url, { type: "module" });
  } catch {
    if (url) URL.revokeObjectURL(url);
    return here(); // e.g. a policy that forbids blob workers
  }
  const done = () => {
    worker.terminate();
    URL.revokeObjectURL(url);
  };
  return new Promise((resolve, reject) => {
    worker.onmessage = ({ data }) => {
      if (data.bytes) {
        done();
        resolve(data.bytes);
      } else if (data.stream) {
        // the worker decodes until the stream is read to its end, fails or is given up
        const reader = data.stream.getReader();
        const relay = new ReadableStream({
          async pull(controller) {
            try {
              const chunk = await reader.read();
              if (chunk.done) {
                done();
                controller.close();
              } else controller.enqueue(chunk.value);
            } catch (err) {
              done();
              controller.error(err);
            }
          },
          cancel(reason) {
            done();
            return reader.cancel(reason);
          },
        });
        resolve(relay);
      } else {
        done();
        reject(new Error(`cannot unpack: ${data.error}`));
      }
    };
    worker.onerror = (event) => {
      event.preventDefault();
      done();
      reject(new Error(`the unpacking worker failed: ${event.message || "no reason given"}`));
    };
    worker.postMessage({ body: response.body, stream }, [response.body]);
  });
}

/* The bytes of a gzip file already in memory, as unpackResponse() unpacks a download. */
export function gunzip(data) {
  return unpackResponse(new Response(data), importZstd);
}

/* When armed (a first visit restoring the build's snapshot), its `resolve` is called once
   SNAPSHOT_AFTER_WASM_BYTES of pyodide.asm.wasm (or all of it) have reached the page: the
   instantiateStreaming wrapper of watchDownloads() passes the wasm's body through a stream that
   counts it. Not the wasm's resource timing entry: its observer would run only after the
   compile's long task, with the link idle meanwhile; nor a clone of the response read on the
   side: the compile then reads a teed body, and the page was ready ~1 s later. */
let wasmArrival = null;
/* The snapshot's download starts once this much of the wasm (9.6 MB unpacked, 3.5 MB on the
   wire) has arrived: the two then share the link, and the wasm still ends well before the
   snapshot (2.8 MB; at 10 Mbit/s ~1 s before), so that its compile's end, instantiation and
   Pyodide's linking (one task of 0.5-0.8 s of a phone's main thread) are done before the
   snapshot's last bytes come. The page's thread hands the snapshot's body over to the worker
   that unpacks it (unpackOffThread), so whatever arrives while that task runs waits for it:
   with both ending together, the worker had the last bytes 0.5-0.8 s after they arrived. */
const SNAPSHOT_AFTER_WASM_BYTES = 6_000_000;
let watching = false; // watchDownloads() runs: its instantiateStreaming wrapper counts the wasm

/* Armed only while the wrapper runs, and only where a service worker will serve later visits:
   Chromium keeps the wasm's compiled code only for a response with a URL, which the counting
   stream's response has not (later visits, restored from Cache Storage, are not counted).
   Resolved also when the compile settles (a body that was not counted) and after 60 s at most,
   so that the snapshot is never left unfetched. */
function armWasmArrival() {
  let resolve = null;
  const promise = new Promise((ok) => {
    resolve = ok;
  });
  wasmArrival = { resolve };
  setTimeout(resolve, 60_000);
  return promise;
}

function countWasm(response) {
  const arrival = wasmArrival;
  if (!arrival || !response?.ok || !response.body || !response.url.endsWith("/pyodide.asm.wasm")) {
    return response;
  }
  wasmArrival = null;
  let received = 0;
  const counter = new TransformStream({
    transform(chunk, controller) {
      received += chunk.length;
      if (received >= SNAPSHOT_AFTER_WASM_BYTES) arrival.resolve();
      controller.enqueue(chunk);
    },
    flush: () => arrival.resolve(),
  });
  const counted = new Response(response.body.pipeThrough(counter), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
  // web/boot.js tells the loading screen's step by the compiled response's URL
  Object.defineProperty(counted, "url", { value: response.url });
  return counted;
}

/* [name, bytes] of each regular file of a ustar archive (as tools/build_site.py tar_gz writes). */
export function untar(bytes) {
  const text = new TextDecoder();
  const field = (at, length) => text.decode(bytes.subarray(at, at + length)).split("\0")[0];
  const files = [];
  for (let at = 0; at + 512 <= bytes.length; ) {
    const name = field(at, 100);
    if (!name) break; // the zero blocks that end the archive
    const size = parseInt(field(at + 124, 12).trim(), 8);
    const type = field(at + 156, 1);
    const prefix = field(at + 345, 155);
    if (Number.isNaN(size) || !["0", ""].includes(type)) {
      throw new Error(`unexpected tar member ${JSON.stringify(name)} (type ${type})`);
    }
    const start = at + 512;
    files.push([prefix ? `${prefix}/${name}` : name, bytes.slice(start, start + size)]);
    at = start + Math.ceil(size / 512) * 512;
  }
  return files;
}

async function fetchPageFile(url, path) {
  const data = new Uint8Array(await (await fetchOk(new URL(url, SITE_URL))).arrayBuffer());
  if (!url.endsWith(".tar.gz")) return [[path, data]];
  const folder = path.endsWith("/") ? path : `${path}/`;
  try {
    return untar(await gunzip(data)).map(([name, bytes]) => [folder + name, bytes]);
  } catch (err) {
    throw new DownloadFailed(new URL(url, SITE_URL).href, `cannot unpack: ${err.message || err}`);
  }
}

async function fetchPageFiles() {
  const map = await (await fetchOk(FILES_URL)).json();
  const parts = await Promise.all(
    Object.entries(map).map(([url, path]) => fetchPageFile(url, path)),
  );
  return parts.flat();
}

export function writeFiles(py, files) {
  const { FS } = py;
  const cwd = FS.cwd();
  for (const [path, data] of files) {
    const file = path.startsWith("/") ? path : `${cwd}/${path.replace(/^\.\//, "")}`;
    FS.mkdirTree(file.slice(0, file.lastIndexOf("/")));
    FS.writeFile(file, data, { canOwn: true });
  }
}

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
  if (BOOT_SNAPSHOT && typeof document === "object" && !linkTooSlowForSnapshot()) {
    try {
      // With its size known, Pyodide compiles, instantiates and links the wasm without the
      // snapshot; the snapshot's download starts once most of the wasm is in, so that the
      // wasm ends first and that work is done while the snapshot still downloads (unpacked as
      // it arrives). Without it, both start at once.
      const count = BOOT_SNAPSHOT_SIZE && watching && "serviceWorker" in navigator;
      const after = count ? armWasmArrival() : Promise.resolve();
      after.then(() => bootMark("pyodide-boot:snapshot-fetch"));
      const snapshot = after
        .then(() => pageFetch(new URL(BOOT_SNAPSHOT, SITE_URL)))
        .then((response) => {
          if (!response.ok) throw new Error(`HTTP ${response.status}`);
          return unpackOffThread(response); // a .bin.zst (or .bin.gz)
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
  const py = await pyodide.loadPyodide(config);
  mark("boot", "fresh");
  if (typeof caches === "object" && typeof Worker === "function" && typeof document === "object") {
    keepSnapshotInBackground({ make: true });
  }
  return py;
}

/* Once the page is ready (mark "pyodide-boot:stdlib-fetch"), fetches the standard library zip
   and writes it where Pyodide wrote STUB_ZIP; then marks "pyodide-boot:stdlib". A zip that
   cannot be fetched is no error: the page has every module it imports. */
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

/* A file of the start-up that could not be downloaded or compiled. */
class DownloadFailed extends Error {
  constructor(url, reason) {
    super(`${url}: ${reason}`);
    this.url = url;
    this.reason = reason;
  }
}

/* Watches the start's downloads of the site's files. Pyodide itself only logs some of these
   failures (a failed pyodide.asm.wasm or python_stdlib.zip: "wasm instantiation failed!",
   "Error occurred while installing the standard library") and then waits forever, so that the
   page would only give up after its 90 s timeout, with no reason. While `watch` runs, the
   page's fetch() and WebAssembly.instantiateStreaming() are wrapped: a site file answered with
   an HTTP error, a download that fails, or a wasm module that does not compile rejects
   `failed` at once with the file and the reason. `stop()` puts the originals back. */
function watchDownloads() {
  let report = null;
  const failed = new Promise((_, reject) => {
    report = reject;
  });
  failed.catch(() => {}); // raced in boot()
  const fail = (url, reason) => report(new DownloadFailed(url, reason));
  const pageFetch = globalThis.fetch;
  // a page no service worker answers (a first visit) downloads the wasm packed
  const controlled = Boolean(navigator.serviceWorker && navigator.serviceWorker.controller);
  const fetcher = controlled ? pageFetch : packedWasmFetch(pageFetch);
  const compile = WebAssembly.instantiateStreaming;
  watching = Boolean(compile);
  globalThis.fetch = function (input, init) {
    const url = new URL(input instanceof Request ? input.url : String(input), SITE_URL).href;
    if (url === STDLIB_LATER_URL) return Promise.resolve(new Response(STUB_ZIP));
    const result = fetcher.call(this, input, init);
    if (url.startsWith(SITE_URL)) {
      result.then(
        (response) => response.ok || fail(url, `HTTP ${response.status} ${response.statusText}`),
        (err) => fail(url, String(err.message || err)),
      );
    }
    return result;
  };
  if (compile) {
    WebAssembly.instantiateStreaming = function (source, imports) {
      const arrival = wasmArrival;
      const answer = Promise.resolve(source);
      const first = compileInTasks(arrival ? answer.then(countWasm) : source, imports);
      // a packed wasm that does not decode or compile (a damaged .zst): the wasm itself, once
      const result = first.catch(async (err) => {
        const response = await answer.catch(() => null);
        if (!packedResponses.has(response)) throw err;
        console.info("The packed wasm is not usable; fetching the wasm itself.", err);
        return compile.call(this, pageFetch(WASM_URL), imports);
      });
      result.then(
        () => arrival?.resolve(),
        () => arrival?.resolve(),
      );
      answer.then(
        (response) => result.catch((err) => fail(response.url, String(err.message || err))),
        () => {}, // the fetch wrapper reports that
      );
      return result;
    };
  }
  function stop() {
    wasmArrival?.resolve(); // never left waiting
    wasmArrival = null;
    watching = false;
    globalThis.fetch = pageFetch;
    if (compile) WebAssembly.instantiateStreaming = compile;
  }
  return { failed, stop };
}

/* WebAssembly.instantiateStreaming() as three tasks instead of one: the streaming compile's end,
   the instantiation, and what Pyodide runs once it has the instance (Emscripten's linker, itself
   split further by the build's PYODIDE_TASK_PATCHES) each end a task, so that the browser can
   paint and answer input between them: in one, they made the start's longest task. The same
   module on the same page, so V8 keeps and reuses its compiled code as before ("Compiled wasm
   kept" in docs/performance.md). */
async function compileInTasks(source, imports) {
  const module = await WebAssembly.compileStreaming(source);
  await nextTask();
  const instance = await WebAssembly.instantiate(module, imports);
  await nextTask();
  return { module, instance };
}

/* A macrotask through a message channel: unlike setTimeout(0), never clamped, nor held back to
   once a second in a background tab. */
function nextTask() {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}

/* Tells the loading screen (web/boot.js) why the start failed: {file, reason}, file null when
   the failure is not a download. */
function reportFailure(err) {
  const detail =
    err instanceof DownloadFailed
      ? { file: err.url, reason: err.reason }
      : { file: null, reason: String((err && err.message) || err) };
  dispatchEvent(new CustomEvent("solitaire:boot-failed", { detail }));
}

/* With a table to show before Python (web/table-preview.js sets html[data-preview] from the
   <head> and writes the table at the end of parsing), the early start waits until the frame
   that draws it is on the screen, at most TABLE_FRAME_MS (a hidden tab draws no frame).
   Otherwise this module, which often arrives first, runs Pyodide's loader and starts the
   downloads before that frame: the table and its card backs were drawn 0.1-0.25 s after they
   were written, while the runtime's downloads already shared the link (docs/performance.md,
   "The table before Python"). */
const TABLE_FRAME_MS = 250;

function tableDrawn() {
  const root = document.documentElement;
  if (!root.dataset.preview) return Promise.resolve();
  return new Promise((resolve) => {
    setTimeout(resolve, TABLE_FRAME_MS);
    // the frame that draws it, then the next one: by then the first is on the screen (the
    // browser's paint timing counts it when it is presented, not when it is drawn)
    const drawn = () => requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
    if (document.readyState !== "loading") drawn();
    else document.addEventListener("readystatechange", drawn, { once: true });
  });
}

async function boot(options, early = false) {
  if (early) await tableDrawn();
  bootMark("pyodide-boot:start");
  const onPage = typeof document === "object";
  const watch = onPage ? watchDownloads() : null;
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
