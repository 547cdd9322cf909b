// Python in a Web Worker: Pyodide started with the game's trimmed standard library (only the
// modules the game imports, as bytecode: tools/pack_python.py) and an empty package lock (the game
// loads no packages), then the game's Python (app.zst) unpacked into its working folder; extras.zst
// (the features a first visit does not use) and online.zst (the online table) when Python asks:
// globalThis.heartsLoadExtras(name). The archives are zips in one zstd frame (fzstd).
//
// A memory snapshot of the interpreter, kept in Cache Storage, makes the next start a restore
// (about a tenth of a plain start): the first start makes it, once the game's modules that need no
// page are imported, and stores it when told (after the game is on screen). Used by the game's
// worker (web/runtime/game-worker.mjs) and the bots' (web/runtime/bot-worker.mjs).
import { decompress } from "fzstd";
import { readZip } from "./zip.mjs";

/* global HEARTS_BUILD_CONFIG */
const config = JSON.parse(HEARTS_BUILD_CONFIG); // the build's data (JSON): paths, the snapshot's key (tools/build.py)

const SITE = new URL("../", import.meta.url);
const at = (path) => new URL(path, SITE).href;
const INDEX_URL = at(`${config.pyodideDir}/`);
const STDLIB_URL = at(config.stdlib);
const APP_URL = at(config.app);
const LATER = { extras: at(config.extras), online: at(config.online) };
const LOCK = { info: config.lockInfo, packages: {} };
export const HOME = "/home/pyodide"; // Python's working folder: the first entry of sys.path
const SNAPSHOT_URL = at(`python-snapshot/${config.snapshotKey}`);
const PARTS = ["memory", "stdlib", "app"];
const RESTORE_WAIT = 30000; // ms: a restore that has not finished by then is given up

// What the snapshot has imported: every module of the game's first archive that imports without
// the page (a module that needs it imports hearts_page, which a snapshot's start does not have).
const SNAPSHOT_IMPORTS = `
import importlib, os

for package in ("hearts", "hearts_web"):
    for folder, _, files in sorted(os.walk(package)):
        for file in sorted(files):
            stem, dot, suffix = file.rpartition(".")
            if suffix != "py" or stem == "__main__":
                continue
            name = folder.replace("/", ".") + ("" if stem == "__init__" else "." + stem)
            try:
                importlib.import_module(name)
            except ModuleNotFoundError:
                pass
`;

// The start's steps on the worker's timeline, as performance marks ("hearts: restored", ...).
export const mark = (step) => performance.mark(`hearts: ${step}`);

// A zstd frame starts with 28 b5 2f fd; a host that decoded it already sends the zip itself.
export function unzstd(bytes) {
  const frame = bytes[0] === 0x28 && bytes[1] === 0xb5 && bytes[2] === 0x2f && bytes[3] === 0xfd;
  return frame ? decompress(bytes) : bytes;
}

async function fetched(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

const archive = async (url) => unzstd(await fetched(url));

// The zip's members into Python's file system under HOME (the first entry of sys.path).
function unzip(py, zip) {
  py.runPython(`import sys\nif ${JSON.stringify(HOME)} not in sys.path: sys.path.insert(0, ${JSON.stringify(HOME)})`);
  for (const { name, data } of readZip(zip)) {
    const path = `${HOME}/${name}`;
    if (data === null) {
      py.FS.mkdirTree(path);
    } else {
      py.FS.mkdirTree(path.slice(0, path.lastIndexOf("/")));
      py.FS.writeFile(path, data);
    }
  }
  py.runPython("import sys\nsys.path_importer_cache.clear()"); // new files where Python looked before
}

// Pyodide's loadPyodide with the standard library handed over (Pyodide fetches it itself from
// stdLibURL: it gets the decoded archive here), and its wasm as asked for when the start began.
let pyodideModule = null; // Pyodide's module, asked for as the start begins
const pyodide = () => (pyodideModule ||= import(`${INDEX_URL}pyodide.mjs`));
const WASM_URL = `${INDEX_URL}pyodide.asm.wasm`;
let earlyWasm = null; // the wasm's response, asked for as the start begins, until Pyodide takes it

// Pyodide's three files asked for at once (loadPyodide asks for its wasm and imports its module
// factory only once it is called, after the stored snapshot is found or the archives are in).
function askEarly() {
  pyodide().catch(() => {}); // (a failure is met where it is used)
  import(`${INDEX_URL}pyodide.asm.mjs`).catch(() => {}); // the module loadPyodide imports
  earlyWasm = fetch(WASM_URL);
  earlyWasm.catch(() => {});
}

async function start(options, stdlib) {
  const { loadPyodide } = await pyodide();
  const fetchAnything = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    const url = String(input);
    if (url === STDLIB_URL) return stdlib.then((bytes) => new Response(bytes));
    if (url === WASM_URL && earlyWasm) {
      const response = earlyWasm;
      earlyWasm = null; // (a response is read once: a second start fetches again)
      return response;
    }
    return fetchAnything(input, init);
  };
  try {
    return await loadPyodide({ ...options, indexURL: INDEX_URL, stdLibURL: STDLIB_URL, lockFileContents: LOCK });
  } finally {
    globalThis.fetch = fetchAnything;
  }
}

// ----- the snapshot in Cache Storage: each part with its length and its SHA-256 (a spoilt memory
// of the right length can make the restore fail, abort or never end: it is checked first)
const sha256 = async (bytes) => Array.from(
  new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)), (b) => b.toString(16).padStart(2, "0")).join("");
const partURL = (part) => `${SNAPSHOT_URL}/${part}`;

// The stored snapshot's parts as Cache Storage holds them, unread (null: none, or a part missing).
async function snapshotInCache() {
  if (!globalThis.caches || !globalThis.crypto?.subtle) return null;
  try {
    const cache = await caches.open(config.snapshotCache);
    for (const request of await cache.keys()) {
      if (!request.url.startsWith(SNAPSHOT_URL + "/")) cache.delete(request); // another build's
    }
    const found = {};
    for (const part of PARTS) {
      const response = await cache.match(partURL(part));
      if (!response) return null;
      found[part] = response;
    }
    return found;
  } catch (err) {
    return null;
  }
}

class Spoilt extends Error {}

// The parts' bytes, each of its recorded length and SHA-256; a spoilt part rejects (with Spoilt)
// and the snapshot is forgotten.
async function checkedParts(responses) {
  const read = async (part) => {
    const response = responses[part];
    const bytes = new Uint8Array(await response.arrayBuffer());
    if (bytes.length !== Number(response.headers.get("x-length"))
        || (await sha256(bytes)) !== response.headers.get("x-sha256")) {
      console.warn(`Python's stored snapshot is spoilt (its ${part}): starting without it`);
      await forgetSnapshot();
      throw new Spoilt(part);
    }
    return [part, bytes];
  };
  return Object.fromEntries(await Promise.all(PARTS.map(read)));
}

export async function storeSnapshot(snapshot) {
  if (!globalThis.caches || !globalThis.crypto?.subtle) return false;
  try {
    const cache = await caches.open(config.snapshotCache);
    for (const part of ["stdlib", "app", "memory"]) { // the memory last: without it, no part is used
      const bytes = snapshot[part];
      const headers = { "x-length": String(bytes.length), "x-sha256": await sha256(bytes) };
      await cache.put(partURL(part), new Response(bytes, { headers }));
    }
    return true;
  } catch (err) {
    return false; // a full storage: the next visit makes one again
  }
}

export async function forgetSnapshot() {
  try {
    const cache = await caches.open(config.snapshotCache);
    await Promise.all(PARTS.map((part) => cache.delete(partURL(part))));
  } catch (err) {
    // nothing stored, or no storage
  }
}

// Pyodide restored from ``parts`` (a promise of the checked parts): Pyodide's module and wasm load
// while the parts are read and checked, and a spoilt memory is never handed over (Pyodide awaits
// it before it instantiates the wasm).
async function restore(parts, output) {
  const memory = parts.then((found) => found.memory);
  memory.catch(() => {}); // (a spoilt part is met where Pyodide awaits the memory, maybe after it rejects)
  // Pyodide asks for the stdlib at once and reads it only once the memory is in: it never sees
  // these empty bytes (a rejection there would go unhandled inside Pyodide)
  const stdlib = parts.then((found) => found.stdlib, () => new Uint8Array(0));
  let timer;
  try {
    return await Promise.race([
      start({ _loadSnapshot: memory, ...output }, stdlib),
      new Promise((resolve, reject) => { timer = setTimeout(() => reject(new Error("timed out")), RESTORE_WAIT); }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

// Python, ready for the game: {py, how, snapshot}. ``how``: "stored" (restored from an earlier
// start's snapshot), "made" (a plain start that made a snapshot: ``snapshot`` holds it, to store
// when the caller says), "plain". ``makeSnapshot``: whether a start without one makes it.
// ``progress(step)``: "python", "restore" or "start", "game"; ``output``: {stdout, stderr}, where
// Python's printed lines go (Pyodide's options).
export async function loadPython({ makeSnapshot = false, progress = () => {}, output = {} } = {}) {
  progress("python");
  askEarly();
  const inCache = await snapshotInCache();
  mark("snapshot found");
  let py = null;
  let how = "plain";
  let made = null;
  let stored = null;
  if (inCache) {
    progress("restore");
    const parts = checkedParts(inCache);
    try {
      py = await restore(parts, output);
      stored = await parts;
      mark("restored");
      py.runPython("import random\nrandom.seed()"); // seeded when the snapshot was made
      how = "stored";
    } catch (err) {
      py = null;
      if (!(err instanceof Spoilt)) { // (a spoilt part was reported and forgotten already)
        console.warn("Python's snapshot did not restore; starting without it:", err);
        await forgetSnapshot();
      }
    }
  }
  // without a snapshot both archives download at once (the page preloads neither: a worker's
  // request for a file the page is still preloading downloads it a second time)
  const stdlibBytes = py ? null : archive(STDLIB_URL);
  stdlibBytes?.catch(() => {}); // (its failure is met below, after the app's)
  const app = how === "stored" ? stored.app : await archive(APP_URL);
  if (!py) {
    progress("start");
    const stdlib = await stdlibBytes;
    py = await start(makeSnapshot ? { _makeSnapshot: true, ...output } : output, Promise.resolve(stdlib));
    unzip(py, app);
    if (makeSnapshot) {
      py.runPython(SNAPSHOT_IMPORTS);
      made = { memory: py.makeMemorySnapshot(), stdlib, app };
      how = "made";
    }
  } else {
    unzip(py, app);
  }
  mark("unzipped");
  progress("game");
  const loading = {};
  globalThis.heartsLoadExtras = (name = "extras") => {
    loading[name] ||= archive(LATER[name]).then(
      (bytes) => unzip(py, bytes),
      (err) => { delete loading[name]; throw err; }); // offline and not cached: the next try fetches again
    return loading[name];
  };
  return { py, how, snapshot: made };
}
