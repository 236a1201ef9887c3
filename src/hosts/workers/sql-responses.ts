/**
 * `ResponsesStorage` over a Durable Object's SQLite (see src/session/responses.ts for what is kept).
 */
import {
  childKind,
  MAX_CHAIN,
  MAX_KIND_CHARS,
  MAX_STORED_RESPONSES,
  POINTER_TTL_MS,
  type HistorySegment,
  type ResponseHistory,
  type ResponsesStorage,
  type StoredObject,
  type StoredResponseRecord,
} from "../../session/responses";
import { chunks, CHUNK_CHARS } from "./sql-chunks";
import { table, type SqlTables } from "./sql-tables";

// A rowid table, unlike the rest: its rowid is the order the oldest are dropped in (`created` counts seconds).
const RESPONSES = table("responses", "id TEXT PRIMARY KEY, previous_id TEXT, created INTEGER NOT NULL");
const BLOBS = table("response_blobs", "id TEXT NOT NULL, kind TEXT NOT NULL, part INTEGER NOT NULL, text TEXT NOT NULL, PRIMARY KEY (id, kind, part)", "WITHOUT ROWID");
const ITEMS = table("response_items", "item_id TEXT PRIMARY KEY, response_id TEXT NOT NULL, position INTEGER NOT NULL, json TEXT NOT NULL", "WITHOUT ROWID");
// The platform's other objects (session/responses.ts `ObjectStorage`): `seq` orders a kind, the text is in parts.
const OBJECTS = table("stored_objects", "kind TEXT NOT NULL, id TEXT NOT NULL, seq INTEGER NOT NULL, created INTEGER NOT NULL, PRIMARY KEY (kind, id)", "WITHOUT ROWID");
const OBJECT_PARTS = table("stored_object_parts", "kind TEXT NOT NULL, id TEXT NOT NULL, part INTEGER NOT NULL, text TEXT NOT NULL, PRIMARY KEY (kind, id, part)", "WITHOUT ROWID");
const POINTERS = table("response_pointers", "id TEXT PRIMARY KEY, object TEXT NOT NULL, created INTEGER NOT NULL", "WITHOUT ROWID");

export class SqlResponsesStorage implements ResponsesStorage {
  /** @param tables the object's tables (SqlTables over its `ctx.storage.sql`) */
  constructor(private readonly tables: SqlTables) {}

  private writeBlob(id: string, kind: string, text: string): void {
    const sql = this.tables.write(BLOBS);
    sql.exec(`DELETE FROM response_blobs WHERE id = ? AND kind = ?`, id, kind);
    chunks(text).forEach((part, i) => sql.exec(`INSERT INTO response_blobs (id, kind, part, text) VALUES (?, ?, ?, ?)`, id, kind, i, part));
  }

  private readBlob(id: string, kind: string): string | undefined {
    const rows = this.tables.rows<{ text: string }>(BLOBS, `SELECT text FROM response_blobs WHERE id = ? AND kind = ? ORDER BY part`, id, kind);
    return rows.length === 0 ? undefined : rows.map((r) => r.text).join("");
  }

  private known(id: string): boolean {
    return this.tables.rows(RESPONSES, `SELECT id FROM responses WHERE id = ?`, id).length > 0;
  }

  save(rec: StoredResponseRecord, now: number): void {
    this.tables.write(RESPONSES).exec(`INSERT OR REPLACE INTO responses (id, previous_id, created) VALUES (?, ?, ?)`, rec.id, rec.previousId, now);
    this.writeBlob(rec.id, "input", rec.input);
    this.writeBlob(rec.id, "response", rec.response);
    const items = this.tables.write(ITEMS);
    items.exec(`DELETE FROM response_items WHERE response_id = ?`, rec.id);
    rec.items.forEach((item, position) => {
      // A long item (the default responder echoes the user's message) goes to the blobs, in parts; "" stands for it.
      const long = item.json.length > CHUNK_CHARS;
      if (long) this.writeBlob(rec.id, `item:${position}`, item.json);
      items.exec(`INSERT OR REPLACE INTO response_items (item_id, response_id, position, json) VALUES (?, ?, ?, ?)`, item.id, rec.id, position, long ? "" : item.json);
    });
    const count = this.tables.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM responses`).one().n;
    if (count > MAX_STORED_RESPONSES) {
      const oldest = this.tables.sql.exec<{ id: string }>(`SELECT id FROM responses ORDER BY created, rowid LIMIT ?`, count - MAX_STORED_RESPONSES).toArray();
      for (const { id } of oldest) this.delete(id);
    }
  }

  load(id: string): string | null {
    return this.known(id) ? (this.readBlob(id, "response") ?? null) : null;
  }

  /** An item's JSON: in its row, or (a long one) in the response's blobs. */
  private itemJson(row: { response_id: string; position: number; json: string }): string {
    return row.json !== "" ? row.json : (this.readBlob(row.response_id, `item:${row.position}`) ?? "");
  }

  private outputOf(id: string): string[] {
    return this.tables
      .rows<{ response_id: string; position: number; json: string }>(ITEMS, `SELECT response_id, position, json FROM response_items WHERE response_id = ? ORDER BY position`, id)
      .map((r) => this.itemJson(r));
  }

  history(id: string): ResponseHistory {
    const segments: HistorySegment[] = [];
    const seen = new Set<string>();
    let want: string | null = id;
    while (want !== null && !seen.has(want) && seen.size < MAX_CHAIN) {
      seen.add(want);
      const row: { previous_id: string | null } | undefined = this.tables.rows<{ previous_id: string | null }>(RESPONSES, `SELECT previous_id FROM responses WHERE id = ?`, want)[0];
      if (!row) return { segments, missing: want };
      segments.unshift({ input: this.readBlob(want, "input") ?? "[]", output: this.outputOf(want) });
      want = row.previous_id;
    }
    return { segments, missing: null };
  }

  items(ids: string[]): Record<string, string> {
    const out: Record<string, string> = {};
    for (const id of ids) {
      const row = this.tables.rows<{ response_id: string; position: number; json: string }>(ITEMS, `SELECT response_id, position, json FROM response_items WHERE item_id = ?`, id)[0];
      if (row) out[id] = this.itemJson(row);
    }
    return out;
  }

  delete(id: string): boolean {
    const known = this.known(id);
    this.tables.change(RESPONSES, `DELETE FROM responses WHERE id = ?`, id);
    this.tables.change(BLOBS, `DELETE FROM response_blobs WHERE id = ?`, id);
    this.tables.change(ITEMS, `DELETE FROM response_items WHERE response_id = ?`, id);
    return known;
  }

  point(id: string, object: string, now: number): void {
    const sql = this.tables.write(POINTERS);
    sql.exec(`INSERT OR REPLACE INTO response_pointers (id, object, created) VALUES (?, ?, ?)`, id, object, now);
    sql.exec(`DELETE FROM response_pointers WHERE created < ?`, now - POINTER_TTL_MS);
  }

  pointer(id: string, now: number): string | null {
    const row = this.tables.rows<{ object: string }>(POINTERS, `SELECT object FROM response_pointers WHERE id = ? AND created >= ?`, id, now - POINTER_TTL_MS)[0];
    return row?.object ?? null;
  }

  forgetPointer(id: string): void {
    this.tables.change(POINTERS, `DELETE FROM response_pointers WHERE id = ?`, id);
  }

  putObjects(kind: string, objects: StoredObject[], now: number, max: number): void {
    const rows = this.tables.write(OBJECTS);
    const parts = this.tables.write(OBJECT_PARTS);
    let seq = rows.exec<{ n: number | null }>(`SELECT MAX(seq) AS n FROM stored_objects WHERE kind = ?`, kind).one().n ?? 0;
    for (const o of objects) {
      const known = rows.exec(`SELECT id FROM stored_objects WHERE kind = ? AND id = ?`, kind, o.id).toArray().length > 0;
      if (!known) rows.exec(`INSERT INTO stored_objects (kind, id, seq, created) VALUES (?, ?, ?, ?)`, kind, o.id, ++seq, now);
      parts.exec(`DELETE FROM stored_object_parts WHERE kind = ? AND id = ?`, kind, o.id);
      chunks(o.json).forEach((text, i) => parts.exec(`INSERT INTO stored_object_parts (kind, id, part, text) VALUES (?, ?, ?, ?)`, kind, o.id, i, text));
    }
    const count = rows.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM stored_objects WHERE kind = ?`, kind).one().n;
    if (count > max) {
      const oldest = rows.exec<{ id: string }>(`SELECT id FROM stored_objects WHERE kind = ? ORDER BY seq LIMIT ?`, kind, count - max).toArray();
      for (const { id } of oldest) this.deleteObject(kind, id);
    }
    const sizes = parts
      .exec<{ id: string; n: number }>(
        `SELECT o.id AS id, SUM(LENGTH(p.text)) AS n FROM stored_objects o JOIN stored_object_parts p ON p.kind = o.kind AND p.id = o.id WHERE o.kind = ? GROUP BY o.id, o.seq ORDER BY o.seq`,
        kind,
      )
      .toArray();
    let chars = sizes.reduce((sum, s) => sum + s.n, 0);
    for (const [i, s] of sizes.entries()) {
      if (chars <= MAX_KIND_CHARS || i === sizes.length - 1) break;
      chars -= s.n;
      this.deleteObject(kind, s.id);
    }
  }

  getObject(kind: string, id: string): string | null {
    const rows = this.tables.rows<{ text: string }>(OBJECT_PARTS, `SELECT text FROM stored_object_parts WHERE kind = ? AND id = ? ORDER BY part`, kind, id);
    return rows.length === 0 ? null : rows.map((r) => r.text).join("");
  }

  listObjects(kind: string): StoredObject[] {
    if (!this.tables.has(OBJECTS)) return [];
    const rows = this.tables.rows<{ id: string; text: string }>(
      OBJECT_PARTS,
      `SELECT o.id AS id, p.text AS text FROM stored_objects o JOIN stored_object_parts p ON p.kind = o.kind AND p.id = o.id WHERE o.kind = ? ORDER BY o.seq, p.part`,
      kind,
    );
    const out: StoredObject[] = [];
    for (const r of rows) {
      const last = out.at(-1);
      if (last?.id === r.id) last.json += r.text;
      else out.push({ id: r.id, json: r.text });
    }
    return out;
  }

  deleteObject(kind: string, id: string): boolean {
    const known = this.tables.rows(OBJECTS, `SELECT id FROM stored_objects WHERE kind = ? AND id = ?`, kind, id).length > 0;
    if (!known) return false;
    const children = childKind(kind, id);
    const kinds = this.tables
      .rows<{ kind: string }>(OBJECTS, `SELECT DISTINCT kind FROM stored_objects WHERE kind >= ?`, children)
      .map((r) => r.kind)
      .filter((k) => k === children || k.startsWith(`${children}/`));
    this.tables.change(OBJECTS, `DELETE FROM stored_objects WHERE kind = ? AND id = ?`, kind, id);
    this.tables.change(OBJECT_PARTS, `DELETE FROM stored_object_parts WHERE kind = ? AND id = ?`, kind, id);
    for (const k of kinds) {
      this.tables.change(OBJECTS, `DELETE FROM stored_objects WHERE kind = ?`, k);
      this.tables.change(OBJECT_PARTS, `DELETE FROM stored_object_parts WHERE kind = ?`, k);
    }
    return true;
  }
}
