/**
 * The media encoders against independent decoders: node:zlib for PNG's zlib stream, sharp (libvips: libjpeg, libwebp)
 * for JPEG and WebP, published CRC check values for FLAC's CRC-8 and CRC-16, and a byte-exact PNG test vector
 * (checked with Python's zlib when written).
 */
import { inflateSync } from "node:zlib";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { adler32Repeated, zlibRepeated } from "../../src/util/deflate";
import { encodeJpeg } from "../../src/providers/openai/images/jpeg";
import { encodePng } from "../../src/util/png";
import { encodeWebp } from "../../src/providers/openai/images/webp";
import { pictureId, pictureOf } from "../../src/providers/openai/images/picture";
import { crc16, crc8, flac } from "../../src/providers/openai/audio/flac";
import { mp3, pcm, wav } from "../../src/providers/openai/audio/pcm";

describe("PNG", () => {
  it("a 2×1 red picture is byte for byte the test vector", () => {
    expect(Buffer.from(encodePng(2, 1, { r: 255, g: 0, b: 0 })).toString("hex")).toBe(
      "89504e470d0a1a0a0000000d49484452000000020000000108020000007b40e8dd" + "0000000c49444154780163f8cf00420008fe01ff116b4631" + "0000000049454e44ae426082",
    );
  });

  it("zlib streams inflate (Adler-32 checked by zlib) for every shape of line and count", () => {
    for (const [w, h, channels] of [
      [1, 1, 3],
      [1, 2, 3],
      [2, 3, 4],
      [86, 3, 3],
      [87, 5, 4],
      [1024, 1024, 3],
      [1792, 1024, 4],
      [8191, 2, 4],
      // Lines longer than DEFLATE's 32 KiB window (Gemini 3.1 Flash Image's 8:1 at 4K is 12,288 wide): line by line.
      [8192, 3, 4],
      [12288, 40, 3],
    ] as const) {
      const line = new Uint8Array(1 + w * channels);
      for (let x = 0; x < w; x++) line.set([7, 200, 33, 255].slice(0, channels), 1 + x * channels);
      const raw = inflateSync(zlibRepeated(line, h, channels));
      expect(raw.length).toBe(line.length * h);
      for (const row of [0, Math.floor(h / 2), h - 1]) expect(raw.subarray(row * line.length, (row + 1) * line.length)).toEqual(Buffer.from(line));
    }
    expect(adler32Repeated(new TextEncoder().encode("Wikipedia"), 1)).toBe(0x11e60398);
  });

  it("decodes with sharp to the asked size and colour, RGB or RGBA", async () => {
    const { data, info } = await sharp(Buffer.from(encodePng(300, 200, { r: 1, g: 2, b: 3, a: 255 })))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([info.width, info.height, info.channels, ...data.subarray(0, 4)]).toEqual([300, 200, 4, 1, 2, 3, 255]);
  });
});

describe("JPEG and WebP", () => {
  it.each([
    [1, 1],
    [13, 7],
    [1024, 1536],
    [1792, 1024],
  ])("%i×%i decode to the size and colour (JPEG within rounding)", async (w, h) => {
    for (const [encode, format] of [
      [encodeJpeg, "jpeg"],
      [encodeWebp, "webp"],
    ] as const) {
      const img = sharp(Buffer.from(encode(w, h, { r: 51, g: 102, b: 255 })));
      expect((await img.metadata()).format).toBe(format);
      const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
      expect([info.width, info.height]).toEqual([w, h]);
      for (const at of [0, data.length - info.channels]) {
        [51, 102, 255].forEach((c, i) => expect(Math.abs(data[at + i]! - c)).toBeLessThanOrEqual(format === "jpeg" ? 2 : 0));
      }
    }
  });

  it("picture ids round-trip and refuse sizes past the limit", () => {
    const p = { width: 512, height: 256, hex: "0a0b0c", transparent: true, format: "webp" as const };
    expect(pictureId(p)).toBe("img-512x256-0a0b0c-t.webp");
    expect(pictureOf(pictureId(p))).toEqual(p);
    expect(pictureOf("img-5000x1-000000.png")).toBeUndefined();
    expect(pictureOf("img-0x1-000000.png")).toBeUndefined();
    expect(pictureOf("../etc/passwd")).toBeUndefined();
  });
});

describe("audio", () => {
  it("FLAC's CRC-8 and CRC-16 match their catalogue check values", () => {
    const check = new TextEncoder().encode("123456789");
    expect([crc8(check), crc16(check)]).toEqual([0xf4, 0xfee8]);
  });

  it("a FLAC stream: STREAMINFO with the total samples, frames of 4096 with valid CRCs, verbatim samples", () => {
    const samples = 4096 + 100;
    const f = flac(samples);
    const v = new DataView(f.buffer);
    expect(String.fromCharCode(...f.subarray(0, 4))).toBe("fLaC");
    expect([f[4], (f[5]! << 16) | (f[6]! << 8) | f[7]!]).toEqual([0x80, 34]);
    expect([v.getUint16(8), v.getUint16(10)]).toEqual([4096, 4096]);
    expect((v.getUint32(18) >>> 12) & 0xfffff).toBe(24_000);
    expect(v.getUint32(22)).toBe(samples); // low 32 bits of the 36-bit total
    const first = 42;
    const headLen = 5; // ff f8, block/rate, channels/size, frame number 0
    expect([...f.subarray(first, first + 4)]).toEqual([0xff, 0xf8, 0xc7, 0x08]);
    expect(crc8(f.subarray(first, first + headLen))).toBe(f[first + headLen]);
    const frameLen = headLen + 1 + 1 + 4096 * 2 + 2;
    expect(crc16(f.subarray(first, first + frameLen - 2))).toBe(v.getUint16(first + frameLen - 2));
    const pcmBytes = pcm(4096);
    expect(v.getInt16(first + headLen + 2 + 2 * 15)).toBe(new DataView(pcmBytes.buffer).getInt16(2 * 15, true));
    expect(f.length).toBe(first + frameLen + (headLen + 2 + 1 + 1 + 100 * 2 + 2));
  });

  it("WAV is pcm behind a 44-byte header; MP3 rounds up to whole 96-byte frames", () => {
    expect(wav(10).subarray(44)).toEqual(pcm(10));
    expect([mp3(1).length, mp3(576).length, mp3(577).length]).toEqual([96, 96, 192]);
  });
});
