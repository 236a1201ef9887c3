/**
 * Stable, dependency-free hashing for deterministic ids, vectors and jitter. Never Math.random.
 */

/** 32-bit FNV-1a over the UTF-16 code units of `s`, as a signed 32-bit integer. */
export function stableHash(s: string): number {
  return hashOn(0x811c9dc5, s);
}

/**
 * FNV-1a continued over `s` from `h`, the hash of what came before: `hashOn(stableHash(a), b) === stableHash(a + b)`.
 * (Ids and tokens use the 64-bit `hash64On` / `tokenAfter` instead.)
 */
export function hashOn(h: number, s: string): number {
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}

/** mulberry32: a tiny seeded PRNG returning floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    return mulberry32(a) / 4294967296;
  };
}

/** mulberry32's output for its state `a` (already advanced), as an unsigned 32-bit integer. */
function mulberry32(a: number): number {
  let t = Math.imul(a ^ (a >>> 15), a | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return (t ^ (t >>> 14)) >>> 0;
}

export const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * A 64-bit FNV-1a state, as its two unsigned 32-bit halves: what ids and tokens are derived from, so that a pair of
 * seeds shares an id only with probability 2^-64 (a 32-bit hash collides among tens of thousands of seeds).
 */
export interface Hash64 {
  readonly hi: number;
  readonly lo: number;
}

/** 64-bit FNV-1a's offset basis, 0xcbf29ce484222325: the hash of "". */
const FNV64_OFFSET: Hash64 = { hi: 0xcbf29ce4, lo: 0x84222325 };

/**
 * 64-bit FNV-1a over the UTF-16 code units of `s` (for text of code units < 256, the standard FNV-1a 64 of its bytes).
 * @example stableHash64("a") // { hi: 0xaf63dc4c, lo: 0x8601ec8c }
 */
export function stableHash64(s: string): Hash64 {
  return hash64On(FNV64_OFFSET, s);
}

/**
 * 64-bit FNV-1a continued over `s` from `h`, the hash of what came before: `hash64On(stableHash64(a), b)` equals
 * `stableHash64(a + b)`, so ids that share a long prefix hash it once (a stream's `obfuscation` seeds).
 */
export function hash64On(h: Hash64, s: string): Hash64 {
  let hi = h.hi;
  let lo = h.lo;
  for (let i = 0; i < s.length; i++) {
    lo = (lo ^ s.charCodeAt(i)) >>> 0;
    // × the FNV-64 prime 2^40 + 0x1b3, mod 2^64, in halves: lo × 0x1b3 is below 2^41, exact in a double; its top
    // bits carry into hi, which also takes hi × 0x1b3 and lo × 2^8 (lo × 2^40 shifted down by 32).
    const low = lo * 0x1b3;
    hi = (Math.imul(hi, 0x1b3) + (lo << 8) + ((low / 4294967296) | 0)) >>> 0;
    lo = low >>> 0;
  }
  return { hi, lo };
}

/** `length` characters of `alphabet` (base62 unless given) derived deterministically from `seed`'s 64-bit hash. */
export function stableToken(seed: string, length: number, alphabet = BASE62): string {
  return tokenAfter(FNV64_OFFSET, seed, length, alphabet);
}

/** One array of character codes per token length (up to 64), reused: a token's codes are copied into its string. */
const scratch: number[][] = [];

/** `stableToken(prefix + rest, …)` given `stableHash64(prefix)`: the hash goes on over `rest` only. */
export function tokenAfter(prefix: Hash64, rest: string, length: number, alphabet = BASE62): string {
  const h = hash64On(prefix, rest);
  return tokenOfHash64(h.hi, h.lo, length, alphabet);
}

/**
 * `length` characters of `alphabet` from the 64-bit state (hi, lo): two Weyl sequences, one per half (mulberry32's
 * increment on lo, the golden ratio's on hi), each step's draw mulberry32's output of the one plus murmur3's
 * finaliser of the other, so every character depends on all 64 bits. The codes are gathered in a reused array: every
 * scripted answer makes a few ids and every streamed chunk a padding, and a string grown one character at a time
 * allocates a piece per character.
 */
function tokenOfHash64(hi: number, lo: number, length: number, alphabet: string): string {
  const codes = length <= 64 ? (scratch[length] ??= new Array<number>(length).fill(0)) : new Array<number>(length);
  let a = lo;
  let b = hi;
  for (let i = 0; i < length; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    b = (b + 0x9e3779b9) >>> 0;
    const draw = (mulberry32(a) + fmix32(b)) >>> 0;
    codes[i] = alphabet.charCodeAt(Math.floor((draw / 4294967296) * alphabet.length));
  }
  return String.fromCharCode.apply(null, codes);
}

/** murmur3's 32-bit finaliser: a bijection that spreads every input bit over the output. */
function fmix32(h: number): number {
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Lower-case hex of `length` characters derived from `seed`. */
export function stableHex(seed: string, length: number): string {
  return stableToken(seed, length, HEX);
}

const HEX = "0123456789abcdef";

/** Bytes as lowercase hex. */
export function hex(bytes: Uint8Array): string {
  let out = "";
  for (const b of bytes) out += b.toString(16).padStart(2, "0");
  return out;
}

/** SHA-256 of a string's UTF-8 bytes, as hex (64 characters). */
export async function sha256Hex(s: string): Promise<string> {
  return hex(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(s))));
}

/** Equal strings, compared in time that depends only on their lengths (SHA-256 hex: always 64). */
export function sameHash(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length && i < b.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}
