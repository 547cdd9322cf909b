// `python` inside Pyodide (the browser's runtime) under Node: run a module or a script of this
// repository the way CPython would, to measure or profile it in the real runtime.
//
//   node lab/pyodide_python.mjs -m lab.botbench --hands 4
//   node lab/pyodide_python.mjs -m cProfile -s tottime -m lab.botbench --hands 2
//   node lab/pyodide_python.mjs lab/search_bench.py
//
// The repository is mounted at /app (NODEFS) and is the working directory; stdout/stderr pass
// through. Stdlib only (no packages are loaded). Exit status = the program's exit status.

import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadPyodide, version as pyodideVersion } from "pyodide";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

async function main() {
  const argv = process.argv.slice(2);
  if (!argv.length) {
    console.error("usage: node lab/pyodide_python.mjs (-m MODULE | SCRIPT) [args...]");
    return 2;
  }
  const py = await loadPyodide();
  py.setStdout({ write: (buf) => { process.stdout.write(buf); return buf.length; } });
  py.setStderr({ write: (buf) => { process.stderr.write(buf); return buf.length; } });
  py.FS.mkdirTree("/app");
  py.FS.mount(py.FS.filesystems.NODEFS, { root: repo }, "/app");
  py.globals.set("ARGV", py.toPy(argv));
  py.globals.set("PYODIDE_VERSION", pyodideVersion);
  return await py.runPythonAsync(`
import os, runpy, sys
sys.dont_write_bytecode = True
sys.path.insert(0, "/app")
os.chdir("/app")
os.environ["HEARTS_RUNTIME"] = "pyodide " + PYODIDE_VERSION
args = list(ARGV)
status = 0
try:
    if args[0] == "-m":
        sys.argv = args[1:]
        runpy.run_module(args[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = args
        runpy.run_path(args[0], run_name="__main__")
except SystemExit as exc:
    status = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
sys.stdout.flush()
status
`);
}

main().then(
  (status) => process.exit(status),
  (err) => { console.error("pyodide_python.mjs:", err); process.exit(2); },
);
