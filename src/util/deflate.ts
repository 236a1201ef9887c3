/**
 * A tiny zlib stream (RFC 1950/1951) for the one kind of data the image encoders produce: a first scanline, then the
 * same scanline repeated. One fixed-Huffman block: the first line as literals (runs as back-references), every later
 * line as back-references of one line's distance (past the window, the first line's codes again). Real DEFLATE any
 * inflater reads; ~3 % of the raw size for a flat picture, computed without materialising the image.
 */

const LENGTH_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LENGTH_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DIST_BASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577];
const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];

/** Largest line the stream can copy whole (DEFLATE's window); a longer one is written line by line. */
export const MAX_LINE_BYTES = 32768;

/** Where codes go: the stream's bytes (BitWriter), or a line's codes kept to be written again (Recorded). */
interface Bits {
  bits(value: number, bits: number): void;
  code(value: number, bits: number): void;
}

/** The codes one line makes, kept as (value, length) pairs to be written again for every line like it. */
class Recorded implements Bits {
  readonly pairs: number[] = [];

  bits(value: number, bits: number): void {
    this.pairs.push(value, bits);
  }

  code(value: number, bits: number): void {
    this.pairs.push(reversed(value, bits), bits);
  }
}

class BitWriter implements Bits {
  private out = new Uint8Array(1024);
  private length = 0;
  private acc = 0;
  private n = 0;

  /** `bits` low bits of `value`, least significant first (header fields, extra bits); at most 24 at a time. */
  bits(value: number, bits: number): void {
    this.acc |= value << this.n;
    this.n += bits;
    while (this.n >= 8) {
      if (this.length === this.out.length) {
        const grown = new Uint8Array(this.out.length * 2);
        grown.set(this.out);
        this.out = grown;
      }
      this.out[this.length++] = this.acc & 0xff;
      this.acc >>>= 8;
      this.n -= 8;
    }
  }

  /** A Huffman code, most significant bit first. */
  code(value: number, bits: number): void {
    this.bits(reversed(value, bits), bits);
  }

  bytes(): Uint8Array {
    if (this.n > 0) this.bits(0, 8 - this.n);
    return this.out.slice(0, this.length);
  }
}

/** `value`'s low `bits` bits in reverse order (a Huffman code as DEFLATE packs it, least significant bit first). */
function reversed(value: number, bits: number): number {
  let out = 0;
  for (let i = 0; i < bits; i++) out |= ((value >>> i) & 1) << (bits - 1 - i);
  return out;
}

/** The fixed literal/length code of a symbol 0–287. */
function symbol(w: Bits, sym: number): void {
  if (sym < 144) w.code(0x30 + sym, 8);
  else if (sym < 256) w.code(0x190 + sym - 144, 9);
  else if (sym < 280) w.code(sym - 256, 7);
  else w.code(0xc0 + sym - 280, 8);
}

/** One back-reference's bits, 3 ≤ length ≤ 258, 1 ≤ distance ≤ 32768: its length symbol with extra bits, then its distance code with extra bits (each at most 24 bits, as `BitWriter.bits` takes them). */
function matchBits(length: number, distance: number): [number, number, number, number] {
  let l = LENGTH_BASE.length - 1;
  while (LENGTH_BASE[l]! > length) l--;
  const sym = 257 + l;
  const [code, codeBits] = sym < 280 ? [sym - 256, 7] : [0xc0 + sym - 280, 8];
  let d = DIST_BASE.length - 1;
  while (DIST_BASE[d]! > distance) d--;
  return [reversed(code, codeBits) | ((length - LENGTH_BASE[l]!) << codeBits), codeBits + LENGTH_EXTRA[l]!, reversed(d, 5) | ((distance - DIST_BASE[d]!) << 5), 5 + DIST_EXTRA[d]!];
}

function match(w: Bits, [a, aBits, b, bBits]: [number, number, number, number]): void {
  w.bits(a, aBits);
  w.bits(b, bBits);
}

/** `length` bytes copied from `distance` back, split into matches of at most 258 (none shorter than 3); the 258-byte match's bits worked out once. */
function copy(w: Bits, length: number, distance: number, literal: (i: number) => number): void {
  let left = length;
  if (left < 3) {
    for (let i = 0; i < left; i++) symbol(w, literal(i));
    return;
  }
  const full = matchBits(258, distance);
  while (left > 0) {
    let take = Math.min(258, left);
    if (left - take > 0 && left - take < 3) take = left - 3;
    match(w, take === 258 ? full : matchBits(take, distance));
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
 * before it starts a run copied from there (a flat colour's pixels); the later lines are one copy of a line's distance,
 * or, past DEFLATE's window (a 4K picture at 8:1), each written as the first.
 * @example zlibRepeated(Uint8Array.of(0, 255, 0, 0), 2, 3) // inflates to 0,255,0,0,0,255,0,0
 */
export function zlibRepeated(line: Uint8Array, times: number, period: number): Uint8Array {
  const w = new BitWriter();
  w.bits(1, 1); // BFINAL
  w.bits(1, 2); // BTYPE 01: fixed Huffman codes
  const first = new Recorded();
  let i = 0;
  while (i < line.length) {
    let run = 0;
    if (i >= period) while (i + run < line.length && line[i + run] === line[i + run - period]) run++;
    if (run >= 3) {
      copy(first, run, period, () => 0);
      i += run;
    } else {
      symbol(first, line[i]!);
      i++;
    }
  }
  // A line longer than DEFLATE's window cannot be copied whole: each one is then written as the first is.
  const whole = line.length <= MAX_LINE_BYTES;
  const { pairs } = first;
  const written = whole ? 1 : times;
  for (let t = 0; t < written; t++) for (let k = 0; k < pairs.length; k += 2) w.bits(pairs[k]!, pairs[k + 1]!);
  if (whole && times > 1) copy(w, line.length * (times - 1), line.length, (k) => line[k % line.length]!);
  symbol(w, 256); // end of block
  const deflated = w.bytes();
  const out = new Uint8Array(2 + deflated.length + 4);
  out[0] = 0x78;
  out[1] = 0x01;
  out.set(deflated, 2);
  new DataView(out.buffer).setUint32(out.length - 4, adler32Repeated(line, times));
  return out;
}
