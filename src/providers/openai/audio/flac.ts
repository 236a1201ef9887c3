/**
 * FLAC with verbatim subframes: the tone's 16-bit samples as they are, in frames of 4096, each with its CRC-8 header
 * check and CRC-16 footer (RFC 9639). Real FLAC any decoder reads (no compression: the size of the WAV, about).
 */
import { SAMPLE_RATE, toneSample } from "./pcm";
import { concatBytes } from "../../../util/bytes";

export const BLOCK = 4096;

const CRC8 = Uint8Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 0x80 ? ((c << 1) ^ 0x07) & 0xff : (c << 1) & 0xff;
  return c;
});
const CRC16 = Uint16Array.from({ length: 256 }, (_, n) => {
  let c = n << 8;
  for (let k = 0; k < 8; k++) c = c & 0x8000 ? ((c << 1) ^ 0x8005) & 0xffff : (c << 1) & 0xffff;
  return c;
});

export function crc8(bytes: Uint8Array): number {
  let c = 0;
  for (const b of bytes) c = CRC8[c ^ b]!;
  return c;
}

export function crc16(bytes: Uint8Array): number {
  let c = 0;
  for (const b of bytes) c = ((c << 8) & 0xffff) ^ CRC16[(c >> 8) ^ b]!;
  return c;
}

/** The frame number in FLAC's UTF-8-like coding. */
export function codedNumber(n: number): number[] {
  if (n < 0x80) return [n];
  if (n < 0x800) return [0xc0 | (n >> 6), 0x80 | (n & 0x3f)];
  if (n < 0x10000) return [0xe0 | (n >> 12), 0x80 | ((n >> 6) & 0x3f), 0x80 | (n & 0x3f)];
  return [0xf0 | (n >> 18), 0x80 | ((n >> 12) & 0x3f), 0x80 | ((n >> 6) & 0x3f), 0x80 | (n & 0x3f)];
}

export function streamInfo(samples: number): number[] {
  const bits: [number, number][] = [
    [BLOCK, 16],
    [BLOCK, 16], // min, max block size
    [0, 24],
    [0, 24], // min, max frame size: unknown
    [SAMPLE_RATE, 20],
    [0, 3],
    [15, 5], // rate, channels − 1, bits per sample − 1
    [Math.floor(samples / 2 ** 32), 4],
    [samples >>> 0, 32], // total samples (36 bits)
  ];
  const out: number[] = [];
  let acc = 0n;
  let n = 0;
  for (const [value, width] of bits) {
    acc = (acc << BigInt(width)) | BigInt(value >>> 0);
    n += width;
  }
  for (let i = n - 8; i >= 0; i -= 8) out.push(Number((acc >> BigInt(i)) & 0xffn));
  return [...out, ...new Array<number>(16).fill(0)]; // MD5: unknown
}

export function frame(index: number, first: number, count: number): Uint8Array {
  // Sync + fixed blocking; block size 4096 (code 12) or given after the header (code 7); 24 kHz (code 7);
  // mono, 16-bit.
  const head = [0xff, 0xf8, ((count === BLOCK ? 12 : 7) << 4) | 7, (0 << 4) | (4 << 1), ...codedNumber(index)];
  if (count !== BLOCK) head.push((count - 1) >> 8, (count - 1) & 0xff);
  head.push(crc8(Uint8Array.from(head)));
  const out = new Uint8Array(head.length + 1 + count * 2 + 2);
  out.set(head);
  out[head.length] = 0x02; // verbatim subframe, no wasted bits
  const view = new DataView(out.buffer);
  for (let i = 0; i < count; i++) view.setInt16(head.length + 1 + i * 2, toneSample(first + i));
  view.setUint16(out.length - 2, crc16(out.subarray(0, out.length - 2)));
  return out;
}

/**
 * `samples` of the tone as a FLAC file.
 * @example flac(0).length // 42: marker and STREAMINFO, no frames
 */
export function flac(samples: number): Uint8Array {
  const parts: Uint8Array[] = [Uint8Array.from([0x66, 0x4c, 0x61, 0x43, 0x80, 0, 0, 34, ...streamInfo(samples)])];
  for (let f = 0, first = 0; first < samples; f++, first += BLOCK) parts.push(frame(f, first, Math.min(BLOCK, samples - first)));
  return concatBytes(parts);
}
