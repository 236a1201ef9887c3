/**
 * Usage counted with the model's tokenizer (docs/reference/usage.md): a scenario's `"usage": "count"` marks each reply
 * (`reply.countUsage`, the figures its step left out); `USAGE=count` (`mockllm serve --usage count`) counts every
 * default reply. A surface without `countUsage` keeps the figures it has.
 */
import type { Outcome, Reply } from "../canonical/outcome";
import type { CanonicalRequest } from "../canonical/request";
import type { ProviderSurface } from "../providers/types";
import { resolveSurface } from "../providers/surface";
import type { Runtime } from "../runtime/types";

/** Whether the default responder counts usage (`USAGE=count`). */
export function defaultCountsUsage(rt: Runtime): boolean {
  return rt.vars.USAGE?.trim().toLowerCase() === "count";
}

function counted(reply: Reply, input: number, output: number, fields: { input: boolean; output: boolean }): Reply {
  const usage = { ...reply.usage };
  if (fields.input) usage.inputTokens = input;
  if (fields.output) usage.outputTokens = output;
  const out = { ...reply, usage };
  delete out.countUsage;
  out.usageCounted = true;
  return out;
}

/**
 * `outcome` with its reply's usage counted, when counting is on for it and the surface can count.
 * @example await countedOutcome(openaiChat, wire, request, outcome, false)
 */
export async function countedOutcome<W>(surface: ProviderSurface<W>, wire: W, request: CanonicalRequest, outcome: Outcome, byDefault: boolean): Promise<Outcome> {
  if (outcome.kind !== "reply") return outcome;
  const fields = outcome.reply.countUsage ?? (byDefault ? { input: true, output: true } : undefined);
  if (fields === undefined || (!fields.input && !fields.output)) return outcome;
  const n = await resolveSurface(surface).counted(wire, request, outcome.reply);
  if (n === undefined) return outcome;
  return { kind: "reply", reply: counted(outcome.reply, n.input, n.output, fields) };
}
