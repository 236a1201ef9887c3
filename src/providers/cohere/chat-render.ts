/**
 * Canonical reply → Cohere `/v2/chat` answers, in the shapes recorded from the API (the Vercel AI SDK's Cohere
 * fixtures; docs/providers/fidelity.md "Cohere Chat"):
 *  - JSON: `{ id, message: { role, content?, tool_plan?, tool_calls? }, finish_reason, usage }`. A turn that calls
 *    tools sends its text as `tool_plan` (what Command models write before a call) and no `content`; otherwise
 *    `content` holds the thinking items, then the text item, and `citations` the text's citations of the request's
 *    `documents` (chat-citations.ts).
 *  - Stream (server-sent events, each named by its `type`): `message-start`; per content item `content-start`,
 *    `content-delta`s, `content-end`; with tool calls, `tool-plan-delta`s, then per call `tool-call-start`,
 *    `tool-call-delta`s (the arguments' fragments), `tool-call-end`; per citation `citation-start`, `citation-end`;
 *    `message-end` with `finish_reason` and `usage`; then `data: [DONE]`.
 * A refusal is sent as the text (Cohere has no refusal field); redacted reasoning has no Cohere form and is left out.
 */
import type { Reply } from "../../canonical/outcome";
import { stableToken } from "../../util/hash";
import { streamFragments, wordPieces } from "../../util/text";
import type { Failure } from "../../scenario/schema";
import type { RenderContext, SseEvent } from "../types";
import { citationsOn, cohereCitations, cohereDocuments, type CohereCitation } from "./chat-citations";
import type { CohereChatRequest } from "./chat-wire";
import { COHERE_FAILURE_MESSAGES } from "./errors";
import { rerankId } from "./render";

/** Fragment length of a tool call's streamed arguments. */
const ARGUMENT_FRAGMENT = 16;
/** The alphabet of the random part of Cohere's tool-call ids (`weather_dqgshstja6p9`). */
const LOWER36 = "abcdefghijklmnopqrstuvwxyz0123456789";

export type CohereFinishReason = "COMPLETE" | "STOP_SEQUENCE" | "MAX_TOKENS" | "TOOL_CALL" | "ERROR";

/**
 * The id of the reply's `index`-th tool call: the scripted one, else the tool's name, `_` and 12 characters of
 * `[a-z0-9]`, as Cohere's look.
 * @example cohereToolCallId(reply, 0) // "get_weather_dqgshstja6p9"
 */
export function cohereToolCallId(reply: Reply, index: number): string {
  const call = reply.toolCalls[index]!;
  return call.id ?? `${call.name}_${stableToken(`cohere-call|${reply.idSeed}#${index}`, 12, LOWER36)}`;
}

/** The reply's tool-call ids as a client sees them (the journal's view; src/providers/registry). */
export function cohereToolCallIds(reply: Reply): string[] {
  return reply.toolCalls.map((_, i) => cohereToolCallId(reply, i));
}

/** `STOP_SEQUENCE` when a stop sequence cut the text; a filtered answer is `ERROR` (Cohere names no filter reason). */
export function cohereFinishReason(reply: Reply): CohereFinishReason {
  if (reply.stopSequence !== undefined) return "STOP_SEQUENCE";
  switch (reply.finishReason) {
    case "length":
      return "MAX_TOKENS";
    case "tool_calls":
      return reply.toolCalls.length > 0 ? "TOOL_CALL" : "COMPLETE";
    case "content_filter":
      return "ERROR";
    default:
      return "COMPLETE";
  }
}

/** `usage`: the billed units and the tokens (the same figures here), `cached_tokens` when the reply read a cache. */
export function cohereUsage(reply: Reply) {
  const { inputTokens, outputTokens, cacheReadTokens } = reply.usage;
  return {
    billed_units: { input_tokens: inputTokens, output_tokens: outputTokens },
    tokens: { input_tokens: inputTokens, output_tokens: outputTokens },
    ...(cacheReadTokens > 0 ? { cached_tokens: cacheReadTokens } : {}),
  };
}

/** The answer's text: the text, else the refusal. */
function answerText(reply: Reply): string {
  return reply.text ?? reply.refusal ?? "";
}

function thinkingTexts(reply: Reply): string[] {
  return reply.reasoning.flatMap((r) => (r.type === "thinking" && r.text !== "" ? [r.text] : []));
}

function wireToolCalls(reply: Reply) {
  return reply.toolCalls.map((call, i) => ({ id: cohereToolCallId(reply, i), type: "function", function: { name: call.name, arguments: call.arguments } }));
}

/** The text's citations of the request's documents (none for a turn that calls tools, or with citations off). */
function citationsOf(reply: Reply, ctx: RenderContext<CohereChatRequest>): CohereCitation[] {
  const { documents, citation_options } = ctx.wire.body;
  if (reply.toolCalls.length > 0 || !documents?.length || !citationsOn(citation_options)) return [];
  return cohereCitations(answerText(reply), cohereDocuments(documents));
}

/** The assistant message of the JSON answer. */
function message(reply: Reply, citations: CohereCitation[]): Record<string, unknown> {
  const thinking = thinkingTexts(reply).map((text) => ({ type: "thinking", thinking: text }));
  if (reply.toolCalls.length > 0) {
    const text = answerText(reply);
    return {
      role: "assistant",
      ...(thinking.length > 0 ? { content: thinking } : {}),
      ...(text !== "" ? { tool_plan: text } : {}),
      tool_calls: wireToolCalls(reply),
    };
  }
  return { role: "assistant", content: [...thinking, { type: "text", text: answerText(reply) }], ...(citations.length > 0 ? { citations } : {}) };
}

/** The non-streaming body. */
export function renderCohereChatJson(reply: Reply, ctx: RenderContext<CohereChatRequest>): unknown {
  return { id: rerankId(reply.idSeed), message: message(reply, citationsOf(reply, ctx)), finish_reason: cohereFinishReason(reply), usage: cohereUsage(reply) };
}

/** One named event: its `type` is also the SSE event name, as Cohere sends them. */
function event(type: string, fields: Record<string, unknown>, words = 0): SseEvent {
  return { event: type, data: JSON.stringify({ ...(fields.id !== undefined ? { id: fields.id } : {}), type, ...fields }), oneLine: true, ...(words > 0 ? { words } : {}) };
}

/** A content item's events: start (empty), a delta per piece of `text`, end. */
function contentEvents(index: number, kind: "text" | "thinking", text: string, chunkWords: number): SseEvent[] {
  return [
    event("content-start", { index, delta: { message: { content: { type: kind, [kind]: "" } } } }),
    ...wordPieces(text, chunkWords).map((p) => event("content-delta", { index, delta: { message: { content: { [kind]: p.text } } } }, p.words)),
    event("content-end", { index }),
  ];
}

/** Every event of the answer but `message-end` and the terminator; the citations follow the text, as recorded. */
function bodyEvents(reply: Reply, ctx: RenderContext<CohereChatRequest>): SseEvent[] {
  const n = reply.pacing.chunkWords;
  const out: SseEvent[] = [];
  let index = 0;
  for (const text of thinkingTexts(reply)) out.push(...contentEvents(index++, "thinking", text, n));
  if (reply.toolCalls.length === 0) {
    out.push(...contentEvents(index, "text", answerText(reply), n));
    citationsOf(reply, ctx).forEach((citations, i) => {
      out.push(event("citation-start", { index: i, delta: { message: { citations } } }), event("citation-end", { index: i }));
    });
    return out;
  }
  for (const p of wordPieces(answerText(reply), n)) out.push(event("tool-plan-delta", { delta: { message: { tool_plan: p.text } } }, p.words));
  wireToolCalls(reply).forEach((call, i) => {
    out.push(event("tool-call-start", { index: i, delta: { message: { tool_calls: { ...call, function: { name: call.function.name, arguments: "" } } } } }, 1));
    for (const fragment of streamFragments(call.function.arguments, ARGUMENT_FRAGMENT)) {
      out.push(event("tool-call-delta", { index: i, delta: { message: { tool_calls: { function: { arguments: fragment } } } } }, 1));
    }
    out.push(event("tool-call-end", { index: i }));
  });
  return out;
}

/**
 * The whole stream.
 * @example renderCohereChatEvents(reply, ctx).map((e) => e.event) // ["message-start", "content-start", "content-delta", …, "message-end", undefined]
 */
export function renderCohereChatEvents(reply: Reply, ctx: RenderContext<CohereChatRequest>): SseEvent[] {
  const start = { id: rerankId(reply.idSeed), delta: { message: { role: "assistant", content: [], tool_plan: "", tool_calls: [], citations: [] } } };
  return [event("message-start", start), ...bodyEvents(reply, ctx), event("message-end", { delta: { finish_reason: cohereFinishReason(reply), usage: cohereUsage(reply) } }), { data: "[DONE]" }];
}

/** A failure mid-stream: `message-end` with `finish_reason: "ERROR"` and the error's text, the field Cohere's stream carries it in. */
export function renderCohereChatStreamError(failure: Extract<Failure, { kind: "stream_error" }>): SseEvent {
  return event("message-end", { delta: { finish_reason: "ERROR", error: failure.message ?? COHERE_FAILURE_MESSAGES.model_error } });
}
