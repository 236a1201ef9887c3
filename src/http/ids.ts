/**
 * Deterministic ids: the same (scenario, session, step, attempt) always yields the same ids.
 */
import { type Hash64, stableHash64, stableHex, stableToken, tokenAfter } from "../util/hash";
import { isHighSurrogate, isLowSurrogate } from "../util/text";

/** The alphabet of Anthropic's request ids (base58: no 0, O, I, l). */
const BASE58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz";
/** The alphabet of Ollama's tool-call ids (`toolCallId()` in its server). */
const LOWER36 = "abcdefghijklmnopqrstuvwxyz0123456789";
/** The alphabet of OpenAI's `obfuscation` padding. */
const OBFUSCATION = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** `prefix` + `length` base62 characters derived from `seed`. */
export function makeId(prefix: string, seed: string, length = 24): string {
  return `${prefix}${stableToken(`${prefix}|${seed}`, length)}`;
}

/** A request id such as `req_3f…` (`req_` + 32 hex, as OpenAI sends them). */
export function makeRequestId(seed: string): string {
  return `req_${stableHex(`req|${seed}`, 32)}`;
}

/**
 * An Anthropic request id: `req_011C` + 20 base58 characters, as in `req_011CZAZuCr9hV42toiCdnnKB`.
 * @example anthropicRequestId("weather/run-1/0") // "req_011C…"
 */
export function anthropicRequestId(seed: string): string {
  return `req_011C${stableToken(`req|${seed}`, 20, BASE58)}`;
}

/** An Ollama tool-call id: `call_` + 8 characters of `[a-z0-9]`. */
export function ollamaToolCallId(seed: string): string {
  return `call_${stableToken(`call_|${seed}`, 8, LOWER36)}`;
}

/**
 * The `obfuscation` padding OpenAI puts on streamed chunks so that an event's length does not give away its
 * token: random characters that bring the delta's length up to the next bucket (`bucket` modulo 16: 10 on Chat
 * Completions chunks, 0 on Responses deltas, as in recordings). Deterministic from `seed`, never Math.random.
 * @example obfuscation("chatcmpl-x#3", "Holiday", 10) // 3 characters
 */
export function obfuscation(seed: string, delta: string, bucket: number): string {
  return obfuscationAfter(obfuscationSeed(""), seed, delta, bucket);
}

/**
 * The hash of an obfuscation seed's first part, for `obfuscationAfter`: a stream's chunks share `{id}#` and differ
 * in their ordinal, so the shared part is hashed once per stream instead of once per chunk.
 */
export function obfuscationSeed(prefix: string): ObfuscationSeed {
  return stableHash64(`obf|${prefix}`);
}

/** What `obfuscationSeed` returns: the 64-bit hash of the shared part. */
export type ObfuscationSeed = Hash64;

/** A placeholder seed for a stream that sends no `obfuscation` (never hashed from). */
export const NO_OBFUSCATION: ObfuscationSeed = { hi: 0, lo: 0 };

/**
 * `obfuscation(prefix + rest, delta, bucket)`, given `obfuscationSeed(prefix)`. `points`: the delta's code points when
 * the caller knows them (a piece of a text with no surrogate at all has as many as its length), so the delta is not
 * scanned again for every chunk.
 */
export function obfuscationAfter(prefixHash: ObfuscationSeed, rest: string, delta: string, bucket: number, points = codePoints(delta)): string {
  const length = (((bucket - points) % 16) + 16) % 16;
  return tokenAfter(prefixHash, rest, length, OBFUSCATION);
}

/** Number of code points in `s` (what `Array.from(s).length` counts, without the array). */
function codePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (isHighSurrogate(c) && i + 1 < s.length) {
      if (isLowSurrogate(s.charCodeAt(i + 1))) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** Id of the `index`-th tool call of a reply, unless scripted. */
export function toolCallId(prefix: string, idSeed: string, index: number, scripted?: string): string {
  return scripted ?? makeId(prefix, `${idSeed}#tool${index}`);
}
