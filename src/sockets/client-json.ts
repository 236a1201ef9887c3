/**
 * A client's text message as JSON, checked as an HTTP body is (src/http/body.ts): the nesting limit on the raw text
 * first (json-depth.ts), then a JSON object. Each protocol phrases the refusal its own way.
 */
import { jsonDepthExceeded, tooDeepMessage } from "../http/json-depth";
import { parseJsonOrUndefined } from "../http/json";
import { isRecord } from "../http/json";

export type ClientMessage =
  | { ok: true; value: Record<string, unknown> }
  /** `tooDeep`: the message naming the nesting limit; absent when the text is not a JSON object. */
  | { ok: false; tooDeep?: string };

/**
 * @example parseClientMessage('{"type":"response.create"}') // { ok: true, value: { type: "response.create" } }
 */
export function parseClientMessage(text: string): ClientMessage {
  const deep = jsonDepthExceeded(text);
  if (deep >= 0) return { ok: false, tooDeep: tooDeepMessage("The message", deep) };
  const value = parseJsonOrUndefined(text);
  return isRecord(value) ? { ok: true, value } : { ok: false };
}
