/**
 * The tables of one Durable Object's SQLite, each created the first time a row is written to it.
 *
 * Rows written are what a hosted turn costs most on the Workers paid plan, and Cloudflare counts them as
 * SQLite does: every `CREATE TABLE` writes rows of `sqlite_master`, an index over a table one more row per insert. A
 * session object used to create its eleven tables (the recording's and MCP's among them) when it was built: 30 rows
 * before a chat session's first turn wrote anything, and as many again in its scenario's index object. Now a read of a
 * table that was never written finds nothing and creates nothing.
 *
 * The statements that make them follow two rules: a table keyed by text or by several columns is `WITHOUT ROWID` (a
 * rowid table keeps such a key in an index of its own, so each insert wrote two rows), and no table is
 * `AUTOINCREMENT` (its `sqlite_sequence` row is a second row written per insert). Tables made by an older build keep
 * their shape until the object is reset or expires; every statement here reads and writes either shape.
 */
/** A table and the statement that creates it. */
export interface Table {
  readonly name: string;
  readonly create: string;
}

/**
 * The names `table` was called with: the application's own tables. An object "exists" when it holds one of these —
 * not whatever else its SQLite holds: SQLite's `sqlite_*`, the runtime's `_cf_*`, and the table Miniflare's wrapper
 * writes into every named object as it is built under `wrangler dev` (`__miniflare_do_name`), which made a read of a
 * session that never ran answer 200 there.
 */
const APPLICATION_TABLES = new Set<string>();

/**
 * @example const USED = table("used", "step INTEGER PRIMARY KEY")
 * @example const META = table("meta", "key TEXT PRIMARY KEY, value TEXT NOT NULL", "WITHOUT ROWID")
 */
export function table(name: string, columns: string, options?: "WITHOUT ROWID"): Table {
  APPLICATION_TABLES.add(name);
  return { name, create: `CREATE TABLE ${name} (${columns})${options !== undefined ? ` ${options}` : ""}` };
}

/**
 * The tables of one object, and its writes that may wait for the next commit (`defer`).
 *
 * **Group commit.** workerd commits a Durable Object's writes once per turn of its event loop, and an answer leaves
 * only once the commit holding its writes is durable (the output gate). Under concurrent turns each one paid a
 * commit of its own — under Miniflare an fsync, ~40% of a turn's CPU — though the next turns had
 * already arrived. A turn that arrives while the previous commit is still in flight now queues its journal row
 * (`deferring`, set by the object for the length of one call); the queue is written as one statement batch when that
 * commit is done, and each queued turn's answer is released after it (session-object.ts `afterFlush`), so it still
 * leaves only once its row is durable. The turn's decision was taken at arrival on the in-memory state, so the order
 * of turns and every counter are as before; only the commit is shared. Any other access to the tables — a read, a
 * write, a drop, the raw `sql` — writes the queue first, so nothing ever reads around a queued row and writes keep
 * their order.
 */
export class SqlTables {
  #known: Map<string, string> | undefined;
  readonly #sql: SqlStorage;
  /** Statements waiting for the next commit, in the order they were made. */
  #queue: { t: Table; statement: string; bindings: unknown[] }[] = [];
  /** Writes made or queued so far (the object asks whether a call wrote anything). */
  #writes = 0;
  /**
   * While true, `defer` queues its statement instead of running it (the object sets it around one call). A statement
   * run at once ends it: that write commits with this turn anyway, so the call's later rows go with it and one call's
   * writes are never split over two commits.
   */
  deferring = false;

  constructor(sql: SqlStorage) {
    this.#sql = sql;
  }

  /** The storage itself, any queued statement written first. */
  get sql(): SqlStorage {
    this.flush();
    return this.#sql;
  }

  /** Statements are queued for the next commit. */
  get pending(): boolean {
    return this.#queue.length > 0;
  }

  /** How many writes were made or queued so far. */
  get writes(): number {
    return this.#writes;
  }

  /**
   * Runs `statement` on `t` (created first if need be) — or, while `deferring`, queues it to run with the next
   * `flush`, before any other access to the tables.
   */
  defer(t: Table, statement: string, ...bindings: unknown[]): void {
    if (!this.deferring) {
      this.write(t).exec(statement, ...bindings);
      return;
    }
    this.#writes++;
    this.#queue.push({ t, statement, bindings });
  }

  /** Writes the queued statements, in order. */
  flush(): void {
    if (this.#queue.length === 0) return;
    const queue = this.#queue;
    this.#queue = [];
    for (const q of queue) this.write(q.t).exec(q.statement, ...q.bindings);
  }

  /** Name → the statement it was created with, as `sqlite_master` holds it: read once, then kept up to date here. */
  private get known(): Map<string, string> {
    this.flush();
    this.#known ??= new Map(
      this.#sql
        .exec<{ name: string; sql: string }>(`SELECT name, sql FROM sqlite_master WHERE type = 'table'`)
        .toArray()
        .map((r) => [r.name, r.sql]),
    );
    return this.#known;
  }

  has(t: Table): boolean {
    return this.known.has(t.name);
  }

  /** Whether any table of the application's exists (one made by `table`; not SQLite's, the runtime's nor Miniflare's). */
  any(): boolean {
    for (const name of this.known.keys()) if (APPLICATION_TABLES.has(name)) return true;
    return false;
  }

  /** The statement the table was created with (an older build's, say), or undefined while it does not exist. */
  schema(t: Table): string | undefined {
    return this.known.get(t.name);
  }

  /** The storage to write `t` with, the table created first if it does not exist. */
  write(t: Table): SqlStorage {
    this.wrote();
    if (!this.known.has(t.name)) {
      this.#sql.exec(t.create);
      this.known.set(t.name, t.create);
    }
    return this.#sql;
  }

  /** The rows `query` reads from `t`, or none while `t` was never written. */
  rows<T extends Record<string, SqlStorageValue>>(t: Table, query: string, ...bindings: unknown[]): T[] {
    return this.known.has(t.name) ? this.#sql.exec<T>(query, ...bindings).toArray() : [];
  }

  /** Runs `statement` (a delete or an update) on `t` if it exists: nothing to change in a table never written. */
  change(t: Table, statement: string, ...bindings: unknown[]): void {
    if (!this.known.has(t.name)) return;
    this.wrote();
    this.#sql.exec(statement, ...bindings);
  }

  /** A statement runs now: counted, and the call's later rows no longer wait (`deferring`). */
  private wrote(): void {
    this.#writes++;
    this.deferring = false;
  }

  drop(...ts: Table[]): void {
    this.flush();
    this.wrote();
    for (const t of ts) {
      this.#sql.exec(`DROP TABLE IF EXISTS ${t.name}`);
      this.known.delete(t.name);
    }
  }
}
