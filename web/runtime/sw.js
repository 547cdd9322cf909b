// The service worker of the Hearts game. tools/build.py writes dist/sw.js: this file after a first
// line with the build's VERSION (a hash of every served file), PREFIX (of its cache's name) and
// URLS (the files to precache). Precaches every file the page loads; cache-first so the game works offline after one visit.
// Update policy: a new version installs in the background and WAITS (no automatic skipWaiting),
// so a match in progress never runs on a mix of old and new files. It takes over when every tab
// of the game is closed, or when the page asks for it between matches by posting
// {type: "SKIP_WAITING"} to registration.waiting (then reload on "controllerchange").
/* global VERSION, PREFIX, URLS */
const CACHE = PREFIX + VERSION;
const VENDOR_PATH = new URL("./vendor/", self.location).pathname;
const INDEX_PATH = new URL("./index.html", self.location).pathname;
const GERMAN_PATH = new URL("./de/index.html", self.location).pathname;

// cache: "no-cache" revalidates each file with the server (a 304 when the page has just loaded
// it, no second download), so a no-cache file can never be precached stale; the version-named
// vendor files are immutable, so they may come from the HTTP cache as they are (a first visit
// downloads the runtime once, not twice).
self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      cache.addAll(URLS.map((url) =>
        new Request(url, { cache: url.startsWith("./vendor/") ? "default" : "no-cache" })))
    )
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(
        keys.filter((key) => key.startsWith(PREFIX) && key !== CACHE)
            .map((key) => caches.delete(key))
      ))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "SKIP_WAITING") self.skipWaiting();
  if (event.data && event.data.type === "GET_VERSION" && event.source) {
    event.source.postMessage({ type: "VERSION", version: VERSION });
  }
});

// fetch: cache-first (ignoreSearch, so "/?daily=..." is the cached "./"; "index.html" is "./"
// too, and "de/index.html" the German page "./de/"), network fallback.
// Exception, measured: the immutable vendor files go to fetch() first, which the HTTP cache answers
// without any network (max-age one year, immutable), with this cache as the fallback (offline,
// or HTTP cache evicted). Served from Cache Storage, Chromium recompiles the 9.6 MB wasm at every
// start (no wasm code cache): warm start-up took ~2 s longer (see docs/development.md).
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (url.pathname.startsWith(VENDOR_PATH)) {
    event.respondWith(
      fetch(request).catch(() =>
        caches.open(CACHE).then((cache) => cache.match(request, { ignoreSearch: true }))
          .then((cached) => cached || Response.error()))
    );
    return;
  }
  const key = url.pathname === INDEX_PATH ? "./" : url.pathname === GERMAN_PATH ? "./de/" : request;
  event.respondWith(
    caches.open(CACHE)
      .then((cache) => cache.match(key, { ignoreSearch: true }))
      .then((cached) => cached || fetch(request))
  );
});
