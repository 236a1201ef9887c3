/**
 * `SessionStorage` over a Durable Object's SQLite. Steps used, attempt counters and the snapshot are also kept in
 * memory (the object is single-threaded, so memory and storage never disagree): a request reads no rows, and the
 * scenario document is parsed once per snapshot, not once per request.
 *
 * A turn writes one row as Cloudflare counts them (rows written are most of what a turn costs there; tables
 * made on their first write, see SqlTables): its journal row, which carries the attempt counter the turn bumped
 * (`journal.attempt`) and the step it consumed (`journal.used`). A counter's value is the `attempts` row plus the
 * journal rows naming it; a step is used if the `used` table or a journal row names it. The journal keeps the newest
 * JOURNAL_LIMIT entries; older rows are dropped JOURNAL_TRIM_BATCH at a time, their attempts and used steps first
 * folded into the `attempts` and `used` tables, so at most JOURNAL_LIMIT + JOURNAL_TRIM_BATCH - 1 rows are kept and
 * reads take the newest JOURNAL_LIMIT.
 */
import type { SessionState } from "../../scenario/engine";
import type { Scenario } from "../../scenario/schema";
import { boundJson } from "../../session/bound";
import { JOURNAL_LIMIT, type JournalDraft, type JournalEntry, type SessionStorage, type Snapshot, type TurnWrite } from "../../session/core";
import { chunks } from "./sql-chunks";
import { table, type SqlTables } from "./sql-tables";

/** Journal rows past the limit dropped together (one delete and one counter fold per this many turns). */
export const JOURNAL_TRIM_BATCH = 100;

export const META = table("meta", "key TEXT PRIMARY KEY, value TEXT NOT NULL", "WITHOUT ROWID");
const USED = table("used", "step INTEGER PRIMARY KEY");
const ATTEMPTS = table("attempts", "key TEXT PRIMARY KEY, count INTEGER NOT NULL", "WITHOUT ROWID");
// Every insert gives `seq` (the cached newest + 1): no AUTOINCREMENT, whose sequence row was a second row a turn.
const JOURNAL = table("journal", "seq INTEGER PRIMARY KEY, entry TEXT NOT NULL, attempt TEXT, used INTEGER");
const MEMBERS = table("members", "key TEXT PRIMARY KEY, at TEXT NOT NULL, n INTEGER NOT NULL", "WITHOUT ROWID");

/**
 * The snapshot in the `meta` rows: `document` holds the version, a newline and the document's JSON; past SQLite's
 * value limit (a recording's frames, a long script) the text goes on in `document.1`, `document.2`, … An object written
 * by an older build keeps the version in a `version` row of its own and only the JSON in `document`.
 */
function snapshotOf(meta: Map<string, string>): Snapshot | undefined {
  let text = meta.get("document");
  if (text === undefined) return undefined;
  for (let i = 1; meta.has(`document.${i}`); i++) text += meta.get(`document.${i}`);
  const older = meta.get("version");
  if (older !== undefined) return { version: older, document: JSON.parse(text) as Scenario };
  const cut = text.indexOf("\n");
  return { version: text.slice(0, cut), document: JSON.parse(text.slice(cut + 1)) as Scenario };
}

export class SqlSessionStorage implements SessionStorage {
  /** `seq`: the newest journal row's (the trim never drops it), so an insert needs no RETURNING cursor. */
  private cache: { snapshot: Snapshot | undefined; used: number[]; attempts: Record<string, number>; seq: number } | undefined;

  /** @param tables the object's tables (SqlTables over its `ctx.storage.sql`) */
  constructor(private readonly tables: SqlTables) {
    // A journal written before rows carried their attempt (every counter then in `attempts`) or their used step (every
    // mark then in `used`).
    const journal = tables.schema(JOURNAL);
    if (journal !== undefined && !/\battempt\b/.test(journal)) tables.sql.exec(`ALTER TABLE journal ADD COLUMN attempt TEXT`);
    if (journal !== undefined && !/\bused\b/.test(journal)) tables.sql.exec(`ALTER TABLE journal ADD COLUMN used INTEGER`);
  }

  private load() {
    if (this.cache) return this.cache;
    const meta = new Map(this.tables.rows<{ key: string; value: string }>(META, `SELECT key, value FROM meta`).map((r) => [r.key, r.value]));
    const attempts: Record<string, number> = {};
    for (const r of this.tables.rows<{ key: string; count: number }>(ATTEMPTS, `SELECT key, count FROM attempts`)) attempts[r.key] = r.count;
    const journaled = this.tables.rows<{ key: string; count: number }>(JOURNAL, `SELECT attempt AS key, COUNT(*) AS count FROM journal WHERE attempt IS NOT NULL GROUP BY attempt`);
    for (const r of journaled) attempts[r.key] = (attempts[r.key] ?? 0) + r.count;
    this.cache = {
      snapshot: snapshotOf(meta),
      used: [
        ...new Set([
          ...this.tables.rows<{ step: number }>(USED, `SELECT step FROM used`).map((r) => r.step),
          ...this.tables.rows<{ step: number }>(JOURNAL, `SELECT DISTINCT used AS step FROM journal WHERE used IS NOT NULL`).map((r) => r.step),
        ]),
      ],
      attempts,
      seq: this.tables.rows<{ seq: number }>(JOURNAL, `SELECT COALESCE(MAX(seq), 0) AS seq FROM journal`)[0]?.seq ?? 0,
    };
    return this.cache;
  }

  snapshot(): Snapshot | undefined {
    return this.load().snapshot;
  }

  setSnapshot(snapshot: Snapshot): void {
    const sql = this.tables.write(META);
    // One row (a row a new session): the version, a newline, the document's JSON (which has no raw newline).
    // An older build's `version` row goes, so the two layouts never mix.
    sql.exec(`DELETE FROM meta WHERE key = 'version' OR key LIKE 'document.%'`);
    chunks(`${snapshot.version}\n${JSON.stringify(snapshot.document)}`).forEach((part, i) =>
      sql.exec(`INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)`, i === 0 ? "document" : `document.${i}`, part),
    );
    this.load().snapshot = snapshot;
  }

  state(): SessionState {
    const { used, attempts } = this.load();
    return { used, attempts };
  }

  bumpAttempt(key: string): void {
    // Loaded before the write: loading after it would read the new count and add one more.
    const { attempts } = this.load();
    this.tables.write(ATTEMPTS).exec(`INSERT INTO attempts (key, count) VALUES (?, 1) ON CONFLICT(key) DO UPDATE SET count = count + 1`, key);
    attempts[key] = (attempts[key] ?? 0) + 1;
  }

  append(entry: JournalDraft, limit: number, turn: TurnWrite = {}): number {
    const cache = this.load();
    const seq = cache.seq + 1;
    const { attempt, used } = turn;
    // May wait for the next commit with the rows of the turns around it (SqlTables `defer`: group commit).
    this.tables.defer(JOURNAL, `INSERT INTO journal (seq, entry, attempt, used) VALUES (?, ?, ?, ?)`, seq, boundJson(entry, turn.bodyJson), attempt ?? null, used ?? null);
    cache.seq = seq;
    if (attempt !== undefined) cache.attempts[attempt] = (cache.attempts[attempt] ?? 0) + 1;
    if (used !== undefined && !cache.used.includes(used)) cache.used.push(used);
    if (seq > limit && (seq - limit) % JOURNAL_TRIM_BATCH === 0) this.trim(seq - limit);
    return seq;
  }

  /** Drops the journal rows up to `seq`, their attempts added to the `attempts` rows and their used steps to `used` first. */
  private trim(seq: number): void {
    this.tables.write(USED).exec(`INSERT OR IGNORE INTO used (step) SELECT DISTINCT used FROM journal WHERE seq <= ? AND used IS NOT NULL`, seq);
    this.tables
      .write(ATTEMPTS)
      .exec(
        `INSERT INTO attempts (key, count) SELECT attempt, COUNT(*) FROM journal WHERE seq <= ? AND attempt IS NOT NULL GROUP BY attempt ON CONFLICT(key) DO UPDATE SET count = count + excluded.count`,
        seq,
      );
    this.tables.write(JOURNAL).exec(`DELETE FROM journal WHERE seq <= ?`, seq);
  }

  journal(): JournalEntry[] {
    return this.tables
      .rows<{ seq: number; entry: string }>(JOURNAL, `SELECT seq, entry FROM journal WHERE seq > (SELECT MAX(seq) FROM journal) - ? ORDER BY seq`, JOURNAL_LIMIT)
      .map((r) => ({ seq: r.seq, ...(JSON.parse(r.entry) as JournalDraft) }));
  }

  /**
   * The journal newest first, a page of rows at a time (16, then 64, then 256), so a scenario's `limits` reads the
   * rows of its last minute and not the whole journal. Each page is read whole (no cursor is left open between pages:
   * the caller may stop at any entry); the bound is `journal()`'s, the newest JOURNAL_LIMIT seqs.
   */
  *newestFirst(): Iterable<JournalEntry> {
    const newest = this.load().seq;
    const floor = newest - JOURNAL_LIMIT;
    let below = newest + 1;
    for (let page = 16; ; page = Math.min(page * 4, 256)) {
      const rows = this.tables.rows<{ seq: number; entry: string }>(JOURNAL, `SELECT seq, entry FROM journal WHERE seq < ? AND seq > ? ORDER BY seq DESC LIMIT ?`, below, floor, page);
      for (const r of rows) yield { seq: r.seq, ...(JSON.parse(r.entry) as JournalDraft) };
      if (rows.length < page) return;
      below = rows[rows.length - 1]!.seq;
    }
  }

  journalSize(): number {
    return this.tables.rows<{ n: number }>(JOURNAL, `SELECT MIN(COUNT(*), ?) AS n FROM journal`, JOURNAL_LIMIT)[0]?.n ?? 0;
  }

  lastAt(): string | undefined {
    const row = this.tables.rows<{ at: string }>(JOURNAL, `SELECT json_extract(entry, '$.at') AS at FROM journal ORDER BY seq DESC LIMIT 1`)[0];
    return row?.at;
  }

  noteMember(key: string, at: string, limit: number): void {
    const sql = this.tables.write(MEMBERS);
    const n = sql.exec<{ n: number }>(`SELECT COALESCE(MAX(n), 0) + 1 AS n FROM members`).one().n;
    sql.exec(`INSERT OR REPLACE INTO members (key, at, n) VALUES (?, ?, ?)`, key, at, n);
    sql.exec(`DELETE FROM members WHERE n <= ?`, n - limit);
  }

  forgetMember(key: string): void {
    this.tables.change(MEMBERS, `DELETE FROM members WHERE key = ?`, key);
  }

  members(): { key: string; at: string }[] {
    return this.tables.rows<{ key: string; at: string }>(MEMBERS, `SELECT key, at FROM members ORDER BY n`).map((r) => ({ key: r.key, at: r.at }));
  }

  clear(): void {
    this.tables.drop(META, USED, ATTEMPTS, JOURNAL, MEMBERS);
    // The session still exists after a reset (an empty journal, as on Node), also once this object is evicted.
    this.tables.write(JOURNAL);
    this.cache = undefined;
  }
}
