// Dungeon Guilds' static site: Pyodide started from a memory snapshot on a second visit
// (issue 31); written by `make site` into the site's Pyodide folder (dungeon_guilds/app/site.py
// fills in KEY and IMPORTS), and named as JupyterLite's `pyodideUrl`, so the Pyodide kernel's
// worker loads this script instead of `pyodide.js` and calls the `loadPyodide` it defines.
//
// What a start costs without it: Pyodide's interpreter boots, every wheel of the lock is
// unpacked into its file system, and IPython (the kernel's shell) is imported — on every visit.
// With it:
//  * first visit: `loadPyodide` as the kernel asked (every package preloaded), then IMPORTS are
//    imported and Pyodide's memory is saved (`makeMemorySnapshot`, Pyodide's experimental
//    snapshot); once the page's dashboard is on screen (at most 15 s later) it is stored with the
//    files the packages put in site-packages, in the browser's Cache Storage under KEY (a hash of the lock, the wheels and IMPORTS: a
//    rebuilt site with other wheels makes a new one; older ones are deleted). The kernel carries on with this same interpreter.
//  * later visits: the interpreter is restored from that memory (nothing booted, unpacked or
//    imported again), the files are written back, and the kernel carries on as before.
// IMPORTS are the kernel's own start (piplite; pyodide_kernel, which builds the IPython shell
// when imported) and then the dashboard with what it imports (ipywidgets and plotly, which look
// for the shell when imported, and find it as they do in a kernel). The kernel then runs its
// usual start: those modules are imported already, so it only sets its options and wires the
// shell to the page (JupyterLite's worker code does that after `loadPyodide`, unchanged).
// A snapshot that cannot be read or restored (another Pyodide build, a damaged entry) is
// deleted and Pyodide starts as without one; a browser without Cache Storage starts as before.
(() => {
const KEY = "__KEY__";
const IMPORTS = "__IMPORTS__";
// the modules the dashboard's first view imports when it is built (site.py lists them at build
// time by building one): imported into the snapshot too; one this Python lacks is passed over
const FIRST_VIEW = "__FIRST_VIEW__";
// A module that builds a widget when imported (a shared Layout) is left out: its widget would be
// in the memory but never announced to a later page. Widget.open is made to refuse while the
// list is imported, so such a module fails to import (and is imported by the kernel later).
const FIRST_VIEW_IMPORTS = `import gc, importlib, ${IMPORTS}
from ipywidgets.widgets.widget import Widget

class BuildsAWidget(Exception):
    pass

def refuse(self, *args, **kwargs):
    raise BuildsAWidget(type(self).__name__)

opened, Widget.open = Widget.open, refuse
try:
    for name in dg_first_view:
        try:
            importlib.import_module(name)
        except (ImportError, BuildsAWidget):  # imported later by the kernel, as without a snapshot
            pass
finally:
    Widget.open = opened
del dg_first_view, Widget, BuildsAWidget, refuse, opened
gc.collect()  # no open file kept in the memory`;
const CACHE = "dg-pyodide-snapshot";
const MAGIC = 0x44475331; // "DGS1"
const STORE_AFTER_MS = 15000; // a test may set self.DG_SNAPSHOT_STORE_AFTER_MS first

const folder = (options) => options.indexURL || new URL("./", self.location.href).href;
const entryUrl = (options) => folder(options) + "snapshot-" + KEY + ".bin";

function sitePackages(pyodide) {
  return pyodide.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
}

// every directory and file under `root`, in walking order (a directory before what it holds)
function collect(FS, root) {
  const found = [];
  const walk = (path) => {
    for (const name of FS.readdir(path)) {
      if (name === "." || name === "..") continue;
      const child = path + "/" + name;
      if (FS.isDir(FS.stat(child).mode)) {
        found.push([child, null]);
        walk(child);
      } else {
        found.push([child, FS.readFile(child)]);
      }
    }
  };
  walk(root);
  return found;
}

// one entry: [magic, header length] [header: JSON, padded] [memory] [each file's bytes, in order]
function pack(memory, root, files, packages) {
  const json = JSON.stringify({
    memory: memory.length, root, packages,
    files: files.map(([path, data]) => [path, data === null ? -1 : data.length]),
  });
  const header = new TextEncoder().encode(json);
  // the memory starts on a 16-byte boundary (Pyodide reads it as 32-bit words): pad with spaces
  const padded = new Uint8Array(Math.ceil(header.length / 16) * 16 + 8).fill(0x20);
  padded.set(header);
  const head = new Uint32Array([MAGIC, padded.length]);
  return new Blob([head, padded, memory, ...files.filter(([, d]) => d !== null).map(([, d]) => d)]);
}

function unpack(buffer) {
  const head = new Uint32Array(buffer, 0, 2);
  if (head[0] !== MAGIC) throw new Error("not a Dungeon Guilds snapshot");
  let at = 8 + head[1];
  const header = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, 8, head[1])));
  const memory = new Uint8Array(buffer, at, header.memory);
  at += header.memory;
  const files = header.files.map(([path, size]) => {
    if (size < 0) return [path, null];
    const data = new Uint8Array(buffer, at, size);
    at += size;
    return [path, data];
  });
  if (at !== buffer.byteLength) throw new Error("a snapshot of the wrong length");
  return { memory, files, root: header.root, packages: header.packages };
}

async function openCache() {
  try {
    return self.caches ? await self.caches.open(CACHE) : null;
  } catch (error) { // no Cache Storage here (an opaque origin, a private window's policy)
    console.info("Dungeon Guilds: no Cache Storage, Pyodide starts without a snapshot:", error);
    return null;
  }
}

async function restore(realLoad, options, saved) {
  const { memory, files, root, packages } = unpack(await saved.arrayBuffer());
  const current = {};
  const pyodide = await realLoad({ ...options, packages: [], _loadSnapshot: memory,
                                   _snapshotDeserializer: deserializer(current) });
  current.pyodide = pyodide;
  pyodide.FS.mkdirTree(root);
  for (const [path, data] of files) {
    if (data === null) pyodide.FS.mkdirTree(path);
    else pyodide.FS.writeFile(path, data, { canOwn: true });
  }
  Object.assign(pyodide.loadedPackages, packages); // what the kernel may ask for is there
  // the memory holds the first visit's random state: a new one from the system, as at a start
  pyodide.runPython("import importlib, random; importlib.invalidate_caches(); random.seed()");
  return pyodide;
}

// Python keeps a few of Pyodide's own JavaScript objects: its API object and some of its
// functions (micropip's and the kernel's `import pyodide_js`). A snapshot names each by where it
// is found ("public" API or internal "API", and the property); a restored interpreter gets
// stand-ins that forward to the new interpreter's same objects (set by `restore` before any
// Python runs). Anything else found is refused: no snapshot is made, the visit goes on as before.
function serializer(pyodide) {
  const holders = { public: pyodide, API: pyodide._api };
  return (value) => {
    if (value === pyodide || value === pyodide._api.public_api) return { dg: ["public", null] };
    for (const [holder, object] of Object.entries(holders)) {
      for (const key of Object.getOwnPropertyNames(object)) {
        let found;
        try { found = object[key]; } catch { continue; }
        if (found === value) return { dg: [holder, key, typeof value === "function"] };
      }
    }
    throw new Error("Python holds a JavaScript object the snapshot cannot name: " + String(value).slice(0, 80));
  };
}

function deserializer(current) {
  const holder = (name) => (name === "public" ? current.pyodide : current.pyodide._api);
  return ({ dg: [name, key, isFunction] }) => {
    if (key === null) { // the API object itself
      return new Proxy({}, {
        get: (_, property) => current.pyodide[property],
        has: (_, property) => property in current.pyodide,
        ownKeys: () => Reflect.ownKeys(current.pyodide),
        getOwnPropertyDescriptor: (_, property) => {
          const d = Reflect.getOwnPropertyDescriptor(current.pyodide, property);
          return d && { ...d, configurable: true };
        },
      });
    }
    if (isFunction) return function (...args) { return holder(name)[key].apply(this, args); };
    return new Proxy({}, { get: (_, property) => holder(name)[key][property] });
  };
}

async function make(realLoad, options, cache, url) {
  const pyodide = await realLoad({ ...options, _makeSnapshot: true });
  if (!cache) return pyodide;
  try {
    pyodide.globals.set("dg_first_view", pyodide.toPy(FIRST_VIEW));
    pyodide.runPython(FIRST_VIEW_IMPORTS);
  } catch (error) { // the interpreter is the kernel's: it goes on, without a snapshot this visit
    console.info("Dungeon Guilds: no Pyodide snapshot made:", error);
    return pyodide;
  }
  // the record of loaded packages is one of Pyodide's objects a snapshot compares with an empty
  // one: it is emptied while the memory is saved (it is saved beside it, with the files)
  const packages = { ...pyodide.loadedPackages };
  for (const name of Object.keys(packages)) delete pyodide.loadedPackages[name];
  let memory;
  try {
    memory = pyodide.makeMemorySnapshot({ serializer: serializer(pyodide) });
  } catch (error) {
    console.info("Dungeon Guilds: no Pyodide snapshot made:", error);
    return pyodide;
  } finally {
    Object.assign(pyodide.loadedPackages, packages);
  }
  const root = sitePackages(pyodide);
  storeWhenShown(async (why) => {
    const entry = pack(memory, root, collect(pyodide.FS, root), packages);
    for (const old of await cache.keys()) await cache.delete(old);
    await cache.put(url, new Response(entry, { headers: { "Content-Type": "application/octet-stream" } }));
    console.info("Dungeon Guilds: the Pyodide snapshot is stored (" + why + ")");
  });
  return pyodide;
}

// The snapshot is stored once the page says its dashboard is on screen (READY on the site's
// broadcast channel, posted by the page's script: dungeon_guilds/app/keep_worker.js), not while
// the kernel and the page start on the same CPUs; or STORE_AFTER_MS after it was made, whichever
// comes first. Issue 40: only the timer (15 s) lost the snapshot of every first visit whose tab
// was closed sooner — its second visit then started Pyodide afresh (6.5–7.5 s, not ~3 s).
const CHANNEL = "dungeon-guilds-site";
const READY = "dg-ready";

function storeWhenShown(store) {
  let done = false;
  const channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(CHANNEL) : null;
  const once = (why) => {
    if (done) return;
    done = true;
    if (channel) channel.close();
    store(why).catch((error) => console.info("Dungeon Guilds: the Pyodide snapshot was not stored:", error));
  };
  if (channel) channel.onmessage = (event) => event.data === READY && once("the dashboard is on screen");
  const after = self.DG_SNAPSHOT_STORE_AFTER_MS ?? STORE_AFTER_MS;
  setTimeout(() => once(after + " ms after it was made"), after);
}

self.loadPyodide = async function loadPyodideFromSnapshot(options = {}) {
  const ours = self.loadPyodide;
  importScripts(folder(options) + "pyodide.js"); // Pyodide's own loader: it sets self.loadPyodide
  const realLoad = self.loadPyodide;
  self.loadPyodide = ours;
  const cache = await openCache();
  const url = entryUrl(options);
  const saved = cache && (await cache.match(url));
  if (saved) {
    try {
      const pyodide = await restore(realLoad, options, saved);
      console.info("Dungeon Guilds: Pyodide restored from its snapshot");
      return pyodide;
    } catch (error) {
      console.info("Dungeon Guilds: the Pyodide snapshot could not be used, starting afresh:", error);
      await cache.delete(url);
    }
  }
  return make(realLoad, options, cache, url);
};
})();
