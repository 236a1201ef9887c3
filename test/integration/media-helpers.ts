/**
 * Decoders the media tests check the mock's bytes with, runtime-neutral (DecompressionStream exists in workerd and
 * Node): PNG chunks with their CRCs and pixels, JPEG frame size, WAV header fields.
 */
import { crc32 } from "../../src/util/crc32";

export interface Png {
  width: number;
  height: number;
  colorType: number;
  crcOk: boolean;
  /** Inflated scanlines (filter byte + pixels each). */
  raw: Uint8Array;
}

async function inflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export async function decodePng(bytes: Uint8Array): Promise<Png> {
  const sig = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (!sig.every((b, i) => bytes[i] === b)) throw new Error("not a PNG");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 8;
  let crcOk = true;
  let width = 0;
  let height = 0;
  let colorType = 0;
  const idat: Uint8Array[] = [];
  while (at < bytes.length) {
    const len = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    const data = bytes.subarray(at + 8, at + 8 + len);
    crcOk &&= crc32(bytes.subarray(at + 4, at + 8 + len)) === view.getUint32(at + 8 + len);
    if (type === "IHDR") {
      width = view.getUint32(at + 8);
      height = view.getUint32(at + 12);
      colorType = data[9]!;
    }
    if (type === "IDAT") idat.push(data);
    at += 12 + len;
  }
  const all = new Uint8Array(idat.reduce((n, d) => n + d.length, 0));
  let o = 0;
  for (const d of idat) {
    all.set(d, o);
    o += d.length;
  }
  return { width, height, colorType, crcOk, raw: await inflate(all) };
}

/** Width and height from a JPEG's SOF0 segment. */
export function jpegSize(bytes: Uint8Array): { width: number; height: number } {
  for (let i = 2; i < bytes.length; ) {
    const marker = bytes[i + 1]!;
    const len = (bytes[i + 2]! << 8) | bytes[i + 3]!;
    if (marker === 0xc0) return { height: (bytes[i + 5]! << 8) | bytes[i + 6]!, width: (bytes[i + 7]! << 8) | bytes[i + 8]! };
    i += 2 + len;
  }
  throw new Error("no SOF0");
}

export function fromBase64(b64: string): Uint8Array {
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

export interface Wav {
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
  byteRate: number;
  dataBytes: number;
  riffSize: number;
}

export function parseWav(bytes: Uint8Array): Wav {
  const v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (tag(0) !== "RIFF" || tag(8) !== "WAVE" || tag(12) !== "fmt " || tag(36) !== "data") throw new Error("not a canonical WAV");
  return {
    riffSize: v.getUint32(4, true),
    channels: v.getUint16(22, true),
    sampleRate: v.getUint32(24, true),
    byteRate: v.getUint32(28, true),
    bitsPerSample: v.getUint16(34, true),
    dataBytes: v.getUint32(40, true),
  };
}
