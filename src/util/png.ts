/**
 * A flat-colour PNG of any size: IHDR, one IDAT (deflate.ts), IEND, each with its CRC-32 (crc32.ts).
 */
import { crc32 } from "./crc32";
import { zlibRepeated } from "./deflate";
import { concatBytes } from "./bytes";

export interface Rgba {
  r: number;
  g: number;
  b: number;
  /** Present: an RGBA picture (colour type 6) with this alpha; absent: RGB (colour type 2). */
  a?: number;
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/**
 * The PNG file of a `width` × `height` picture in one colour.
 * @example encodePng(2, 1, { r: 255, g: 0, b: 0 }) // 8-bit RGB, IDAT inflating to 00 ff0000 ff0000
 */
export function encodePng(width: number, height: number, color: Rgba): Uint8Array {
  const channels = color.a === undefined ? 3 : 4;
  const header = new Uint8Array(13);
  const hv = new DataView(header.buffer);
  hv.setUint32(0, width);
  hv.setUint32(4, height);
  header.set([8, channels === 4 ? 6 : 2, 0, 0, 0], 8); // bit depth, colour type, compression, filter, interlace
  const line = new Uint8Array(1 + width * channels); // filter type 0, then the pixels
  const px = color.a === undefined ? [color.r, color.g, color.b] : [color.r, color.g, color.b, color.a];
  for (let x = 0; x < width; x++) line.set(px, 1 + x * channels);
  const parts = [Uint8Array.from(SIGNATURE), chunk("IHDR", header), chunk("IDAT", zlibRepeated(line, height, channels)), chunk("IEND", new Uint8Array(0))];
  return concatBytes(parts);
}
