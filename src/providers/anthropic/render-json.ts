/**
 * Canonical reply → the non-streaming Messages body (`type: "message"`).
 */
import type { Reply } from "../../canonical/outcome";
import type { RenderContext } from "../types";
import { fullUsage, messageId, replyBlocks, stopReason, wireBlock } from "./blocks";
import type { MessagesRequest } from "./wire";
import { stopDetailsField } from "./safety";

/**
 * @example renderMessageJson(reply, ctx) // { id: "msg_01…", type: "message", content: [...], stop_reason: "end_turn", … }
 */
export function renderMessageJson(reply: Reply, _ctx: RenderContext<MessagesRequest>): unknown {
  return {
    model: reply.model,
    id: messageId(reply),
    type: "message",
    role: "assistant",
    content: replyBlocks(reply).map(wireBlock),
    stop_reason: stopReason(reply),
    stop_sequence: null,
    ...stopDetailsField(reply),
    usage: fullUsage(reply, reply.usage.outputTokens),
  };
}
