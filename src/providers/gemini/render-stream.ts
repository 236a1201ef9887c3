/**
 * Canonical reply → the `streamGenerateContent?alt=sse` transcript: `data: {GenerateContentResponse}` events,
 * no `event:` lines and no terminator. Each chunk carries only new parts: text and thoughts in pieces of
 * `chunkWords` words (a thought's `thoughtSignature` on its last piece), each function call whole in its own
 * chunk. The last chunk also carries `finishReason` and the final `usageMetadata`.
 */
import type { Reply } from "../../canonical/outcome";
import { chunkWords, wordCount } from "../../http/text";
import type { Failure } from "../../scenario/schema";
import type { RenderContext, SseEvent } from "../types";
import { GEMINI_FAILURE_MESSAGES, STATUS_CODES } from "./errors";
import { finishReason, replyParts, responseObject, usageMetadata, type OutPart } from "./render-json";
import type { GeminiWire } from "./wire";

interface Piece {
  part: OutPart;
  words: number;
}

function pieces(part: OutPart, chunk: number): Piece[] {
  if (part.kind === "call") return [{ part, words: 1 }];
  const texts = chunkWords(part.text, chunk);
  return texts.map((text, i) => {
    const last = i === texts.length - 1;
    const piece: OutPart =
      part.kind === "thought"
        ? { kind: "thought", text, ...(last && part.signature !== undefined ? { signature: part.signature } : {}) }
        : { kind: "text", text };
    return { part: piece, words: Math.max(1, wordCount(text)) };
  });
}

/** The chunks as response objects, with their word counts; never empty. */
export function streamChunks(reply: Reply): { object: Record<string, unknown>; words: number }[] {
  const all = replyParts(reply).flatMap((p) => pieces(p, reply.pacing.chunkWords));
  // An empty reply still ends with one chunk, holding an empty text part.
  if (all.length === 0) all.push({ part: { kind: "text", text: "" }, words: 0 });
  const end = { finishReason: finishReason(reply), usage: usageMetadata(reply) };
  return all.map((p, i) => ({
    object: responseObject(reply, [p.part], i === all.length - 1 ? end : undefined),
    words: p.words,
  }));
}

/**
 * The whole transcript, the finishing chunk last.
 * @example renderGenerateContentEvents(reply, ctx).map((e) => JSON.parse(e.data).candidates[0].content.parts)
 */
export function renderGenerateContentEvents(reply: Reply, _ctx: RenderContext<GeminiWire>): SseEvent[] {
  return streamChunks(reply).map((c) => ({ data: JSON.stringify(c.object), ...(c.words > 0 ? { words: c.words } : {}) }));
}

/**
 * `data: {"error":{code,message,status}}` after the 200 status line; js-genai throws an ApiError with that
 * code when a stream event holds an `error` object. `errorType` picks the google.rpc status (default
 * `UNAVAILABLE`, 503, the real API's overload).
 */
export function renderGenerateContentStreamError(failure: Extract<Failure, { kind: "stream_error" }>): SseEvent {
  const status = failure.errorType ?? "UNAVAILABLE";
  const code = STATUS_CODES[status] ?? 500;
  const message = failure.message ?? (status === "UNAVAILABLE" ? GEMINI_FAILURE_MESSAGES.overloaded : GEMINI_FAILURE_MESSAGES.model_error);
  return { data: JSON.stringify({ error: { code, message, status } }) };
}
