/**
 * The reply counters the surfaces name (`ProviderSurface.replyCounter`, src/canonical/reply-tokens.ts): an OpenAI
 * encoding (`o200k_base`, `cl100k_base`) counts the completion with the tokenizer once its ranks are loaded; `chars/4`
 * is the documented approximation of the providers whose tokenizer is server-side (Anthropic); `none` counts 0
 * (embeddings). Loading is per isolate: the turn loads before asking its session, and the Workers session object
 * loads a counter it lacks before deciding (runtime/workers/session-object.ts).
 */
import { defineReplyCounter, hasReplyCounter } from "../canonical/reply-tokens";
import { estimateOutputTokens } from "./anthropic/usage";
import { loadEncoder } from "./openai/usage/count";

/** Counted without a tokenizer: ⌈characters / 4⌉ of the reply (src/providers/anthropic/usage.ts). */
export const CHARS_PER_4 = "chars/4";

defineReplyCounter(CHARS_PER_4, estimateOutputTokens);

/**
 * Defines the counter `name` in this isolate if it can be (an encoding's ranks are fetched on first use).
 * @example await loadReplyCounter("o200k_base")
 */
export async function loadReplyCounter(name: string): Promise<void> {
  if (hasReplyCounter(name)) return;
  if (name === "o200k_base" || name === "cl100k_base") await loadEncoder(name);
}
