/**
 * Zip archives in memory, for both runtimes (no Buffer, no `node:`): `writeZip` stores, `readZip` reads what common
 * tools make (stored or deflated, with or without data descriptors) and refuses, with a sentence rather than an
 * exception, anything it cannot read safely: zip64, encryption, other methods, a bad CRC, zip-slip names, and archives
 * or entries larger than the caller's limits (checked on the declared sizes first, then on the bytes inflated).
 */
import { crc32 } from "./crc32";

/** One file of an archive: its path inside the archive ("/"-separated) and its contents. */
export interface ZipEntry {
  name: string;
  bytes: Uint8Array;
}

/** What `readZip` answers: the archive's files, or why it was refused. */
export type ZipReadResult = { ok: true; entries: ZipEntry[] } | { ok: false; message: string };

const LOCAL = 0x04034b50;
const CENTRAL = 0x02014b50;
const END = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const UTF8_FLAG = 0x0800;
// 1980-01-01 (the earliest date zip can hold) in DOS format, at 00:00 (time 0): a fixed date makes the same bytes.
const DOS_DATE = (0 << 9) | (1 << 5) | 1;

/**
 * A zip archive of `entries`, every one stored (not compressed) under its UTF-8 name, dated 1980-01-01 so the same
 * entries always make the same bytes. Throws past what a zip without zip64 holds (0xFFFF and 0xFFFFFFFF are zip64's
 * markers, so those exact values are refused too). Python's `zipfile -t` and Info-ZIP's `unzip -t` accept its output.
 * @example writeZip([{ name: "a.txt", bytes: new TextEncoder().encode("hi") }]) // 110 bytes, "PK\x03\x04"…
 */
export function writeZip(entries: readonly ZipEntry[]): Uint8Array {
  if (entries.length >= 0xffff) throw new Error(`writeZip: ${entries.length} entries, more than a zip without zip64 holds`);
  const names = entries.map((e) => new TextEncoder().encode(e.name));
  let size = 22;
  for (let i = 0; i < entries.length; i++) {
    if (entries[i]!.bytes.length >= 0xffffffff) throw new Error(`writeZip: "${entries[i]!.name}" is too large for a zip without zip64`);
    size += 30 + 46 + 2 * names[i]!.length + entries[i]!.bytes.length;
  }
  if (size >= 0xffffffff) throw new Error("writeZip: the archive is too large for a zip without zip64");
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  const offsets: number[] = [];
  const crcs = entries.map((e) => crc32(e.bytes));
  let at = 0;
  // The fields a file's local header and its central directory record share, from "version needed" on.
  const common = (i: number) => {
    const length = entries[i]!.bytes.length;
    view.setUint16(at, 10, true); // version needed: 1.0, stored
    view.setUint16(at + 2, UTF8_FLAG, true);
    view.setUint16(at + 4, 0, true); // method: stored
    view.setUint16(at + 8, DOS_DATE, true);
    view.setUint32(at + 10, crcs[i]!, true);
    view.setUint32(at + 14, length, true);
    view.setUint32(at + 18, length, true);
    view.setUint16(at + 22, names[i]!.length, true);
    at += 24;
  };
  for (let i = 0; i < entries.length; i++) {
    offsets.push(at);
    view.setUint32(at, LOCAL, true);
    at += 4;
    common(i);
    at += 2; // the extra field's length: 0
    out.set(names[i]!, at);
    out.set(entries[i]!.bytes, (at += names[i]!.length));
    at += entries[i]!.bytes.length;
  }
  const directory = at;
  for (let i = 0; i < entries.length; i++) {
    view.setUint32(at, CENTRAL, true);
    view.setUint16(at + 4, 20, true); // version made by: MS-DOS host (attributes 0), 2.0
    at += 6;
    common(i);
    at += 12; // extra and comment lengths, disk number, internal and external attributes: all 0
    view.setUint32(at, offsets[i]!, true);
    out.set(names[i]!, at + 4);
    at += 4 + names[i]!.length;
  }
  view.setUint32(at, END, true);
  view.setUint16(at + 8, entries.length, true);
  view.setUint16(at + 10, entries.length, true);
  view.setUint32(at + 12, at - directory, true);
  view.setUint32(at + 16, directory, true);
  return out;
}

const refuse = (message: string): ZipReadResult => ({ ok: false, message });
const TRUNCATED = "The zip archive is truncated or its offsets are inconsistent.";

/**
 * The files of the zip archive `bytes` (directories left out), or why it is refused: more than `limits.maxEntries`
 * records or more than `limits.maxBytes` uncompressed in all (on the declared sizes, before anything is inflated;
 * inflating then stops as soon as an entry outgrows its declared size, so a zip bomb never gets far past the limit).
 * @example await readZip(writeZip([{ name: "a.txt", bytes }]), { maxEntries: 100, maxBytes: 1 << 20 }) // { ok: true, entries: [{ name: "a.txt", bytes }] }
 */
export async function readZip(bytes: Uint8Array, limits: { maxEntries: number; maxBytes: number }): Promise<ZipReadResult> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  // The end record is the last 22 bytes but for an archive comment of up to 65535 bytes: scan back for its signature.
  // The comment may quote the signature, so a record whose comment ends the file wins over one followed by more bytes.
  let end = -1;
  for (let at = bytes.length - 22; at >= 0 && at >= bytes.length - 22 - 0xffff; at--) {
    if (view.getUint32(at, true) !== END) continue;
    const tail = at + 22 + view.getUint16(at + 20, true);
    if (tail === bytes.length) {
      end = at;
      break;
    }
    if (tail < bytes.length && end < 0) end = at;
  }
  if (end < 0) return refuse("This is not a zip archive.");
  const count = view.getUint16(end + 10, true);
  const directorySize = view.getUint32(end + 12, true);
  const directory = view.getUint32(end + 16, true);
  const zip64 = count === 0xffff || directorySize === 0xffffffff || directory === 0xffffffff;
  if (zip64 || (end >= 20 && view.getUint32(end - 20, true) === ZIP64_LOCATOR)) return refuse("Zip64 archives are not supported.");
  if (view.getUint16(end + 4, true) !== 0 || view.getUint16(end + 6, true) !== 0 || view.getUint16(end + 8, true) !== count) {
    return refuse("Zip archives split over several parts are not supported.");
  }
  if (count > limits.maxEntries) return refuse(`The zip archive has ${count} entries, more than the ${limits.maxEntries} allowed.`);
  if (directory + directorySize > end) return refuse(TRUNCATED);

  // Each file's central directory record: where its data is and what it should be.
  const records: { name: string; method: number; crc: number; compressed: number; size: number; offset: number }[] = [];
  let total = 0;
  for (let i = 0, at = directory; i < count; i++) {
    if (at + 46 > directory + directorySize || view.getUint32(at, true) !== CENTRAL) return refuse(TRUNCATED);
    const flags = view.getUint16(at + 8, true);
    const nameEnd = at + 46 + view.getUint16(at + 28, true);
    if (nameEnd > directory + directorySize) return refuse(TRUNCATED);
    const raw = bytes.subarray(at + 46, nameEnd);
    // Bit 11 says UTF-8; without it the name is in the DOS code page, read here as latin1 (exact for ASCII names).
    const name = flags & UTF8_FLAG ? new TextDecoder().decode(raw) : Array.from(raw, (b) => String.fromCharCode(b)).join("");
    const record = {
      name,
      method: view.getUint16(at + 10, true),
      crc: view.getUint32(at + 16, true),
      compressed: view.getUint32(at + 20, true),
      size: view.getUint32(at + 24, true),
      offset: view.getUint32(at + 42, true),
    };
    at = nameEnd + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    if (record.compressed === 0xffffffff || record.size === 0xffffffff || record.offset === 0xffffffff) return refuse("Zip64 archives are not supported.");
    if (!safeName(name)) return refuse(`The zip entry "${name}" has an unsafe path.`);
    if (name.endsWith("/")) continue;
    if (flags & 1) return refuse(`The zip entry "${name}" is encrypted.`);
    if (record.method !== 0 && record.method !== 8) return refuse(`The zip entry "${name}" uses compression method ${record.method}; only stored and deflate are supported.`);
    if (record.method === 0 && record.compressed !== record.size) return refuse(TRUNCATED);
    if ((total += record.size) > limits.maxBytes) return refuse(`The zip archive's files total more than ${limits.maxBytes} bytes.`);
    records.push(record);
  }

  const entries: ZipEntry[] = [];
  for (const r of records) {
    // The local header repeats the record with name and extra fields of its own lengths; its sizes may be zeros (a
    // data descriptor after the data holds them), so the central directory's are used.
    if (r.offset + 30 > directory || view.getUint32(r.offset, true) !== LOCAL) return refuse(TRUNCATED);
    const start = r.offset + 30 + view.getUint16(r.offset + 26, true) + view.getUint16(r.offset + 28, true);
    if (start + r.compressed > directory) return refuse(TRUNCATED);
    const data = bytes.subarray(start, start + r.compressed);
    const out = r.method === 0 ? data.slice() : await inflate(data, r.size);
    if (typeof out === "string") return refuse(`The zip entry "${r.name}" ${out}.`);
    if (crc32(out) !== r.crc) return refuse(`The zip entry "${r.name}" fails its CRC-32 check.`);
    entries.push({ name: r.name, bytes: out });
  }
  return { ok: true, entries };
}

/** False for names that could write outside the folder they are extracted to: absolute, "..", or with backslashes. */
function safeName(name: string): boolean {
  if (name === "" || name.startsWith("/") || /^[A-Za-z]:/.test(name) || name.includes("\\") || name.includes("\0")) return false;
  return !name.split("/").includes("..");
}

/**
 * `data` inflated (raw deflate) to exactly `size` bytes, or what went wrong, read as the end of a sentence.
 *
 * workerd's DecompressionStream inflates each write whole, at once, whether or not its output is read (no
 * backpressure), so the compressed bytes are fed a piece at a time, the next only once the reader has taken all the
 * output and waited a timer tick for more. Deflate expands at most ~1032 times, so with pieces of at most
 * max(4 KiB, what is left to read / 1032), no more than the declared size or 4 MiB past it is ever inflated.
 */
async function inflate(data: Uint8Array, size: number): Promise<Uint8Array | string> {
  const stream = new DecompressionStream("deflate-raw");
  const writer = stream.writable.getWriter();
  const reader = stream.readable.getReader();
  const out = new Uint8Array(size);
  let filled = 0;
  let fed = 0;
  let longest = 0;
  // Writes are chained, not awaited: Node's inflater holds a write back until the output before it is read.
  let writing = Promise.resolve();
  const feed = () => {
    const piece = data.subarray(fed, (fed += Math.max(4096, Math.floor((size - filled) / 1032))));
    writing = writing.then(() => writer.write(piece));
    if (fed >= data.length) writing = writing.then(() => writer.close());
    writing.catch(() => {}); // a failed write fails the reads too: reported there
    return fed < data.length;
  };
  let feeding = feed();
  try {
    for (;;) {
      const read = reader.read();
      let result: ReadableStreamReadResult<Uint8Array> | undefined;
      while (feeding) {
        if ((result = await orTick(read)) !== undefined) break;
        feeding = feed();
      }
      const { done, value } = result ?? (await read);
      if (done) break;
      if (filled + value.length > size) {
        await reader.cancel();
        return "inflates to more than its declared size";
      }
      out.set(value, filled);
      filled += value.length;
      // A read shorter than the longest so far took all the inflater had: feed it now rather than after a tick.
      if (feeding && value.length < (longest = Math.max(longest, value.length))) feeding = feed();
    }
  } catch {
    return "has corrupt deflate data";
  }
  return filled === size ? out : "inflates to less than its declared size";
}

/** `promise`'s value, or undefined if it is still pending after a timer tick. */
function orTick<T>(promise: Promise<T>): Promise<T | undefined> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => resolve(undefined), 0);
    promise.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}
