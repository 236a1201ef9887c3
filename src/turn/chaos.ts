/**
 * Seeded chaos for the default responder (`mockllm serve --chaos`, Worker var `CHAOS`): each request of a session
 * draws as a scenario's requests do (src/scenario/chaos.ts), numbered by a counter of the session's
 * default-responder object (`__responses/{session}`). The counter is read only when chaos is on, so a server without
 * it makes no object call here.
 */
import type { Outcome, Reply } from "../canonical/outcome";
import type { CanonicalRequest } from "../canonical/request";
import type { Runtime } from "../runtime/types";
import { chaosApplies, chaosOutcome, drawChaos } from "../scenario/chaos";
import type { Chaos } from "../scenario/chaos-schema";
import { defaultCounter } from "./default-ids";

/** The counter of `__responses/{session}` that numbers the default responder's requests for chaos. */
const COUNTER = "chaos";
/** The scenario part of a default-responder draw's seed (no scenario is named `(default)`). */
const DEFAULT_SCENARIO = "(default)";

/**
 * The default reply, or the fault `chaos` draws for it; a drawn fault is marked `x-mockllm-outcome: chaos` and
 * `x-mockllm-chaos: {kind}`.
 * @example await defaultChaos(rt, { seed: 42, rate: 1, kinds: ["rate_limit"] }, "run-1", request, reply, headers)
 */
export async function defaultChaos(rt: Runtime, chaos: Chaos, session: string, request: CanonicalRequest, reply: Reply, headers: Record<string, string>): Promise<Outcome> {
  const n = await defaultCounter(rt, session, COUNTER);
  const d = drawChaos(chaos, DEFAULT_SCENARIO, session, n);
  if (d === undefined || !chaosApplies(d.kind, reply, request)) return { kind: "reply", reply };
  headers["x-mockllm-outcome"] = "chaos";
  headers["x-mockllm-chaos"] = `${d.kind}; seed=${d.seed}; draw=${d.draw}`;
  return chaosOutcome(d, chaos, reply, request);
}
