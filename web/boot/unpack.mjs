/* Unpacking the start's downloads: gzip and zstd streams (unpackResponse, unpackedStream), the
   same in a worker off the page's thread (unpackOffThread, unpackedStreamOffThread), gzip bytes
   already in memory (gunzip) and the page's tar archive (untar).

   Separate from the entry (web/pyodide-boot.mjs) because it is plain decoding, with no state
   and nothing of the build's: the page's start, the snapshot worker and the page files' fetch
   all use it. The unpacking worker's source (UNPACK_WORKER) is the text of unpackResponse()
   and unpackedStream() with the decoder's URL, so those three stay together here. Imports
   nothing. */

/* The zstd decoder (the npm package fzstd, vendored by the build): imported only where a zstd
   stream is unpacked, the build's snapshot (tools/build_site.py, SNAPSHOT_ZSTD_LEVEL). */
export const FZSTD_URL = new URL("../../vendor/fzstd/fzstd.mjs", import.meta.url).href;
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
