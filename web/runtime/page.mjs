// The page's side of the game: it starts the game's worker (web/runtime/game-worker.mjs: the whole
// game's Python), tells it what the page is (its HTML, address, storage, size, media), applies the
// operations it sends (web/runtime/ops.mjs), forwards the player's input (web/runtime/input.mjs),
// does what only a page can (web/runtime/services.mjs), and fits the toolbar to its row. It makes
// no decision of the game's.
import { makeApplier } from "./ops.mjs";
import { forwardInput } from "./input.mjs";
import { hasLocks, makeServices } from "./services.mjs";

const doc = document;
const root = doc.documentElement;
const PREFIX = "hearts.";
const MEDIA = ["(prefers-reduced-motion: reduce)"];
const CSS_VARIABLES = ["--chart-font"];

function storageItems() {
  try {
    const items = {};
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key && key.startsWith(PREFIX)) items[key] = localStorage.getItem(key);
    }
    return items;
  } catch (err) {
    return null; // storage disabled (privacy mode): the game plays on without saving
  }
}

const size = () => ({ width: innerWidth, height: innerHeight });

function startMessage() {
  const style = getComputedStyle(root);
  return {
    html: root.outerHTML,
    href: location.href,
    storage: storageItems(),
    size: size(),
    media: Object.fromEntries(MEDIA.map((query) => [query, matchMedia(query).matches])),
    css: Object.fromEntries(CSS_VARIABLES.map((name) => [name, style.getPropertyValue(name)])),
    fullscreenEnabled: Boolean(doc.fullscreenEnabled),
    facts: facts(),
  };
}

// What the browser can and is, as the game's decisions need it (a worker cannot ask the page's
// own objects): WebRTC and Web Locks on this page, WebKit (its 7-day limit on a site's data), opened from the
// Home Screen or installed, and a browser that asks the player before it keeps a site's data
// (Gecko's prompt).
function facts() {
  const installed = navigator.standalone === true ||
    ["standalone", "fullscreen", "minimal-ui"].some((mode) => matchMedia(`(display-mode: ${mode})`).matches);
  return {
    webrtc: typeof globalThis.RTCPeerConnection === "function",
    locks: hasLocks(),
    webkit: String(navigator.vendor || "").startsWith("Apple"),
    installed,
    persist_prompts: Boolean(globalThis.CSS?.supports?.("-moz-appearance", "none")),
  };
}

// The toolbar fits its row (web/boot.js's heartsFitToolbar: labelled, icons only, or with the
// least used buttons in the "More" menu): measured in the next animation frame, before it paints,
// when an operation changed the toolbar or the window's size changed.
let fitAsked = false;
function fitToolbar() {
  if (fitAsked) return;
  fitAsked = true;
  requestAnimationFrame(() => {
    fitAsked = false;
    window.heartsFitToolbar?.();
  });
}

function failed(reason) {
  console.error("hearts: the game's worker failed:", reason);
  window.dispatchEvent(new CustomEvent("hearts:failed", { detail: String(reason) }));
}

export function startGame() {
  const worker = new Worker(new URL("./game-worker.mjs", import.meta.url), { type: "module", name: "hearts-game" });
  const post = (message) => worker.postMessage(message);
  let nodes = null;
  const services = makeServices({ doc, post, nodeOf: (vid) => nodes?.(vid) });
  services.storageItems = () => storageItems(); // the game's keys as stored now (null: no storage)
  const apply = makeApplier({
    doc,
    storage: (() => { try { return localStorage; } catch (err) { return null; } })(),
    call: async (number, name, args) => { // number 0: no answer wanted
      try {
        const service = services[name];
        if (!service) throw new Error(`no service ${name}`);
        const value = await service(...args);
        if (number) post({ t: "reply", id: number, value });
      } catch (err) {
        if (number) post({ t: "reply", id: number, error: String(err && err.message || err) });
        else console.warn(`hearts: ${name} failed:`, err);
      }
    },
    measure: (name, ms, detail) => {
      const end = performance.now();
      performance.measure(name, { start: end - ms, end, detail });
    },
    onStorageFailed: (key, error, now, kept) => post({ t: "storage-failed", key, error, now, kept }),
    onStorageProbed: (fits) => post({ t: "storage-probed", fits }),
    touched: (el) => { if (el.closest?.(".topbar")) fitToolbar(); },
  });
  nodes = apply.nodeOf;
  worker.onmessage = (event) => {
    const data = event.data || {};
    if (data.ops) apply(data.ops);
    else if (data.progress) window.dispatchEvent(new CustomEvent("hearts:progress", { detail: data.progress }));
    else if (data.python) window.heartsPythonStart = data.python;
    else if (data.failed) failed(data.failed);
    else if (data.ran) ran(data);
  };
  worker.onerror = (event) => failed(event.message || "the worker could not start");
  post({ start: startMessage() });
  forwardInput(doc, post);
  addEventListener("resize", () => { fitToolbar(); post({ t: "size", size: size() }); });
  // another tab wrote, removed or cleared (key null) the game's storage: the worker's copy follows
  addEventListener("storage", (event) => {
    if (event.key === null) post({ t: "storage", key: null, items: storageItems() || {} });
    else if (event.key.startsWith(PREFIX)) post({ t: "storage", key: event.key, value: event.newValue });
  });
  doc.addEventListener("fullscreenchange", () => post({ t: "fullscreen", on: Boolean(doc.fullscreenElement) }));
  // Python's snapshot, made by a first start, is stored once the game is on screen and the page has
  // a moment with nothing to do (the storing competes with the start for a phone's few cores)
  const idle = globalThis.requestIdleCallback ?? ((callback) => setTimeout(callback, 200));
  window.heartsReady?.then(() => idle(() => post({ t: "store-snapshot" }), { timeout: 2000 }));
  fitToolbar();
  // for a developer's console and the tests: run Python in the game's worker (its value as text)
  const running = new Map();
  let runs = 0;
  const ran = ({ ran: id, value, error }) => {
    const { resolve, reject } = running.get(id) || {};
    running.delete(id);
    if (error !== undefined) reject?.(new Error(error));
    else resolve?.(value);
  };
  const run = (code) => new Promise((resolve, reject) => {
    const id = ++runs;
    running.set(id, { resolve, reject });
    post({ t: "run", id, code });
  });
  window.heartsGame = { worker, post, run };
  return worker;
}

startGame();
