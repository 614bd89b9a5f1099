// Dungeon Guilds' static site, offline after the first visit (issue 31); written by `make site`
// (dungeon_guilds/app/site.py fills in VERSION and FILES).
//
// JupyterLite registers `service-worker.js` (this file) for its file system: its own worker,
// renamed `jupyterlite-service-worker.js`, is imported below and keeps doing that (the kernel's
// `/api/drive` and `/api/stdin` requests, the heartbeat). Before it, this worker:
//  * answers every GET of a site file from a cache named after the site's VERSION (a hash of
//    all its files): cache first, nothing revalidated; a file not cached yet is fetched and kept;
//  * once the page's dashboard is on screen (or a minute after the first request), stores every
//    other file of the site in that cache too, a few at a time (only what the cache lacks), so
//    that the whole site is there after the first visit;
//    not during install: JupyterLite's page waits for this worker to control it (its heartbeat,
//    the kernel's file system), and a worker that is still installing or activating holds up
//    every request of the page;
//  * on activate, deletes the caches of other versions (a rebuilt site has a new VERSION, so
//    this file changes and the browser installs it on the next visit);
//  * lets JupyterLite's worker answer every request that is not for a file of the site.
// (in a function of its own: JupyterLite's worker, imported into the same global scope, declares
// top-level constants of its own, such as CACHE)
(() => {
const VERSION = "__VERSION__";
const FILES = __FILES__;
const CACHE = "dungeon-guilds-" + VERSION;
const PREFIX = "dungeon-guilds-";
const SITE = new URL("./", self.location.href).href;
const CACHED = new Set(FILES.map((f) => new URL(f, SITE).href));

async function store() {
  const cache = await caches.open(CACHE);
  const have = new Set((await cache.keys()).map((r) => r.url));
  const missing = [...CACHED].filter((url) => !have.has(url));
  // a few at a time: the page is starting Python meanwhile
  for (let i = 0; i < missing.length; i += 8) {
    await cache.addAll(missing.slice(i, i + 8));
  }
}

let storing = null; // every file stored: one promise for this worker's life, awaited by each request
// the storing waits until the page says its dashboard is on screen ("dg-ready", posted by the
// page's script, site.py) or STORE_AFTER_MS after the first request, whichever comes first: on a
// first visit, Pyodide's start and the storing would otherwise share the same CPUs
const STORE_AFTER_MS = 60000;
let ready = null;
let release = null;

function storeLater() {
  ready = ready || new Promise((resolve) => {
    release = resolve;
    setTimeout(resolve, STORE_AFTER_MS);
  });
  return ready.then(storeAll);
}

function storeAll() {
  storing = storing || store().catch((error) => {
    storing = null; // the network went away meanwhile: the next request tries again
    console.warn("Dungeon Guilds: the site is not all stored for offline use yet:", error);
  });
  return storing;
}

async function dropOthers() {
  const names = await caches.keys();
  await Promise.all(names.filter((n) => n.startsWith(PREFIX) && n !== CACHE).map((n) => caches.delete(n)));
}

async function fromCache(request, key) {
  const cache = await caches.open(CACHE);
  const hit = await cache.match(key);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) await cache.put(key, response.clone());
  return response;
}

self.addEventListener("activate", (event) => event.waitUntil(dropOthers()));
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  url.search = "";
  url.hash = "";
  if (!CACHED.has(url.href)) return; // not a file of the site: JupyterLite's worker decides
  event.stopImmediatePropagation();
  event.respondWith(fromCache(request, url.href));
  event.waitUntil(storeLater()); // keeps this worker alive until the whole site is stored
});
self.addEventListener("message", (event) => {
  if (event.data !== "dg-ready") return;
  const stored = storeLater();
  release();
  event.waitUntil(stored);
});
})();

importScripts("./jupyterlite-service-worker.js");
