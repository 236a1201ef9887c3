/**
 * What the OpenAI Responses surface keeps in a session Durable Object's SQLite: each stored response (its own input
 * items with references resolved, its `previous_response_id`, the response object) and its output items by id.
 * Plain functions over `SqlStorage`; `SessionObject` exposes them as thin RPC methods. Values are JSON text: the
 * Worker validates what it reads back.
 */

/** One response to remember. */
export interface StoredResponseRecord {
  id: string;
  previousId: string | null;
  /** JSON array of the request's own input items, `item_reference`s already resolved. */
  input: string;
  /** The response object as JSON. */
  response: string;
  /** Output items in order, by id, as JSON. */
  items: { id: string; json: string }[];
}

/** One response's share of a conversation: its input items (a JSON array) and its output items (JSON each). */
export interface HistorySegment {
  input: string;
  output: string[];
}

/**
 * The conversation up to and including a response, oldest segment first. `missing` names a response in the chain
 * that this object does not hold (the caller looks for it elsewhere); null when the chain is complete.
 */
export interface ResponseHistory {
  segments: HistorySegment[];
  missing: string | null;
}

/** Characters per stored text chunk, so a large input never exceeds SQLite's 2 MB value limit. */
const CHUNK = 500_000;
/** Most responses one chain walk follows. */
const MAX_CHAIN = 10_000;

function migrate(sql: SqlStorage): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS responses (id TEXT PRIMARY KEY, previous_id TEXT, created INTEGER NOT NULL)`);
  sql.exec(
    `CREATE TABLE IF NOT EXISTS response_blobs (id TEXT NOT NULL, kind TEXT NOT NULL, part INTEGER NOT NULL, text TEXT NOT NULL, PRIMARY KEY (id, kind, part))`,
  );
  sql.exec(
    `CREATE TABLE IF NOT EXISTS response_items (item_id TEXT PRIMARY KEY, response_id TEXT NOT NULL, position INTEGER NOT NULL, json TEXT NOT NULL)`,
  );
}

function writeBlob(sql: SqlStorage, id: string, kind: string, text: string): void {
  sql.exec(`DELETE FROM response_blobs WHERE id = ? AND kind = ?`, id, kind);
  for (let part = 0, at = 0; at < text.length || part === 0; part++, at += CHUNK) {
    sql.exec(`INSERT INTO response_blobs (id, kind, part, text) VALUES (?, ?, ?, ?)`, id, kind, part, text.slice(at, at + CHUNK));
  }
}

function readBlob(sql: SqlStorage, id: string, kind: string): string | undefined {
  const rows = sql
    .exec<{ text: string }>(`SELECT text FROM response_blobs WHERE id = ? AND kind = ? ORDER BY part`, id, kind)
    .toArray();
  return rows.length === 0 ? undefined : rows.map((r) => r.text).join("");
}

/** Stores (or replaces) one response and its output items. */
export function saveResponse(sql: SqlStorage, rec: StoredResponseRecord, now = Date.now()): void {
  migrate(sql);
  sql.exec(`INSERT OR REPLACE INTO responses (id, previous_id, created) VALUES (?, ?, ?)`, rec.id, rec.previousId, now);
  writeBlob(sql, rec.id, "input", rec.input);
  writeBlob(sql, rec.id, "response", rec.response);
  sql.exec(`DELETE FROM response_items WHERE response_id = ?`, rec.id);
  rec.items.forEach((item, position) => {
    sql.exec(
      `INSERT OR REPLACE INTO response_items (item_id, response_id, position, json) VALUES (?, ?, ?, ?)`,
      item.id,
      rec.id,
      position,
      item.json,
    );
  });
}

/** The stored response object (JSON), or null. */
export function loadResponse(sql: SqlStorage, id: string): string | null {
  migrate(sql);
  const known = sql.exec(`SELECT id FROM responses WHERE id = ?`, id).toArray().length > 0;
  return known ? (readBlob(sql, id, "response") ?? null) : null;
}

function outputOf(sql: SqlStorage, id: string): string[] {
  return sql
    .exec<{ json: string }>(`SELECT json FROM response_items WHERE response_id = ? ORDER BY position`, id)
    .toArray()
    .map((r) => r.json);
}

/** Walks `previous_response_id` links back from `id` as far as this object holds them. */
export function loadHistory(sql: SqlStorage, id: string): ResponseHistory {
  migrate(sql);
  const segments: HistorySegment[] = [];
  const seen = new Set<string>();
  let want: string | null = id;
  while (want !== null && !seen.has(want) && seen.size < MAX_CHAIN) {
    seen.add(want);
    const row: { previous_id: string | null } | undefined = sql
      .exec<{ previous_id: string | null }>(`SELECT previous_id FROM responses WHERE id = ?`, want)
      .toArray()[0];
    if (!row) return { segments, missing: want };
    segments.unshift({ input: readBlob(sql, want, "input") ?? "[]", output: outputOf(sql, want) });
    want = row.previous_id;
  }
  return { segments, missing: null };
}

/** The stored output items among `ids`, by id (JSON each); unknown ids are absent. */
export function loadItems(sql: SqlStorage, ids: string[]): Record<string, string> {
  migrate(sql);
  const out: Record<string, string> = {};
  for (const id of ids) {
    const row = sql.exec<{ json: string }>(`SELECT json FROM response_items WHERE item_id = ?`, id).toArray()[0];
    if (row) out[id] = row.json;
  }
  return out;
}

/** Forgets a response and its items; false when it was not stored here. */
export function deleteResponse(sql: SqlStorage, id: string): boolean {
  migrate(sql);
  const known = sql.exec(`SELECT id FROM responses WHERE id = ?`, id).toArray().length > 0;
  sql.exec(`DELETE FROM responses WHERE id = ?`, id);
  sql.exec(`DELETE FROM response_blobs WHERE id = ?`, id);
  sql.exec(`DELETE FROM response_items WHERE response_id = ?`, id);
  return known;
}

/**
 * The response index: which session object holds a response. Kept in index objects (`__index/responses-{shard}`)
 * rather than KV, so a response is found the moment it is stored (KV may take a minute to show a new key
 * elsewhere). Entries older than POINTER_TTL_MS are dropped as new ones arrive.
 */
export const POINTER_TTL_MS = 7 * 24 * 3600 * 1000;

function migratePointers(sql: SqlStorage): void {
  sql.exec(`CREATE TABLE IF NOT EXISTS response_pointers (id TEXT PRIMARY KEY, object TEXT NOT NULL, created INTEGER NOT NULL)`);
}

export function savePointer(sql: SqlStorage, id: string, object: string, now = Date.now()): void {
  migratePointers(sql);
  sql.exec(`INSERT OR REPLACE INTO response_pointers (id, object, created) VALUES (?, ?, ?)`, id, object, now);
  sql.exec(`DELETE FROM response_pointers WHERE created < ?`, now - POINTER_TTL_MS);
}

export function readPointer(sql: SqlStorage, id: string, now = Date.now()): string | null {
  migratePointers(sql);
  const row = sql
    .exec<{ object: string }>(`SELECT object FROM response_pointers WHERE id = ? AND created >= ?`, id, now - POINTER_TTL_MS)
    .toArray()[0];
  return row?.object ?? null;
}

export function deletePointer(sql: SqlStorage, id: string): void {
  migratePointers(sql);
  sql.exec(`DELETE FROM response_pointers WHERE id = ?`, id);
}
