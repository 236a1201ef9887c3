/**
 * A nesting limit for JSON, checked on the text before `JSON.parse`, so no later step (zod, the journal, the
 * Durable Object's serializer, `JSON.stringify`) ever walks a structure deep enough to exhaust the stack.
 */

/**
 * Deepest nesting of objects and arrays accepted, counting the body's own object as level 1. A tool's JSON Schema
 * under `tools[0].function.parameters` starts at level 5, and each nested object property costs 2 levels
 * (`properties`, then the property), so schemas about 60 properties deep still fit.
 */
export const MAX_JSON_DEPTH = 128;

/**
 * The index of the first `{` or `[` that nests deeper than `limit`, or -1. One linear pass, no recursion;
 * brackets inside strings (escapes included) do not count. Does not validate the JSON otherwise. A string is passed
 * over with `indexOf` to its closing quote (one not escaped by an odd run of backslashes) rather than character by
 * character: most of a long request (tool results, file contents) is string, and that is where the time went.
 * @example jsonDepthExceeded("[[1]]", 1) // 1
 */
export function jsonDepthExceeded(text: string, limit = MAX_JSON_DEPTH): number {
  if (text.length <= limit || openersAtMost(text, limit)) return -1; // each level opens with a `{` or `[`
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      i = closingQuote(text, i);
      if (i < 0) return -1; // an unterminated string: nothing after it counts (JSON.parse refuses it)
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return i;
    } else if (c === 0x7d || c === 0x5d) {
      depth--;
    }
  }
  return -1;
}

/** The index of the quote that closes the string opened at `open`, or -1 if none does. */
function closingQuote(text: string, open: number): number {
  for (let q = text.indexOf('"', open + 1); q >= 0; q = text.indexOf('"', q + 1)) {
    let slash = q - 1;
    while (text.charCodeAt(slash) === 0x5c) slash--; // stops at the opening quote at the latest
    if ((q - 1 - slash) % 2 === 0) return q;
  }
  return -1;
}

/**
 * Whether `text` has at most `limit` `{` and `[` characters in all (strings included): then nothing in it can nest
 * deeper than `limit`. Counted with `indexOf`, which skips the text between them far faster than a loop over every
 * character — the usual request body has a few dozen.
 */
function openersAtMost(text: string, limit: number): boolean {
  let count = 0;
  for (let i = text.indexOf("{"); i >= 0; i = text.indexOf("{", i + 1)) if (++count > limit) return false;
  for (let i = text.indexOf("["); i >= 0; i = text.indexOf("[", i + 1)) if (++count > limit) return false;
  return true;
}

/**
 * The message for `what` nesting too deep at index `at`.
 * @example tooDeepMessage("The request body", 130) // "The request body nests objects and arrays deeper than 128 levels (at character 130); …"
 */
export function tooDeepMessage(what: string, at: number, limit = MAX_JSON_DEPTH): string {
  return `${what} nests objects and arrays deeper than ${limit} levels (at character ${at}); mockllm accepts at most ${limit} levels of nesting.`;
}

/**
 * `JSON.parse` that also throws a SyntaxError when the text nests deeper than `limit`.
 * @example parseJsonBounded('{"a":1}') // { a: 1 }
 */
export function parseJsonBounded(text: string, limit = MAX_JSON_DEPTH): unknown {
  const at = jsonDepthExceeded(text, limit);
  if (at >= 0) throw new SyntaxError(tooDeepMessage("The JSON text", at, limit));
  return JSON.parse(text);
}
