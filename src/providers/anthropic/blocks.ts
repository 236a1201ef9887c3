/**
 * A canonical reply as Anthropic content blocks, stop reason and usage — shared by the JSON and SSE renderers.
 * Block order: thinking / redacted_thinking, then text (then the refusal text), then tool_use.
 */
import { replyChoices, type Reply } from "../../canonical/outcome";
import { makeId } from "../../http/ids";
import { thinkingSignature } from "./thinking";
import { toolUseId } from "./tool-use-ids";
import type { AnswerCompaction } from "./compaction";
import { filteredBlocks } from "./safety";
import { argumentsObject } from "../../http/json";
import { serverToolBlocks, serverToolUsage, textCitations, type WebSearchCitation } from "./server-tools";

export type OutBlock =
  | { type: "thinking"; thinking: string; signature: string }
  | { type: "redacted_thinking"; data: string }
  | { type: "text"; text: string; citations?: WebSearchCitation[] }
  /** `json` is the scripted arguments text, streamed verbatim as `partial_json`. */
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown>; json: string }
  | { type: "compaction"; content: string; encrypted_content: null }
  /** Server-side tools (server-tools.ts): a use streamed like `tool_use`, its result block sent whole. */
  | { type: "server_tool_use"; id: string; name: string; input: Record<string, unknown>; json: string }
  | { type: "mcp_tool_use"; id: string; name: string; server_name: string; input: Record<string, unknown>; json: string }
  | { type: "server_result"; block: Record<string, unknown> };

export type StopReason = "end_turn" | "max_tokens" | "tool_use" | "refusal" | "compaction" | "stop_sequence";

/** `msg_01…`, deterministic from the reply's id seed. */
export function messageId(reply: Reply): string {
  return makeId("msg_01", reply.idSeed, 22);
}

/** `thought`: the whole message (all choices) starts with a thinking block; generated tool_use ids record it. */
function messageBlocks(reply: Reply, thought: boolean): OutBlock[] {
  const blocks: OutBlock[] = reply.reasoning.map((r) =>
    r.type === "redacted" ? { type: "redacted_thinking", data: r.data } : { type: "thinking", thinking: r.text, signature: r.signature ?? thinkingSignature(r.text) },
  );
  blocks.push(...serverToolBlocks(reply));
  if (reply.text !== undefined) {
    const cited = textCitations(reply, reply.text);
    blocks.push(cited !== undefined ? { type: "text", text: reply.text, citations: cited } : { type: "text", text: reply.text });
  }
  if (reply.refusal !== undefined) blocks.push({ type: "text", text: reply.refusal });
  reply.toolCalls.forEach((c, i) => {
    blocks.push({
      type: "tool_use",
      id: c.id ?? toolUseId(`${reply.idSeed}#tool${i}`, thought),
      name: c.name,
      input: argumentsObject(c.arguments),
      // Streams send the raw text unchanged (`input_json_delta`).
      json: c.arguments,
    });
  });
  return blocks;
}

/** The reply's content blocks; further assistant messages (`extraChoices`) append theirs, in order. */
export function replyBlocks(reply: Reply): OutBlock[] {
  const choices = replyChoices(reply);
  const first = choices.find((c) => c.reasoning.length > 0 || c.text !== undefined || c.refusal !== undefined || c.toolCalls.length > 0);
  const thought = (first?.reasoning.length ?? 0) > 0;
  return filteredBlocks(
    reply,
    choices.flatMap((c) => messageBlocks(c, thought)),
  );
}

/**
 * The answer's blocks: a compaction block first when it carries one (alone when it pauses there), then the reply's.
 * @example answerBlocks(reply, { summary: "…", pause: false }).map((b) => b.type) // ["compaction", "text"]
 */
export function answerBlocks(reply: Reply, compaction: AnswerCompaction | undefined): OutBlock[] {
  if (!compaction) return replyBlocks(reply);
  const block: OutBlock = { type: "compaction", content: compaction.summary, encrypted_content: null };
  return compaction.pause ? [block] : [block, ...replyBlocks(reply)];
}

/** The answer's `stop_reason`: `compaction` when it pauses after the compaction. */
export function answerStopReason(reply: Reply, compaction: AnswerCompaction | undefined): StopReason {
  return compaction?.pause ? "compaction" : stopReason(reply);
}

/** The wire form of a block (drops the streaming-only `json`). */
export function wireBlock(b: OutBlock): Record<string, unknown> {
  if (b.type === "server_tool_use") return { type: b.type, id: b.id, name: b.name, input: b.input, caller: { type: "direct" } };
  if (b.type === "mcp_tool_use") return { type: b.type, id: b.id, name: b.name, server_name: b.server_name, input: b.input };
  if (b.type === "server_result") return b.block;
  if (b.type !== "tool_use") return b;
  return { type: "tool_use", id: b.id, name: b.name, input: b.input };
}

/**
 * A reply cut at a stop sequence → stop_sequence; stop→end_turn, length→max_tokens, tool_calls→tool_use, content_filter→refusal; a scripted refusal → refusal;
 * tool calls in an appended message (`extraChoices`) turn end_turn into tool_use.
 */
export function stopReason(reply: Reply): StopReason {
  if (reply.stopSequence !== undefined && reply.finishReason === "stop" && reply.refusal === undefined) return "stop_sequence";
  if (reply.refusal !== undefined && reply.finishReason === "stop") return "refusal";
  return messagesStopReason(reply, "refusal");
}

/**
 * The finish → stop reason switch the Messages family shares (Anthropic; Bedrock Converse, whose content filter is
 * `content_filtered`): tool calls in an appended message (`extraChoices`) turn end_turn into tool_use.
 */
export function messagesStopReason<F extends string>(reply: Reply, filtered: F): "end_turn" | "max_tokens" | "tool_use" | F {
  if (reply.finishReason === "stop" && (reply.extraChoices ?? []).some((c) => c.toolCalls.length > 0)) return "tool_use";
  switch (reply.finishReason) {
    case "length":
      return "max_tokens";
    case "tool_calls":
      return "tool_use";
    case "content_filter":
      return filtered;
    default:
      return "end_turn";
  }
}

/** Input-side usage fields, as `message_delta` carries them (and the start of the full `usage`). */
export function inputUsage(reply: Reply) {
  return {
    input_tokens: reply.usage.inputTokens,
    cache_creation_input_tokens: reply.usage.cacheWriteTokens,
    cache_read_input_tokens: reply.usage.cacheReadTokens,
  };
}

/**
 * The full `usage` of `message_start` and the JSON body, in the recorded key order: input fields, the
 * `cache_creation` split by TTL (scripted cache writes count as 5-minute writes, the default TTL), output tokens,
 * `service_tier` and `inference_geo` (`"not_available"` unless a request pins a region).
 */
export function fullUsage(reply: Reply, outputTokens: number) {
  return {
    ...inputUsage(reply),
    cache_creation: { ephemeral_5m_input_tokens: reply.usage.cacheWriteTokens, ephemeral_1h_input_tokens: 0 },
    output_tokens: outputTokens,
    ...serverToolUsage(reply),
    service_tier: "standard",
    inference_geo: "not_available",
  };
}
