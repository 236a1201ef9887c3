/**
 * Scenarios in KV (uploaded through the admin API) over the bundled read-only defaults.
 * KV key `scenario:{name}` holds the document text; its metadata carries what listing and auto-selection need.
 */
import { BUNDLED } from "./bundled.gen";
import { parseScenarioDocument, type DocumentIssue } from "./document";
import { decodeMetaText, encodeMetaText } from "./meta-text";
import type { Scenario } from "./schema";

const PREFIX = "scenario:";

export interface StoredScenario {
  name: string;
  version: string;
  source: "kv" | "bundled";
  scenario: Scenario;
  /** The document exactly as uploaded. */
  raw: unknown;
}

interface Meta {
  version: string;
  description?: string;
  hasMatch: boolean;
}

export interface ScenarioSummary {
  name: string;
  version: string;
  description?: string;
  source: "kv" | "bundled";
}

/** Content hash of a document: 16 hex characters of SHA-256 over its JSON text. */
export async function versionOf(raw: unknown): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify(raw));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...digest.slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Parsed documents by version, so a hot scenario is validated once per isolate. */
const parsedCache = new Map<string, Scenario>();

function parseCached(version: string, raw: unknown): Scenario {
  const hit = parsedCache.get(version);
  if (hit) return hit;
  const parsed = parseScenarioDocument(raw);
  if (!parsed.ok) throw new Error(`stored scenario is invalid: ${parsed.issues.map((i) => i.path).join(", ")}`);
  if (parsedCache.size > 500) parsedCache.clear();
  parsedCache.set(version, parsed.scenario);
  return parsed.scenario;
}

let bundledCache: Promise<Map<string, StoredScenario>> | undefined;

/** The bundled `scenarios/*.json`, validated at build time by `npm run schema`. */
export function bundledScenarios(): Promise<Map<string, StoredScenario>> {
  bundledCache ??= (async () => {
    const out = new Map<string, StoredScenario>();
    for (const raw of BUNDLED) {
      const version = await versionOf(raw);
      const scenario = parseCached(version, raw);
      out.set(scenario.name, { name: scenario.name, version, source: "bundled", scenario, raw });
    }
    return out;
  })();
  return bundledCache;
}

export async function getScenario(kv: KVNamespace, name: string): Promise<StoredScenario | undefined> {
  const { value, metadata } = await kv.getWithMetadata<Meta>(PREFIX + name, "text");
  if (value !== null) {
    const raw: unknown = JSON.parse(value);
    const version = metadata?.version ?? (await versionOf(raw));
    return { name, version, source: "kv", scenario: parseCached(version, raw), raw };
  }
  return (await bundledScenarios()).get(name);
}

async function listKv(kv: KVNamespace): Promise<{ name: string; meta: Meta }[]> {
  const out: { name: string; meta: Meta }[] = [];
  let cursor: string | undefined;
  do {
    const page = await kv.list<Meta>({ prefix: PREFIX, ...(cursor ? { cursor } : {}) });
    for (const k of page.keys) {
      if (k.metadata) out.push({ name: k.name.slice(PREFIX.length), meta: k.metadata });
    }
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  return out;
}

/** Every scenario, KV first; a KV document hides its bundled twin. */
export async function listScenarios(kv: KVNamespace): Promise<ScenarioSummary[]> {
  const kvList = await listKv(kv);
  const seen = new Set(kvList.map((k) => k.name));
  const out: ScenarioSummary[] = kvList.map((k) => ({
    name: k.name,
    version: k.meta.version,
    ...(k.meta.description !== undefined ? { description: decodeMetaText(k.meta.description) } : {}),
    source: "kv",
  }));
  for (const b of (await bundledScenarios()).values()) {
    if (seen.has(b.name)) continue;
    out.push({
      name: b.name,
      version: b.version,
      ...(b.scenario.description !== undefined ? { description: b.scenario.description } : {}),
      source: "bundled",
    });
  }
  return out.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Rule-4 candidates are listed from KV at most once per CANDIDATES_TTL_MS per isolate: without this every request
 * that no earlier rule selects (default-responder traffic) would cost a KV list. Admin writes in this isolate
 * clear it at once; other isolates see a change within the TTL (KV itself takes up to a minute across locations).
 */
export const CANDIDATES_TTL_MS = 5_000;
let candidatesCache: { at: number; value: Promise<StoredScenario[]> } | undefined;

/** Forgets cached listings after an admin write. */
export function invalidateScenarioCaches(): void {
  candidatesCache = undefined;
}

/** Scenarios with a top-level `match`, by descending priority, then name (selection rule 4). */
export function autoSelectCandidates(kv: KVNamespace): Promise<StoredScenario[]> {
  const now = Date.now();
  if (candidatesCache && now - candidatesCache.at < CANDIDATES_TTL_MS) return candidatesCache.value;
  const value = listCandidates(kv);
  candidatesCache = { at: now, value };
  value.catch(() => {
    if (candidatesCache?.value === value) candidatesCache = undefined;
  });
  return value;
}

async function listCandidates(kv: KVNamespace): Promise<StoredScenario[]> {
  const kvList = await listKv(kv);
  const seen = new Set(kvList.map((k) => k.name));
  const fromKv = await Promise.all(kvList.filter((k) => k.meta.hasMatch).map((k) => getScenario(kv, k.name)));
  const fromBundle = [...(await bundledScenarios()).values()].filter((b) => !seen.has(b.name) && b.scenario.match);
  return [...fromKv.filter((s): s is StoredScenario => s !== undefined && s.source === "kv"), ...fromBundle].sort(
    (a, b) => (b.scenario.priority ?? 0) - (a.scenario.priority ?? 0) || a.name.localeCompare(b.name),
  );
}

export type PutResult = { ok: true; name: string; version: string } | { ok: false; issues: DocumentIssue[] };

/** Validates without storing. */
export async function checkScenario(raw: unknown, expectedName?: string): Promise<PutResult & { scenario?: Scenario }> {
  const parsed = parseScenarioDocument(raw, expectedName);
  if (!parsed.ok) return parsed;
  return { ok: true, name: parsed.scenario.name, version: await versionOf(raw), scenario: parsed.scenario };
}

/** Stores an already validated document. */
export async function storeScenario(kv: KVNamespace, raw: unknown, scenario: Scenario, version: string): Promise<void> {
  const meta: Meta = {
    version,
    hasMatch: scenario.match !== undefined,
    ...(scenario.description !== undefined ? { description: encodeMetaText(scenario.description) } : {}),
  };
  await kv.put(PREFIX + scenario.name, JSON.stringify(raw), { metadata: meta });
  invalidateScenarioCaches();
}

export async function deleteScenario(kv: KVNamespace, name: string): Promise<boolean> {
  const exists = (await kv.get(PREFIX + name, "text")) !== null;
  if (exists) await kv.delete(PREFIX + name);
  invalidateScenarioCaches();
  return exists;
}
