/** JSON in and out, shared by every route. */
import { parseJsonBounded } from "./json-depth";
import { Response } from "./web";
import { noSurrogates } from "../util/text";

/** A JSON response; `headers` may override the content type (Gemini and Ollama name a charset). */
export function jsonResponse(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

/**
 * `JSON.stringify(s)` for a string: text with nothing to escape (most generated text) is only quoted.
 * @example jsonString("word1 word2") // '"word1 word2"'; jsonString('a"b') === JSON.stringify('a"b')
 */
export function jsonString(s: string): string {
  return plainJson(s) ? `"${s}"` : JSON.stringify(s);
}

/** `s` needs no escaping in JSON: its JSON is `"${s}"`. */
export function plainJson(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // What JSON.stringify escapes: `"`, backslash, control characters; and surrogates (a lone one is escaped).
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return false;
  }
  return true;
}

/**
 * What one scan of a text tells every piece cut from it (a stream's deltas), so no piece is scanned again: `plain`, no
 * piece needs JSON escaping (`plainJson` of the whole); `counted`, each piece has as many code points as its length
 * (the text holds no surrogate — which a plain text never does).
 * @example pieceScan("hi there") // { plain: true, counted: true }; pieceScan('say "é"') // { plain: false, counted: true }
 */
export function pieceScan(text: string): { plain: boolean; counted: boolean } {
  const plain = plainJson(text);
  return { plain, counted: plain || noSurrogates(text) };
}

/** JSON.parse that answers undefined for text that is not JSON (stored values the caller validates). */
export function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A JSON object: not null, not an array. */
export function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** What `path` (a zod issue's) leads to inside `body`, undefined where a step is absent (own keys only). */
export function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let v = body;
  for (const key of path) {
    if (Array.isArray(v) && typeof key === "number") v = v[key];
    else if (isRecord(v) && typeof key === "string" && Object.hasOwn(v, key)) v = v[key];
    else return undefined;
  }
  return v;
}

/**
 * A tool call's scripted arguments text as the object the providers send (Anthropic's `input`, Bedrock's, Gemini's
 * `args`, Ollama's `arguments`, always a JSON object): text that is not one (invalid JSON, an array, a scalar) is
 * wrapped as `{ "INVALID_JSON": "<text>" }`, the key Anthropic's docs suggest for passing invalid tool JSON around.
 * @example argumentsObject('{"city":"Paris"}') // { city: "Paris" }; argumentsObject("[1]") // { INVALID_JSON: "[1]" }
 */
export function argumentsObject(args: string): Record<string, unknown> {
  try {
    const v = parseJsonBounded(args);
    if (isRecord(v)) return v;
  } catch {
    // fall through
  }
  return { INVALID_JSON: args };
}
