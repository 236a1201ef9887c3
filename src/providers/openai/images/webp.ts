/**
 * A flat-colour lossless WebP (VP8L): no transforms, no colour cache, and five one-symbol prefix codes (green, red,
 * blue, alpha, distance), so every pixel is that colour's literal and takes zero bits. ~40 bytes whatever the size.
 */
import type { Rgba } from "../../../util/png";

class LsbWriter {
  private out: number[] = [];
  private acc = 0;
  private n = 0;

  bits(value: number, count: number): void {
    for (let i = 0; i < count; i++) {
      this.acc |= ((value >>> i) & 1) << this.n;
      if (++this.n === 8) {
        this.out.push(this.acc);
        this.acc = 0;
        this.n = 0;
      }
    }
  }

  bytes(): number[] {
    if (this.n > 0) this.out.push(this.acc);
    return this.out;
  }
}

/** A "simple" prefix code of one symbol. */
function oneSymbol(w: LsbWriter, symbol: number): void {
  w.bits(1, 1); // simple code
  w.bits(0, 1); // one symbol
  const wide = symbol > 1;
  w.bits(wide ? 1 : 0, 1);
  w.bits(symbol, wide ? 8 : 1);
}

const u32le = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, (n >>> 24) & 0xff];

/**
 * The WebP file of a `width` × `height` picture (each at most 16384) in one colour.
 * @example encodeWebp(1, 1, { r: 0, g: 0, b: 255 }) // RIFF….WEBPVP8L…
 */
export function encodeWebp(width: number, height: number, color: Rgba): Uint8Array {
  const w = new LsbWriter();
  w.bits(width - 1, 14);
  w.bits(height - 1, 14);
  w.bits(color.a !== undefined && color.a !== 255 ? 1 : 0, 1); // alpha is used
  w.bits(0, 3); // version
  w.bits(0, 1); // no transform
  w.bits(0, 1); // no colour cache
  w.bits(0, 1); // no meta prefix codes
  for (const symbol of [color.g, color.r, color.b, color.a ?? 255, 0]) oneSymbol(w, symbol);
  const data = [0x2f, ...w.bytes()];
  const padded = data.length % 2 === 1 ? [...data, 0] : data;
  const chunk = [...Array.from("VP8L", (c) => c.charCodeAt(0)), ...u32le(data.length), ...padded];
  return Uint8Array.from([...Array.from("RIFF", (c) => c.charCodeAt(0)), ...u32le(4 + chunk.length), ...Array.from("WEBP", (c) => c.charCodeAt(0)), ...chunk]);
}
