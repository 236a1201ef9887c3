/**
 * What the engine decides for one request, provider-neutral. Providers render these.
 */
import type { KindReplies } from "../scenario/reply-kinds";
import type { Failure } from "../scenario/schema";
import type { ReplySafety } from "./safety";

export type FinishReason = "stop" | "length" | "tool_calls" | "content_filter";

export interface ReplyToolCall {
  /** Scripted id; when absent the provider derives one (`call_…`, `toolu_…`) from the reply's idSeed. */
  id?: string;
  name: string;
  /** JSON text sent as the arguments; may be deliberately invalid JSON. */
  arguments: string;
}

export type ReplyReasoning = { type: "thinking"; text: string; signature?: string } | { type: "redacted"; data: string };

export interface ReplyUsage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
}

export interface Pacing {
  ttftMs: number;
  tokensPerSecond: number;
  chunkDelayMs: number;
  chunkWords: number;
  jitterMs: number;
  seed: number;
}

/** A fully resolved assistant reply: every default applied; the reply kinds beside the message are `KindReplies` (src/scenario/reply-kinds.ts). */
export interface Reply extends KindReplies {
  text?: string;
  reasoning: ReplyReasoning[];
  reasoningField: "reasoning_content" | "reasoning";
  toolCalls: ReplyToolCall[];
  refusal?: string;
  finishReason: FinishReason;
  usage: ReplyUsage;
  model: string;
  latencyMs: number;
  pacing: Pacing;
  headers: Record<string, string>;
  /** Seed for deterministic ids: (scenario, session, step, attempt). */
  idSeed: string;
  /**
   * Further assistant messages answering the same request (the default responder's instruction mode).
   * OpenAI Chat renders each as its own choice (index 1, 2, …); Anthropic appends their content blocks.
   * Only their content fields and `idSeed` are read: usage, model, pacing and headers come from this reply.
   */
  extraChoices?: Reply[];
  /** The request's stop sequence the text was cut before (`stopReply`, src/canonical/stop.ts): Anthropic's `stop_sequence`. */
  stopSequence?: string;
  /** Scenario `"usage": "count"`: which usage figures the script left out, counted with the tokenizer when rendered (src/turn/usage.ts). */
  countUsage?: { input: boolean; output: boolean };
  /** Usage was counted with the tokenizer (src/turn/usage.ts): a surface that derives its own figure (embeddings) reports `usage` instead. */
  usageCounted?: true;
  /** Set on the reply a `content_filter` failure answers (`filteredReply`, src/canonical/safety.ts). */
  safety?: ReplySafety;
  /**
   * The container the request loaded skills into (its provider's `type` of each, the version resolved), set by the
   * surface's completion; the answer shows it even when no code ran.
   */
  container?: { id: string; expiresAt: string; skills: { type: string; skillId: string; version: string }[] };
}

/** The reply's messages in order: itself, then its `extraChoices`. */
export function replyChoices(reply: Reply): Reply[] {
  return [reply, ...(reply.extraChoices ?? [])];
}

export type Outcome =
  | { kind: "reply"; reply: Reply }
  /**
   * `reply` is what a partial stream (or a timeout's late answer) is cut from. `limited`: a `limits` 429 (scenario or
   * namespace) and the limit reached; its rate-limit headers are the buckets that exist, not the surface's fixed figures.
   */
  | { kind: "failure"; failure: Failure; reply: Reply; attempt: number; limited?: "requestsPerMinute" | "tokensPerMinute" }
  | { kind: "mismatch"; message: string };

/**
 * `side_call`: a housekeeping call the scenario's `sideCalls` answered without a step (verify ignores it).
 * `chaos`: a fault the scenario's seeded `chaos` drew (src/scenario/chaos.ts); verify counts it apart.
 */
export type JournalOutcome = "response" | "failure" | "mismatch" | "side_call" | "chaos";
