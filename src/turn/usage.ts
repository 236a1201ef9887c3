/**
 * Usage counted with the model's tokenizer (docs/reference/usage.md): a scenario's `"usage": "count"` marks each reply
 * (`reply.countUsage`, the figures its step left out); `USAGE=count` (`mockllm serve --usage count`) counts every
 * default reply. A surface without `countUsage` keeps the figures it has. In a session, the prompt is counted before
 * the session decides (`usageCount`) and the session counts the reply it decided before journaling it
 * (src/canonical/reply-tokens.ts); `countedOutcome` counts what is left (the default responder, a counter this
 * isolate lacked).
 */
import type { Outcome, Reply } from "../canonical/outcome";
import type { CanonicalRequest } from "../canonical/request";
import { countedReply, type UsageCount } from "../canonical/reply-tokens";
import type { ProviderSurface } from "../providers/types";
import { resolveSurface } from "../providers/surface";
import type { Runtime } from "../runtime/types";
import type { Awaitable } from "../session/types";
import { isThenable } from "../util/awaitable";

/** Whether the default responder counts usage (`USAGE=count`). */
export function defaultCountsUsage(rt: Runtime): boolean {
  return rt.vars.USAGE?.trim().toLowerCase() === "count";
}

/** A reply with nothing in it: counting it gives the prompt's tokens alone. */
const EMPTY: Reply = {
  text: "",
  reasoning: [],
  reasoningField: "reasoning_content",
  toolCalls: [],
  finishReason: "stop",
  usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
  model: "",
  latencyMs: 0,
  pacing: { ttftMs: 0, tokensPerSecond: 0, chunkDelayMs: 0, chunkWords: 1, jitterMs: 0, seed: 0 },
  headers: {},
  idSeed: "",
};

/**
 * What the session needs to count a counting scenario's reply itself: the prompt's tokens and the surface's reply
 * counter (loaded here, so a session in this process counts with it). Undefined when the surface cannot count.
 * @example next.count = await usageCount(openaiChat, wire, request)
 */
export async function usageCount<W>(surface: ProviderSurface<W>, wire: W, request: CanonicalRequest): Promise<UsageCount | undefined> {
  if (surface.countUsage === undefined || surface.replyCounter === undefined) return undefined;
  const output = await surface.replyCounter(wire, request);
  const { input } = await surface.countUsage(wire, request, EMPTY);
  return { input, output };
}

/**
 * `outcome` with its reply's usage counted, when counting is on for it and the surface can count.
 * @example await countedOutcome(openaiChat, wire, request, outcome, false)
 */
export function countedOutcome<W>(surface: ProviderSurface<W>, wire: W, request: CanonicalRequest, outcome: Outcome, byDefault: boolean): Awaitable<Outcome> {
  if (outcome.kind !== "reply") return outcome;
  const fields = outcome.reply.countUsage ?? (byDefault ? { input: true, output: true } : undefined);
  if (fields === undefined || (!fields.input && !fields.output)) return outcome;
  const reply = outcome.reply;
  const withCounts = (n: { input: number; output: number } | undefined): Outcome => (n === undefined ? outcome : { kind: "reply", reply: countedReply(reply, n.input, n.output, fields) });
  const n = resolveSurface(surface).counted(wire, request, reply);
  return isThenable(n) ? n.then(withCounts) : withCounts(n);
}
