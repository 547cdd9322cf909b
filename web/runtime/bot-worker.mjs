// The bots' interpreter: a module worker with its own Pyodide, started by the game's worker
// (hearts_web/table/bot_worker_browser.py) when Hard plays, so that Hard's search never holds up
// the game. The same Python as the game's (web/runtime/python.mjs), from the stored snapshot when
// there is one. No game rules here: hearts/bots/remote.py decides.
//
// Messages. In:  {id, request}  (request: JSON text of hearts.bots.remote.request), answered one
//                at a time; a search pauses for messages every 50 ms (hearts.bots.remote.Desk)
//                {hurry: id}  the person has passed: the bots' passes end at their short budget
//                {drop: id}  nobody waits for that request any more: skipped unless it has begun
//           Out: {kind: "ready", ms}  once Python is up, or {kind: "failed", reason} if it can't start
//                {kind: "answer", id, answer}  (JSON text of hearts.bots.remote.answer, or {"error"})
//                {kind: "crash", id, reason}  when the Python code raised (a bug: the game decides itself)
import { loadPython } from "./python.mjs";

const started = performance.now();
const booting = loadPython().then(({ py }) => py.pyimport("hearts.bots.remote").Desk());

booting.then(
  () => self.postMessage({ kind: "ready", ms: performance.now() - started }),
  (err) => self.postMessage({ kind: "failed", reason: String(err && err.message || err) }),
);

let queue = Promise.resolve(); // one search at a time: two at once would halve each one's speed
const dropped = new Set();

async function handle(id, request) {
  let desk;
  try {
    desk = await booting;
  } catch (err) {
    return; // "failed" was posted: the game decides itself
  }
  if (dropped.delete(id)) return;
  try {
    self.postMessage({ kind: "answer", id, answer: await desk.answer_json(String(request)) });
  } catch (err) {
    self.postMessage({ kind: "crash", id, reason: String(err && err.message || err) });
  }
}

self.onmessage = (event) => {
  const data = event.data || {};
  if (data.hurry !== undefined) {
    booting.then((desk) => desk.hurry(), () => {});
  } else if (data.drop !== undefined) {
    dropped.add(data.drop);
  } else {
    queue = queue.then(() => handle(data.id, data.request));
  }
};
