/**
 * Large answers produced on demand (issue 51, point 2): the speech sources read any slice byte for byte as the whole
 * encoders build it, `byteStream` and `eventStream` send the same bytes as the whole body in bounded chunks, and the
 * linear multipart search finds what a naive one finds (point 3).
 */
import { describe, expect, it } from "vitest";
import { byteStream, eventStream, LazyEvent, STREAM_CHUNK_BYTES, type ByteSource } from "../../src/http/byte-source";
import { parseForm } from "../../src/http/multipart";
import { encodeEvent, type SseEvent } from "../../src/http/sse";
import { flac } from "../../src/providers/openai/audio/flac";
import { mp3, pcm, wav } from "../../src/providers/openai/audio/pcm";
import { flacSource, mp3Source, pcmSource, wavSource } from "../../src/providers/openai/audio/source";

async function drain(stream: ReadableStream<Uint8Array>): Promise<{ bytes: Uint8Array; largest: number }> {
  const parts: Uint8Array[] = [];
  let largest = 0;
  for await (const part of stream as unknown as AsyncIterable<Uint8Array>) {
    parts.push(part);
    largest = Math.max(largest, part.length);
  }
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    bytes.set(p, at);
    at += p.length;
  }
  return { bytes, largest };
}

const FORMATS: [string, (n: number) => Uint8Array, (n: number) => ByteSource][] = [
  ["wav", wav, wavSource],
  ["pcm", pcm, pcmSource],
  ["mp3", mp3, mp3Source],
  ["flac", flac, flacSource],
];

describe("speech sources", () => {
  // 0 and 1 sample, around MP3 frames and FLAC blocks, a FLAC frame number past one coded byte (frame 128+).
  const COUNTS = [0, 1, 575, 577, 4095, 4096, 4097, 72_017, 600_001];

  it.each(FORMATS)("%s: the whole read, and slices across every boundary, equal the encoder's bytes", (_name, whole, source) => {
    for (const n of COUNTS) {
      const expected = whole(n);
      const src = source(n);
      expect(src.byteLength).toBe(expected.length);
      expect(src.read(0, src.byteLength)).toEqual(expected);
      for (const [offset, size] of [
        [0, 1],
        [3, 50],
        [43, 3],
        [95, 2],
        [8200, 9000],
        [expected.length - 7, 100],
      ] as const) {
        if (offset < 0 || offset >= expected.length) continue;
        expect(src.read(offset, size)).toEqual(expected.subarray(offset, offset + size));
      }
    }
  });

  it("byteStream sends the same bytes in chunks of at most STREAM_CHUNK_BYTES; a prefix when asked", async () => {
    const src = flacSource(600_001);
    const { bytes, largest } = await drain(byteStream(src));
    expect(bytes).toEqual(flac(600_001));
    expect(largest).toBe(STREAM_CHUNK_BYTES);
    expect((await drain(byteStream(src, 100_000))).bytes).toEqual(flac(600_001).subarray(0, 100_000));
  });
});

describe("eventStream", () => {
  it("lazy events encode as the joined transcript does, a malformed tail last", async () => {
    let made = 0;
    const events: SseEvent[] = Array.from(
      { length: 300 },
      (_, i) =>
        new LazyEvent(() => {
          made++;
          return JSON.stringify({ i, pad: "x".repeat(1000) });
        }),
    );
    expect(made).toBe(0);
    const plain = events.map((e) => ({ data: e.data }));
    const { bytes, largest } = await drain(eventStream(events, encodeEvent, "data: {broken\n\n"));
    expect(new TextDecoder().decode(bytes)).toBe(`${plain.map(encodeEvent).join("")}data: {broken\n\n`);
    expect(largest).toBeLessThan(70 * 1024);
  });
});

describe("parseForm's linear search", () => {
  const enc = new TextEncoder();
  /** The naive search it replaced. */
  function naive(hay: Uint8Array, needle: Uint8Array, from: number): number {
    outer: for (let i = from; i + needle.length <= hay.length; i++) {
      for (let j = 0; j < needle.length; j++) if (hay[i + j] !== needle[j]) continue outer;
      return i;
    }
    return -1;
  }

  it("self-overlapping boundaries among near-misses: every file's size is what a naive search finds", () => {
    let seed = 7;
    const rand = (n: number) => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed % n;
    };
    let checked = 0;
    for (const boundary of ["aab", "-".repeat(70), "abab", "x"]) {
      for (let round = 0; round < 40; round++) {
        const alphabet = ["a", "b", "-", "\r", "\n", "x", `\r\n--${boundary.slice(0, Math.max(1, boundary.length - 1))}`];
        const file = Array.from({ length: 30 + rand(200) }, () => alphabet[rand(alphabet.length)]).join("");
        const text = `--${boundary}\r\nContent-Disposition: form-data; name="f"; filename="f.bin"\r\n\r\n${file}\r\n--${boundary}--\r\n`;
        const bytes = enc.encode(text);
        const head = naive(bytes, enc.encode("\r\n\r\n"), 0);
        const end = naive(bytes, enc.encode(`\r\n--${boundary}`), head + 2);
        const parsed = parseForm(bytes, boundary);
        if (end < 0) continue;
        // After the delimiter found: the closing "--" (the file ends there), else a part that is not well formed
        // (rounds whose file holds a whole delimiter and a line break start a new part: not this check's).
        const after = end + 4 + boundary.length;
        const closing = bytes[after] === 45 && bytes[after + 1] === 45;
        if (!closing && bytes[after] === 13 && bytes[after + 1] === 10) continue;
        const expected = closing ? end - Math.min(head + 4, end) : "a boundary delimiter is not followed by a line break";
        expect(parsed.ok ? (parsed.form.f as { size: number }).size : parsed.message).toBe(expected);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});
