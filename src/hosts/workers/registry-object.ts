/**
 * The key registry on Workers: one Durable Object (`registry`) holding namespaces, key hashes, quota usage and
 * audit logs in SQLite. A Durable Object, not KV: a revocation is read by the next lookup anywhere, and isolates
 * cache a verified key for at most KEY_CACHE_MS (tenancy/resolve.ts), so a revoked key is refused within 5 s.
 */
import { DurableObject } from "cloudflare:workers";
import { RegistryCore } from "../../tenancy/registry-core";
import { SqlKv } from "./sql-kv";
import type { AuditEntry, ChargeResult, KeyRecord, NamespaceRecord, Quotas, StoredKey, Usage } from "../../tenancy/types";
import type { WorkerEnv } from "./env";
import type { Limits } from "../../scenario/limits-schema";
import type { NamespaceCheck } from "../../tenancy/types";

/** The name of the one registry object. */
export const REGISTRY_NAME = "registry";

export class RegistryObject extends DurableObject<WorkerEnv> {
  private readonly core: RegistryCore;

  constructor(ctx: DurableObjectState, env: WorkerEnv) {
    super(ctx, env);
    this.core = new RegistryCore(new SqlKv(ctx.storage.sql));
  }

  createNamespace(name: string, quotas: Quotas, space: string, expiresAt?: string, limits?: Limits): NamespaceRecord | null {
    return this.core.createNamespace(name, quotas, space, expiresAt, limits);
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
  checkLimits(namespace: string, limits: Limits, now: number): NamespaceCheck {
    return this.core.checkLimits(namespace, limits, now);
  }
  settleLimits(namespace: string, ticket: number, tokens: number | null): void {
    this.core.settleLimits(namespace, ticket, tokens);
  }
  audit(namespace: string, entry: AuditEntry): void {
    this.core.audit(namespace, entry);
  }
  auditLog(namespace: string): AuditEntry[] {
    return this.core.auditLog(namespace);
  }
}
