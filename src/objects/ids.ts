/**
 * Object ids that sort by creation: a time part (milliseconds, base 62, fixed width, strictly increasing within an
 * isolate) and a random part. A store lists keys in ascending order, so listing ids lists objects oldest first.
 */
const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
let last = 0;

function base62(n: number, width: number): string {
  let out = "";
  for (let i = 0; i < width; i++) {
    out = ALPHABET[n % 62]! + out;
    n = Math.floor(n / 62);
  }
  return out;
}

/** Random characters of `alphabet` (base 62 by default). */
function randomPart(length: number, alphabet = ALPHABET): string {
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  let out = "";
  for (const b of bytes) out += alphabet[b % alphabet.length]!;
  return out;
}

/**
 * A new id: `prefix`, 8 time characters, then `random` random ones.
 * @example sortableId("file-", 14) // "file-0Hx3Zk2a…"
 */
export function sortableId(prefix: string, random: number): string {
  return prefix + base62(creationStamp(), 8) + randomPart(random);
}

/** Milliseconds now, strictly increasing within an isolate: what orders objects made in the same second. */
export function creationStamp(): number {
  last = Math.max(Date.now(), last + 1);
  return last;
}

/** Lower-case hex of `length` random characters (Anthropic's and OpenAI's hex ids). */
export function randomHex(length: number): string {
  const bytes = crypto.getRandomValues(new Uint8Array(Math.ceil(length / 2)));
  return [...bytes]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("")
    .slice(0, length);
}

/** `length` random lower-case letters and digits (Gemini's file and cache ids). */
export function randomLowerAlnum(length: number): string {
  return randomPart(length, "abcdefghijklmnopqrstuvwxyz0123456789");
}

/**
 * A new id as OpenAI's platform objects look (vector stores, uploads, containers): `prefix`, the Unix seconds in 8
 * hex, then random hex to `length` hex digits in all.
 * @example timeHex("cntr_", 48) // "cntr_682e3064…" (48 hex digits)
 */
export function timeHex(prefix: string, length: number): string {
  return (
    prefix +
    Math.floor(Date.now() / 1000)
      .toString(16)
      .padStart(8, "0") +
    randomHex(length - 8)
  );
}
