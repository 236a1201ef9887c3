/**
 * `mockllm serve --record` and `mockllm record`: the server's upstream flags become one recording scenario, stored
 * like an upload. It has no steps and a top-level `match: {}` at the lowest priority, so every request that no
 * other scenario selects lands in it (session `default`, or the one `x-mock-session` or `/s/{name}/{session}/…`
 * names) and is proxied to its provider's upstream and recorded.
 */
import type { ProviderName } from "../../canonical/request";
import { RECORDABLE } from "../../providers/registry";
import type { ScenarioStore } from "../../scenario/store";
import { checkScenario } from "../../scenario/store";

/** The recording scenario's name unless one is given. */
export const RECORDING_SCENARIO = "recording";

export interface RecordOptions {
  upstream: Partial<Record<ProviderName, string>>;
  /** Default `recording`. */
  scenario?: string;
}

/** Parses `provider=URL` flags; throws a message naming the bad one. */
export function parseUpstreams(flags: readonly string[]): Partial<Record<ProviderName, string>> {
  const out: Partial<Record<ProviderName, string>> = {};
  for (const flag of flags) {
    const m = /^([a-z]+)=(https?:\/\/\S+)$/.exec(flag.trim());
    const provider = m?.[1] as ProviderName | undefined;
    if (!m || !provider || !(RECORDABLE as readonly string[]).includes(provider)) {
      throw new Error(`--upstream takes provider=URL with provider one of ${RECORDABLE.join(", ")}, got "${flag}"`);
    }
    out[provider] = m[2]!;
  }
  return out;
}

/** The recording scenario's document. */
export function recordingScenarioDocument(opts: RecordOptions): Record<string, unknown> {
  return {
    name: opts.scenario ?? RECORDING_SCENARIO,
    description: `Recording proxy to ${Object.entries(opts.upstream)
      .map(([p, u]) => `${p} ${u}`)
      .join(", ")}`,
    priority: -1_000_000,
    match: {},
    record: { upstream: opts.upstream },
    steps: [],
  };
}

/** Stores the recording scenario; throws when the flags make an invalid one. */
export async function putRecordingScenario(store: ScenarioStore, opts: RecordOptions): Promise<void> {
  const raw = recordingScenarioDocument(opts);
  const checked = await checkScenario(raw);
  if (!checked.ok) throw new Error(`invalid recording settings: ${checked.issues.map((i) => `${i.path}: ${i.message}`).join("; ")}`);
  await store.put(raw, checked.scenario!, checked.version);
}
