/**
 * `SessionStorage` over a Durable Object's SQLite. Steps used, attempt counters and the snapshot are also kept in
 * memory (the object is single-threaded, so memory and storage never disagree): a request reads no rows, and the
 * scenario document is parsed once per snapshot, not once per request.
 *
 * A turn writes one row (issue 34: rows written are most of what a turn costs on Cloudflare): its journal row, which
 * carries the attempt counter the turn bumped (`journal.attempt`). A counter's value is the `attempts` row plus the
 * journal rows naming it. The journal keeps the newest JOURNAL_LIMIT entries; older rows are dropped JOURNAL_TRIM_BATCH
 * at a time, their attempts first added to the `attempts` rows, so at most JOURNAL_LIMIT + JOURNAL_TRIM_BATCH - 1 rows
 * are kept and reads take the newest JOURNAL_LIMIT.
 */
import type { SessionState } from "../../scenario/engine";
import type { Scenario } from "../../scenario/schema";
import { boundJson } from "../../session/bound";
import { JOURNAL_LIMIT, type JournalDraft, type JournalEntry, type SessionStorage, type Snapshot } from "../../session/core";
import { chunks } from "./sql-chunks";

/** Journal rows past the limit dropped together (one delete and one counter fold per this many turns). */
export const JOURNAL_TRIM_BATCH = 100;

export class SqlSessionStorage implements SessionStorage {
  /** `seq`: the newest journal row's (the trim never drops it), so an insert needs no RETURNING cursor. */
  private cache: { snapshot: Snapshot | undefined; used: number[]; attempts: Record<string, number>; seq: number } | undefined;

  constructor(private readonly sql: SqlStorage) {
    this.migrate();
  }

  private migrate(): void {
    this.sql.exec(`CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)`);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS used (step INTEGER PRIMARY KEY)`);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS attempts (key TEXT PRIMARY KEY, count INTEGER NOT NULL)`);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS journal (seq INTEGER PRIMARY KEY AUTOINCREMENT, entry TEXT NOT NULL, attempt TEXT)`);
    // A journal written before rows carried their attempt (every counter then in `attempts`).
    const journal = this.sql.exec<{ sql: string }>(`SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'journal'`).one().sql;
    if (!journal.includes("attempt")) this.sql.exec(`ALTER TABLE journal ADD COLUMN attempt TEXT`);
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
    const journaled = this.sql.exec<{ key: string; count: number }>(`SELECT attempt AS key, COUNT(*) AS count FROM journal WHERE attempt IS NOT NULL GROUP BY attempt`);
    for (const r of journaled) attempts[r.key] = (attempts[r.key] ?? 0) + r.count;
    this.cache = {
      snapshot: version !== undefined && doc !== undefined ? { version, document: JSON.parse(doc) as Scenario } : undefined,
      used: this.sql
        .exec<{ step: number }>(`SELECT step FROM used`)
        .toArray()
        .map((r) => r.step),
      attempts,
      seq: this.sql.exec<{ seq: number }>(`SELECT COALESCE(MAX(seq), 0) AS seq FROM journal`).one().seq,
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

  append(entry: JournalDraft, limit: number, attempt?: string, bodyJson?: string): number {
    const cache = this.load();
    const seq = cache.seq + 1;
    this.sql.exec(`INSERT INTO journal (seq, entry, attempt) VALUES (?, ?, ?)`, seq, boundJson(entry, bodyJson), attempt ?? null);
    cache.seq = seq;
    if (attempt !== undefined) cache.attempts[attempt] = (cache.attempts[attempt] ?? 0) + 1;
    if (seq > limit && (seq - limit) % JOURNAL_TRIM_BATCH === 0) this.trim(seq - limit);
    return seq;
  }

  /** Drops the journal rows up to `seq`, their attempts added to the `attempts` rows first. */
  private trim(seq: number): void {
    this.sql.exec(
      `INSERT INTO attempts (key, count) SELECT attempt, COUNT(*) FROM journal WHERE seq <= ? AND attempt IS NOT NULL GROUP BY attempt ON CONFLICT(key) DO UPDATE SET count = count + excluded.count`,
      seq,
    );
    this.sql.exec(`DELETE FROM journal WHERE seq <= ?`, seq);
  }

  journal(): JournalEntry[] {
    return this.sql
      .exec<{ seq: number; entry: string }>(`SELECT seq, entry FROM journal WHERE seq > (SELECT MAX(seq) FROM journal) - ? ORDER BY seq`, JOURNAL_LIMIT)
      .toArray()
      .map((r) => ({ seq: r.seq, ...(JSON.parse(r.entry) as JournalDraft) }));
  }

  journalSize(): number {
    return this.sql.exec<{ n: number }>(`SELECT MIN(COUNT(*), ?) AS n FROM journal`, JOURNAL_LIMIT).one().n;
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
