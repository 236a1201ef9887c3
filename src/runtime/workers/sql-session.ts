/**
 * `SessionStorage` over a Durable Object's SQLite. Steps used, attempt counters and the snapshot are also kept in
 * memory (the object is single-threaded, so memory and storage never disagree): a request reads no rows, and the
 * scenario document is parsed once per snapshot, not once per request.
 */
import type { SessionState } from "../../scenario/engine";
import type { Scenario } from "../../scenario/schema";
import type { JournalDraft, JournalEntry, SessionStorage, Snapshot } from "../../session/core";
import { chunks } from "./sql-chunks";

export class SqlSessionStorage implements SessionStorage {
  private cache: { snapshot: Snapshot | undefined; used: number[]; attempts: Record<string, number> } | undefined;

  constructor(private readonly sql: SqlStorage) {
    this.migrate();
  }

  private migrate(): void {
    this.sql.exec(`CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS used (step INTEGER PRIMARY KEY)`);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS attempts (key TEXT PRIMARY KEY, count INTEGER NOT NULL)`);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS journal (seq INTEGER PRIMARY KEY AUTOINCREMENT, entry TEXT NOT NULL)`);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS members (key TEXT PRIMARY KEY, at TEXT NOT NULL, n INTEGER NOT NULL)`);
  }

  private load() {
    if (this.cache) return this.cache;
    const meta = new Map(
      this.sql
        .exec<{ key: string; value: string }>(`SELECT key, value FROM meta`)
        .toArray()
        .map((r) => [r.key, r.value]),
    );
    const version = meta.get("version");
    // A document past SQLite's value limit (a recording's frames, a long script) is kept in parts: `document`, then
    // `document.1`, `document.2`, …
    let doc = meta.get("document");
    for (let i = 1; doc !== undefined && meta.has(`document.${i}`); i++) doc += meta.get(`document.${i}`);
    const attempts: Record<string, number> = {};
    for (const r of this.sql.exec<{ key: string; count: number }>(`SELECT key, count FROM attempts`)) attempts[r.key] = r.count;
    this.cache = {
      snapshot: version !== undefined && doc !== undefined ? { version, document: JSON.parse(doc) as Scenario } : undefined,
      used: this.sql
        .exec<{ step: number }>(`SELECT step FROM used`)
        .toArray()
        .map((r) => r.step),
      attempts,
    };
    return this.cache;
  }

  snapshot(): Snapshot | undefined {
    return this.load().snapshot;
  }

  setSnapshot(snapshot: Snapshot): void {
    this.sql.exec(`INSERT OR REPLACE INTO meta (key, value) VALUES ('version', ?)`, snapshot.version);
    this.sql.exec(`DELETE FROM meta WHERE key LIKE 'document.%'`);
    chunks(JSON.stringify(snapshot.document)).forEach((part, i) => this.sql.exec(`INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)`, i === 0 ? "document" : `document.${i}`, part));
    this.load().snapshot = snapshot;
  }

  state(): SessionState {
    const { used, attempts } = this.load();
    return { used, attempts };
  }

  bumpAttempt(key: string): void {
    // Loaded before the write: loading after it would read the new count and add one more.
    const { attempts } = this.load();
    this.sql.exec(`INSERT INTO attempts (key, count) VALUES (?, 1) ON CONFLICT(key) DO UPDATE SET count = count + 1`, key);
    attempts[key] = (attempts[key] ?? 0) + 1;
  }

  markUsed(step: number): void {
    this.sql.exec(`INSERT OR IGNORE INTO used (step) VALUES (?)`, step);
    const { used } = this.load();
    if (!used.includes(step)) used.push(step);
  }

  append(entry: JournalDraft, limit: number): number {
    const seq = this.sql.exec<{ seq: number }>(`INSERT INTO journal (entry) VALUES (?) RETURNING seq`, JSON.stringify(entry)).one().seq;
    if (seq > limit) this.sql.exec(`DELETE FROM journal WHERE seq <= ?`, seq - limit);
    return seq;
  }

  journal(): JournalEntry[] {
    return this.sql
      .exec<{ seq: number; entry: string }>(`SELECT seq, entry FROM journal ORDER BY seq`)
      .toArray()
      .map((r) => ({ seq: r.seq, ...(JSON.parse(r.entry) as JournalDraft) }));
  }

  journalSize(): number {
    return this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM journal`).one().n;
  }

  lastAt(): string | undefined {
    const row = this.sql.exec<{ at: string }>(`SELECT json_extract(entry, '$.at') AS at FROM journal ORDER BY seq DESC LIMIT 1`).toArray()[0];
    return row?.at;
  }

  noteMember(key: string, at: string, limit: number): void {
    const n = this.sql.exec<{ n: number }>(`SELECT COALESCE(MAX(n), 0) + 1 AS n FROM members`).one().n;
    this.sql.exec(`INSERT OR REPLACE INTO members (key, at, n) VALUES (?, ?, ?)`, key, at, n);
    this.sql.exec(`DELETE FROM members WHERE n <= ?`, n - limit);
  }

  forgetMember(key: string): void {
    this.sql.exec(`DELETE FROM members WHERE key = ?`, key);
  }

  members(): { key: string; at: string }[] {
    return this.sql
      .exec<{ key: string; at: string }>(`SELECT key, at FROM members ORDER BY n`)
      .toArray()
      .map((r) => ({ key: r.key, at: r.at }));
  }

  clear(): void {
    for (const table of ["meta", "used", "attempts", "journal", "members"]) this.sql.exec(`DROP TABLE IF EXISTS ${table}`);
    this.migrate();
    this.cache = undefined;
  }
}
