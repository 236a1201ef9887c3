/**
 * A synchronous key-value store over a Durable Object's SQLite (one `kv` table): what the runtime-free cores over a
 * `SyncStore` keep their records in on Workers (the key registry, a namespace's webhooks).
 */
import type { SyncStore } from "../../util/sync-store";

export class SqlKv implements SyncStore {
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
  first(prefix: string, limit: number): [string, string][] {
    // A range over the primary key (keys are ASCII), so only the rows returned are read.
    return this.sql
      .exec<{ k: string; v: string }>("SELECT k, v FROM kv WHERE k >= ? AND k < ? ORDER BY k LIMIT ?", prefix, `${prefix}\uffff`, limit)
      .toArray()
      .map((r) => [r.k, r.v]);
  }
  list(prefix: string): [string, string][] {
    return this.sql
      .exec<{ k: string; v: string }>("SELECT k, v FROM kv WHERE substr(k, 1, ?) = ? ORDER BY k", prefix.length, prefix)
      .toArray()
      .map((r) => [r.k, r.v]);
  }
}
