/**
 * The tables of one Durable Object's SQLite, each created the first time a row is written to it.
 *
 * Rows written are what a hosted turn costs most on the Workers paid plan (issue 34), and Cloudflare counts them as
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
 * @example const USED = table("used", "step INTEGER PRIMARY KEY")
 * @example const META = table("meta", "key TEXT PRIMARY KEY, value TEXT NOT NULL", "WITHOUT ROWID")
 */
export function table(name: string, columns: string, options?: "WITHOUT ROWID"): Table {
  return { name, create: `CREATE TABLE ${name} (${columns})${options !== undefined ? ` ${options}` : ""}` };
}

export class SqlTables {
  #known: Map<string, string> | undefined;

  constructor(readonly sql: SqlStorage) {}

  /** Name → the statement it was created with, as `sqlite_master` holds it: read once, then kept up to date here. */
  private get known(): Map<string, string> {
    this.#known ??= new Map(
      this.sql
        .exec<{ name: string; sql: string }>(`SELECT name, sql FROM sqlite_master WHERE type = 'table'`)
        .toArray()
        .map((r) => [r.name, r.sql]),
    );
    return this.#known;
  }

  has(t: Table): boolean {
    return this.known.has(t.name);
  }

  /** Whether any table of the application's exists (not SQLite's `sqlite_*` nor the runtime's `_cf_*`). */
  any(): boolean {
    for (const name of this.known.keys()) if (!name.startsWith("sqlite_") && !name.startsWith("_cf_")) return true;
    return false;
  }

  /** The statement the table was created with (an older build's, say), or undefined while it does not exist. */
  schema(t: Table): string | undefined {
    return this.known.get(t.name);
  }

  /** The storage to write `t` with, the table created first if it does not exist. */
  write(t: Table): SqlStorage {
    if (!this.known.has(t.name)) {
      this.sql.exec(t.create);
      this.known.set(t.name, t.create);
    }
    return this.sql;
  }

  /** The rows `query` reads from `t`, or none while `t` was never written. */
  rows<T extends Record<string, SqlStorageValue>>(t: Table, query: string, ...bindings: unknown[]): T[] {
    return this.known.has(t.name) ? this.sql.exec<T>(query, ...bindings).toArray() : [];
  }

  /** Runs `statement` (a delete or an update) on `t` if it exists: nothing to change in a table never written. */
  change(t: Table, statement: string, ...bindings: unknown[]): void {
    if (this.known.has(t.name)) this.sql.exec(statement, ...bindings);
  }

  drop(...ts: Table[]): void {
    for (const t of ts) {
      this.sql.exec(`DROP TABLE IF EXISTS ${t.name}`);
      this.known.delete(t.name);
    }
  }
}
