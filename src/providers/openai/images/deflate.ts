/**
 * A tiny zlib stream (RFC 1950/1951) for the one kind of data the image encoders produce: a first scanline, then the
 * same scanline repeated. One fixed-Huffman block: the first line as literals (runs as back-references), every later
 * line as back-references of one line's distance. Real DEFLATE any inflater reads; ~3 % of the raw size for a flat
 * picture, computed without materialising the image.
 */

const LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DIST_BASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577];
const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];

/** Largest line the stream can repeat (DEFLATE's window). */
export const MAX_LINE_BYTES = 32768;

class BitWriter {
  private out: number[] = [];
  private acc = 0;
  private n = 0;

  /** `bits` low bits of `value`, least significant first (header fields, extra bits). */
  bits(value: number, bits: number): void {
    for (let i = 0; i < bits; i++) this.push((value >>> i) & 1);
  }

  /** A Huffman code, most significant bit first. */
  code(value: number, bits: number): void {
    for (let i = bits - 1; i >= 0; i--) this.push((value >>> i) & 1);
  }

  private push(bit: number): void {
    this.acc |= bit << this.n;
    if (++this.n === 8) {
      this.out.push(this.acc);
      this.acc = 0;
      this.n = 0;
    }
  }

  bytes(): Uint8Array {
    if (this.n > 0) this.out.push(this.acc);
    this.n = 0;
    this.acc = 0;
    return Uint8Array.from(this.out);
  }
}

/** The fixed literal/length code of a symbol 0–287. */
function symbol(w: BitWriter, sym: number): void {
  if (sym < 144) w.code(0x30 + sym, 8);
  else if (sym < 256) w.code(0x190 + sym - 144, 9);
  else if (sym < 280) w.code(sym - 256, 7);
  else w.code(0xc0 + sym - 280, 8);
}

/** One back-reference, 3 ≤ length ≤ 258, 1 ≤ distance ≤ 32768. */
function match(w: BitWriter, length: number, distance: number): void {
  let l = LENGTH_BASE.length - 1;
  while (LENGTH_BASE[l]! > length) l--;
  symbol(w, 257 + l);
  w.bits(length - LENGTH_BASE[l]!, LENGTH_EXTRA[l]!);
  let d = DIST_BASE.length - 1;
  while (DIST_BASE[d]! > distance) d--;
  w.code(d, 5);
  w.bits(distance - DIST_BASE[d]!, DIST_EXTRA[d]!);
}

/** `length` bytes copied from `distance` back, split into matches of at most 258 (none shorter than 3). */
function copy(w: BitWriter, length: number, distance: number, literal: (i: number) => number): void {
  let left = length;
  let i = 0;
  if (left < 3) {
    for (; i < left; i++) symbol(w, literal(i));
    return;
  }
  while (left > 0) {
    let take = Math.min(258, left);
    if (left - take > 0 && left - take < 3) take = left - 3;
    match(w, take, distance);
    left -= take;
  }
}

/** Adler-32 of `line` repeated `times` times, in O(line length). */
export function adler32Repeated(line: Uint8Array, times: number): number {
  const MOD = 65521;
  let sum = 0;
  let weighted = 0; // Σ (n − i)·byte_i
  const n = line.length;
  for (let i = 0; i < n; i++) {
    sum = (sum + line[i]!) % MOD;
    weighted = (weighted + (n - i) * line[i]!) % MOD;
  }
  let a = 1;
  let b = 0;
  for (let t = 0; t < times; t++) {
    b = (b + n * a + weighted) % MOD; // n·a mod: n < 2^16 and a < 2^16 keep it exact
    a = (a + sum) % MOD;
  }
  return ((b << 16) | a) >>> 0;
}

/**
 * The zlib stream of `line` repeated `times` times. Within the first line, a byte equal to the one `period` bytes
 * before it starts a run copied from there (a flat colour's pixels).
 * @example zlibRepeated(Uint8Array.of(0, 255, 0, 0), 2, 3) // inflates to 0,255,0,0,0,255,0,0
 */
export function zlibRepeated(line: Uint8Array, times: number, period: number): Uint8Array {
  if (line.length > MAX_LINE_BYTES) throw new RangeError(`a line of ${line.length} bytes is longer than DEFLATE's window`);
  const w = new BitWriter();
  w.bits(1, 1); // BFINAL
  w.bits(1, 2); // BTYPE 01: fixed Huffman codes
  let i = 0;
  while (i < line.length) {
    let run = 0;
    if (i >= period) while (i + run < line.length && line[i + run] === line[i + run - period]) run++;
    if (run >= 3) {
      copy(w, run, period, () => 0);
      i += run;
    } else {
      symbol(w, line[i]!);
      i++;
    }
  }
  if (times > 1) copy(w, line.length * (times - 1), line.length, (k) => line[k % line.length]!);
  symbol(w, 256); // end of block
  const deflated = w.bytes();
  const out = new Uint8Array(2 + deflated.length + 4);
  out[0] = 0x78;
  out[1] = 0x01;
  out.set(deflated, 2);
  new DataView(out.buffer).setUint32(out.length - 4, adler32Repeated(line, times));
  return out;
}
