// The members of a zip whose every member is stored (tools/pack_python.py writes them so): each
// file is a slice of the archive, no inflating. Yields {name, data} (data null: a folder). Refuses
// what it cannot read: a damaged directory, a compressed member, a name outside the archive.
export function* readZip(zip) {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const text = new TextDecoder();
  let end = zip.length - 22; // the end of the central directory (no archive comment: search back)
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end--;
  if (end < 0) throw new Error("not a zip archive");
  let at = view.getUint32(end + 16, true);
  for (let left = view.getUint16(end + 10, true); left > 0; left--) {
    if (at + 46 > zip.length || view.getUint32(at, true) !== 0x02014b50) {
      throw new Error("a zip archive's directory is damaged");
    }
    const method = view.getUint16(at + 10, true);
    const size = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true);
    const local = view.getUint32(at + 42, true);
    const name = text.decode(zip.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    if (name.startsWith("/") || name.split("/").includes("..")) {
      throw new Error(`${name}: outside the archive's folder`);
    }
    if (method !== 0) throw new Error(`${name}: compressed (method ${method}), the build stores every member`);
    if (name.endsWith("/")) {
      yield { name, data: null };
      continue;
    }
    const data = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    if (data + size > zip.length) throw new Error(`${name}: past the archive's end`);
    yield { name, data: zip.subarray(data, data + size) };
  }
}
