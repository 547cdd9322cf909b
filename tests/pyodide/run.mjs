// Run the engine tests with pytest inside Pyodide (the browser's Python runtime) under Node.
//
//   node tests/pyodide/run.mjs --wheels DIR [--no-hypothesis] [--junitxml FILE] -- [pytest args...]
//
// The repository is mounted at /app (NODEFS) and the pure-Python wheels in DIR (pytest and its
// dependencies, hypothesis + sortedcontainers) are installed with loadPackage from absolute file
// paths. Any loadPackage error fails the run: loadPackage never silently falls back to a CDN.
// Normally started through tests/pyodide/run.py, which downloads the wheels first.
// Exit status = pytest's exit status (2 on a set-up failure).

import path from "node:path";
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { loadPyodide, version as pyodideVersion } from "pyodide";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "..", "..");

function parseArgs(argv) {
  const opts = { wheels: null, hypothesis: true, junitxml: null, pytestArgs: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") { opts.pytestArgs = argv.slice(i + 1); break; }
    else if (arg === "--wheels") opts.wheels = path.resolve(argv[++i]);
    else if (arg === "--no-hypothesis") opts.hypothesis = false;
    else if (arg === "--junitxml") opts.junitxml = path.resolve(argv[++i]);
    else { console.error(`run.mjs: unknown argument ${arg}`); process.exit(2); }
  }
  if (!opts.wheels) { console.error("run.mjs: --wheels DIR is required"); process.exit(2); }
  return opts;
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const wheels = fs.readdirSync(opts.wheels)
    .filter((name) => name.endsWith(".whl"))
    .filter((name) => opts.hypothesis || !/^(hypothesis|sortedcontainers)-/.test(name))
    .map((name) => path.join(opts.wheels, name));
  if (!wheels.some((w) => path.basename(w).startsWith("pytest-"))) {
    console.error(`run.mjs: no pytest wheel in ${opts.wheels}`);
    return 2;
  }

  const started = Date.now();
  const py = await loadPyodide({ stdout: (s) => console.log(s), stderr: (s) => console.error(s) });
  const loadErrors = [];
  await py.loadPackage(wheels, {
    messageCallback: () => {},
    errorCallback: (msg) => loadErrors.push(msg),
    checkIntegrity: false,
  });
  if (loadErrors.length) {
    console.error("run.mjs: loadPackage failed (refusing to fall back to a CDN):\n  " + loadErrors.join("\n  "));
    return 2;
  }

  // Raw output: pytest's progress dots arrive without newlines.
  py.setStdout({ write: (buf) => { process.stdout.write(buf); return buf.length; } });
  py.setStderr({ write: (buf) => { process.stderr.write(buf); return buf.length; } });

  py.FS.mkdirTree("/app");
  py.FS.mount(py.FS.filesystems.NODEFS, { root: repo }, "/app");
  const setupSeconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`Pyodide ${pyodideVersion} (Python ${py.runPython("import sys; sys.version.split()[0]")}) ` +
    `ready in ${setupSeconds}s with ${wheels.map((w) => path.basename(w).split("-").slice(0, 2).join("-")).join(", ")}`);

  py.globals.set("PYTEST_ARGS", py.toPy(opts.pytestArgs));
  py.globals.set("NO_HYPOTHESIS", !opts.hypothesis);
  py.globals.set("JUNITXML", opts.junitxml ? "/tmp/run/junit.xml" : null);
  const status = await py.runPythonAsync(`
import os, sys
sys.dont_write_bytecode = True          # keep cpython-314 .pyc files out of the work tree
sys.path.insert(0, "/app")
os.makedirs("/tmp/run", exist_ok=True)
os.chdir("/tmp/run")                   # .hypothesis/ and other scratch files stay in MEMFS
sys.path.insert(0, "/app/tests/pyodide")
if NO_HYPOTHESIS:
    import hypothesis_stub
    hypothesis_stub.install()
import pytest
args = list(PYTEST_ARGS) + ["--rootdir=/app", "-p", "no:cacheprovider", "-p", "pyodide_plugin", "-rs"]
if JUNITXML:
    args.append("--junitxml=" + JUNITXML)
int(pytest.main(args))
`);
  if (opts.junitxml) {  // written in MEMFS, copied out (the path may be outside the mount)
    fs.mkdirSync(path.dirname(opts.junitxml), { recursive: true });
    try { fs.writeFileSync(opts.junitxml, py.FS.readFile("/tmp/run/junit.xml")); }
    catch (err) { console.error(`run.mjs: no JUnit report: ${err}`); }
  }
  return status;
}

main().then(
  (status) => process.exit(status),
  (err) => { console.error("run.mjs: crashed:", err); process.exit(2); },
);
