// The site's snapshot loader (dungeon_guilds/app/site_tools/pyodide-snapshot.js, as `make site` wrote it into
// _site/static/pyodide/dg-pyodide.js) run by Node in a stand-in for the kernel's worker
// (`self`, `importScripts`, an in-memory Cache Storage), with the site's own Pyodide and wheels:
//
//   node tests/site/snapshot_visits.mjs <the site's static/pyodide folder>
//
// Three "visits", each a fresh interpreter from the loader, as the kernel asks for it (the
// site's preloaded packages); on each, what the kernel then does (import piplite and
// pyodide_kernel) and a game played by the engine. Visit 1 makes and stores the snapshot,
// visit 2 restores it, visit 3 finds a damaged entry, starts afresh and stores a new one.
// Prints one JSON line per visit: {visit, restored, refused, stored, stored_mb, seconds, result}.
import fs from "node:fs";
import path from "node:path";
import vm from "node:vm";
import { pathToFileURL } from "node:url";

const folder = path.resolve(process.argv[2]) + "/";
const settings = JSON.parse(fs.readFileSync(path.join(folder, "../../jupyter-lite.json"), "utf-8"));
const kernel = settings["jupyter-config-data"].litePluginSettings["@jupyterlite/pyodide-kernel-extension:kernel"];
const packages = kernel.loadPyodideOptions.packages;

const store = new Map(); // url -> Response body bytes
globalThis.self = globalThis;
self.DG_SNAPSHOT_STORE_AFTER_MS = 0; // stored at once (15 s later in a browser)
globalThis.caches = {
  async open() {
    return {
      async match(url) { return store.has(url) ? new Response(store.get(url)) : undefined; },
      async put(url, response) { store.set(url, new Uint8Array(await response.arrayBuffer())); },
      async keys() { return [...store.keys()].map((url) => ({ url })); },
      async delete(key) { return store.delete(typeof key === "string" ? key : key.url); },
    };
  },
};
// the worker's importScripts: the loader itself is run as a classic script; Pyodide's own
// `pyodide.js` (which sets self.loadPyodide) is stood in for by its module twin, `pyodide.mjs`
// (Node runs no dynamic import from a classic script)
const { loadPyodide: pyodidesOwn } = await import(pathToFileURL(folder + "pyodide.mjs").href);
globalThis.importScripts = (url) => {
  if (url === folder + "pyodide.js") {
    self.loadPyodide = pyodidesOwn;
    return;
  }
  vm.runInThisContext(fs.readFileSync(url, "utf-8"), { filename: url });
};
const messages = [];
const info = console.info;
console.info = (...args) => { messages.push(args.map(String).join(" ")); };

importScripts(folder + "dg-pyodide.js");
const loadPyodide = self.loadPyodide;

const KERNEL_START = `
import piplite.piplite, pyodide_kernel
from dungeon_guilds.analysis.simulate import simulate
run = simulate(3, ["greedy"] * 4, 4, seed=7, need_pandas=False)
import json, random
json.dumps([repr(run.rows("games")), random.random()])
`;

async function visit(n) {
  messages.length = 0;
  const t = performance.now();
  const pyodide = await loadPyodide({ indexURL: folder, packages, stdout: () => {}, stderr: () => {} });
  const [result, random] = JSON.parse(pyodide.runPython(KERNEL_START));
  await new Promise((resolve) => setTimeout(resolve, 200)); // the entry is stored in the background
  while (store.size === 0) await new Promise((resolve) => setTimeout(resolve, 100));
  return {
    visit: n,
    restored: messages.some((m) => m.includes("restored from its snapshot")),
    refused: messages.some((m) => m.includes("could not be used")),
    stored: store.size,
    stored_mb: +([...store.values()][0].length / 1e6).toFixed(1),
    seconds: +((performance.now() - t) / 1000).toFixed(2),
    result,
    random, // Python's unseeded random: another on each visit, as in a fresh interpreter
  };
}

for (const n of [1, 2, 3]) {
  if (n === 3) { // a damaged entry: the same key, bytes cut short
    const [url, bytes] = [...store.entries()][0];
    store.set(url, bytes.subarray(0, 1000));
  }
  info(JSON.stringify(await visit(n)));
}
process.exit(0);
