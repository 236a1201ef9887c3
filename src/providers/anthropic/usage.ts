/**
 * `countUsage` of Anthropic Messages (scenario `"usage": "count"`, `USAGE=count`): Anthropic's tokenizer is
 * server-side and unpublished, so usage is the same documented approximation `count_tokens` answers (⌈characters / 4⌉,
 * count-tokens.ts): `usage.input_tokens` equals `POST /v1/messages/count_tokens` for the same body. docs/reference/usage.md.
 */
import type { Reply } from "../../canonical/outcome";
import { defineReplyCounter } from "../../canonical/reply-tokens";
import type { CanonicalRequest } from "../../canonical/request";
import { estimateInputTokens } from "./count-tokens";
import type { MessagesRequest } from "./wire";

/**
 * ⌈characters / 4⌉ of the reply's text, thinking and tool calls (every block); at least 1.
 * @example estimateOutputTokens({ ...reply, text: "Hello, world" }) // 3
 */
export function estimateOutputTokens(reply: Reply): number {
  let chars = 0;
  for (const r of [reply, ...(reply.extraChoices ?? [])]) {
    chars += (r.text ?? "").length + (r.refusal ?? "").length;
    for (const block of r.reasoning) if (block.type === "thinking") chars += block.text.length;
    for (const c of r.toolCalls) chars += c.name.length + c.arguments.length;
  }
  return Math.max(1, Math.ceil(chars / 4));
}

/** The approximation for a Messages turn: input as `count_tokens`, output as `estimateOutputTokens`. */
export async function countAnthropicUsage(wire: MessagesRequest, request: CanonicalRequest, reply: Reply): Promise<{ input: number; output: number }> {
  return { input: estimateInputTokens(request, wire.tools ?? []), output: estimateOutputTokens(reply) };
}

/** Anthropic's approximation as a reply counter (src/canonical/reply-tokens.ts), defined wherever this module loads. */
export const CHARS_PER_4 = "chars/4";
defineReplyCounter(CHARS_PER_4, estimateOutputTokens);

/** The reply counter of Messages: `estimateOutputTokens`. */
export async function anthropicReplyCounter(): Promise<string> {
  return CHARS_PER_4;
}
