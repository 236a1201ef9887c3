/**
 * The models the scenarios mention, plus a default: what every provider's model listing reports (handed to the
 * providers' side routes as `SideRouteContext.modelIds`).
 */
import { answeredModel } from "../canonical/models";
import type { Runtime } from "../runtime/types";
import type { Scenario, StringMatch } from "../scenario/schema";

export const DEFAULT_MODEL = "mockllm-default";

function exact(m: StringMatch | undefined): string[] {
  if (m === undefined) return [];
  if (typeof m === "string") return [m];
  return "equals" in m ? [m.equals] : [];
}

export function modelsIn(s: Scenario): string[] {
  return [...exact(s.match?.model), ...s.steps.flatMap((st) => [...exact(st.match?.model), ...exact(st.expect?.model), ...(st.respond?.model ? [st.respond.model] : [])])];
}

/**
 * Every model id the scenarios mention, with the dated snapshot of each well-known alias (answers name the
 * snapshot, so a client may look it up), sorted, with the default first.
 */
export async function modelIds(rt: Runtime): Promise<string[]> {
  const ids = new Set<string>();
  for (const summary of await rt.scenarios.list()) {
    const stored = await rt.scenarios.get(summary.name);
    if (stored) for (const m of modelsIn(stored.scenario)) ids.add(m);
  }
  for (const m of [...ids]) for (const family of ["openai", "anthropic"] as const) ids.add(answeredModel(family, m));
  ids.delete(DEFAULT_MODEL);
  return [DEFAULT_MODEL, ...[...ids].sort()];
}
