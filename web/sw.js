/* Service worker: makes the whole site playable offline after the first visit.
 *
 * tools/build_site.py copies this file to the site root (so that its scope is the whole site)
 * and fills in CACHE_VERSION (a hash of every other file of the site) and PRECACHE (every file
 * of the site). A new deploy therefore has a new sw.js, which installs a new cache; the old
 * cache is deleted once the new worker activates, so files of two versions are never mixed.
 *
 * Unbuilt (served straight from web/), PRECACHE is empty and the worker caches nothing.
 */
"use strict";

const CACHE_PREFIX = "solitaire-";
const CACHE_VERSION = "__CACHE_VERSION__";
const CACHE = CACHE_PREFIX + CACHE_VERSION;
const PRECACHE = [/* __PRECACHE__ */];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      // "no-cache": revalidate with the server (a 304 costs nothing) so that a file still in
      // the HTTP cache from the previous deploy never lands in this version's cache.
      cache.addAll(PRECACHE.map((url) => new Request(url, { cache: "no-cache" }))),
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
            .filter((name) => name.startsWith(CACHE_PREFIX) && name !== CACHE)
            .map((name) => caches.delete(name)),
        ),
      )
      .then(() => self.clients.claim()),
  );
});

// The page may ask a waiting (newer) worker to take over, e.g. after the player accepts
// "a new version is available: reload". Nothing else switches versions under a running page.
self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "skip-waiting") self.skipWaiting();
});

async function respond(request) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(request, { ignoreSearch: true });
  if (hit) return hit;
  if (request.mode === "navigate") {
    const page = await cache.match("./");
    if (page) return page;
  }
  return fetch(request);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  event.respondWith(respond(request));
});
