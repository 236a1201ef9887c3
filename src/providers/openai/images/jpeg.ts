/**
 * A flat-colour baseline JPEG (JFIF, YCbCr 4:4:4, quantisation 1): every 8×8 block holds only its DC coefficient,
 * so each block after the first codes as "DC unchanged, end of block" — six bits per block.
 */
import type { Rgba } from "../../../util/png";

/** DC categories 0–11: category 0 is `0`, the others five-bit codes 10000, 10001, … */
const DC_BITS = [1, 0, 0, 0, 11, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
const DC_SYMBOLS = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11];
/** AC: only end-of-block, code `0`. */
const AC_BITS = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];

class EntropyWriter {
  readonly out: number[] = [];
  private acc = 0;
  private n = 0;

  write(value: number, bits: number): void {
    for (let i = bits - 1; i >= 0; i--) {
      this.acc = (this.acc << 1) | ((value >>> i) & 1);
      if (++this.n === 8) this.flushByte();
    }
  }

  private flushByte(): void {
    this.out.push(this.acc);
    if (this.acc === 0xff) this.out.push(0); // byte stuffing
    this.acc = 0;
    this.n = 0;
  }

  /** Pads the last byte with 1 bits. */
  finish(): number[] {
    while (this.n !== 0) this.write(1, 1);
    return this.out;
  }
}

function dcCode(w: EntropyWriter, diff: number): void {
  const magnitude = Math.abs(diff);
  const category = magnitude === 0 ? 0 : 32 - Math.clz32(magnitude);
  if (category === 0) w.write(0, 1);
  else {
    w.write(0x10 + category - 1, 5);
    w.write(diff > 0 ? diff : diff + (1 << category) - 1, category);
  }
}

function segment(marker: number, body: number[]): number[] {
  return [0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 0xff, ...body];
}

/**
 * The JPEG file of a `width` × `height` picture in one colour (alpha ignored: JPEG has none).
 * @example encodeJpeg(16, 8, { r: 255, g: 0, b: 0 }) // FF D8 … FF D9, two blocks per component
 */
export function encodeJpeg(width: number, height: number, color: Rgba): Uint8Array {
  const { r, g, b } = color;
  const ycc = [0.299 * r + 0.587 * g + 0.114 * b, 128 - 0.168736 * r - 0.331264 * g + 0.5 * b, 128 + 0.5 * r - 0.418688 * g - 0.081312 * b].map((v) => Math.max(0, Math.min(255, Math.round(v))));
  const dc = ycc.map((v) => 8 * (v - 128));
  const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
  const w = new EntropyWriter();
  for (let m = 0; m < blocks; m++) {
    for (let c = 0; c < 3; c++) {
      dcCode(w, m === 0 ? dc[c]! : 0);
      w.write(0, 1); // end of block
    }
  }
  const head = [
    0xff,
    0xd8,
    ...segment(0xe0, [0x4a, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0]),
    ...segment(0xdb, [0, ...new Array<number>(64).fill(1)]),
    ...segment(0xc0, [8, height >> 8, height & 0xff, width >> 8, width & 0xff, 3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0]),
    ...segment(0xc4, [0x00, ...DC_BITS, ...DC_SYMBOLS, 0x10, ...AC_BITS, 0x00]),
    ...segment(0xda, [3, 1, 0x00, 2, 0x00, 3, 0x00, 0, 63, 0]),
  ];
  return Uint8Array.from([...head, ...w.finish(), 0xff, 0xd9]);
}
