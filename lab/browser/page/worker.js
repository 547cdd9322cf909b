// A dedicated module worker with its own Pyodide: what "bots think in a Web Worker" would be.
import { bootPython, wasmHeapBytes } from "./pyodide_boot.js";

const booting = bootPython();

self.onmessage = async (event) => {
  const msg = event.data;
  if (msg.kind === "echo") { self.postMessage({ kind: "echo", id: msg.id }); return; }
  const { py, pyodideMs, readyMs } = await booting;
  if (msg.kind === "ready") {
    self.postMessage({ kind: "ready", pyodideMs, readyMs, heap: wasmHeapBytes(py) });
  } else if (msg.kind === "decide") {
    const t0 = performance.now();
    const out = JSON.parse(py.globals.get("decide_from_record")(msg.record, msg.seat, msg.budget, msg.version));
    self.postMessage({ kind: "decide", ...out, workerMs: performance.now() - t0 });
  } else if (msg.kind === "bench") {
    const run = py.globals.get("run_bench");
    const result = await run(msg.hands, msg.budget, msg.iterations, msg.seed, msg.version, 0);
    self.postMessage({ kind: "bench", result: JSON.parse(result), heap: wasmHeapBytes(py) });
  }
};
