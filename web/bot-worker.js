// The bots' second interpreter: a module Web Worker with its own Pyodide, started by the page
// (hearts_web/bot_worker.py) when Hard plays. Hard's search then runs here, and the page stays
// free for the player: no main-thread task waits on it. Same files as the page (the generated
// runtime.mjs: the game's trimmed standard library, and app.zst unpacked), so the service
// worker's cache serves it offline too. No game rules here: hearts/bots/remote.py decides.
//
// Messages. In:  {id, request}  (request: JSON text of hearts.bots.remote.request), answered one
//                at a time; a search pauses for messages every 50 ms (hearts.bots.remote.Desk)
//                {hurry: id}  the person has passed: the bots' passes end at their short budget
//                {drop: id}  nobody waits for that request any more: skipped unless it has begun
//           Out: {kind: "ready", ms}  once Python is up, or {kind: "failed", reason} if it can't start
//                {kind: "answer", id, answer}  (JSON text of hearts.bots.remote.answer, or {"error"})
//                {kind: "crash", id, reason}  when the Python code raised (a bug: the page decides itself)
import { loadPyodide } from "../runtime.mjs";

const started = performance.now();
const booting = (async () => {
  const py = await loadPyodide();  // with the game's Python (app.zst) unpacked, as on the page
  return py.pyimport("hearts.bots.remote").Desk();
})();

booting.then(
  () => self.postMessage({ kind: "ready", ms: performance.now() - started }),
  (err) => self.postMessage({ kind: "failed", reason: String(err && err.message || err) }),
);

let queue = Promise.resolve();  // one search at a time: two at once would halve each one's speed
const dropped = new Set();

async function handle(id, request) {
  let desk;
  try {
    desk = await booting;
  } catch (err) {
    return;  // "failed" was posted: the page decides itself
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
