// Run a Python script inside Pyodide under Node (the runtime the browser runs: same CPython
// 3.14, same bytecode). tools/build.py uses it to compile and trim the Python the site ships.
//
//   node tools/pyodide_run.mjs SCRIPT.py HOST_DIR [ARGS...]
//
// HOST_DIR is mounted read-write at /host (NODEFS); paths in ARGS are relative to it.
// sys.argv = [SCRIPT, ...ARGS]. Before the script runs, INIT_MODULES (a list) holds the names of
// the modules Pyodide imported while it started: what every page start imports anyway.
// PYODIDE_RUN_ENV (JSON object, optional) sets environment variables for the interpreter at
// start (tools/build.py: {"PYTHONNODEBUGRANGES": "1"}, bytecode without column tables).
// Exit status: 0, or 1 when the script raised (the traceback goes to stderr).
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const [script, hostDir, ...args] = process.argv.slice(2);
if (!script || !hostDir) {
  console.error("usage: node tools/pyodide_run.mjs SCRIPT.py HOST_DIR [ARGS...]");
  process.exit(2);
}
const { loadPyodide } = await import(resolve(root, "node_modules/pyodide/pyodide.mjs"));
const env = process.env.PYODIDE_RUN_ENV ? JSON.parse(process.env.PYODIDE_RUN_ENV) : {};
const py = await loadPyodide({ env, stdout: (s) => console.log(s), stderr: (s) => console.error(s) });
const init = py.runPython("import sys\nsorted(sys.modules)").toJs();
py.FS.mkdirTree("/host");
py.FS.mount(py.FS.filesystems.NODEFS, { root: resolve(hostDir) }, "/host");
py.globals.set("INIT_MODULES", py.toPy(init));
py.globals.set("ARGV", py.toPy([script, ...args]));
try {
  py.runPython("import os, sys\nsys.argv = list(ARGV)\nos.chdir('/host')\ndel ARGV");
  py.runPython(readFileSync(script, "utf8"), { filename: script });
} catch (err) {
  console.error(String(err.message || err));
  process.exit(1);
}
