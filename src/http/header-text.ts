/**
 * Scenario text sent in a response header (a step's id in `x-mockllm-step`). A header value is bytes, not text:
 * Node refuses a character above U+00FF and any control character (a 500 for a step named `Wetter ☀`), workerd
 * encodes the first as UTF-8 with a warning and refuses the second. Text of printable ASCII goes as it is; other text
 * goes with each character outside printable ASCII, and `%`, percent-encoded as UTF-8 (`decodeURIComponent` reads it).
 */

const encoder = new TextEncoder();

/**
 * `text` as a header value.
 * @example headerText("fox") // "fox"
 * @example headerText("Wetter ☀") // "Wetter %E2%98%80"
 */
export function headerText(text: string): string {
  if (/^[\x20-\x7e]*$/.test(text)) return text;
  let out = "";
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (code >= 0x20 && code <= 0x7e && code !== 0x25) out += ch;
    else for (const byte of encoder.encode(ch)) out += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
  }
  return out;
}
