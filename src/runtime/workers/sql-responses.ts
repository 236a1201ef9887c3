/**
 * `ResponsesStorage` over a Durable Object's SQLite (see src/session/responses.ts for what is kept).
 */
import { MAX_CHAIN, MAX_STORED_RESPONSES, POINTER_TTL_MS, type HistorySegment, type ResponseHistory, type ResponsesStorage, type StoredResponseRecord } from "../../session/responses";
import { chunks, CHUNK_CHARS } from "./sql-chunks";

export class SqlResponsesStorage implements ResponsesStorage {
  private migrated = false;
  private pointersMigrated = false;

  constructor(private readonly sql: SqlStorage) {}

  private migrate(): void {
    if (this.migrated) return;
    this.sql.exec(`CREATE TABLE IF NOT EXISTS responses (id TEXT PRIMARY KEY, previous_id TEXT, created INTEGER NOT NULL)`);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS response_blobs (id TEXT NOT NULL, kind TEXT NOT NULL, part INTEGER NOT NULL, text TEXT NOT NULL, PRIMARY KEY (id, kind, part))`);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS response_items (item_id TEXT PRIMARY KEY, response_id TEXT NOT NULL, position INTEGER NOT NULL, json TEXT NOT NULL)`);
    this.migrated = true;
  }

  private writeBlob(id: string, kind: string, text: string): void {
    this.sql.exec(`DELETE FROM response_blobs WHERE id = ? AND kind = ?`, id, kind);
    chunks(text).forEach((part, i) => this.sql.exec(`INSERT INTO response_blobs (id, kind, part, text) VALUES (?, ?, ?, ?)`, id, kind, i, part));
  }

  private readBlob(id: string, kind: string): string | undefined {
    const rows = this.sql.exec<{ text: string }>(`SELECT text FROM response_blobs WHERE id = ? AND kind = ? ORDER BY part`, id, kind).toArray();
    return rows.length === 0 ? undefined : rows.map((r) => r.text).join("");
  }

  private known(id: string): boolean {
    return this.sql.exec(`SELECT id FROM responses WHERE id = ?`, id).toArray().length > 0;
  }

  save(rec: StoredResponseRecord, now: number): void {
    this.migrate();
    this.sql.exec(`INSERT OR REPLACE INTO responses (id, previous_id, created) VALUES (?, ?, ?)`, rec.id, rec.previousId, now);
    this.writeBlob(rec.id, "input", rec.input);
    this.writeBlob(rec.id, "response", rec.response);
    this.sql.exec(`DELETE FROM response_items WHERE response_id = ?`, rec.id);
    rec.items.forEach((item, position) => {
      // A long item (the default responder echoes the user's message) goes to the blobs, in parts; "" stands for it.
      const long = item.json.length > CHUNK_CHARS;
      if (long) this.writeBlob(rec.id, `item:${position}`, item.json);
      this.sql.exec(`INSERT OR REPLACE INTO response_items (item_id, response_id, position, json) VALUES (?, ?, ?, ?)`, item.id, rec.id, position, long ? "" : item.json);
    });
    const count = this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM responses`).one().n;
    if (count > MAX_STORED_RESPONSES) {
      const oldest = this.sql.exec<{ id: string }>(`SELECT id FROM responses ORDER BY created, rowid LIMIT ?`, count - MAX_STORED_RESPONSES).toArray();
      for (const { id } of oldest) this.delete(id);
    }
  }

  load(id: string): string | null {
    this.migrate();
    return this.known(id) ? (this.readBlob(id, "response") ?? null) : null;
  }

  /** An item's JSON: in its row, or (a long one) in the response's blobs. */
  private itemJson(row: { response_id: string; position: number; json: string }): string {
    return row.json !== "" ? row.json : (this.readBlob(row.response_id, `item:${row.position}`) ?? "");
  }

  private outputOf(id: string): string[] {
    return this.sql
      .exec<{ response_id: string; position: number; json: string }>(`SELECT response_id, position, json FROM response_items WHERE response_id = ? ORDER BY position`, id)
      .toArray()
      .map((r) => this.itemJson(r));
  }

  history(id: string): ResponseHistory {
    this.migrate();
    const segments: HistorySegment[] = [];
    const seen = new Set<string>();
    let want: string | null = id;
    while (want !== null && !seen.has(want) && seen.size < MAX_CHAIN) {
      seen.add(want);
      const row: { previous_id: string | null } | undefined = this.sql.exec<{ previous_id: string | null }>(`SELECT previous_id FROM responses WHERE id = ?`, want).toArray()[0];
      if (!row) return { segments, missing: want };
      segments.unshift({ input: this.readBlob(want, "input") ?? "[]", output: this.outputOf(want) });
      want = row.previous_id;
    }
    return { segments, missing: null };
  }

  items(ids: string[]): Record<string, string> {
    this.migrate();
    const out: Record<string, string> = {};
    for (const id of ids) {
      const row = this.sql.exec<{ response_id: string; position: number; json: string }>(`SELECT response_id, position, json FROM response_items WHERE item_id = ?`, id).toArray()[0];
      if (row) out[id] = this.itemJson(row);
    }
    return out;
  }

  delete(id: string): boolean {
    this.migrate();
    const known = this.known(id);
    this.sql.exec(`DELETE FROM responses WHERE id = ?`, id);
    this.sql.exec(`DELETE FROM response_blobs WHERE id = ?`, id);
    this.sql.exec(`DELETE FROM response_items WHERE response_id = ?`, id);
    return known;
  }

  private migratePointers(): void {
    if (this.pointersMigrated) return;
    this.sql.exec(`CREATE TABLE IF NOT EXISTS response_pointers (id TEXT PRIMARY KEY, object TEXT NOT NULL, created INTEGER NOT NULL)`);
    this.pointersMigrated = true;
  }

  point(id: string, object: string, now: number): void {
    this.migratePointers();
    this.sql.exec(`INSERT OR REPLACE INTO response_pointers (id, object, created) VALUES (?, ?, ?)`, id, object, now);
    this.sql.exec(`DELETE FROM response_pointers WHERE created < ?`, now - POINTER_TTL_MS);
  }

  pointer(id: string, now: number): string | null {
    this.migratePointers();
    const row = this.sql.exec<{ object: string }>(`SELECT object FROM response_pointers WHERE id = ? AND created >= ?`, id, now - POINTER_TTL_MS).toArray()[0];
    return row?.object ?? null;
  }

  forgetPointer(id: string): void {
    this.migratePointers();
    this.sql.exec(`DELETE FROM response_pointers WHERE id = ?`, id);
  }
}
