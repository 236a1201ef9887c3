/**
 * Splitting generated text into stream chunks without losing a character.
 */

/** `n` words at most, each with the whitespace before it: one match per chunk (built once per `n`). */
const chunkPatterns = new Map<number, RegExp>();

function chunkPattern(n: number): RegExp {
  let re = chunkPatterns.get(n);
  if (!re) {
    re = new RegExp(`(?:\\s*\\S+){1,${n}}`, "g");
    if (n <= 64) chunkPatterns.set(n, re);
  }
  return re;
}

/**
 * Splits `text` into pieces of `n` words each (each word with the whitespace before it; trailing whitespace joins the
 * last piece); joining the pieces gives `text` back exactly.
 */
export function chunkWords(text: string, n: number): string[] {
  // A text never holds more words than characters: a larger `n` groups as that many does.
  const chunks = text.match(chunkPattern(Math.max(1, Math.min(Math.floor(n), text.length))));
  if (!chunks) return text === "" ? [] : [text];
  // The matches run back to back from the start: what they leave is the trailing whitespace.
  let consumed = 0;
  for (const c of chunks) consumed += c.length;
  if (consumed < text.length) chunks[chunks.length - 1] += text.slice(consumed);
  return chunks;
}

/** A stream chunk of text and how many words it carries (what pacing schedules by; at least 1). */
export interface WordPiece {
  text: string;
  words: number;
}

/**
 * Pieces a streamed text or argument string is cut into at most. Each piece is an event of a few hundred bytes of
 * envelope, so a long text in 5-word pieces (a 5 MB message the default answer echoes: 200,000 events, 65 MB) would
 * cost thirteen times its size; past this bound the pieces grow instead, and the stream stays near the text's size.
 */
export const MAX_PIECES = 4096;

/**
 * The words a piece of `text` takes: `n`, or more when `n`-word pieces would pass MAX_PIECES. Words are counted only
 * when the text is long enough to hold that many (a word and the space after it take two characters at least).
 */
function pieceWords(text: string, n: number): number {
  const size = Math.max(1, Math.floor(n));
  if (text.length <= 2 * size * MAX_PIECES) return size;
  return Math.max(size, Math.ceil(wordCount(text) / MAX_PIECES));
}

/** What `\s` matches in JavaScript, as inclusive `[lo, hi]` code point pairs (also util/linear-regex's `\s`). */
export const SPACE_RANGES: readonly number[] = [0x09, 0x0d, 0x20, 0x20, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x202f, 0x205f, 0x205f, 0x3000, 0x3000, 0xfeff, 0xfeff];

/**
 * Whether `c` lies in one of `ranges`' inclusive `[lo, hi]` pairs.
 * @example inRanges(SPACE_RANGES, 0x3000) // true
 */
export function inRanges(ranges: readonly number[], c: number): boolean {
  for (let i = 0; i < ranges.length; i += 2) if (c >= ranges[i]! && c <= ranges[i + 1]!) return true;
  return false;
}

/** Whether `c` is what `\s` matches (chunkWords's pattern splits on it). */
function isSpace(c: number): boolean {
  if (c > 0x20 && c < 0xa0) return false; // the printable ASCII a text is mostly made of
  return inRanges(SPACE_RANGES, c);
}

/**
 * `chunkWords(text, n)` with each piece's word count: `n` for every piece but the last — the pattern takes `n` words
 * while `n` more follow — and the last counted (at least 1), so a transcript counts one piece, not each.
 * @example wordPieces("a b c d e", 2) // [{ text: "a b", words: 2 }, { text: " c d", words: 2 }, { text: " e", words: 1 }]
 */
export function wordPieces(text: string, n: number): WordPiece[] {
  const size = pieceWords(text, n);
  const pieces = chunkWords(text, size);
  const last = pieces.length - 1;
  return pieces.map((piece, i) => ({ text: piece, words: i < last ? size : Math.max(1, wordCount(piece)) }));
}

/**
 * Splits a JSON (or any) string into fragments of at most `size` UTF-16 units, never between the two halves of a
 * surrogate pair (an emoji in a tool's arguments): a client that decodes each fragment's JSON string alone — Python's
 * `json` does — would otherwise hold two lone halves that no longer make the character. A fragment that would end
 * inside a pair ends before it (with `size` 1, after it).
 * @example chunkChars('{"a":"bcdef"}', 5) // ['{"a":', '"bcde', 'f"}']
 */
export function chunkChars(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; ) {
    let end = Math.min(i + size, text.length);
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1)) && isLowSurrogate(text.charCodeAt(end))) {
      // Before the pair; a fragment that would hold only its first half takes the whole pair.
      end = end - 1 > i ? end - 1 : end + 1;
    }
    out.push(text.slice(i, end));
    i = end;
  }
  return out;
}

/**
 * A streamed string's fragments (a tool call's arguments, code): `chunkChars` of `size`, or of the size that keeps a
 * long one within MAX_PIECES fragments.
 * @example streamFragments("x".repeat(1e6), 16).length // 4082 fragments of 245
 */
export function streamFragments(text: string, size: number): string[] {
  return chunkChars(text, Math.max(size, Math.ceil(text.length / MAX_PIECES)));
}

export const isHighSurrogate = (c: number) => c >= 0xd800 && c <= 0xdbff;
export const isLowSurrogate = (c: number) => c >= 0xdc00 && c <= 0xdfff;

const SURROGATE = /[\uD800-\uDFFF]/;

/**
 * Whether `s` holds no UTF-16 surrogate (paired or not): then each of its pieces has as many code points as its length.
 * @example noSurrogates("héllo") // true; noSurrogates("👋") // false
 */
export function noSurrogates(s: string): boolean {
  return !SURROGATE.test(s);
}

/**
 * Number of whitespace-separated words in `text` (the matches of `/\S+/g`), counted without building them: the
 * matches of a 10 MB message are two million strings, 130 MB allocated for one count (the loop is also faster on a
 * short text).
 * @example wordCount("  a b\u00a0c ") // 3
 */
export function wordCount(text: string): number {
  let words = 0;
  let inWord = false;
  for (let i = 0; i < text.length; i++) {
    const space = isSpace(text.charCodeAt(i));
    if (!space && !inWord) words++;
    inWord = !space;
  }
  return words;
}

/**
 * The first `n` words of `text` with the whitespace before and between them, trailing whitespace dropped: the text up
 * to the end of its `n`-th word (all of it, less trailing whitespace, when it has fewer), found without building words.
 * @example firstWords(" a  b c", 2) // " a  b"
 */
export function firstWords(text: string, n: number): string {
  let end = 0;
  let words = 0;
  for (let i = 0; i < text.length && words <= n; i++) {
    if (isSpace(text.charCodeAt(i))) continue;
    if (i === 0 || isSpace(text.charCodeAt(i - 1))) words++;
    if (words <= n) end = i + 1;
  }
  return text.slice(0, end);
}

/** The longest client value an error message quotes whole: a longer one is cut (the real APIs never echo megabytes). */
export const ECHO_MAX_CHARS = 64;

/**
 * `value` as an error message quotes it: verbatim up to ECHO_MAX_CHARS, else its start and `...` (never half a
 * surrogate pair).
 * @example echoed("response.nope") // "response.nope"; echoed("x".repeat(1e6)) // "xxxx…x..." (64 x)
 */
export function echoed(value: string): string {
  if (value.length <= ECHO_MAX_CHARS) return value;
  const cut = /[\uD800-\uDBFF]/.test(value.charAt(ECHO_MAX_CHARS - 1)) ? ECHO_MAX_CHARS - 1 : ECHO_MAX_CHARS;
  return `${value.slice(0, cut)}...`;
}

/**
 * Whether `text` is empty or whitespace only, as the APIs that refuse blank text see it (`String.prototype.trim`'s
 * whitespace). Read from its first character in the common case, without a copy or a regular expression.
 * @example isBlank(" \n") // true; isBlank("a ") // false
 */
export function isBlank(text: string): boolean {
  const c = text.charCodeAt(0);
  if (c > 32 && c < 127) return false;
  return text.trim() === "";
}

/**
 * Any client value as an error message quotes it: a string by `echoed`, anything else as its JSON, cut the same way.
 * `String(value)` is not safe here: a parsed object with its own `toString` key (`{"toString":1}`) throws.
 * @example echoedValue({ toString: 1 }) // '{"toString":1}'; echoedValue("static") // "static"
 */
export function echoedValue(value: unknown): string {
  if (typeof value === "string") return echoed(value);
  return echoed(JSON.stringify(value) ?? String(value)); // undefined (and functions, never parsed from JSON): their name
}

/**
 * The text `textOf` finds in each item (undefined: none) joined with `separator`, in one pass and without an array
 * of the parts: a message's text blocks as a provider's parser reads them.
 * @example joinText([{ text: "a" }, {}, { text: "b" }], (b) => b.text) // "a\nb"
 */
export function joinText<T>(items: readonly T[], textOf: (item: T) => string | undefined, separator = "\n"): string {
  let joined: string | undefined;
  for (const item of items) {
    const text = textOf(item);
    if (text !== undefined) joined = joined === undefined ? text : `${joined}${separator}${text}`;
  }
  return joined ?? "";
}
