/* Service worker: makes the whole site playable offline after the first visit.
 *
 * tools/build_site.py copies this file to the site root (so that its scope is the whole site)
 * and fills in CACHE_VERSION (a hash of every other file of the site), PRECACHE (every file of
 * the site) and INTEGRITY (each file's size and SHA-256). A new deploy therefore has a new
 * sw.js, which installs a new cache; the old cache is deleted once the new worker activates, so
 * files of two versions are never mixed.
 *
 * Caches are named after the registration scope ("solitaire <scope> <version>"), so that two
 * deployments on one origin (user.github.io/a/ and /b/) never delete each other's cache.
 *
 * What is cached is checked: at install every download must have the size and SHA-256 the
 * build wrote (else the install fails and the previous version stays in charge); every answer
 * from the cache must have the recorded size (a cheap check: a damaged entry is fetched again,
 * checked and stored); on the page's request ({type: "verify"}, the loading screen's "Try
 * again") every entry's SHA-256 is checked and a bad one fetched again.
 *
 * Unbuilt (served straight from web/), PRECACHE is empty and the worker caches nothing.
 */
"use strict";

const CACHE_VERSION = "__CACHE_VERSION__";
const PRECACHE = [/* __PRECACHE__ */];
/* {"./path": [size in bytes, "sha-256 hex"]} for every URL of PRECACHE. */
const INTEGRITY = {/* __INTEGRITY__ */};
/* {"./path": "./path.zst"}: files the site also ships as zstd (tools/build_site.py PACKED_WASM:
   pyodide.asm.wasm, which a first visit downloads packed, web/pyodide-boot.mjs). The worker
   fetches the .zst instead (by then in the HTTP cache, from the page's download), unpacks it and
   keeps the file itself, checked like any other: later visits compile the wasm from that entry,
   next to which Chromium keeps the compiled code (fromCache). */
const PACKED = {/* __PACKED__ */};
/* fzstd's decoder as a classic script (a service worker cannot import an ES module). */
if (Object.keys(PACKED).length) importScripts("./vendor/fzstd/fzstd.js");

const SCOPE = self.registration.scope;
const CACHE_PREFIX = `solitaire ${SCOPE} `;
const CACHE = CACHE_PREFIX + CACHE_VERSION;
/* The caches of the workers before caches were scoped ("solitaire-<16 hex digits>"): nobody's
   in particular any more; a worker that activates removes them. */
const UNSCOPED_CACHE = /^solitaire-[0-9a-f]{16}$/;

/* The PRECACHE key of a URL of this site ("./" + path under the scope), or null. */
function siteKey(url) {
  const u = new URL(url, SCOPE);
  const bare = u.origin + u.pathname;
  return bare.startsWith(SCOPE) ? "./" + bare.slice(SCOPE.length) : null;
}

async function sha256(buffer) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/* Why the bytes of `key` are not the file the build made, or "" when they are. */
async function defect(key, buffer) {
  const want = INTEGRITY[key];
  if (!want) return "";
  if (buffer.byteLength !== want[0]) return `${buffer.byteLength} bytes instead of ${want[0]}`;
  return (await sha256(buffer)) === want[1] ? "" : "SHA-256 differs";
}

/* The response of the server for `key` (a Request `cache` mode), or for a packed file its zstd
   copy's, unpacked. Throws on an HTTP error or a zstd stream that does not decode. */
async function fetchFile(key, mode) {
  const packed = PACKED[key];
  const response = await fetch(new Request(new URL(packed || key, SCOPE), { cache: mode }));
  if (!response.ok) throw new Error(`${packed || key}: HTTP ${response.status}`);
  if (!packed) return response;
  const bytes = self.fzstd.decompress(new Uint8Array(await response.arrayBuffer()));
  const type = key.endsWith(".wasm") ? "application/wasm" : "application/octet-stream";
  const headers = { "Content-Type": type, "Content-Length": String(bytes.byteLength) };
  return new Response(bytes, { headers });
}

/* Downloads `key` past every cache, checks it and stores it. Throws when it cannot. */
async function download(cache, key) {
  const response = await fetchFile(key, "reload");
  const body = await response.clone().arrayBuffer();
  const bad = await defect(key, body);
  if (bad) throw new Error(`${key}: downloaded file is damaged (${bad})`);
  await cache.put(new URL(key, SCOPE).href, response.clone());
  return response;
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      // "no-cache": revalidate with the server (a 304 costs nothing) so that a file still in
      // the HTTP cache from the previous deploy never lands in this version's cache.
      Promise.all(
        PRECACHE.map(async (key) => {
          const response = await fetchFile(key, "no-cache");
          const bad = await defect(key, await response.clone().arrayBuffer());
          // e.g. the server already holds the next deploy: this worker is then out of date
          if (bad) throw new Error(`${key} is not the file of this version (${bad})`);
          await cache.put(new URL(key, SCOPE).href, response);
        }),
      ),
    ),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) =>
        Promise.all(
          names
            .filter(
              (name) =>
                (name.startsWith(CACHE_PREFIX) && name !== CACHE) || UNSCOPED_CACHE.test(name),
            )
            .map((name) => caches.delete(name)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

/* Checks every cached file's SHA-256 and downloads again those that are damaged or missing.
   Returns {checked, repaired: [keys], failed: ["key: reason"]}. */
async function verifyAll() {
  const cache = await caches.open(CACHE);
  const report = { checked: 0, repaired: [], failed: [] };
  for (const key of PRECACHE) {
    const hit = await cache.match(new URL(key, SCOPE).href);
    report.checked += 1;
    if (hit && !(await defect(key, await hit.arrayBuffer()))) continue;
    try {
      await download(cache, key);
      report.repaired.push(key);
    } catch (err) {
      report.failed.push(String(err.message || err));
    }
  }
  return report;
}

self.addEventListener("message", (event) => {
  const type = event.data && event.data.type;
  // The page asks a waiting (newer) worker to take over once the player chose "Update" (it
  // saved the game first and reloads on controllerchange). Nothing else switches versions
  // under a running page.
  if (type === "skip-waiting") self.skipWaiting();
  if (type === "verify") {
    const reply = (answer) => event.ports[0] && event.ports[0].postMessage(answer);
    event.waitUntil(verifyAll().then(reply, (err) => reply({ error: String(err) })));
  }
});

/* The cached answer for `key` when its size is the recorded one (a Blob's size is known
   without reading it); otherwise the file is fetched again, checked and stored. null: not
   cached and not repairable (the caller asks the network). */
async function fromCache(cache, key) {
  const hit = await cache.match(new URL(key, SCOPE).href);
  const want = INTEGRITY[key];
  if (!want) return hit || null;
  if (hit) {
    // The size is read from a clone and the cached response itself is answered: Chromium then
    // keeps the compiled code of pyodide.asm.wasm next to it in Cache Storage and reuses it on
    // the next visit; a response made here (new Response(...)) gets no such code cache, and
    // the wasm is compiled again on every visit.
    const { size } = await hit.clone().blob();
    if (size === want[0]) return hit;
    console.warn(`cached ${key}: ${size} bytes instead of ${want[0]}; fetched again`);
  }
  try {
    return await download(cache, key);
  } catch (err) {
    console.warn(`cannot repair ${key}:`, err);
    return null;
  }
}

async function respond(request) {
  let key = siteKey(request.url);
  // a navigation to any address of the site (a query string, a hash) gets the page
  if (key !== null && request.mode === "navigate" && !(key in INTEGRITY)) key = "./";
  const found = key !== null && (await fromCache(await caches.open(CACHE), key));
  return found || fetch(request);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(respond(request));
});
