/**
 * Canonical reply → the non-streaming Messages body (`type: "message"`).
 */
import type { Reply } from "../../canonical/outcome";
import type { RenderContext } from "../types";
import { answerBlocks, answerStopReason, fullUsage, messageId, wireBlock } from "./blocks";
import { answerCompaction, appliedEdits, iterations } from "./compaction";
import type { MessagesRequest } from "./wire";
import { stopDetailsField } from "./safety";
import { containerField } from "./server-tools";

/**
 * @example renderMessageJson(reply, ctx) // { id: "msg_01…", type: "message", content: [...], stop_reason: "end_turn", … }
 */
export function renderMessageJson(reply: Reply, ctx: RenderContext<MessagesRequest>): unknown {
  const compaction = answerCompaction(reply, ctx);
  const usage = fullUsage(reply, reply.usage.outputTokens);
  return {
    model: reply.model,
    id: messageId(reply),
    type: "message",
    role: "assistant",
    content: answerBlocks(reply, compaction).map(wireBlock),
    stop_reason: answerStopReason(reply, compaction),
    stop_sequence: answerStopReason(reply, compaction) === "stop_sequence" ? reply.stopSequence! : null,
    ...stopDetailsField(reply),
    ...containerField(reply),
    ...appliedEdits(reply, ctx),
    usage: compaction ? { ...usage, iterations: iterations(reply, compaction) } : usage,
    // Request-level diagnostics: null unless a request asks for them and a prompt-cache divergence is found.
    diagnostics: null,
  };
}
