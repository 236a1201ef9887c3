/**
 * The scenario's `chaos` field (contract section 11): which faults a seeded generator draws, and how often.
 * Apart from the logic (chaos.ts) so that the schema imports nothing the canonical types import back.
 */
import { z } from "zod";

/** Faults of the transport: the request fails, in the provider's own error shape. */
export const CHAOS_TRANSPORT_KINDS = ["rate_limit", "overloaded", "server_error", "timeout", "stream_error", "network_error", "slow_first_token"] as const;
/** Misbehaviours of the model: a 200 whose content is wrong in a way real models get wrong. */
export const CHAOS_MODEL_KINDS = ["malformed_tool_arguments", "unknown_tool", "empty_response", "truncated_json", "duplicate_tool_call_id", "reasoning_without_answer"] as const;
export const CHAOS_KINDS = [...CHAOS_TRANSPORT_KINDS, ...CHAOS_MODEL_KINDS] as const;
export type ChaosKind = (typeof CHAOS_KINDS)[number];

/** The kinds drawn when `kinds` is absent: the retryable transport faults, which cost no time. */
export const DEFAULT_CHAOS_KINDS: readonly ChaosKind[] = ["rate_limit", "overloaded", "server_error", "stream_error", "network_error"];
/** A chaos `timeout`'s silence before the late answer: the official SDKs' default request timeout. */
export const DEFAULT_CHAOS_TIMEOUT_MS = 600_000;
/** A chaos `slow_first_token`'s delay before the first content event. */
export const DEFAULT_CHAOS_SLOW_MS = 2_000;
/** The tool a chaos `unknown_tool` calls (never one a request offers). */
export const CHAOS_UNKNOWN_TOOL = "mockllm_unknown_tool";

export const ChaosSchema = z
  .strictObject({
    seed: z.number().int().describe("The generator's seed: the same seed, scenario, session and request number draw the same fault."),
    rate: z.number().min(0).max(1).describe("The share of requests that meet a fault, from 0 (none) to 1 (every one)."),
    kinds: z
      .array(z.enum(CHAOS_KINDS))
      .min(1)
      .optional()
      .describe(
        "The faults drawn from, each equally likely. Transport: `rate_limit`, `overloaded`, `server_error`, `timeout` (no byte for `timeoutMs`, then the answer), `stream_error` (after 0–3 events), `network_error`, `slow_first_token` (`slowMs` before the first content event). Model: `malformed_tool_arguments`, `unknown_tool`, `empty_response`, `truncated_json` (finish reason `length`), `duplicate_tool_call_id`, `reasoning_without_answer`. Default: `rate_limit`, `overloaded`, `server_error`, `stream_error`, `network_error`.",
      ),
    timeoutMs: z.number().int().min(0).optional().describe("A `timeout` fault's silence before the answer (default 600000, the SDKs' own timeout)."),
    slowMs: z.number().int().min(0).optional().describe("A `slow_first_token` fault's delay before the first content event (default 2000)."),
  })
  .describe("Seeded faults nobody scripted: journal outcome `chaos`; a chaos turn does not use its step.");
export type Chaos = z.output<typeof ChaosSchema>;
