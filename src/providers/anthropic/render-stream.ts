/**
 * Canonical reply → the Messages SSE transcript, in the real API's order:
 * `message_start` → per block (`content_block_start`, deltas, `content_block_stop`), with one `ping` after the
 * first block start → `message_delta` (stop reason, cumulative usage) → `message_stop`. Every event has an
 * `event:` line equal to its data's `type`: the official SDK dispatches on the former, the AI SDK on the latter.
 */
import type { Reply } from "../../canonical/outcome";
import { wordPieces } from "../../util/text";
import { jsonString, plainJson } from "../../http/json";
import type { Failure } from "../../scenario/schema";
import type { RenderContext, SseEvent } from "../types";
import { answerBlocks, answerStopReason, fullUsage, inputUsage, messageId, type OutBlock } from "./blocks";
import { answerCompaction, appliedEdits, iterations } from "./compaction";
import { stopDetailsField } from "./safety";
import { containerField, serverToolUsage } from "./server-tools";
import type { MessagesRequest } from "./wire";

function event(type: string, payload: Record<string, unknown>, words = 0): SseEvent {
  return { event: type, data: JSON.stringify({ type, ...payload }), ...(words > 0 ? { words } : {}) };
}

/**
 * Splits tool-input JSON into `partial_json` fragments: at least three for any but the shortest text, at most
 * 32 characters each, never splitting a character.
 */
export function jsonFragments(json: string): string[] {
  const chars = Array.from(json);
  const size = Math.min(32, Math.max(1, Math.ceil(chars.length / 3)));
  const out: string[] = [];
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(""));
  return out;
}

function startBlock(b: OutBlock): Record<string, unknown> {
  switch (b.type) {
    case "thinking":
      return { type: "thinking", thinking: "", signature: "" };
    case "redacted_thinking":
      return { type: "redacted_thinking", data: b.data };
    case "text":
      return b.citations !== undefined ? { type: "text", text: "", citations: [] } : { type: "text", text: "" };
    case "tool_use":
      return { type: "tool_use", id: b.id, name: b.name, input: {} };
    case "compaction":
      return { type: "compaction", content: null, encrypted_content: null };
    case "server_tool_use":
      return { type: b.type, id: b.id, name: b.name, input: {}, caller: { type: "direct" } };
    case "mcp_tool_use":
      return { type: b.type, id: b.id, name: b.name, server_name: b.server_name, input: {} };
    case "server_result":
      return b.block;
  }
}

/**
 * A text block's deltas (`text_delta`, `thinking_delta`): the bytes of `event("content_block_delta", { index, delta:
 * { type, [field]: piece } }, words)`, each piece spliced into JSON made once per block.
 */
function textDeltas(index: number, type: string, field: string, text: string, chunk: number): SseEvent[] {
  const before = `{"type":"content_block_delta","index":${index},"delta":{"type":"${type}","${field}":`;
  // One scan of the whole text: when it needs no JSON escaping, neither does any piece of it.
  const plain = plainJson(text);
  return wordPieces(text, chunk).map((p) => ({ event: "content_block_delta", data: `${before}${plain ? `"${p.text}"` : jsonString(p.text)}}}`, words: p.words, oneLine: true }));
}

function deltas(b: OutBlock, index: number, chunk: number): SseEvent[] {
  const delta = (d: Record<string, unknown>, words = 0) => event("content_block_delta", { index, delta: d }, words);
  switch (b.type) {
    case "thinking":
      return [...textDeltas(index, "thinking_delta", "thinking", b.thinking, chunk), delta({ type: "signature_delta", signature: b.signature })];
    case "redacted_thinking":
      return [];
    case "text":
      return [...(b.citations ?? []).map((citation) => delta({ type: "citations_delta", citation })), ...textDeltas(index, "text_delta", "text", b.text, chunk)];
    case "tool_use":
      return [delta({ type: "input_json_delta", partial_json: "" }), ...jsonFragments(b.json).map((p) => delta({ type: "input_json_delta", partial_json: p }, 1))];
    case "server_tool_use":
    case "mcp_tool_use":
      return jsonFragments(b.json).map((p) => delta({ type: "input_json_delta", partial_json: p }, 1));
    case "server_result":
      return [];
    case "compaction":
      // One delta with the whole summary: the SDK assigns it, it does not append.
      return [delta({ type: "compaction_delta", content: b.content, encrypted_content: b.encrypted_content }, 1)];
  }
}

/**
 * The whole transcript, `message_stop` last.
 * @example renderMessageEvents(reply, ctx).map((e) => e.event) // ["message_start", "content_block_start", "ping", …, "message_stop"]
 */
export function renderMessageEvents(reply: Reply, ctx: RenderContext<MessagesRequest>): SseEvent[] {
  const compaction = answerCompaction(reply, ctx);
  const events: SseEvent[] = [
    event("message_start", {
      message: {
        model: reply.model,
        id: messageId(reply),
        type: "message",
        role: "assistant",
        content: [],
        stop_reason: null,
        stop_sequence: null,
        stop_details: null,
        usage: fullUsage(reply, 1),
        diagnostics: null,
      },
    }),
  ];
  const blocks = answerBlocks(reply, compaction);
  blocks.forEach((b, index) => {
    events.push(event("content_block_start", { index, content_block: startBlock(b) }, b.type === "redacted_thinking" ? 1 : 0));
    if (index === 0) events.push(event("ping", {}));
    events.push(...deltas(b, index, reply.pacing.chunkWords));
    events.push(event("content_block_stop", { index }));
  });
  if (blocks.length === 0) events.push(event("ping", {}));
  events.push(
    event("message_delta", {
      delta: {
        ...containerField(reply),
        stop_reason: answerStopReason(reply, compaction),
        stop_sequence: answerStopReason(reply, compaction) === "stop_sequence" ? reply.stopSequence! : null,
        ...stopDetailsField(reply),
      },
      usage: { ...inputUsage(reply), output_tokens: reply.usage.outputTokens, ...serverToolUsage(reply), ...(compaction ? { iterations: iterations(reply, compaction) } : {}) },
      ...appliedEdits(reply, ctx),
    }),
  );
  events.push(event("message_stop", {}));
  return events;
}

/** `event: error` after the 200 status line; the official SDK throws an APIError with this body. */
export function renderMessageStreamError(failure: Extract<Failure, { kind: "stream_error" }>, ctx: RenderContext<MessagesRequest>): SseEvent {
  return event("error", {
    error: { type: failure.errorType ?? "overloaded_error", message: failure.message ?? "Overloaded" },
    request_id: ctx.requestId,
  });
}
