// The benchmark page. lab/browser/hard_bench.py drives it through window.bench.* (Playwright).
import { bootPython, wasmHeapBytes } from "./pyodide_boot.js";

const longTasks = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) longTasks.push(entry.duration);
}).observe({ type: "longtask", buffered: true });

let main = null;
let worker = null;
const pending = new Map();
let nextId = 0;

function ask(msg) {
  return new Promise((resolve) => {
    const kind = msg.kind;
    pending.set(kind, resolve);
    worker.postMessage(msg);
  });
}

window.bench = {
  run(code) {
    return main.py.runPython(code);
  },
  async bootMain() {
    main = await bootPython();
    return { pyodideMs: main.pyodideMs, readyMs: main.readyMs, heap: wasmHeapBytes(main.py) };
  },
  async runMain(hands, budget, iterations, seed, version, sliceMs) {
    longTasks.length = 0;
    const result = await main.py.globals.get("run_bench")(hands, budget, iterations, seed, version, sliceMs);
    return { result: JSON.parse(result), longTasks: [...longTasks], heap: wasmHeapBytes(main.py) };
  },
  async startWorker() {
    const t0 = performance.now();
    worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
    worker.onmessage = (event) => {
      const resolve = pending.get(event.data.kind);
      pending.delete(event.data.kind);
      if (resolve) resolve(event.data);
    };
    const ready = await ask({ kind: "ready" });
    return { ...ready, startMs: performance.now() - t0 };
  },
  async echo(n) {
    const times = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      await ask({ kind: "echo", id: nextId++ });
      times.push(performance.now() - t0);
    }
    return times;
  },
  async decideInWorker(budget, version, n) {
    const sample = JSON.parse(main.py.globals.get("sample_record")());
    const out = [];
    for (let i = 0; i < n; i++) {
      const t0 = performance.now();
      const answer = await ask({ kind: "decide", record: sample.record, seat: sample.seat, budget, version });
      out.push({ ...answer, roundTripMs: performance.now() - t0, recordBytes: sample.record.length });
    }
    return out;
  },
  async benchInWorker(hands, budget, iterations, seed, version) {
    longTasks.length = 0;
    const answer = await ask({ kind: "bench", hands, budget, iterations, seed, version });
    return { ...answer, longTasks: [...longTasks] };
  },
};
document.getElementById("status").textContent = "ready";
document.documentElement.classList.add("ready");
