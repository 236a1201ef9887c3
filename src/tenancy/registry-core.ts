/**
 * The key registry's logic over a synchronous string store, shared by the Durable Object (SQLite) and the Node
 * runtime (a Map, written out by `--persist`). Every method is synchronous, so each call applies atomically.
 */
import type { SyncStore } from "../util/sync-store";
import type { AuditEntry, ChargeResult, KeyRecord, NamespaceCheck, NamespaceRecord, Quotas, Registry, StoredKey, Usage } from "./types";
import type { Limits } from "../scenario/limits-schema";
import { LimitWindows } from "./limits";

export type { SyncStore };

/** Most audit entries kept per namespace (the oldest go first). */
export const AUDIT_LIMIT = 1000;
const MINUTE_MS = 60_000;

interface UsageState {
  windowStart: number;
  requests: number;
  /** Session name → last use (ms). */
  sessions: Record<string, number>;
  journalBytes: number;
  scenarioBytes: Record<string, number>;
}

function emptyUsage(): UsageState {
  return { windowStart: 0, requests: 0, sessions: {}, journalBytes: 0, scenarioBytes: {} };
}

function publicKey(k: StoredKey): KeyRecord {
  return { id: k.id, namespace: k.namespace, scope: k.scope, ...(k.label !== undefined ? { label: k.label } : {}), createdAt: k.createdAt };
}

export class RegistryCore implements Registry {
  /** Namespaces' `limits` windows: in memory (a minute of counts is not worth a write per request). */
  private readonly windows = new LimitWindows();

  constructor(private readonly store: SyncStore) {}

  private read<T>(key: string): T | null {
    const v = this.store.get(key);
    return v === undefined ? null : (JSON.parse(v) as T);
  }

  private write(key: string, value: unknown): void {
    this.store.put(key, JSON.stringify(value));
  }

  createNamespace(name: string, quotas: Quotas, space: string, expiresAt?: string, limits?: Limits): NamespaceRecord | null {
    if (this.store.get(`ns:${name}`) !== undefined) return null;
    const record: NamespaceRecord = {
      name,
      quotas,
      createdAt: new Date().toISOString(),
      space,
      ...(expiresAt !== undefined ? { expiresAt } : {}),
      ...(limits !== undefined ? { limits } : {}),
    };
    this.write(`ns:${name}`, record);
    return record;
  }

  listNamespaces(): NamespaceRecord[] {
    return this.store.list("ns:").map(([, v]) => JSON.parse(v) as NamespaceRecord);
  }

  getNamespace(name: string): NamespaceRecord | null {
    return this.read<NamespaceRecord>(`ns:${name}`);
  }

  deleteNamespace(name: string): NamespaceRecord | null {
    const record = this.getNamespace(name);
    if (!record) return null;
    for (const [k, v] of this.store.list("key:")) if ((JSON.parse(v) as StoredKey).namespace === name) this.store.delete(k);
    this.store.delete(`ns:${name}`);
    this.store.delete(`use:${name}`);
    this.store.delete(`audit:${name}`);
    this.windows.forget(name);
    return record;
  }

  addKey(key: StoredKey): boolean {
    if (!this.getNamespace(key.namespace) || this.store.get(`key:${key.id}`) !== undefined) return false;
    this.write(`key:${key.id}`, key);
    return true;
  }

  listKeys(namespace: string): KeyRecord[] {
    return this.store
      .list("key:")
      .map(([, v]) => JSON.parse(v) as StoredKey)
      .filter((k) => k.namespace === namespace)
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id))
      .map(publicKey);
  }

  revokeKey(namespace: string, id: string): boolean {
    const key = this.read<StoredKey>(`key:${id}`);
    if (!key || key.namespace !== namespace) return false;
    this.store.delete(`key:${id}`);
    return true;
  }

  lookupKey(id: string): { key: StoredKey; namespace: NamespaceRecord } | null {
    const key = this.read<StoredKey>(`key:${id}`);
    const namespace = key ? this.getNamespace(key.namespace) : null;
    return key && namespace ? { key, namespace } : null;
  }

  /**
   * Checks one request's usage against the quotas and, when it fits, records it. Requests per minute count in fixed
   * one-minute windows; sessions count those used within the session TTL; journal and scenario bytes add up.
   */
  charge(namespace: string, quotas: Quotas, usage: Usage, now: number, ttlMs: number): ChargeResult {
    const state = this.read<UsageState>(`use:${namespace}`) ?? emptyUsage();
    if (usage.request) {
      if (now - state.windowStart >= MINUTE_MS) {
        state.windowStart = now;
        state.requests = 0;
      }
      if (quotas.requestsPerMinute !== undefined && state.requests >= quotas.requestsPerMinute) {
        return { ok: false, quota: "requestsPerMinute", retryAfterSeconds: Math.max(1, Math.ceil((state.windowStart + MINUTE_MS - now) / 1000)) };
      }
    }
    if (usage.session !== undefined) {
      for (const [name, at] of Object.entries(state.sessions)) if (now - at > ttlMs) delete state.sessions[name];
      const known = usage.session in state.sessions;
      if (!known && quotas.sessions !== undefined && Object.keys(state.sessions).length >= quotas.sessions) {
        return { ok: false, quota: "sessions", retryAfterSeconds: 60 };
      }
    }
    const journal = usage.journalBytes ?? 0;
    if (journal > 0 && quotas.journalBytes !== undefined && state.journalBytes + journal > quotas.journalBytes) {
      return { ok: false, quota: "journalBytes", retryAfterSeconds: 60 };
    }
    if (usage.scenario !== undefined) {
      const others = Object.entries(state.scenarioBytes).reduce((n, [name, b]) => (name === usage.scenario!.name ? n : n + b), 0);
      if (usage.scenario.bytes > 0 && quotas.scenarioBytes !== undefined && others + usage.scenario.bytes > quotas.scenarioBytes) {
        return { ok: false, quota: "scenarioBytes", retryAfterSeconds: 60 };
      }
      if (usage.scenario.bytes > 0) state.scenarioBytes[usage.scenario.name] = usage.scenario.bytes;
      else delete state.scenarioBytes[usage.scenario.name];
    }
    if (usage.request) state.requests++;
    if (usage.session !== undefined) state.sessions[usage.session] = now;
    state.journalBytes += journal;
    this.write(`use:${namespace}`, state);
    return { ok: true };
  }

  checkLimits(namespace: string, limits: Limits, now: number): NamespaceCheck {
    return this.windows.check(namespace, limits, now);
  }

  settleLimits(namespace: string, ticket: number, tokens: number | null): void {
    this.windows.settle(namespace, ticket, tokens);
  }

  audit(namespace: string, entry: AuditEntry): void {
    const log = this.read<AuditEntry[]>(`audit:${namespace}`) ?? [];
    log.push(entry);
    this.write(`audit:${namespace}`, log.length > AUDIT_LIMIT ? log.slice(log.length - AUDIT_LIMIT) : log);
  }

  auditLog(namespace: string): AuditEntry[] {
    return this.read<AuditEntry[]>(`audit:${namespace}`) ?? [];
  }
}

/** A SyncStore over a Map (Node runtime, tests). */
export class MapStore implements SyncStore {
  constructor(
    readonly map: Map<string, string> = new Map(),
    private readonly changed: () => void = () => {},
  ) {}
  get(key: string): string | undefined {
    return this.map.get(key);
  }
  put(key: string, value: string): void {
    this.map.set(key, value);
    this.changed();
  }
  delete(key: string): void {
    if (this.map.delete(key)) this.changed();
  }
  list(prefix: string): [string, string][] {
    return [...this.map].filter(([k]) => k.startsWith(prefix)).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }
}
