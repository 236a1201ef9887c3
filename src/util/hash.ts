/**
 * Stable, dependency-free hashing for deterministic ids, vectors and jitter. Never Math.random.
 */

/** 32-bit FNV-1a over the UTF-16 code units of `s`, as a signed 32-bit integer. */
export function stableHash(s: string): number {
  return hashOn(0x811c9dc5, s);
}

/**
 * FNV-1a continued over `s` from `h`, the hash of what came before: `hashOn(stableHash(a), b) === stableHash(a + b)`,
 * so ids that share a long prefix hash it once (a stream's `obfuscation` seeds).
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

/** `length` characters of `alphabet` (base62 unless given) derived deterministically from `seed`. */
export function stableToken(seed: string, length: number, alphabet = BASE62): string {
  return tokenOfHash(stableHash(seed), length, alphabet);
}

/** One array of character codes per token length (up to 64), reused: a token's codes are copied into its string. */
const scratch: number[][] = [];

/** stableToken from the seed's hash (stableHash or hashOn). */
export function tokenOfHash(hash: number, length: number, alphabet = BASE62): string {
  // seededRandom(hash)'s draws, without a closure per token; the characters gathered as codes: every scripted answer
  // makes a few ids and every streamed chunk a padding, and a string grown one character at a time allocates a piece
  // per character.
  const codes = length <= 64 ? (scratch[length] ??= new Array<number>(length).fill(0)) : new Array<number>(length);
  let a = hash >>> 0;
  for (let i = 0; i < length; i++) {
    a = (a + 0x6d2b79f5) >>> 0;
    codes[i] = alphabet.charCodeAt(Math.floor((mulberry32(a) / 4294967296) * alphabet.length));
  }
  return String.fromCharCode.apply(null, codes);
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
