/* The start's downloads: the watcher that wraps the page's fetch() and
   WebAssembly.instantiateStreaming() while Pyodide starts (watchDownloads: a failed download
   fails the start at once, with the file; the wasm compiles in three tasks, compileInTasks),
   the wasm fetched as the build's zstd copy where no service worker answers (withPackedWasm),
   the count of the wasm's bytes that lets the build's snapshot start downloading once most of
   the wasm is in (armWasmArrival, watching), the loading screen's byte progress (expectBytes,
   countBytes) and how a failure reaches the loading screen (DownloadFailed, reportFailure).

   Separate from the entry (web/pyodide-boot.mjs) because it is the only code of the start that
   patches globals, and it keeps them patched only between watchDownloads() and its stop(). The
   build's facts it needs (the packed wasm's URL, the standard library's "later" URL) are
   passed in by the entry, which holds them. Imports the unpacking (./unpack.mjs), the site's
   URLs (./urls.mjs) and nextTask (./page.mjs), which the entry imports too. */

import { nextTask } from "./page.mjs";
import { unpackedStreamOffThread } from "./unpack.mjs";
import { SITE_URL, WASM_URL } from "./urls.mjs";

/* An empty zip: its end-of-central-directory record alone. */
const STUB_ZIP = new Uint8Array([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]);

/* A file of the start-up that could not be downloaded or compiled. */
export class DownloadFailed extends Error {
  constructor(url, reason) {
    super(`${url}: ${reason}`);
    this.url = url;
    this.reason = reason;
  }
}

/* Tells the loading screen (web/boot.js) why the start failed: {file, reason}, file null when
   the failure is not a download. */
export function reportFailure(err) {
  const detail =
    err instanceof DownloadFailed
      ? { file: err.url, reason: err.reason }
      : { file: null, reason: String((err && err.message) || err) };
  dispatchEvent(new CustomEvent("solitaire:boot-failed", { detail }));
}

/* Watches the start's downloads of the site's files. Pyodide itself only logs some of these
   failures (a failed pyodide.asm.wasm or python_stdlib.zip: "wasm instantiation failed!",
   "Error occurred while installing the standard library") and then waits forever, so that the
   page would only give up after its 90 s timeout, with no reason. While `watch` runs, the
   page's fetch() and WebAssembly.instantiateStreaming() are wrapped: a site file answered with
   an HTTP error, a download that fails, or a wasm module that does not compile rejects
   `failed` at once with the file and the reason. `stop()` puts the originals back. `packed`:
   the site URL of the wasm's zstd copy (null: none, withPackedWasm); `later`: the URL of the
   standard library that a start from the build's snapshot asks for, answered with STUB_ZIP at
   once (null: none). */
export function watchDownloads(packed, later) {
  let report = null;
  const failed = new Promise((_, reject) => {
    report = reject;
  });
  failed.catch(() => {}); // raced in boot()
  const fail = (url, reason) => report(new DownloadFailed(url, reason));
  const pageFetch = globalThis.fetch;
  // a page no service worker answers (a first visit) downloads the wasm packed
  const controlled = Boolean(navigator.serviceWorker && navigator.serviceWorker.controller);
  const fetcher = controlled ? pageFetch : withPackedWasm(pageFetch, packed);
  const compile = WebAssembly.instantiateStreaming;
  watching = Boolean(compile);
  globalThis.fetch = function (input, init) {
    const url = new URL(input instanceof Request ? input.url : String(input), SITE_URL).href;
    if (url === later) return Promise.resolve(new Response(STUB_ZIP));
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

/* fetch() as `fetcher` does it, except that pyodide.asm.wasm comes as the build's zstd copy
   (PACKED_WASM: 2.9 MB instead of 3.5 MB gzipped, ~0.5 s less at 10 Mbit/s), unpacked in a
   worker as it arrives (unpackedStreamOffThread) into a response that
   WebAssembly.instantiateStreaming compiles as it comes. For a page or worker that no service
   worker answers: the service worker keeps the wasm itself, unpacked (web/sw.js, PACKED), and
   Chromium keeps the wasm's compiled code only next to such an entry. Where the packed file
   cannot be fetched, the wasm itself is. `packed`: the packed wasm's site URL (PACKED_WASM of
   web/pyodide-boot.mjs); without it, `fetcher` itself. */
export function withPackedWasm(fetcher, packed) {
  if (!packed) return fetcher;
  return function (input, init) {
    const url = input instanceof Request ? input.url : String(input);
    if (new URL(url, SITE_URL).href !== WASM_URL) return fetcher.call(this, input, init);
    return fetchPackedWasm(fetcher, packed, input, init);
  };
}

async function fetchPackedWasm(fetcher, packedUrl, input, init) {
  const packed = await fetcher(new URL(packedUrl, SITE_URL).href).catch(() => null);
  if (!packed || !packed.ok || !packed.body) return fetcher(input, init);
  let body = null;
  try {
    body = await unpackedStreamOffThread(countBytes(packed));
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
/* watchDownloads() runs: its instantiateStreaming wrapper counts the wasm. */
export let watching = false;

/* Armed only while the wrapper runs, and only where a service worker will serve later visits:
   Chromium keeps the wasm's compiled code only for a response with a URL, which the counting
   stream's response has not (later visits, restored from Cache Storage, are not counted).
   Resolved also when the compile settles (a body that was not counted) and after 60 s at most,
   so that the snapshot is never left unfetched. */
export function armWasmArrival() {
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

/* The loading screen's byte progress: while armed (expectBytes, by the page's start on a first
   visit), the bodies passed through countBytes() (the packed wasm, the build's snapshot: most
   of a first visit's bytes) are counted as they arrive, and each whole per cent more is told
   to the loading screen (web/boot.js) as the event "solitaire:boot-bytes", detail {received,
   total}. Counted on the page's thread, where those bodies pass anyway on their way to the
   unpacking worker (web/boot/unpack.mjs). Nothing is counted where nothing was armed (a
   worker, a later visit). */
const tally = { received: 0, total: 0, told: -1 };

/* Arms the count for `bytes` more of the start's downloads (the sizes the build wrote). */
export function expectBytes(bytes) {
  if (!(bytes > 0) || typeof dispatchEvent !== "function") return;
  tally.total += bytes;
  tellBytes();
}

/* Ends the count (the start is over, or failed): nothing more is told. */
export function stopCountingBytes() {
  tally.total = 0;
}

function tellBytes() {
  if (!tally.total) return;
  const received = Math.min(tally.received, tally.total);
  const percent = Math.floor((100 * received) / tally.total);
  if (percent === tally.told) return;
  tally.told = percent;
  dispatchEvent(
    new CustomEvent("solitaire:boot-bytes", { detail: { received, total: tally.total } }),
  );
}

/* `response` with its body counted into the progress as it is read (unchanged where the count
   is not armed). */
export function countBytes(response) {
  if (!tally.total || !response.body) return response;
  const counter = new TransformStream({
    transform(chunk, controller) {
      tally.received += chunk.byteLength;
      tellBytes();
      controller.enqueue(chunk);
    },
  });
  return new Response(response.body.pipeThrough(counter), {
    status: response.status,
    statusText: response.statusText,
    headers: response.headers,
  });
}
