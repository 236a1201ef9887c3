/**
 * Canonical reply → `chat.completion.chunk` SSE transcript, ending `data: [DONE]`.
 */
import { replyChoices, type Reply } from "../../../canonical/outcome";
import { chunkChars, chunkWords, wordCount } from "../../../http/text";
import type { Failure } from "../../../scenario/schema";
import type { RenderContext, SseEvent } from "../../types";
import { chatToolCalls, chatUsage, completionId, reasoningText, SYSTEM_FINGERPRINT } from "./render-json";
import type { ChatRequest } from "./wire";

/** Characters of tool-call arguments per fragment. */
const ARGUMENT_FRAGMENT = 16;

export function renderChatEvents(reply: Reply, ctx: RenderContext<ChatRequest>): SseEvent[] {
  const includeUsage = ctx.wire.stream_options?.include_usage === true;
  const base = {
    id: completionId(reply),
    object: "chat.completion.chunk",
    created: ctx.created,
    model: reply.model,
    system_fingerprint: SYSTEM_FINGERPRINT,
  };
  const chunk = (index: number, delta: Record<string, unknown>, finish: string | null = null, words = 0): SseEvent => ({
    data: JSON.stringify({
      ...base,
      choices: [{ index, delta, logprobs: null, finish_reason: finish }],
      ...(includeUsage ? { usage: null } : {}),
    }),
    words,
  });

  const events: SseEvent[] = [];
  // Each choice streams in turn on its own index: role first, its content, then its own finish chunk.
  replyChoices(reply).forEach((choice, c) => {
    const hasText = choice.text !== undefined && choice.text !== "";
    const contentless = choice.toolCalls.length > 0 || choice.refusal !== undefined;
    events.push(chunk(c, { role: "assistant", content: hasText || !contentless ? "" : null, refusal: null }));
    for (const piece of chunkWords(reasoningText(choice), reply.pacing.chunkWords)) {
      events.push(chunk(c, { [choice.reasoningField]: piece }, null, Math.max(1, wordCount(piece))));
    }
    for (const piece of chunkWords(choice.text ?? "", reply.pacing.chunkWords)) {
      events.push(chunk(c, { content: piece }, null, Math.max(1, wordCount(piece))));
    }
    for (const piece of chunkWords(choice.refusal ?? "", reply.pacing.chunkWords)) {
      events.push(chunk(c, { refusal: piece }, null, Math.max(1, wordCount(piece))));
    }
    chatToolCalls(choice).forEach((call, index) => {
      events.push(
        chunk(
          c,
          { tool_calls: [{ index, id: call.id, type: "function", function: { name: call.function.name, arguments: "" } }] },
          null,
          1,
        ),
      );
      for (const fragment of chunkChars(call.function.arguments, ARGUMENT_FRAGMENT)) {
        events.push(chunk(c, { tool_calls: [{ index, function: { arguments: fragment } }] }, null, 1));
      }
    });
    events.push(chunk(c, {}, choice.finishReason));
  });
  if (includeUsage) {
    events.push({ data: JSON.stringify({ ...base, choices: [], usage: chatUsage(reply) }) });
  }
  events.push({ data: "[DONE]" });
  return events;
}

/** `data: {"error":…}` — openai-node throws an APIError on a payload with a top-level `error`. */
export function renderChatStreamError(failure: Extract<Failure, { kind: "stream_error" }>): SseEvent {
  return {
    data: JSON.stringify({
      error: {
        message: failure.message ?? "The server had an error while processing your request. Sorry about that!",
        type: failure.errorType ?? "server_error",
        param: null,
        code: null,
      },
    }),
  };
}
