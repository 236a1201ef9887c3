/**
 * The Workers runtime's scenario store: uploads in KV over the bundled read-only defaults. KV key `scenario:{name}`
 * holds the document text; its metadata carries what listing and auto-selection need.
 */
import type { Scenario } from "../../scenario/schema";
import {
  bundledScenarios,
  byPriority,
  parseCached,
  summaryOf,
  versionOf,
  type ScenarioStore,
  type ScenarioSummary,
  type StoredScenario,
} from "../../scenario/store";
import { decodeMetaText, encodeMetaText } from "../../scenario/meta-text";

const PREFIX = "scenario:";

interface Meta {
  version: string;
  description?: string;
  hasMatch: boolean;
}

/**
 * Rule-4 candidates are listed from KV at most once per CANDIDATES_TTL_MS per isolate: without this every request
 * that no earlier rule selects (default-responder traffic) would cost a KV list. Admin writes in this isolate
 * clear it at once; other isolates see a change within the TTL (KV itself takes up to a minute across locations).
 */
export const CANDIDATES_TTL_MS = 5_000;
/** By key prefix (one per namespace; `scenario:` for the default namespace). */
const candidatesCache = new Map<string, { at: number; value: Promise<StoredScenario[]> }>();
const namesCache = new Map<string, { at: number; value: Promise<string[]> }>();
/**
 * Documents by name, read from KV at most once per CANDIDATES_TTL_MS per isolate, so a busy scenario costs no KV read
 * per request. A running session is unaffected either way (it keeps its snapshot); a new session may start on a
 * version up to the TTL old in other isolates — well inside KV's own propagation time (up to a minute).
 */
const docCache = new Map<string, { at: number; value: Promise<StoredScenario | undefined> }>();
const DOC_CACHE_LIMIT = 1000;

/** Forgets cached listings and documents after an admin write. */
export function invalidateScenarioCaches(): void {
  candidatesCache.clear();
  namesCache.clear();
  docCache.clear();
}

/** The KV key prefix of a namespace's uploads (`space` = the namespace's storage name). */
export function namespacePrefix(space: string): string {
  return `ns:${space}:${PREFIX}`;
}

/** A listing cached per isolate for CANDIDATES_TTL_MS, by key prefix; a failed listing is not kept. */
function cached<T>(cache: Map<string, { at: number; value: Promise<T> }>, prefix: string, load: () => Promise<T>): Promise<T> {
  const now = Date.now();
  const hit = cache.get(prefix);
  if (hit && now - hit.at < CANDIDATES_TTL_MS) return hit.value;
  if (cache.size >= DOC_CACHE_LIMIT) cache.clear();
  const value = load();
  cache.set(prefix, { at: now, value });
  value.catch(() => {
    if (cache.get(prefix)?.value === value) cache.delete(prefix);
  });
  return value;
}

/** Deletes every KV key of a namespace (its uploads), after the namespace is deleted. */
export async function dropNamespaceKeys(kv: KVNamespace, space: string): Promise<void> {
  const prefix = `ns:${space}:`;
  let cursor: string | undefined;
  do {
    const page = await kv.list({ prefix, ...(cursor ? { cursor } : {}) });
    await Promise.all(page.keys.map((k) => kv.delete(k.name)));
    cursor = page.list_complete ? undefined : page.cursor;
  } while (cursor);
  invalidateScenarioCaches();
}

export class KvScenarioStore implements ScenarioStore {
  /** @param prefix KV key prefix: `scenario:` (default namespace) or namespacePrefix(space) */
  constructor(
    private readonly kv: KVNamespace,
    private readonly prefix: string = PREFIX,
  ) {}

  get(name: string): Promise<StoredScenario | undefined> {
    const now = Date.now();
    const key = this.prefix + name;
    const hit = docCache.get(key);
    if (hit && now - hit.at < CANDIDATES_TTL_MS) return hit.value;
    if (docCache.size >= DOC_CACHE_LIMIT) docCache.clear();
    const value = this.read(name);
    docCache.set(key, { at: now, value });
    value.catch(() => {
      if (docCache.get(key)?.value === value) docCache.delete(key);
    });
    return value;
  }

  private async read(name: string): Promise<StoredScenario | undefined> {
    const { value, metadata } = await this.kv.getWithMetadata<Meta>(this.prefix + name, "text");
    if (value !== null) {
      const raw: unknown = JSON.parse(value);
      const version = metadata?.version ?? (await versionOf(raw));
      return { name, version, source: "kv", scenario: parseCached(version, raw), raw };
    }
    return (await bundledScenarios()).get(name);
  }

  private async listKv(): Promise<{ name: string; meta: Meta }[]> {
    const out: { name: string; meta: Meta }[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.kv.list<Meta>({ prefix: this.prefix, ...(cursor ? { cursor } : {}) });
      for (const k of page.keys) {
        if (k.metadata) out.push({ name: k.name.slice(this.prefix.length), meta: k.metadata });
      }
      cursor = page.list_complete ? undefined : page.cursor;
    } while (cursor);
    return out;
  }

  async list(): Promise<ScenarioSummary[]> {
    const kvList = await this.listKv();
    const seen = new Set(kvList.map((k) => k.name));
    const out: ScenarioSummary[] = kvList.map((k) => ({
      name: k.name,
      version: k.meta.version,
      ...(k.meta.description !== undefined ? { description: decodeMetaText(k.meta.description) } : {}),
      source: "kv",
    }));
    for (const b of (await bundledScenarios()).values()) if (!seen.has(b.name)) out.push(summaryOf(b));
    return out.sort((a, b) => a.name.localeCompare(b.name));
  }

  candidates(): Promise<StoredScenario[]> {
    return cached(candidatesCache, this.prefix, () => this.listCandidates());
  }

  names(): Promise<string[]> {
    return cached(namesCache, this.prefix, () => this.list().then((all) => all.map((s) => s.name)));
  }

  private async listCandidates(): Promise<StoredScenario[]> {
    const kvList = await this.listKv();
    const seen = new Set(kvList.map((k) => k.name));
    const fromKv = await Promise.all(kvList.filter((k) => k.meta.hasMatch).map((k) => this.get(k.name)));
    const fromBundle = [...(await bundledScenarios()).values()].filter((b) => !seen.has(b.name) && b.scenario.match);
    return [...fromKv.filter((s): s is StoredScenario => s !== undefined && s.source === "kv"), ...fromBundle].sort(byPriority);
  }

  async put(raw: unknown, scenario: Scenario, version: string): Promise<void> {
    const meta: Meta = {
      version,
      hasMatch: scenario.match !== undefined,
      ...(scenario.description !== undefined ? { description: encodeMetaText(scenario.description) } : {}),
    };
    await this.kv.put(this.prefix + scenario.name, JSON.stringify(raw), { metadata: meta });
    invalidateScenarioCaches();
  }

  async delete(name: string): Promise<boolean> {
    const exists = (await this.kv.get(this.prefix + name, "text")) !== null;
    if (exists) await this.kv.delete(this.prefix + name);
    invalidateScenarioCaches();
    return exists;
  }
}
