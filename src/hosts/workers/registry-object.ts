/**
 * The key registry on Workers: one Durable Object (`registry`) holding namespaces, key hashes, quota usage and
 * audit logs in SQLite. A Durable Object, not KV: a revocation is read by the next lookup anywhere, and isolates
 * cache a verified key for at most KEY_CACHE_MS (tenancy/resolve.ts), so a revoked key is refused within 5 s.
 */
import { DurableObject } from "cloudflare:workers";
import { RegistryCore, type SyncStore } from "../../tenancy/registry-core";
import type { AuditEntry, ChargeResult, KeyRecord, NamespaceRecord, Quotas, StoredKey, Usage } from "../../tenancy/types";
import type { WorkerEnv } from "./env";

/** The name of the one registry object. */
export const REGISTRY_NAME = "registry";

class SqlStore implements SyncStore {
  constructor(private readonly sql: SqlStorage) {
    // WITHOUT ROWID: a text key in a rowid table has an index of its own, and each new key wrote a row to both.
    sql.exec("CREATE TABLE IF NOT EXISTS kv (k TEXT PRIMARY KEY, v TEXT NOT NULL) WITHOUT ROWID");
  }
  get(key: string): string | undefined {
    const rows = this.sql.exec<{ v: string }>("SELECT v FROM kv WHERE k = ?", key).toArray();
    return rows[0]?.v;
  }
  put(key: string, value: string): void {
    this.sql.exec("INSERT INTO kv (k, v) VALUES (?, ?) ON CONFLICT(k) DO UPDATE SET v = excluded.v", key, value);
  }
  delete(key: string): void {
    this.sql.exec("DELETE FROM kv WHERE k = ?", key);
  }
  list(prefix: string): [string, string][] {
    return this.sql
      .exec<{ k: string; v: string }>("SELECT k, v FROM kv WHERE substr(k, 1, ?) = ? ORDER BY k", prefix.length, prefix)
      .toArray()
      .map((r) => [r.k, r.v]);
  }
}

export class RegistryObject extends DurableObject<WorkerEnv> {
  private readonly core: RegistryCore;

  constructor(ctx: DurableObjectState, env: WorkerEnv) {
    super(ctx, env);
    this.core = new RegistryCore(new SqlStore(ctx.storage.sql));
  }

  createNamespace(name: string, quotas: Quotas, space: string, expiresAt?: string): NamespaceRecord | null {
    return this.core.createNamespace(name, quotas, space, expiresAt);
  }
  listNamespaces(): NamespaceRecord[] {
    return this.core.listNamespaces();
  }
  getNamespace(name: string): NamespaceRecord | null {
    return this.core.getNamespace(name);
  }
  deleteNamespace(name: string): NamespaceRecord | null {
    return this.core.deleteNamespace(name);
  }
  addKey(key: StoredKey): boolean {
    return this.core.addKey(key);
  }
  listKeys(namespace: string): KeyRecord[] {
    return this.core.listKeys(namespace);
  }
  revokeKey(namespace: string, id: string): boolean {
    return this.core.revokeKey(namespace, id);
  }
  lookupKey(id: string): { key: StoredKey; namespace: NamespaceRecord } | null {
    return this.core.lookupKey(id);
  }
  charge(namespace: string, quotas: Quotas, usage: Usage, now: number, ttlMs: number): ChargeResult {
    return this.core.charge(namespace, quotas, usage, now, ttlMs);
  }
  audit(namespace: string, entry: AuditEntry): void {
    this.core.audit(namespace, entry);
  }
  auditLog(namespace: string): AuditEntry[] {
    return this.core.auditLog(namespace);
  }
}
