/**
 * The `content_filter` failure (contract section 10, "Safety outcomes") as the reply every provider renders natively:
 * a refusal before any output (`on: "prompt"`), or the answer stopped after `afterChunks` text chunks with the
 * provider's filter finish/stop reason (`on: "completion"`). Each provider reads `reply.safety` for what it adds
 * (Gemini `promptFeedback` and `safetyRatings`, Anthropic `stop_details`, Bedrock's guardrail `trace`).
 */
import type { Failure } from "../scenario/schema";
import { chunkWords, wordCount } from "../util/text";
import type { Reply } from "./outcome";
import type { SafetyCategory } from "./safety-categories";

export { SAFETY_CATEGORIES, type SafetyCategory } from "./safety-categories";

/** Categories when a failure names none. */
export const DEFAULT_SAFETY_CATEGORIES: readonly SafetyCategory[] = ["dangerous"];

/** OpenAI's refusal wording, the refusal text of a prompt block when the failure has no `message`. */
export const DEFAULT_REFUSAL = "I'm sorry, I can't help with that.";

export type ContentFilterFailure = Extract<Failure, { kind: "content_filter" }>;

/** What a filtered reply carries for the providers: where the filter hit, the categories, the scripted message. */
export interface ReplySafety {
  on: "prompt" | "completion";
  categories: SafetyCategory[];
  /** The failure's `message`, when scripted (providers that show one fall back to their own wording). */
  message?: string;
}

/** The safety of a failure, defaults applied. */
export function replySafety(failure: ContentFilterFailure): ReplySafety {
  const categories = failure.categories ?? [...DEFAULT_SAFETY_CATEGORIES];
  return { on: failure.on, categories, ...(failure.message !== undefined ? { message: failure.message } : {}) };
}

/**
 * The reply a `content_filter` failure answers, cut from the step's scripted `reply`:
 * - `on: "prompt"`: nothing generated: no text, reasoning or tool calls, a refusal text (OpenAI's field) and zero
 *   output tokens;
 * - `on: "completion"`: the reasoning, then the first `afterChunks` text chunks (of `stream.chunkWords` words, the
 *   stream's own chunks, so a JSON answer carries the same text), no tool calls, `finishReason: "content_filter"`.
 * @example filteredReply({ kind: "content_filter", on: "completion", afterChunks: 2 }, reply).text // "It is"
 */
export function filteredReply(failure: ContentFilterFailure, reply: Reply): Reply {
  const safety = replySafety(failure);
  const { extraChoices: _extra, ...base } = reply;
  if (failure.on === "prompt") {
    return {
      ...withoutText(base),
      reasoning: [],
      toolCalls: [],
      refusal: failure.message ?? DEFAULT_REFUSAL,
      finishReason: "stop",
      usage: { ...reply.usage, outputTokens: 0, reasoningTokens: 0 },
      safety,
    };
  }
  const text = chunkWords(reply.text ?? "", reply.pacing.chunkWords)
    .slice(0, failure.afterChunks ?? 0)
    .join("");
  const { refusal: _refusal, ...rest } = base;
  return {
    ...rest,
    text,
    toolCalls: [],
    finishReason: "content_filter",
    usage: { ...reply.usage, outputTokens: wordCount(text) + reply.usage.reasoningTokens },
    safety,
  };
}

function withoutText(reply: Omit<Reply, "extraChoices">): Omit<Reply, "extraChoices" | "text"> {
  const { text: _text, ...rest } = reply;
  return rest;
}
