/**
 * Zip archives (src/util/zip.ts): CRC-32's check values, writeZip's bytes read back, archives Python's zipfile and
 * Info-ZIP's zip made read to their exact contents, and every refusal, a zip bomb's among them, with its message.
 */
import { constants, inflateRawSync } from "node:zlib";
import { afterEach, describe, expect, it, vi } from "vitest";
import { crc32 } from "../../src/util/crc32";
import { readZip, writeZip, type ZipReadResult } from "../../src/util/zip";

const text = (s: string) => new TextEncoder().encode(s);
const fromBase64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
const limits = { maxEntries: 100, maxBytes: 1 << 20 };

/** The entries of a read archive as name → text, to compare in one `toEqual`. */
function texts(result: ZipReadResult): Record<string, string> {
  if (!result.ok) throw new Error(result.message);
  return Object.fromEntries(result.entries.map((e) => [e.name, new TextDecoder().decode(e.bytes)]));
}

/** `zip` with its fields changed in place: `edit` gets a view and the central directory's offset. */
function patch(zip: Uint8Array, edit: (view: DataView, central: number) => void): Uint8Array {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  edit(view, view.getUint32(zip.length - 6, true));
  return zip;
}

async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new CompressionStream("deflate-raw");
  const writer = stream.writable.getWriter();
  void writer.write(bytes);
  void writer.close();
  return new Uint8Array(await new Response(stream.readable).arrayBuffer());
}

/** 64 MiB of zeros deflated (64 KiB), made once. */
let zeros64: Promise<Uint8Array> | undefined;
const bomb = () => (zeros64 ??= deflate(new Uint8Array(64 << 20)));

/**
 * A one-entry archive of `compressed` (raw deflate) by hand: writeZip's stored entry with the method set to deflate
 * (8), the CRC of `raw` and `declared` as the uncompressed size, in both the local header and the central directory.
 */
function deflatedZip(name: string, raw: Uint8Array, compressed: Uint8Array, declared = raw.length): Uint8Array {
  return patch(writeZip([{ name, bytes: compressed }]), (view, central) => {
    for (const [method, crc, size] of [
      [8, 14, 22],
      [central + 10, central + 16, central + 24],
    ] as const) {
      view.setUint16(method, 8, true);
      view.setUint32(crc, crc32(raw), true);
      view.setUint32(size, declared, true);
    }
  });
}

/**
 * A DecompressionStream("deflate-raw") that works as workerd's does: each write inflated whole at once and queued
 * whether or not anything reads it (no backpressure; Node's holds back). `counter.inflated` adds up what it inflates.
 */
function eagerInflater(counter: { inflated: number }) {
  return class {
    readonly readable: ReadableStream<Uint8Array>;
    readonly writable: WritableStream<Uint8Array>;
    constructor() {
      let input = new Uint8Array(0);
      let emitted = 0;
      let queue: ReadableStreamDefaultController<Uint8Array> | undefined;
      this.readable = new ReadableStream({ start: (controller) => void (queue = controller) });
      this.writable = new WritableStream({
        write: (chunk) => {
          const grown = new Uint8Array(input.length + chunk.length);
          grown.set(input);
          grown.set(chunk, input.length);
          input = grown;
          // All that the input so far inflates to (a sync flush: the input may end mid-stream), less what was queued.
          const all = new Uint8Array(inflateRawSync(input, { finishFlush: constants.Z_SYNC_FLUSH }));
          for (let at = emitted; at < all.length; at += 16384) queue!.enqueue(all.slice(at, at + 16384));
          counter.inflated += all.length - emitted;
          emitted = all.length;
        },
        close: () => queue!.close(),
        abort: (reason) => queue!.error(reason),
      });
    }
  };
}

afterEach(() => vi.unstubAllGlobals());

describe("crc32", () => {
  it("gives the standard check values", () => {
    expect(crc32(text("123456789"))).toBe(0xcbf43926);
    expect(crc32(text(""))).toBe(0);
    expect(crc32(text("The quick brown fox jumps over the lazy dog"))).toBe(0x414fa339);
    expect(crc32(new Uint8Array(32).fill(0xff))).toBe(0xff6cab0b);
  });

  it("continues from a previous value: two pieces give the whole's CRC, at every split", () => {
    const whole = text("The quick brown fox jumps over the lazy dog");
    for (let at = 0; at <= whole.length; at++) expect(crc32(whole.subarray(at), crc32(whole.subarray(0, at)))).toBe(0x414fa339);
  });
});

describe("writeZip", () => {
  // The archive below was checked by hand with `python3 -m zipfile -t` and Info-ZIP's `unzip -t` (both: no errors;
  // zipinfo: stored, version 1.0 needed, dated 1980-01-01 00:00); the test pins its bytes so it stays that archive.
  it("writes the archive Python's zipfile and unzip accepted, byte for byte, the same every time", () => {
    const entries = [
      { name: "a.txt", bytes: text("hi\n") },
      { name: "é/ø.txt", bytes: new Uint8Array(0) },
    ];
    const golden =
      "UEsDBAoAAAgAAAAAIQB6em/tAwAAAAMAAAAFAAAAYS50eHRoaQpQSwMECgAACAAAAAAhAAAAAAAAAAAAAAAAAAkAAADDqS/DuC50eHRQSwECFAAKAAAIAAAAACEAenpv7QMAAAADAAAABQAAAAAAAAAAAAAAAAAAAAAAYS50eHRQSwECFAAKAAAIAAAAACEAAAAAAAAAAAAAAAAACQAAAAAAAAAAAAAAAAAmAAAAw6kvw7gudHh0UEsFBgAAAAACAAIAagAAAE0AAAAAAA==";
    expect(writeZip(entries)).toEqual(fromBase64(golden));
    expect(writeZip(entries)).toEqual(writeZip(entries));
  });

  it("round-trips through readZip: names (UTF-8 too), order and exact bytes, an empty file included", async () => {
    const binary = Uint8Array.from({ length: 256 }, (_, i) => i);
    const entries = [
      { name: "README.md", bytes: text("# Title\n") },
      { name: "données/résumé — 日本語.txt", bytes: text("ünïcödé\n") },
      { name: "empty", bytes: new Uint8Array(0) },
      { name: "bin/all-bytes", bytes: binary },
    ];
    const result = await readZip(writeZip(entries), limits);
    expect(result).toEqual({ ok: true, entries });
  });

  it("refuses as many entries as zip64 would need", () => {
    const many = Array.from({ length: 0xffff }, () => ({ name: "a", bytes: new Uint8Array(0) }));
    expect(() => writeZip(many)).toThrow("writeZip: 65535 entries, more than a zip without zip64 holds");
    expect(writeZip(many.slice(1)).length).toBe(65534 * (30 + 46 + 2) + 22);
  });
});

describe("readZip reads archives other tools made", () => {
  it("Python's zipfile, stored: skips the directory, decodes UTF-8 names (flag 11) and latin1 ones (no flag)", async () => {
    // writestr of hello.txt, sub/, sub/été.txt and cafX.txt, the X then patched to byte 0xE9 with flag 11 clear.
    const zip = fromBase64(
      "UEsDBBQAAAAAAAU5plgYp1V7DgAAAA4AAAAJAAAAaGVsbG8udHh0SGVsbG8sIHdvcmxkIQpQSwMEFAAAAAAABTmmWAAAAAAAAAAAAAAAAAQAAABzdWIvUEsDBBQAAAgAAAU5pliAv28+DAAAAAwAAAANAAAAc3ViL8OpdMOpLnR4dMO8bsOvY8O2ZMOpClBLAwQUAAAAAAAFOaZYn9KkGQwAAAAMAAAACAAAAGNhZukudHh0bGF0aW4xIG5hbWUKUEsBAhQDFAAAAAAABTmmWBinVXsOAAAADgAAAAkAAAAAAAAAAAAAAIABAAAAAGhlbGxvLnR4dFBLAQIUAxQAAAAAAAU5plgAAAAAAAAAAAAAAAAEAAAAAAAAAAAAAACAATUAAABzdWIvUEsBAhQDFAAACAAABTmmWIC/bz4MAAAADAAAAA0AAAAAAAAAAAAAAIABVwAAAHN1Yi/DqXTDqS50eHRQSwECFAMUAAAAAAAFOaZYn9KkGQwAAAAMAAAACAAAAAAAAAAAAAAAgAGOAAAAY2Fm6S50eHRQSwUGAAAAAAQABADaAAAAwAAAAAAA",
    );
    expect(texts(await readZip(zip, limits))).toEqual({ "hello.txt": "Hello, world!\n", "sub/été.txt": "ünïcödé\n", "café.txt": "latin1 name\n" });
  });

  it("Python's zipfile, deflated, with an archive comment after the end record", async () => {
    const zip = fromBase64(
      "UEsDBBQAAAAIAAU5pliHUokKIgAAABwCAAAJAAAAbG9yZW0udHh0y8kvSs1VyCwoLs1VSMnPyS9SKM4sUUjMTS1RyBmVGtlSAFBLAwQUAAAACAAFOaZYAAAAAAIAAAAAAAAACQAAAGVtcHR5LnR4dAMAUEsBAhQDFAAAAAgABTmmWIdSiQoiAAAAHAIAAAkAAAAAAAAAAAAAAIABAAAAAGxvcmVtLnR4dFBLAQIUAxQAAAAIAAU5plgAAAAAAgAAAAAAAAAJAAAAAAAAAAAAAACAAUkAAABlbXB0eS50eHRQSwUGAAAAAAIAAgBuAAAAcgAAABgAbWFkZSBieSBQeXRob24ncyB6aXBmaWxl",
    );
    expect(new TextDecoder().decode(zip.subarray(-24))).toBe("made by Python's zipfile");
    expect(texts(await readZip(zip, limits))).toEqual({ "lorem.txt": "lorem ipsum dolor sit amet ".repeat(20), "empty.txt": "" });
  });

  it("Python's zipfile writing to a stream it cannot seek: zero sizes in the local header, a data descriptor after", async () => {
    const zip = fromBase64(
      "UEsDBBQACAAIAAU5plgAAAAAAAAAAAAAAAAMAAAAc3RyZWFtZWQudHh0Ky/KLClJzVMozyzJyC8tUShOTc3OzEvnKh8i4gBQSwcIM3XquR0AAADAAAAAUEsBAhQDFAAIAAgABTmmWDN16rkdAAAAwAAAAAwAAAAAAAAAAAAAAIABAAAAAHN0cmVhbWVkLnR4dFBLBQYAAAAAAQABADoAAABXAAAAAAA=",
    );
    expect(new DataView(zip.buffer).getUint16(6, true) & 8).toBe(8);
    expect(texts(await readZip(zip, limits))).toEqual({ "streamed.txt": "written without seeking\n".repeat(8) });
  });

  it("Info-ZIP's zip to a pipe: data descriptors, and local extra fields longer than the central directory's", async () => {
    // `zip -9 - notes.txt tiny.txt | cat`: each local header has 28 bytes of extra fields (UT, ux), its record 24.
    const zip = fromBase64(
      "UEsDBBQACAAIAAU5plgAAAAAAAAAAGYAAAAJABwAbm90ZXMudHh0VVQJAAPagThm2oE4ZnV4CwABBAAAAAAEAAAAAMtNTElVSKpU8MxLy9eN8gzgyqWFAABQSwcI1PHMtBYAAABmAAAAUEsDBBQACAAIAAU5plgAAAAAAAAAAAUAAAAIABwAdGlueS50eHRVVAkAA9qBOGbagThmdXgLAAEEAAAAAAQAAAAAK8nMq+QCAFBLBwgQxD/QBwAAAAUAAABQSwECHgMUAAgACAAFOaZY1PHMtBYAAABmAAAACQAYAAAAAAABAAAApIEAAAAAbm90ZXMudHh0VVQFAAPagThmdXgLAAEEAAAAAAQAAAAAUEsBAh4DFAAIAAgABTmmWBDEP9AHAAAABQAAAAgAGAAAAAAAAQAAAKSBaQAAAHRpbnkudHh0VVQFAAPagThmdXgLAAEEAAAAAAQAAAAAUEsFBgAAAAACAAIAnQAAAMIAAAAAAA==",
    );
    expect(texts(await readZip(zip, limits))).toEqual({ "notes.txt": "made by Info-ZIP\n".repeat(6), "tiny.txt": "tiny\n" });
  });

  it("finds the end record behind the longest comment (65535 bytes), one that quotes its signature too", async () => {
    const zip = writeZip([{ name: "a.txt", bytes: text("a") }]);
    const comment = new Uint8Array(0xffff).fill(0x20);
    comment.set(text("PK\x05\x06"), 100);
    const withComment = new Uint8Array(zip.length + comment.length);
    withComment.set(zip);
    withComment.set(comment, zip.length);
    new DataView(withComment.buffer).setUint16(zip.length - 2, comment.length, true);
    expect(texts(await readZip(withComment, limits))).toEqual({ "a.txt": "a" });
  });
});

describe("readZip inflates", () => {
  it("deflate data that is corrupt or falls short of its declared size; deflate that is right reads back", async () => {
    const raw = text("abc".repeat(1000));
    const compressed = await deflate(raw);
    expect(texts(await readZip(deflatedZip("ok.txt", raw, compressed), limits))).toEqual({ "ok.txt": "abc".repeat(1000) });
    expect(await readZip(deflatedZip("short.txt", raw, compressed, 4000), limits)).toEqual({ ok: false, message: 'The zip entry "short.txt" inflates to less than its declared size.' });
    // 0xFF opens a final block of the reserved type 3.
    expect(await readZip(deflatedZip("bad.txt", raw, new Uint8Array(8).fill(0xff)), limits)).toEqual({ ok: false, message: 'The zip entry "bad.txt" has corrupt deflate data.' });
  });

  it("deflate data whose first pieces inflate to nothing (empty stored blocks) reads whole, through either inflater", { timeout: 10_000 }, async () => {
    // 2000 empty, non-final stored blocks (header, LEN 0, NLEN 0xFFFF: 5 bytes each), then the real deflate stream.
    const empty = Uint8Array.from({ length: 2000 * 5 }, (_, i) => [0, 0, 0, 0xff, 0xff][i % 5]!);
    const raw = text("after ten kilobytes of nothing\n".repeat(100));
    const deflated = await deflate(raw);
    const compressed = new Uint8Array(empty.length + deflated.length);
    compressed.set(empty);
    compressed.set(deflated, empty.length);
    expect(texts(await readZip(deflatedZip("late.txt", raw, compressed), limits))).toEqual({ "late.txt": "after ten kilobytes of nothing\n".repeat(100) });
    vi.stubGlobal("DecompressionStream", eagerInflater({ inflated: 0 }));
    expect(texts(await readZip(deflatedZip("late.txt", raw, compressed), limits))).toEqual({ "late.txt": "after ten kilobytes of nothing\n".repeat(100) });
  });

  it("a zip bomb: a small declared size that inflates far larger is stopped at once", async () => {
    const compressed = await bomb();
    expect(compressed.length).toBeLessThan(100_000);
    const Real = DecompressionStream;
    let inflaters = 0;
    vi.stubGlobal(
      "DecompressionStream",
      class extends Real {
        constructor(format: ConstructorParameters<typeof Real>[0]) {
          super(format);
          inflaters++;
        }
      },
    );
    expect(await readZip(deflatedZip("bomb.bin", new Uint8Array(1000), compressed, 1000), limits)).toEqual({
      ok: false,
      message: 'The zip entry "bomb.bin" inflates to more than its declared size.',
    });
    expect(inflaters).toBe(1);
    // Declared honestly, the same entry is over the limit before anything is inflated.
    expect(await readZip(deflatedZip("bomb.bin", new Uint8Array(0), compressed, 64 << 20), limits)).toEqual({ ok: false, message: "The zip archive's files total more than 1048576 bytes." });
    expect(inflaters).toBe(1);
  });

  it("a zip bomb fed to an inflater without backpressure (workerd's) inflates no more than 4 MiB past its declared size", async () => {
    const compressed = await bomb();
    const counter = { inflated: 0 };
    vi.stubGlobal("DecompressionStream", eagerInflater(counter));
    for (const declared of [1000, 1 << 20]) {
      counter.inflated = 0;
      expect(await readZip(deflatedZip("bomb.bin", new Uint8Array(declared), compressed, declared), limits)).toEqual({
        ok: false,
        message: 'The zip entry "bomb.bin" inflates to more than its declared size.',
      });
      expect(counter.inflated).toBeGreaterThan(declared);
      expect(counter.inflated).toBeLessThanOrEqual(declared + 1032 * 4096); // one 4 KiB piece, at deflate's most
    }
    // What is not a bomb reads whole through the same inflater, piece by piece.
    const raw = text(Array.from({ length: 20_000 }, (_, i) => `line ${i} of ${(i * 7919) % 10007}\n`).join(""));
    counter.inflated = 0;
    const read = await readZip(deflatedZip("big.txt", raw, await deflate(raw)), limits);
    expect(read.ok && read.entries[0]!.bytes).toEqual(raw);
    expect(counter.inflated).toBe(raw.length);
  });
});

describe("readZip refuses", () => {
  it("what is not a zip: random bytes, nothing, an archive cut short at either end", async () => {
    const random = Uint8Array.from({ length: 1000 }, (_, i) => (Math.imul(i + 1, 0x9e3779b1) >>> 24) & 0xff);
    const zip = writeZip([{ name: "a.txt", bytes: text("hello") }]);
    for (const bytes of [random, new Uint8Array(0), zip.subarray(0, zip.length - 1)]) {
      expect(await readZip(bytes, limits)).toEqual({ ok: false, message: "This is not a zip archive." });
    }
    expect(await readZip(zip.subarray(10), limits)).toEqual({ ok: false, message: "The zip archive is truncated or its offsets are inconsistent." });
    const pastTheEnd = patch(writeZip([{ name: "a.txt", bytes: text("hello") }]), (view, central) => view.setUint32(central + 42, 1000, true));
    expect(await readZip(pastTheEnd, limits)).toEqual({ ok: false, message: "The zip archive is truncated or its offsets are inconsistent." });
  });

  it("an entry whose bytes do not match its CRC-32", async () => {
    const zip = writeZip([{ name: "a.txt", bytes: text("hello") }]);
    zip[35]! ^= 1; // the first byte of the data, after the 30-byte header and the name
    expect(await readZip(zip, limits)).toEqual({ ok: false, message: 'The zip entry "a.txt" fails its CRC-32 check.' });
  });

  it("more entries than allowed, and more bytes in all than allowed (declared sizes, before reading)", async () => {
    const zip = writeZip(["a", "b", "c"].map((name) => ({ name, bytes: new Uint8Array(600) })));
    expect(await readZip(zip, { maxEntries: 2, maxBytes: 1 << 20 })).toEqual({ ok: false, message: "The zip archive has 3 entries, more than the 2 allowed." });
    expect(await readZip(zip, { maxEntries: 3, maxBytes: 1199 })).toEqual({ ok: false, message: "The zip archive's files total more than 1199 bytes." });
    expect((await readZip(zip, { maxEntries: 3, maxBytes: 1800 })).ok).toBe(true);
  });

  it("names that would escape the folder they are extracted to (zip-slip), but not names that only look alike", async () => {
    for (const name of ["../evil", "a/../../evil", "a/..", "/etc/passwd", "C:/Windows/evil.dll", "a\\..\\evil", "dir\\file"]) {
      expect(await readZip(writeZip([{ name, bytes: text("x") }]), limits)).toEqual({ ok: false, message: `The zip entry "${name}" has an unsafe path.` });
    }
    expect(texts(await readZip(writeZip([{ name: "..a/b..c/...", bytes: text("x") }]), limits))).toEqual({ "..a/b..c/...": "x" });
  });

  it("encrypted entries, other compression methods, zip64 and split archives", async () => {
    const entry = () => writeZip([{ name: "a.txt", bytes: text("hello") }]);
    const encrypted = patch(entry(), (view, central) => view.setUint16(central + 8, view.getUint16(central + 8, true) | 1, true));
    expect(await readZip(encrypted, limits)).toEqual({ ok: false, message: 'The zip entry "a.txt" is encrypted.' });
    const bzip2 = patch(entry(), (view, central) => view.setUint16(central + 10, 12, true));
    expect(await readZip(bzip2, limits)).toEqual({ ok: false, message: 'The zip entry "a.txt" uses compression method 12; only stored and deflate are supported.' });
    const zip64 = "Zip64 archives are not supported.";
    const count = patch(entry(), (view) => view.setUint16(view.byteLength - 12, 0xffff, true));
    expect(await readZip(count, { maxEntries: 1 << 20, maxBytes: 1 << 20 })).toEqual({ ok: false, message: zip64 });
    const size = patch(entry(), (view, central) => view.setUint32(central + 24, 0xffffffff, true));
    expect(await readZip(size, limits)).toEqual({ ok: false, message: zip64 });
    const split = patch(entry(), (view) => view.setUint16(view.byteLength - 18, 1, true));
    expect(await readZip(split, limits)).toEqual({ ok: false, message: "Zip archives split over several parts are not supported." });
  });
});
