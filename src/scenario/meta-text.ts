/**
 * Text kept in KV metadata, made ASCII-safe. KV sends metadata as an HTTP header (`CF-KV-Metadata`), where
 * non-ASCII text draws a warning in workerd and a TypeError in a browser, so it is stored as printable ASCII with
 * every other character percent-encoded as UTF-8, and decoded on the way out.
 */

/** Longest text kept, in characters (code points); the full text stays in the document. */
export const META_TEXT_CHARS = 200;
/** Longest encoded text: KV metadata is at most 1,024 bytes serialized, and the version and flags sit beside it. */
export const META_TEXT_BUDGET = 800;

/** Printable ASCII that JSON does not escape, minus `%` (the escape character itself). */
function isPlain(code: number): boolean {
  return code >= 0x20 && code <= 0x7e && code !== 0x25 && code !== 0x22 && code !== 0x5c;
}

const encoder = new TextEncoder();

function percentEncode(ch: string): string {
  let out = "";
  for (const byte of encoder.encode(ch)) out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  return out;
}

/**
 * `text` as printable ASCII, at most `META_TEXT_CHARS` characters of it and `META_TEXT_BUDGET` encoded characters,
 * cut between characters. A lone surrogate becomes U+FFFD.
 * @example encodeMetaText("Wetter ☀\n") // "Wetter %E2%98%80%0A"
 */
export function encodeMetaText(text: string, maxChars = META_TEXT_CHARS, budget = META_TEXT_BUDGET): string {
  let out = "";
  let chars = 0;
  for (const ch of text) {
    if (chars >= maxChars) break;
    const code = ch.codePointAt(0)!;
    const piece = isPlain(code) ? ch : percentEncode(code >= 0xd800 && code <= 0xdfff ? "\uFFFD" : ch);
    if (out.length + piece.length > budget) break;
    out += piece;
    chars++;
  }
  return out;
}

/**
 * The text `encodeMetaText` encoded. Escapes that are not valid UTF-8 stay as they are, and so does text stored
 * before encoding was introduced, unless it held `%XX` sequences.
 * @example decodeMetaText("Wetter %E2%98%80%0A") // "Wetter ☀\n"
 */
export function decodeMetaText(stored: string): string {
  return stored.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}
