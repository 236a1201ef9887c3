/**
 * What the engine decides for one request, provider-neutral. Providers render these.
 */
import type { Failure, RecordedFrames, Timing } from "../scenario/schema";
import type { ReplySafety } from "./safety";
import type { ServerToolUse } from "./server-tools";
import type { ImageReply, ModerationReply, RerankReply, SpeechReply, TranscriptReply } from "../scenario/surface-replies";

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

/** A fully resolved assistant reply: every default applied. */
export interface Reply {
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
  /** Scripted embedding vectors (OpenAI `/v1/embeddings`): one per input, in order. */
  embeddings?: number[][];
  /**
   * Further assistant messages answering the same request (the default responder's instruction mode).
   * OpenAI Chat renders each as its own choice (index 1, 2, …); Anthropic appends their content blocks.
   * Only their content fields and `idSeed` are read: usage, model, pacing and headers come from this reply.
   */
  extraChoices?: Reply[];
  /** A compaction answers the turn (`respond.compaction`, or the default one): rendered before the rest. */
  compaction?: { summary: string };
  /** The scripted answers of the surfaces beside the chat (`respond.moderation`, …); each surface defaults without. */
  moderation?: ModerationReply;
  image?: ImageReply;
  speech?: SpeechReply;
  transcript?: TranscriptReply;
  rerank?: RerankReply;
  /** Server-side tools the model used this turn (`respond.serverTools`), rendered before its text. */
  serverTools?: ServerToolUse[];
  /** A recorded answer (`respond.frames`): sent byte for byte instead of rendering the fields above. */
  frames?: RecordedFrames;
  timing?: Timing;
  /** The request's stop sequence the text was cut before (`stopReply`, src/canonical/stop.ts): Anthropic's `stop_sequence`. */
  stopSequence?: string;
  /** Scenario `"usage": "count"`: which usage figures the script left out, counted with the tokenizer when rendered (src/turn/usage.ts). */
  countUsage?: { input: boolean; output: boolean };
  /** Usage was counted with the tokenizer (src/turn/usage.ts): a surface that derives its own figure (embeddings) reports `usage` instead. */
  usageCounted?: true;
  /** Set on the reply a `content_filter` failure answers (`filteredReply`, src/canonical/safety.ts). */
  safety?: ReplySafety;
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
