/**
 * Canonical reply → Bedrock Converse: the JSON body (`output.message`, `stopReason`, `usage`, `metrics`) and the
 * ConverseStream events (`messageStart`, per block `contentBlockStart` for tool use then `contentBlockDelta`s and
 * `contentBlockStop`, `messageStop`, `metadata`). Each event's payload is the event body alone: no wrapper, no
 * `type` field (botocore and the JS SDK read the event name from the `:event-type` header). Keys in the service's
 * order (alphabetical, as in live captures); the random `p` padding the service adds to each event is not sent.
 */
import { replyChoices, type Reply } from "../../canonical/outcome";
import { makeId } from "../../http/ids";
import { wordPieces } from "../../util/text";
import type { Failure } from "../../scenario/schema";
import { argumentsObject } from "../../http/json";
import { messagesStopReason } from "../anthropic/blocks";
import { jsonFragments } from "../anthropic/render-stream";
import { thinkingSignature } from "../anthropic/thinking";
import type { RenderContext, SseEvent } from "../types";
import { BEDROCK_FAILURE_MESSAGES } from "./errors";
import type { ConverseWire } from "./wire";
import { blockedMessage, guardrailTrace } from "./safety";

export type ConverseBlock =
  | { kind: "reasoning"; text: string; signature: string }
  | { kind: "redacted"; data: string }
  | { kind: "text"; text: string }
  | { kind: "toolUse"; toolUseId: string; name: string; json: string };

/** Bedrock's tool-use ids: `tooluse_` + 22 characters, deterministic from the reply's id seed. */
export function converseToolUseId(idSeed: string, index: number): string {
  return makeId("tooluse_", `${idSeed}#tool${index}`, 22);
}

/** The reply's content blocks in order (reasoning, text, refusal text, tool use), `extraChoices` appended. */
export function converseBlocks(reply: Reply): ConverseBlock[] {
  // A guardrail answers a blocked prompt with its blocked message, and stops an answer after the text so far.
  if (reply.safety?.on === "prompt") return [{ kind: "text", text: blockedMessage(reply.safety) }];
  if (reply.safety) return reply.text ? [{ kind: "text", text: reply.text }] : [];
  return replyChoices(reply).flatMap((c) => {
    const blocks: ConverseBlock[] = c.reasoning.map((r) =>
      r.type === "redacted" ? { kind: "redacted", data: r.data } : { kind: "reasoning", text: r.text, signature: r.signature ?? thinkingSignature(r.text) },
    );
    if (c.text !== undefined) blocks.push({ kind: "text", text: c.text });
    if (c.refusal !== undefined) blocks.push({ kind: "text", text: c.refusal });
    c.toolCalls.forEach((t, i) => blocks.push({ kind: "toolUse", toolUseId: t.id ?? converseToolUseId(c.idSeed, i), name: t.name, json: t.arguments }));
    return blocks;
  });
}

/**
 * A reply cut at a stop sequence → stop_sequence; stop→end_turn, length→max_tokens, tool_calls→tool_use, content_filter→content_filtered; a `content_filter`
 * failure → guardrail_intervened.
 */
export function converseStopReason(reply: Reply): string {
  if (reply.safety) return "guardrail_intervened";
  if (reply.stopSequence !== undefined && reply.finishReason === "stop") return "stop_sequence";
  return messagesStopReason(reply, "content_filtered");
}

function wireBlock(b: ConverseBlock): Record<string, unknown> {
  switch (b.kind) {
    case "reasoning":
      return { reasoningContent: { reasoningText: { text: b.text, signature: b.signature } } };
    case "redacted":
      return { reasoningContent: { redactedContent: b.data } };
    case "text":
      return { text: b.text };
    case "toolUse":
      return { toolUse: { toolUseId: b.toolUseId, name: b.name, input: argumentsObject(b.json) } };
  }
}

/**
 * `usage` as recorded, keys in the service's (alphabetical) order: the cache counts always in the JSON body, in the
 * stream's `metadata` only when the reply used the cache.
 */
export function converseUsage(reply: Reply, cacheAlways: boolean): Record<string, unknown> {
  const u = reply.usage;
  return {
    ...(cacheAlways || u.cacheReadTokens > 0 ? { cacheReadInputTokens: u.cacheReadTokens } : {}),
    ...(cacheAlways || u.cacheWriteTokens > 0 ? { cacheWriteInputTokens: u.cacheWriteTokens } : {}),
    inputTokens: u.inputTokens,
    outputTokens: u.outputTokens,
    serverToolUsage: {},
    totalTokens: u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens,
  };
}

/** What Claude models add to `messageStop` (and Bedrock passes through): `{ delta: { stop_sequence: null } }`. */
function additionalFields(model: string, reply: Reply): Record<string, unknown> {
  return /(^|[.:/])anthropic\./.test(model) ? { additionalModelResponseFields: { delta: { stop_sequence: reply.stopSequence ?? null } } } : {};
}

/**
 * @example renderConverseJson(reply, ctx) // { output: { message: { role: "assistant", content: [{ text: "Hi" }] } }, stopReason: "end_turn", usage, metrics }
 */
export function renderConverseJson(reply: Reply, ctx: RenderContext<ConverseWire>): unknown {
  return {
    metrics: { latencyMs: reply.latencyMs },
    output: { message: { content: converseBlocks(reply).map(wireBlock), role: "assistant" } },
    stopReason: converseStopReason(reply),
    ...guardrailTrace(reply, ctx.wire),
    usage: converseUsage(reply, true),
  };
}

function event(name: string, payload: Record<string, unknown>, words = 0): SseEvent {
  return { event: name, data: JSON.stringify(payload), ...(words > 0 ? { words } : {}) };
}

function blockEvents(b: ConverseBlock, index: number, chunk: number): SseEvent[] {
  const delta = (d: Record<string, unknown>, words = 0) => event("contentBlockDelta", { contentBlockIndex: index, delta: d }, words);
  const stop = event("contentBlockStop", { contentBlockIndex: index });
  switch (b.kind) {
    case "reasoning":
      return [...wordPieces(b.text, chunk).map((p) => delta({ reasoningContent: { text: p.text } }, p.words)), delta({ reasoningContent: { signature: b.signature } }), stop];
    case "redacted":
      return [delta({ reasoningContent: { redactedContent: b.data } }, 1), stop];
    case "text":
      return [...wordPieces(b.text, chunk).map((p) => delta({ text: p.text }, p.words)), stop];
    case "toolUse":
      return [
        event("contentBlockStart", { contentBlockIndex: index, start: { toolUse: { toolUseId: b.toolUseId, name: b.name } } }),
        ...jsonFragments(b.json).map((p) => delta({ toolUse: { input: p } }, 1)),
        stop,
      ];
  }
}

/**
 * The ConverseStream events, `metadata` last.
 * @example renderConverseEvents(reply, ctx).map((e) => e.event) // ["messageStart", "contentBlockDelta", …, "messageStop", "metadata"]
 */
export function renderConverseEvents(reply: Reply, ctx: RenderContext<ConverseWire>): SseEvent[] {
  return [
    event("messageStart", { role: "assistant" }),
    ...converseBlocks(reply).flatMap((b, i) => blockEvents(b, i, reply.pacing.chunkWords)),
    event("messageStop", { ...additionalFields(ctx.request.model, reply), stopReason: converseStopReason(reply) }),
    event("metadata", { metrics: { latencyMs: reply.latencyMs }, ...guardrailTrace(reply, ctx.wire), usage: converseUsage(reply, false) }),
  ];
}

/**
 * A mid-stream failure: an exception message (`:message-type: exception`) the SDKs raise as the typed error.
 * `errorType` names it when it is an exception type (`throttlingException`, `serviceUnavailableException`, …);
 * else `modelStreamErrorException`.
 */
export function renderBedrockStreamError(failure: Extract<Failure, { kind: "stream_error" }>): SseEvent {
  const named = failure.errorType !== undefined && /Exception$/.test(failure.errorType) ? failure.errorType : undefined;
  const type = named !== undefined ? named.charAt(0).toLowerCase() + named.slice(1) : "modelStreamErrorException";
  const message = failure.message ?? (type === "throttlingException" ? BEDROCK_FAILURE_MESSAGES.rate_limit : "Model Stream Error");
  // modelStreamErrorException carries the model's own status and message, as recorded.
  const model = type === "modelStreamErrorException" ? { originalStatusCode: 500, originalMessage: "The model stream failed." } : {};
  return { event: type, data: JSON.stringify({ message, ...model }), exception: true };
}
