/**
 * A `content_filter` failure on the Anthropic Messages surface (also Bedrock InvokeModel and Vertex rawPredict on
 * Claude): `stop_reason: "refusal"` with `stop_details` (GA `Message` and `message_delta`), no content before any
 * output (`on: "prompt"`), the text so far when the answer was stopped (`on: "completion"`).
 * [SRC @anthropic-ai/sdk `RefusalStopDetails`; DOC platform.claude.com …/handle-streaming-refusals]
 */
import type { Reply } from "../../canonical/outcome";
import type { ReplySafety, SafetyCategory } from "../../canonical/safety";
import type { OutBlock } from "./blocks";

export type RefusalCategory = "cyber" | "bio" | "frontier_llm" | "reasoning_extraction" | "general_harms";

/**
 * Anthropic names its refusal categories by the harm enabled (cyber, bio, frontier_llm, reasoning_extraction),
 * none of which a content category names: every neutral category is `general_harms`.
 */
const REFUSAL_CATEGORIES: Record<SafetyCategory, RefusalCategory> = {
  hate: "general_harms",
  sexual: "general_harms",
  violence: "general_harms",
  self_harm: "general_harms",
  harassment: "general_harms",
  dangerous: "general_harms",
  jailbreak: "general_harms",
};

/** `stop_details` of a refused message: `{ type: "refusal", category, explanation }` (the failure's message, or null). */
export function stopDetails(safety: ReplySafety): Record<string, unknown> {
  const first = safety.categories[0];
  return { type: "refusal", category: first === undefined ? null : REFUSAL_CATEGORIES[first], explanation: safety.message ?? null };
}

/**
 * A message's (and `message_delta`'s) `stop_details`: a refusal's explanation, else `null`, as the API has sent on
 * every message since 2026 (docs/providers/fidelity.md, "The SDKs of December 2026").
 */
export function stopDetailsField(reply: Reply): { stop_details: Record<string, unknown> | null } {
  return { stop_details: reply.safety ? stopDetails(reply.safety) : null };
}

/** A filtered reply's blocks: none for a blocked prompt, and no empty text block for an answer stopped before any text. */
export function filteredBlocks(reply: Reply, blocks: OutBlock[]): OutBlock[] {
  if (!reply.safety) return blocks;
  if (reply.safety.on === "prompt") return [];
  return blocks.filter((b) => b.type !== "text" || b.text !== "");
}
