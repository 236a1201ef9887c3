/**
 * A synchronous key-value store: what the runtime-free cores keep their records in (the key registry, a project's
 * webhooks) — a Durable Object's SQLite on Workers (hosts/workers/sql-kv.ts), a Map on Node.
 */
export interface SyncStore {
  get(key: string): string | undefined;
  put(key: string, value: string): void;
  delete(key: string): void;
  /** Entries whose key starts with `prefix`, in key order. */
  list(prefix: string): [string, string][];
  /** The first `limit` of them (a store that can read fewer rows than `list`: SQLite's index). */
  first?(prefix: string, limit: number): [string, string][];
}
