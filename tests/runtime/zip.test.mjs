// web/runtime/zip.mjs: the members of a stored zip, and what it refuses.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readZip } from "../../web/runtime/zip.mjs";

// A zip made by Python's zipfile, as tools/pack_python.py makes them (every member stored).
function pyZip(members, compression = "ZIP_STORED") {
  const script = `
import io, json, sys, zipfile
members = json.loads(sys.argv[1])
out = io.BytesIO()
with zipfile.ZipFile(out, "w", zipfile.${compression}) as z:
    for name, text in members:
        if name.endswith("/"):
            z.writestr(zipfile.ZipInfo(name), b"")
        else:
            z.writestr(name, text.encode())
sys.stdout.buffer.write(out.getvalue())`;
  return new Uint8Array(execFileSync("python3", ["-c", script, JSON.stringify(members)]));
}

const text = (bytes) => (bytes === null ? null : new TextDecoder().decode(bytes));

test("every member of a stored zip, folders included, as slices of the archive", () => {
  const zip = pyZip([["hearts/", ""], ["hearts/__init__.py", "x = 1\n"], ["hearts/cards.py", "é ♠"]]);
  const got = [...readZip(zip)].map(({ name, data }) => [name, text(data)]);
  assert.deepEqual(got, [["hearts/", null], ["hearts/__init__.py", "x = 1\n"], ["hearts/cards.py", "é ♠"]]);
});

test("a compressed member, a name outside the folder, a damaged directory, not a zip: refused", () => {
  assert.throws(() => [...readZip(pyZip([["a.py", "x".repeat(64)]], "ZIP_DEFLATED"))], /compressed/);
  assert.throws(() => [...readZip(pyZip([["../evil.py", "x"]]))], /outside the archive/);
  assert.throws(() => [...readZip(pyZip([["/abs.py", "x"]]))], /outside the archive/);
  const damaged = pyZip([["a.py", "x"], ["b.py", "y"]]);
  const view = new DataView(damaged.buffer);
  const end = damaged.length - 22;
  view.setUint32(end + 16, view.getUint32(end + 16, true) + 3, true); // the directory's offset, wrong
  assert.throws(() => [...readZip(damaged)], /damaged/);
  assert.throws(() => [...readZip(new Uint8Array(40))], /not a zip/);
});
