/**
 * Canonical reply → the Realtime server events of one response, in the GA order: `response.created`; per output item
 * `response.output_item.added`, `conversation.item.added`, its parts and deltas (`response.output_text.delta`, or
 * `response.function_call_arguments.delta`), `response.output_item.done`, `conversation.item.done`; then
 * `response.done` carrying the whole response.
 */
import type { Reply } from "../../../canonical/outcome";
import { stableHex } from "../../../util/hash";
import { toolCallId } from "../../../http/ids";
import { streamFragments, wordPieces } from "../../../util/text";
import type { SseEvent } from "../../types";
import type { Item } from "./items";

/** Characters of function-call arguments per delta. */
const ARGUMENT_FRAGMENT = 16;

export interface RealtimeResponseInit {
  conversationId: string;
  /** Id of the item the response's first output follows (null when the conversation is empty). */
  previousItemId: string | null;
  modalities: string[];
  metadata: Record<string, string> | null;
}

export function realtimeResponseId(reply: Reply): string {
  return `resp_${stableHex(`rt-resp|${reply.idSeed}`, 20)}`;
}

/** The items a reply adds to the conversation: the assistant message (when it has text), then its calls. */
export function replyItems(reply: Reply): Item[] {
  const items: Item[] = [];
  const id = (n: number) => `item_${stableHex(`rt-item|${reply.idSeed}|${n}`, 20)}`;
  if (reply.text !== undefined && reply.text !== "") {
    items.push({ id: id(0), type: "message", object: "realtime.item", status: reply.safety ? "incomplete" : "completed", role: "assistant", content: [{ type: "output_text", text: reply.text }] });
  }
  reply.toolCalls.forEach((call, i) => {
    items.push({
      id: id(i + 1),
      type: "function_call",
      object: "realtime.item",
      status: "completed",
      call_id: toolCallId("call_", reply.idSeed, i, call.id),
      name: call.name,
      arguments: call.arguments,
    });
  });
  return items;
}

function usage(reply: Reply) {
  const u = reply.usage;
  return {
    total_tokens: u.inputTokens + u.outputTokens,
    input_tokens: u.inputTokens,
    output_tokens: u.outputTokens,
    input_token_details: {
      text_tokens: u.inputTokens,
      audio_tokens: 0,
      image_tokens: 0,
      cached_tokens: u.cacheReadTokens,
      cached_tokens_details: { text_tokens: u.cacheReadTokens, audio_tokens: 0, image_tokens: 0 },
    },
    output_token_details: { text_tokens: u.outputTokens, audio_tokens: 0 },
  };
}

/** The `response` object, in progress (no output yet) or finished. */
export function responseObject(reply: Reply, init: RealtimeResponseInit, status: string, output: Item[], statusDetails: unknown = null): Record<string, unknown> {
  return {
    object: "realtime.response",
    id: realtimeResponseId(reply),
    status,
    status_details: statusDetails,
    output,
    conversation_id: init.conversationId,
    output_modalities: init.modalities,
    max_output_tokens: "inf",
    audio: { output: { format: { type: "audio/pcm", rate: 24000 }, voice: "alloy" } },
    usage: status === "in_progress" ? null : usage(reply),
    metadata: init.metadata,
  };
}

function inProgress(item: Item): Item {
  if (item.type === "message") return { ...item, status: "in_progress", content: [] };
  if (item.type === "function_call") return { ...item, status: "in_progress", arguments: "" };
  return item;
}

/**
 * Every event of a response, with `event_id`s derived from the reply.
 * @example realtimeEvents(reply, init).map((e) => JSON.parse(e.data).type)[0] // "response.created"
 */
export function realtimeEvents(reply: Reply, init: RealtimeResponseInit): SseEvent[] {
  const response_id = realtimeResponseId(reply);
  const items = replyItems(reply);
  const drafts: { type: string; fields: Record<string, unknown>; words?: number }[] = [];
  drafts.push({ type: "response.created", fields: { response: responseObject(reply, init, "in_progress", []) } });
  let previous = init.previousItemId;
  items.forEach((item, output_index) => {
    const at = { response_id, item_id: item.id, output_index };
    drafts.push({ type: "response.output_item.added", fields: { response_id, output_index, item: inProgress(item) } });
    drafts.push({ type: "conversation.item.added", fields: { previous_item_id: previous, item: inProgress(item) } });
    if (item.type === "message") {
      const text = item.content[0]?.text ?? "";
      const c = { ...at, content_index: 0 };
      drafts.push({ type: "response.content_part.added", fields: { ...c, part: { type: "text", text: "" } } });
      for (const p of wordPieces(text, reply.pacing.chunkWords)) drafts.push({ type: "response.output_text.delta", fields: { ...c, delta: p.text }, words: p.words });
      drafts.push({ type: "response.output_text.done", fields: { ...c, text } });
      drafts.push({ type: "response.content_part.done", fields: { ...c, part: { type: "text", text } } });
    } else if (item.type === "function_call") {
      for (const delta of streamFragments(item.arguments, ARGUMENT_FRAGMENT)) {
        drafts.push({ type: "response.function_call_arguments.delta", fields: { ...at, call_id: item.call_id, delta }, words: 1 });
      }
      drafts.push({ type: "response.function_call_arguments.done", fields: { ...at, call_id: item.call_id, name: item.name, arguments: item.arguments } });
    }
    drafts.push({ type: "response.output_item.done", fields: { response_id, output_index, item } });
    drafts.push({ type: "conversation.item.done", fields: { previous_item_id: previous, item } });
    previous = item.id;
  });
  // A content_filter failure ends the response `incomplete` with reason `content_filter` [SRC oai realtime `RealtimeResponseStatus`].
  const done = reply.safety ? responseObject(reply, init, "incomplete", items, { type: "incomplete", reason: "content_filter" }) : responseObject(reply, init, "completed", items);
  drafts.push({ type: "response.done", fields: { response: done } });
  return drafts.map((d, i) => ({
    data: JSON.stringify({ type: d.type, event_id: `event_${stableHex(`rt-event|${reply.idSeed}|${i}`, 20)}`, ...d.fields }),
    ...(d.words !== undefined ? { words: d.words } : {}),
  }));
}
