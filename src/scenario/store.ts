/**
 * The runtime boundary for scenarios: a `ScenarioStore` answers by name, lists, and keeps uploads. Workers keeps
 * uploads in KV over the bundled defaults (src/hosts/workers/kv-scenarios.ts); Node keeps them in memory over
 * files and the bundled defaults (src/hosts/node/scenarios.ts). What both share lives here.
 */
import { BUNDLED } from "./bundled.gen";
import { parseScenarioDocument, type DocumentIssue } from "./document";
import { decodeMetaText, encodeMetaText } from "./meta-text";
import type { Scenario } from "./schema";
import { compareNames } from "./names";
import type { Awaitable } from "../util/awaitable";

/** Where a scenario came from: uploaded through the admin API ("kv", also on Node), a `--scenarios` file, or bundled. */
export type ScenarioSource = "kv" | "file" | "bundled";

export interface StoredScenario {
  name: string;
  version: string;
  source: ScenarioSource;
  scenario: Scenario;
  /** The document exactly as uploaded. */
  raw: unknown;
}

export interface ScenarioSummary {
  name: string;
  version: string;
  description?: string;
  source: ScenarioSource;
}

export interface ScenarioStore {
  /**
   * The scenario that answers to `name`: an upload hides a file, a file hides a bundled default. A value, not a
   * promise, when the store holds it at hand (Node's memory, a Worker isolate's cache): a turn's lookup then costs no
   * turn of the microtask queue.
   */
  get(name: string): Awaitable<StoredScenario | undefined>;
  /** Every scenario, sorted by name, each once (the one `get` would answer). */
  list(): Promise<ScenarioSummary[]>;
  /** Scenarios with a top-level `match`, by descending priority, then name (selection rule 4). */
  candidates(): Promise<StoredScenario[]>;
  /**
   * Every scenario name, sorted: for "did you mean" hints and the default-responder-off 404. May be a few seconds
   * stale on Workers (listed at most every CANDIDATES_TTL_MS per isolate, as `candidates`).
   */
  names(): Promise<string[]>;
  /** Stores an already validated document as an upload. */
  put(raw: unknown, scenario: Scenario, version: string): Promise<void>;
  /** Removes an upload; false when there was none (a file or bundled scenario is not removed). */
  delete(name: string): Promise<boolean>;
}

/** Content hash of a document: 16 hex characters of SHA-256 over its JSON text. */
export async function versionOf(raw: unknown): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify(raw));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...digest.slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Parsed documents by version, so a hot scenario is validated once per process or isolate. */
const parsedCache = new Map<string, Scenario>();

/** A stored document, validated once per version. Throws when a stored document no longer validates. */
export function parseCached(version: string, raw: unknown): Scenario {
  const hit = parsedCache.get(version);
  if (hit) return hit;
  const parsed = parseScenarioDocument(raw);
  if (!parsed.ok) throw new Error(`stored scenario is invalid: ${parsed.issues.map((i) => i.path).join(", ")}`);
  if (parsedCache.size > 500) parsedCache.clear();
  parsedCache.set(version, parsed.scenario);
  return parsed.scenario;
}

/** Kept once built; never the pending build (on Workers a promise of one request must not reach another). */
let bundledCache: Map<string, StoredScenario> | undefined;

/**
 * The bundled `scenarios/*.json`, validated at build time by `npm run generate`, which also writes each one's name and
 * version (no start hashes them). Each is parsed the first time it is used, not at start-up: a server that never
 * touches most of them never pays for them.
 */
export async function bundledScenarios(): Promise<Map<string, StoredScenario>> {
  if (bundledCache) return bundledCache;
  const out = new Map<string, StoredScenario>();
  for (const { name, version, raw } of BUNDLED) {
    out.set(name, {
      name,
      version,
      source: "bundled",
      raw,
      get scenario() {
        return parseCached(version, raw);
      },
    });
  }
  bundledCache ??= out;
  return bundledCache;
}

/**
 * A summary for listing. The description is cut as KV metadata cuts it (meta-text.ts), so a listing reads the same
 * on both runtimes and for bundled scenarios.
 */
export function summaryOf(s: Pick<StoredScenario, "name" | "version" | "source" | "scenario">): ScenarioSummary {
  return {
    name: s.name,
    version: s.version,
    ...(s.scenario.description !== undefined ? { description: decodeMetaText(encodeMetaText(s.scenario.description)) } : {}),
    source: s.source,
  };
}

/** Rule-4 order: descending priority, then name. */
export function byPriority(a: StoredScenario, b: StoredScenario): number {
  return (b.scenario.priority ?? 0) - (a.scenario.priority ?? 0) || compareNames(a.name, b.name);
}

export type PutResult = { ok: true; name: string; version: string } | { ok: false; issues: DocumentIssue[] };

/** Validates without storing. */
export async function checkScenario(raw: unknown, expectedName?: string): Promise<PutResult & { scenario?: Scenario }> {
  const parsed = parseScenarioDocument(raw, expectedName);
  if (!parsed.ok) return parsed;
  return { ok: true, name: parsed.scenario.name, version: await versionOf(raw), scenario: parsed.scenario };
}
