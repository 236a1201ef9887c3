/**
 * Long text in SQLite rows: workerd's SQLite refuses a value over ~2 MB (SQLITE_TOOBIG), so text that a client
 * controls the length of is kept in parts of at most CHUNK_CHARS UTF-16 units (at most 3 UTF-8 bytes each), read
 * back in order and joined.
 */

import { chunkChars } from "../../util/text";

/** UTF-16 units per part: at most 1.5 MB of UTF-8. */
export const CHUNK_CHARS = 500_000;

/**
 * `text` in parts of at most `size` units, never splitting a surrogate pair (SQLite would store each half as U+FFFD):
 * `chunkChars`' cut; one empty part for empty text.
 * @example chunks("abcde", 2) // ["ab", "cd", "e"]
 */
export function chunks(text: string, size = CHUNK_CHARS): string[] {
  return text === "" ? [""] : chunkChars(text, size);
}
