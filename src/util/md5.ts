/**
 * MD5 (RFC 1321), fed piece by piece: what OpenAI's `POST /v1/uploads/{id}/complete` checks its optional `md5`
 * against, over parts read one at a time. Web Crypto has no MD5 (workerd's is an extension Node lacks), so both
 * runtimes run this. Not for anything secret.
 * @example const h = new Md5(); h.update(bytes); h.hex() // "9e107d9d372bb6826bd81d3542a419d6" for "The quick brown fox…"
 */

// Per-round left rotations and the sine-derived constants, as the RFC tabulates them.
const SHIFTS = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21];
const K = new Int32Array(64);
for (let i = 0; i < 64; i++) K[i] = Math.floor(Math.abs(Math.sin(i + 1)) * 2 ** 32) | 0;

export class Md5 {
  private readonly state = new Int32Array([0x67452301, 0xefcdab89 | 0, 0x98badcfe | 0, 0x10325476]);
  private readonly block = new Uint8Array(64);
  private readonly words = new Int32Array(16);
  private filled = 0;
  private length = 0;
  private done = false;

  /** Adds `bytes` to what is hashed. */
  update(bytes: Uint8Array): this {
    if (this.done) throw new Error("Md5: update after digest");
    this.length += bytes.length;
    let at = 0;
    if (this.filled > 0) {
      const take = Math.min(64 - this.filled, bytes.length);
      this.block.set(bytes.subarray(0, take), this.filled);
      this.filled += take;
      at = take;
      if (this.filled < 64) return this;
      this.compress(this.block, 0);
      this.filled = 0;
    }
    for (; at + 64 <= bytes.length; at += 64) this.compress(bytes, at);
    if (at < bytes.length) {
      this.block.set(bytes.subarray(at), 0);
      this.filled = bytes.length - at;
    }
    return this;
  }

  /** The digest as 32 lowercase hex digits; the hash takes no more bytes after. */
  hex(): string {
    if (!this.done) this.finish();
    let out = "";
    for (let i = 0; i < 4; i++) {
      const w = this.state[i]!;
      for (let b = 0; b < 4; b++) out += ((w >>> (8 * b)) & 0xff).toString(16).padStart(2, "0");
    }
    return out;
  }

  private finish(): void {
    const bits = this.length * 8;
    const pad = new Uint8Array((this.filled < 56 ? 56 : 120) - this.filled + 8);
    pad[0] = 0x80;
    // The message length in bits, 64-bit little-endian (lengths here stay far below 2^53).
    const tail = pad.length - 8;
    const low = bits >>> 0;
    const high = Math.floor(bits / 2 ** 32) >>> 0;
    for (let b = 0; b < 4; b++) {
      pad[tail + b] = (low >>> (8 * b)) & 0xff;
      pad[tail + 4 + b] = (high >>> (8 * b)) & 0xff;
    }
    const length = this.length;
    this.update(pad);
    this.length = length;
    this.done = true;
  }

  private compress(bytes: Uint8Array, at: number): void {
    const x = this.words;
    for (let i = 0; i < 16; i++) {
      const p = at + i * 4;
      x[i] = bytes[p]! | (bytes[p + 1]! << 8) | (bytes[p + 2]! << 16) | (bytes[p + 3]! << 24);
    }
    const s = this.state;
    let a = s[0]!;
    let b = s[1]!;
    let c = s[2]!;
    let d = s[3]!;
    for (let i = 0; i < 64; i++) {
      let f: number;
      let g: number;
      if (i < 16) {
        f = (b & c) | (~b & d);
        g = i;
      } else if (i < 32) {
        f = (d & b) | (~d & c);
        g = (5 * i + 1) & 15;
      } else if (i < 48) {
        f = b ^ c ^ d;
        g = (3 * i + 5) & 15;
      } else {
        f = c ^ (b | ~d);
        g = (7 * i) & 15;
      }
      const sum = (a + f + K[i]! + x[g]!) | 0;
      const r = SHIFTS[(i >> 4) * 4 + (i & 3)]!;
      a = d;
      d = c;
      c = b;
      b = (b + ((sum << r) | (sum >>> (32 - r)))) | 0;
    }
    s[0] = (s[0]! + a) | 0;
    s[1] = (s[1]! + b) | 0;
    s[2] = (s[2]! + c) | 0;
    s[3] = (s[3]! + d) | 0;
  }
}
