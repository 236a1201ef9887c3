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
 * Cohere answers with one message, so a reply's further messages (`extraChoices`, from the default responder) fold into
 * it: texts joined by a blank line, thinking and tool calls appended in order. A refusal is sent as the text (Cohere has
 * no refusal field); redacted reasoning has no Cohere form and is left out.
 */
import { replyChoices, type Reply } from "../../canonical/outcome";
import { stableToken } from "../../util/hash";
import { streamFragments, wordPieces } from "../../util/text";
import type { Failure } from "../../scenario/schema";
import type { RenderContext, SseEvent } from "../types";
import { answerCitations, type CohereCitation } from "./chat-citations";
import type { CohereChatRequest } from "./chat-wire";
import { COHERE_FAILURE_MESSAGES } from "./errors";
import { rerankId } from "./render";

/** Fragment length of a tool call's streamed arguments. */
export const ARGUMENT_FRAGMENT = 16;
/** The alphabet of the random part of Cohere's tool-call ids (`weather_dqgshstja6p9`). */
const LOWER36 = "abcdefghijklmnopqrstuvwxyz0123456789";

export type CohereFinishReason = "COMPLETE" | "STOP_SEQUENCE" | "MAX_TOKENS" | "TOOL_CALL" | "ERROR";

/** A tool call as Cohere sends it. */
interface WireToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

/** The one assistant message a reply (and its `extraChoices`) makes. */
export interface CohereTurn {
  text: string;
  thinking: string[];
  toolCalls: WireToolCall[];
}

/**
 * The id of a reply's `index`-th tool call: the scripted one, else the tool's name, `_` and 12 characters of
 * `[a-z0-9]`, as Cohere's look.
 * @example cohereToolCallId(reply, 0) // "get_weather_dqgshstja6p9"
 */
export function cohereToolCallId(reply: Reply, index: number): string {
  const call = reply.toolCalls[index]!;
  return call.id ?? `${call.name}_${stableToken(`cohere-call|${reply.idSeed}#${index}`, 12, LOWER36)}`;
}

/** The reply and its further messages as one turn (v1's answer is made of it too). */
export function cohereTurn(reply: Reply): CohereTurn {
  const choices = replyChoices(reply);
  return {
    text: choices
      .map((c) => c.text ?? c.refusal ?? "")
      .filter((t) => t !== "")
      .join("\n\n"),
    thinking: choices.flatMap((c) => c.reasoning.flatMap((r) => (r.type === "thinking" && r.text !== "" ? [r.text] : []))),
    toolCalls: choices.flatMap((c) => c.toolCalls.map((call, i) => ({ id: cohereToolCallId(c, i), type: "function" as const, function: { name: call.name, arguments: call.arguments } }))),
  };
}

/** The reply's tool-call ids as a client sees them (the journal's view; src/providers/registry). */
export function cohereToolCallIds(reply: Reply): string[] {
  return cohereTurn(reply).toolCalls.map((c) => c.id);
}

/**
 * `STOP_SEQUENCE` when a stop sequence cut the text, `MAX_TOKENS` when the limit did; a filtered answer is `ERROR`
 * (Cohere names no filter reason); a turn that calls a tool `TOOL_CALL`.
 */
export function cohereFinishReason(reply: Reply, calls = replyChoices(reply).reduce((n, c) => n + c.toolCalls.length, 0)): CohereFinishReason {
  if (reply.stopSequence !== undefined) return "STOP_SEQUENCE";
  if (reply.finishReason === "length") return "MAX_TOKENS";
  if (reply.finishReason === "content_filter") return "ERROR";
  return calls > 0 ? "TOOL_CALL" : "COMPLETE";
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

/** The text's citations of the request's documents (none for a turn that calls tools, or with citations off). */
function citationsOf(turn: CohereTurn, ctx: RenderContext<CohereChatRequest>): CohereCitation[] {
  const { documents, citation_options } = ctx.wire.body;
  return answerCitations(turn.text, turn.toolCalls.length > 0, documents, citation_options?.mode);
}

/** The assistant message of the JSON answer. */
function message(turn: CohereTurn, citations: CohereCitation[]): Record<string, unknown> {
  const thinking = turn.thinking.map((text) => ({ type: "thinking", thinking: text }));
  if (turn.toolCalls.length > 0) {
    return {
      role: "assistant",
      ...(thinking.length > 0 ? { content: thinking } : {}),
      ...(turn.text !== "" ? { tool_plan: turn.text } : {}),
      tool_calls: turn.toolCalls,
    };
  }
  return { role: "assistant", content: [...thinking, { type: "text", text: turn.text }], ...(citations.length > 0 ? { citations } : {}) };
}

/** The non-streaming body. */
export function renderCohereChatJson(reply: Reply, ctx: RenderContext<CohereChatRequest>): unknown {
  const turn = cohereTurn(reply);
  return { id: rerankId(reply.idSeed), message: message(turn, citationsOf(turn, ctx)), finish_reason: cohereFinishReason(reply, turn.toolCalls.length), usage: cohereUsage(reply) };
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
function bodyEvents(turn: CohereTurn, n: number, ctx: RenderContext<CohereChatRequest>): SseEvent[] {
  const out: SseEvent[] = [];
  let index = 0;
  for (const text of turn.thinking) out.push(...contentEvents(index++, "thinking", text, n));
  if (turn.toolCalls.length === 0) {
    out.push(...contentEvents(index, "text", turn.text, n));
    citationsOf(turn, ctx).forEach((citations, i) => {
      out.push(event("citation-start", { index: i, delta: { message: { citations } } }), event("citation-end", { index: i }));
    });
    return out;
  }
  for (const p of wordPieces(turn.text, n)) out.push(event("tool-plan-delta", { delta: { message: { tool_plan: p.text } } }, p.words));
  turn.toolCalls.forEach((call, i) => {
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
  const turn = cohereTurn(reply);
  const start = { id: rerankId(reply.idSeed), delta: { message: { role: "assistant", content: [], tool_plan: "", tool_calls: [], citations: [] } } };
  const end = { delta: { finish_reason: cohereFinishReason(reply, turn.toolCalls.length), usage: cohereUsage(reply) } };
  return [event("message-start", start), ...bodyEvents(turn, reply.pacing.chunkWords, ctx), event("message-end", end), { data: "[DONE]" }];
}

/** A failure mid-stream: `message-end` with `finish_reason: "ERROR"` and the error's text, the field Cohere's stream carries it in. */
export function renderCohereChatStreamError(failure: Extract<Failure, { kind: "stream_error" }>): SseEvent {
  return event("message-end", { delta: { finish_reason: "ERROR", error: failure.message ?? COHERE_FAILURE_MESSAGES.model_error } });
}
