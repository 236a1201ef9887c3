/**
 * Splitting generated text into stream chunks without losing a character.
 */

/** Splits `text` into pieces of `n` words each; joining the pieces gives `text` back exactly. */
export function chunkWords(text: string, n: number): string[] {
  const words = text.match(/\s*\S+/g);
  if (!words) return text === "" ? [] : [text];
  const chunks: string[] = [];
  let consumed = 0;
  for (let i = 0; i < words.length; i += n) {
    const chunk = n === 1 ? words[i]! : words.slice(i, i + n).join("");
    chunks.push(chunk);
    consumed += chunk.length;
  }
  const tail = text.slice(consumed);
  if (tail !== "") chunks[chunks.length - 1] += tail;
  return chunks;
}

/** Splits a JSON (or any) string into fragments of at most `size` characters. */
export function chunkChars(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** Number of whitespace-separated words in `text`. */
export function wordCount(text: string): number {
  return text.match(/\S+/g)?.length ?? 0;
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
