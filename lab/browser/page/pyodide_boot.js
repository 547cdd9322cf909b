// Shared by the page and the worker: start Pyodide from ./vendor and unpack the game's app.zip
// (the same files the game serves), then import the bots.
import { loadPyodide } from "./vendor/pyodide/pyodide.mjs";

export async function bootPython() {
  const t0 = performance.now();
  const py = await loadPyodide({ indexURL: new URL("./vendor/pyodide/", import.meta.url).href });
  const tLoaded = performance.now();
  const zip = await (await fetch(new URL("./app.zip", import.meta.url))).arrayBuffer();
  py.unpackArchive(zip, "zip", { extractDir: "/home/pyodide/app" });
  py.runPython(await (await fetch(new URL("./bench_page.py", import.meta.url))).text());
  const tReady = performance.now();
  return { py, pyodideMs: tLoaded - t0, readyMs: tReady - t0 };
}

export function wasmHeapBytes(py) {
  return py._module.HEAP8.buffer.byteLength;
}
