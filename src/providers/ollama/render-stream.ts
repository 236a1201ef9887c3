/**
 * Canonical reply → Ollama's NDJSON stream: one JSON object a line, `done: false` while generating, then one
 * `done: true` object with `done_reason` and the counts. Order: thinking chunks (`thinking`, empty content),
 * content chunks, one line carrying every tool call, the final line. The generic renderer writes each event's
 * `data` as a line with `content-type: application/x-ndjson`.
 */
import type { Reply } from "../../canonical/outcome";
import { wordPieces } from "../../util/text";
import type { Failure } from "../../scenario/schema";
import type { RenderContext, SseEvent } from "../types";
import { createdAt, doneReason, ollamaMessage, stats, tokenNs, wireMessage, type OllamaToolCall } from "./render-json";

/** What one line carries besides model, created_at and done. */
interface Piece {
  content: string;
  thinking?: string;
  toolCalls?: OllamaToolCall[];
  words: number;
}

function pieces(reply: Reply): Piece[] {
  const m = ollamaMessage(reply);
  const n = reply.pacing.chunkWords;
  return [
    ...wordPieces(m.thinking, n).map((p) => ({ content: "", thinking: p.text, words: p.words })),
    ...wordPieces(m.content, n).map((p) => ({ content: p.text, words: p.words })),
    ...(m.toolCalls.length > 0 ? [{ content: "", toolCalls: m.toolCalls, words: m.toolCalls.length }] : []),
  ];
}

function line(payload: Record<string, unknown>, words = 0): SseEvent {
  return { data: JSON.stringify(payload), ...(words > 0 ? { words } : {}) };
}

/**
 * Lines for either endpoint; `body` shapes a piece as `message` (chat) or `response` (generate).
 */
function transcript(reply: Reply, ctx: RenderContext<unknown>, body: (p: Omit<Piece, "words">) => Record<string, unknown>): SseEvent[] {
  const step = tokenNs(reply);
  const all = pieces(reply);
  const events = all.map((p, i) => line({ model: reply.model, created_at: createdAt(reply, ctx, i * step), ...body(p), done: false }, p.words));
  events.push(
    line({
      model: reply.model,
      created_at: createdAt(reply, ctx, all.length * step),
      ...body({ content: "" }),
      done: true,
      done_reason: doneReason(reply),
      ...stats(reply),
    }),
  );
  return events;
}

/**
 * The `/api/chat` stream.
 * @example renderChatEvents(reply, ctx).map((e) => JSON.parse(e.data).message.content) // ["Hello", " there", ""]
 */
export function renderChatEvents(reply: Reply, ctx: RenderContext<unknown>): SseEvent[] {
  return transcript(reply, ctx, (p) => ({ message: wireMessage(p.content, p.thinking, p.toolCalls) }));
}

/** The `/api/generate` stream: `response` chunks, `thinking` chunks; no `context` on the final line (none is kept). */
export function renderGenerateEvents(reply: Reply, ctx: RenderContext<unknown>): SseEvent[] {
  return transcript(reply, ctx, (p) => ({
    response: p.content,
    ...(p.thinking !== undefined ? { thinking: p.thinking } : {}),
    ...(p.toolCalls !== undefined ? { tool_calls: p.toolCalls } : {}),
  }));
}

/** Ollama's wording for a failure while the model runs. */
export const STREAM_ERROR_MESSAGE = "an error was encountered while running the model";

/** A mid-stream failure is one line `{"error":"…"}`, then the stream ends; ollama-js throws an Error with it. */
export function renderOllamaStreamError(failure: Extract<Failure, { kind: "stream_error" }>): SseEvent {
  return line({ error: failure.message ?? STREAM_ERROR_MESSAGE });
}
