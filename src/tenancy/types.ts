/**
 * Namespaces (contract section 9): the records the key registry keeps, and what a runtime provides for them.
 */
import type { ScenarioStore } from "../scenario/store";
import type { Awaitable } from "../session/types";
import type { NamespaceRecord, Quotas, Scope } from "../session/caller";
import type { Limits } from "../scenario/limits-schema";
import type { LimitCheck } from "../scenario/limits";

/** A namespace's `limits` check (limits.ts): within them, with the ticket its request holds until settled; or over. */
export type NamespaceCheck = (LimitCheck & { over: false; ticket: number }) | (LimitCheck & { over: true });

/** The caller and its namespace are plain data the session inputs carry (src/session/caller.ts). */
export type { Caller, NamespaceRecord, Quotas, Scope } from "../session/caller";
export type QuotaName = keyof Quotas;

export interface KeyRecord {
  id: string;
  namespace: string;
  scope: Scope;
  label?: string;
  createdAt: string;
}

export interface StoredKey extends KeyRecord {
  /** SHA-256 of the whole key, hex. */
  hash: string;
}

export interface AuditEntry {
  at: string;
  /** The key that acted, or `root` (ADMIN_TOKEN). */
  keyId: string;
  action: string;
  target: string;
}

/** What one request uses, charged against its namespace's quotas. */
export interface Usage {
  request?: boolean;
  /** A session name (`{scenario}/{session}`) the request runs in. */
  session?: string;
  journalBytes?: number;
  /** A scenario upload: its name and size (0 = deleted). */
  scenario?: { name: string; bytes: number };
}

export type ChargeResult = { ok: true } | { ok: false; quota: QuotaName; retryAfterSeconds: number };

/** The key registry, one per deployment (a Durable Object on Workers; memory, and `--persist`, on Node). */
export interface Registry {
  createNamespace(name: string, quotas: Quotas, space: string, expiresAt?: string, limits?: Limits): Awaitable<NamespaceRecord | null>;
  listNamespaces(): Awaitable<NamespaceRecord[]>;
  getNamespace(name: string): Awaitable<NamespaceRecord | null>;
  /** Removes the namespace, its keys and its usage; the removed record, or null. */
  deleteNamespace(name: string): Awaitable<NamespaceRecord | null>;
  addKey(key: StoredKey): Awaitable<boolean>;
  listKeys(namespace: string): Awaitable<KeyRecord[]>;
  revokeKey(namespace: string, id: string): Awaitable<boolean>;
  /** A key by id with its namespace (hash compared by the caller). */
  lookupKey(id: string): Awaitable<{ key: StoredKey; namespace: NamespaceRecord } | null>;
  charge(namespace: string, quotas: Quotas, usage: Usage, now: number, ttlMs: number): Awaitable<ChargeResult>;
  /** A request against the namespace's `limits` (tenancy/limits.ts): counted when within them. */
  checkLimits(namespace: string, limits: Limits, now: number): Awaitable<NamespaceCheck>;
  /** The tokens of a checked request's answer; `null`: it was refused after all. */
  settleLimits(namespace: string, ticket: number, tokens: number | null): Awaitable<void>;
  audit(namespace: string, entry: AuditEntry): Awaitable<void>;
  auditLog(namespace: string): Awaitable<AuditEntry[]>;
}

/** What a runtime offers for namespaces (`Runtime.tenancy`). */
export interface Tenancy {
  registry: Registry;
  /** The scenario store of one namespace incarnation (`space`): its own uploads over the bundled defaults. */
  scenarios(space: string): ScenarioStore;
  /** Removes what a deleted namespace stored (uploads; sessions where the runtime can list them). */
  dropSpace(space: string): Promise<void>;
}
