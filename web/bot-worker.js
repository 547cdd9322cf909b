// The bots' second interpreter: a module Web Worker with its own Pyodide, started by the page
// (hearts_web/bot_worker.py) when Hard plays. Hard's search then runs here, and the page stays
// free for the player: no main-thread task waits on it. Same files as the page (the generated
// runtime.mjs with the game's trimmed standard library, and app.zip), so the service worker's
// cache serves it offline too. No game rules here: hearts/bots/remote.py decides.
//
// Messages. In:  {id, request}  (request: JSON text of hearts.bots.remote.request)
//           Out: {kind: "ready", ms}  once Python is up, or {kind: "failed", reason} if it can't start
//                {kind: "answer", id, answer}  (JSON text of hearts.bots.remote.answer, or {"error"})
//                {kind: "crash", id, reason}  when the Python code raised (a bug: the page decides itself)
import { loadPyodide } from "../runtime.mjs";

const started = performance.now();
const booting = (async () => {
  const [py, zip] = await Promise.all([
    loadPyodide(),
    fetch(new URL("../app.zip", import.meta.url)).then((r) => {
      if (!r.ok) throw new Error(`app.zip: HTTP ${r.status}`);
      return r.arrayBuffer();
    }),
  ]);
  py.unpackArchive(zip, "zip", { extractDir: "/home/pyodide/bots" });
  py.runPython("import sys; sys.path.insert(0, '/home/pyodide/bots')");
  return py.pyimport("hearts.bots.remote").answer_json;
})();

booting.then(
  () => self.postMessage({ kind: "ready", ms: performance.now() - started }),
  (err) => self.postMessage({ kind: "failed", reason: String(err && err.message || err) }),
);

self.onmessage = async (event) => {
  const { id, request } = event.data || {};
  let answerJson;
  try {
    answerJson = await booting;
  } catch (err) {
    return;  // "failed" was posted: the page decides itself
  }
  try {
    self.postMessage({ kind: "answer", id, answer: answerJson(String(request)) });
  } catch (err) {
    self.postMessage({ kind: "crash", id, reason: String(err && err.message || err) });
  }
};
