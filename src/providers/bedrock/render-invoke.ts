/**
 * Canonical reply → InvokeModel on an Anthropic model: the Messages body as the Anthropic surface renders it; the
 * stream is the Messages events, each the payload of a `chunk` event as `{ "bytes": "<base64 of the event's JSON>" }`,
 * `message_stop` carrying `amazon-bedrock-invocationMetrics` (Bedrock sends no `ping`).
 */
import type { Reply } from "../../canonical/outcome";
import { renderMessageEvents } from "../anthropic/render-stream";
import type { MessagesRequest } from "../anthropic/wire";
import type { RenderContext, SseEvent } from "../types";

const utf8 = new TextEncoder();

/** Base64 of the UTF-8 bytes of `text`. */
export function base64Utf8(text: string): string {
  let binary = "";
  for (const b of utf8.encode(text)) binary += String.fromCharCode(b);
  return btoa(binary);
}

/** The metrics Bedrock adds to `message_stop`. */
function invocationMetrics(reply: Reply) {
  return {
    inputTokenCount: reply.usage.inputTokens,
    outputTokenCount: reply.usage.outputTokens,
    invocationLatency: reply.latencyMs,
    firstByteLatency: reply.latencyMs + reply.pacing.ttftMs,
  };
}

/** The Anthropic events as Bedrock streams them, before the `chunk` wrapping (what the chunk bytes decode to). */
export function invokeAnthropicEvents(reply: Reply, ctx: RenderContext<MessagesRequest>): SseEvent[] {
  return renderMessageEvents(reply, ctx)
    .filter((e) => e.event !== "ping")
    .map((e) => (e.event === "message_stop" ? { ...e, data: JSON.stringify({ type: "message_stop", "amazon-bedrock-invocationMetrics": invocationMetrics(reply) }) } : e));
}

/**
 * @example renderInvokeEvents(reply, ctx)[0] // { event: "chunk", data: '{"bytes":"eyJ0eXBlIjoibWVzc2FnZV9zdGFydCIs…"}' }
 */
export function renderInvokeEvents(reply: Reply, ctx: RenderContext<MessagesRequest>): SseEvent[] {
  return invokeAnthropicEvents(reply, ctx).map((e) => ({
    event: "chunk",
    data: JSON.stringify({ bytes: base64Utf8(e.data) }),
    ...(e.words !== undefined ? { words: e.words } : {}),
  }));
}
