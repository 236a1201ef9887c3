/**
 * Canonical reply → `chat.completion` JSON.
 */
import { chatAnnotations } from "./server-tools";
import { replyChoices, type Reply } from "../../../canonical/outcome";
import { makeId, toolCallId } from "../../../http/ids";
import type { RenderContext } from "../../types";
import type { ChatRequest } from "./wire";

export const SYSTEM_FINGERPRINT = "fp_mockllm";

/** The tier that served the request: the one asked for, `default` for `auto` or none (as real answers say). */
export function servedTier(ctx: RenderContext<ChatRequest>): string {
  const asked = ctx.wire.service_tier ?? "auto";
  return asked === "auto" ? "default" : asked;
}

export function completionId(reply: Reply): string {
  return makeId("chatcmpl-", reply.idSeed, 29);
}

export function reasoningText(reply: Reply): string {
  return reply.reasoning.flatMap((r) => (r.type === "thinking" ? [r.text] : [])).join("\n\n");
}

export function chatUsage(reply: Reply) {
  const u = reply.usage;
  return {
    prompt_tokens: u.inputTokens,
    completion_tokens: u.outputTokens,
    total_tokens: u.inputTokens + u.outputTokens,
    prompt_tokens_details: { cached_tokens: u.cacheReadTokens, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: u.reasoningTokens,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

export function chatToolCalls(reply: Reply) {
  return reply.toolCalls.map((c, i) => ({
    id: toolCallId("call_", reply.idSeed, i, c.id),
    type: "function" as const,
    function: { name: c.name, arguments: c.arguments },
  }));
}

/** One choice's `message`. */
function chatMessage(reply: Reply): Record<string, unknown> {
  const reasoning = reasoningText(reply);
  const message: Record<string, unknown> = {
    role: "assistant",
    content: reply.refusal !== undefined && reply.text === undefined ? null : (reply.text ?? null),
    refusal: reply.refusal ?? null,
    annotations: chatAnnotations(reply),
  };
  if (reasoning !== "") message[reply.reasoningField] = reasoning;
  if (reply.toolCalls.length > 0) message.tool_calls = chatToolCalls(reply);
  return message;
}

export function renderChatJson(reply: Reply, ctx: RenderContext<ChatRequest>): unknown {
  return {
    id: completionId(reply),
    object: "chat.completion",
    created: ctx.created,
    model: reply.model,
    choices: replyChoices(reply).map((r, index) => ({
      index,
      message: chatMessage(r),
      logprobs: null,
      finish_reason: r.finishReason,
    })),
    usage: chatUsage(reply),
    service_tier: servedTier(ctx),
    system_fingerprint: SYSTEM_FINGERPRINT,
  };
}
