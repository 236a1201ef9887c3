/**
 * Counted usage inside the session (scenario `"usage": "count"`): the session counts the reply it decided
 * before journaling it, so the journal, `expect.budget` and `limits.tokensPerMinute` see the figures the client gets.
 * The turn counts the prompt (it depends on the request only) and names the reply counter its surface uses; the
 * session completes the usage with that counter, synchronously. Counters are defined by the providers
 * (src/providers/reply-counters.ts: a tokenizer's encoding once loaded, an approximation at once); a counter not
 * defined in this isolate leaves the reply to be counted by the turn, as before.
 */
import type { Reply } from "./outcome";

/** Completion tokens of a decided reply. */
export type ReplyCounter = (reply: Reply) => number;

/** Counters defined in this isolate, by name (settled functions only, nothing pending is shared between requests). */
const counters = new Map<string, ReplyCounter>([["none", () => 0]]);

/** What the turn sends with a request of a counting scenario: the prompt tokens and the reply counter's name. */
export interface UsageCount {
  input: number;
  output: string;
}

/** Defines (or replaces) the counter `name`. */
export function defineReplyCounter(name: string, count: ReplyCounter): void {
  counters.set(name, count);
}

/** Whether `name` can count here now. */
export function hasReplyCounter(name: string): boolean {
  return counters.has(name);
}

/**
 * `reply` with its usage counted where its step left it out (`reply.countUsage`), given the prompt's `input` tokens
 * and the completion's `output`.
 * @example countedReply(reply, 12, 7, { input: true, output: false }).usage.inputTokens // 12
 */
export function countedReply(reply: Reply, input: number, output: number, fields: { input: boolean; output: boolean }): Reply {
  const usage = { ...reply.usage };
  if (fields.input) usage.inputTokens = input;
  if (fields.output) usage.outputTokens = output;
  const out = { ...reply, usage };
  delete out.countUsage;
  out.usageCounted = true;
  return out;
}

/**
 * The reply counted with `count` when it asks to be (`countUsage`) and the counter is defined here; otherwise
 * `reply` as it is (the turn counts it).
 * @example countReply(reply, { input: 12, output: "none" })
 */
export function countReply(reply: Reply, count: UsageCount): Reply {
  const fields = reply.countUsage;
  if (fields === undefined || (!fields.input && !fields.output)) return reply;
  const counter = counters.get(count.output);
  if (counter === undefined) return reply;
  return countedReply(reply, count.input, fields.output ? counter(reply) : 0, fields);
}
