/**
 * The Workers runtime's scenario store: uploads in KV over the bundled read-only defaults. KV key `scenario:{name}`
 * holds the document text; its metadata carries what listing and auto-selection need.
 */
import type { Scenario } from "../../scenario/schema";
import { bundledScenarios, byPriority, parseCached, summaryOf, versionOf, type ScenarioStore, type ScenarioSummary, type StoredScenario } from "../../scenario/store";
import { compareNames } from "../../scenario/names";
import type { Awaitable } from "../../util/awaitable";
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

/**
 * A value read by an earlier request. Only settled values are kept at module scope: a pending KV read belongs to
 * the request that started it, and workerd refuses it to any other ("Cannot perform I/O on behalf of a different
 * request") or never resolves it once that request has ended. Concurrent lookups share a read only within one
 * request (KvScenarioStore.inflight).
 */
interface Cached<T> {
  at: number;
  value: T;
}
/** By key prefix (one per namespace; `scenario:` for the default namespace). */
const candidatesCache = new Map<string, Cached<StoredScenario[]>>();
const namesCache = new Map<string, Cached<string[]>>();
/**
 * Documents by name, read from KV at most once per CANDIDATES_TTL_MS per isolate, so a busy scenario costs no KV read
 * per request. A running session is unaffected either way (it keeps its snapshot); a new session may start on a
 * version up to the TTL old in other isolates — well inside KV's own propagation time (up to a minute).
 */
const docCache = new Map<string, Cached<StoredScenario | undefined>>();
const DOC_CACHE_LIMIT = 1000;
/** Bumped by every invalidation, so a read begun before an admin write does not cache what it read. */
let generation = 0;

/** Forgets cached listings and documents after an admin write. */
export function invalidateScenarioCaches(): void {
  candidatesCache.clear();
  namesCache.clear();
  docCache.clear();
  generation++;
}

function fresh<T>(hit: Cached<T> | undefined): hit is Cached<T> {
  return hit !== undefined && Date.now() - hit.at < CANDIDATES_TTL_MS;
}

/** Keeps a settled value in a module-level cache, bounded. */
function keepIn<T>(cache: Map<string, Cached<T>>, key: string, entry: Cached<T>): void {
  if (cache.size >= DOC_CACHE_LIMIT) cache.clear();
  cache.set(key, entry);
}

/** The KV key prefix of a namespace's uploads (`space` = the namespace's storage name). */
export function namespacePrefix(space: string): string {
  return `ns:${space}:${PREFIX}`;
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

/** The scenario store over KV. Build one per request (workersRuntime does): its in-flight reads are that request's. */
export class KvScenarioStore implements ScenarioStore {
  /** Reads this request has in flight, by key: concurrent lookups within the request share one KV read. */
  private readonly inflight = new Map<string, Promise<unknown>>();

  /** @param prefix KV key prefix: `scenario:` (default namespace) or namespacePrefix(space) */
  constructor(
    private readonly kv: KVNamespace,
    private readonly prefix: string = PREFIX,
  ) {}

  /** `read()` once per key within this request; its settled value is kept for other requests by `keep`. */
  private shared<T>(key: string, read: () => Promise<T>, keep: (entry: Cached<T>) => void): Promise<T> {
    const pending = this.inflight.get(key) as Promise<T> | undefined;
    if (pending) return pending;
    const at = Date.now();
    const gen = generation;
    const value = read().then((v) => {
      if (gen === generation) keep({ at, value: v });
      return v;
    });
    this.inflight.set(key, value);
    value.then(
      () => this.inflight.delete(key),
      () => this.inflight.delete(key),
    );
    return value;
  }

  get(name: string): Awaitable<StoredScenario | undefined> {
    const key = this.prefix + name;
    const hit = docCache.get(key);
    if (fresh(hit)) return hit.value;
    return this.shared(
      `doc:${name}`,
      () => this.read(name),
      (entry) => keepIn(docCache, key, entry),
    );
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
    return out.sort((a, b) => compareNames(a.name, b.name));
  }

  candidates(): Promise<StoredScenario[]> {
    const hit = candidatesCache.get(this.prefix);
    if (fresh(hit)) return Promise.resolve(hit.value);
    return this.shared(
      "candidates",
      () => this.listCandidates(),
      (entry) => keepIn(candidatesCache, this.prefix, entry),
    );
  }

  names(): Promise<string[]> {
    const hit = namesCache.get(this.prefix);
    if (fresh(hit)) return Promise.resolve(hit.value);
    return this.shared(
      "names",
      async () => (await this.list()).map((s) => s.name),
      (entry) => keepIn(namesCache, this.prefix, entry),
    );
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
