// The game's worker: the whole game's Python (the engine, the table, the saved data's decisions,
// the features, the online table's protocol) runs here, off the page. The page
// (web/runtime/page.mjs) sends its first message, {start}: what the page is; Python gets it as
// ``hearts_page.start`` and draws the game with operations ({ops}) the page applies; the page's
// later messages (input, replies) go to Python's listener. Also posted: {progress: step},
// {python: how it started}, {failed: reason}; what Python prints, as the page's console lines.
// {t: "run", id, code} runs Python in this worker for a developer's console or a test
// (window.heartsGame.run on the page) and answers {ran: id, value} or {ran: id, error}.
import { loadPython, mark, storeSnapshot } from "./python.mjs";

let listener = null;
const early = []; // messages that came before Python listened
let snapshot = null; // a first start's snapshot, until the page says it may be stored
let python = null;

async function run({ id, code }) {
  try {
    if (!python) throw new Error("Python has not started");
    const value = await python.py.runPythonAsync(code);
    self.postMessage({ ran: id, value: value === undefined ? null : String(value) });
  } catch (err) {
    self.postMessage({ ran: id, error: String(err && err.message || err) });
  }
}

function fromPage(data) {
  if (data?.t === "run") {
    run(data);
  } else if (data?.t === "store-snapshot") {
    const made = snapshot;
    snapshot = null;
    if (made) storeSnapshot(made);
  } else if (listener) {
    listener(data);
  } else {
    early.push(data);
  }
}

async function begin(start) {
  try {
    python = await loadPython({
      makeSnapshot: true,
      progress: (step) => self.postMessage({ progress: step }),
      // what Python prints goes to the page's console (an unexpected traceback is an error there)
      output: {
        stdout: (text) => self.postMessage({ ops: [["log", "log", text]] }),
        stderr: (text) => self.postMessage({ ops: [["log", "error", text]] }),
      },
    });
    snapshot = python.snapshot;
    python.py.registerJsModule("hearts_page", {
      start,
      post: (message) => self.postMessage(message),
      listen: (fn) => { listener = fn; },
      soon: (fn) => queueMicrotask(() => fn()),
      // the worker's own objects whose getters want the worker's scope as ``this``
      navigator: self.navigator,
      performance: self.performance,
      location: self.location,
    });
    self.postMessage({ python: python.how });
    const controller = python.py.pyimport("hearts_web.controller");
    mark("game imported");
    controller.Controller().start();
    mark("game started");
    for (const data of early.splice(0)) listener?.(data);
  } catch (err) {
    self.postMessage({ failed: String(err && err.message || err) });
  }
}

self.onmessage = (event) => {
  const data = event.data || {};
  if (data.start) begin(data.start);
  else fromPage(data);
};
