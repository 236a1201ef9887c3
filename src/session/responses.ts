/**
 * What the OpenAI Responses surface (and Anthropic message threads) keep per session: each stored response (its own
 * input items with references resolved, its `previous_response_id`, the response object) and its output items by
 * id; and, in index sessions, which session holds a response. Values are JSON text: the reader validates them.
 * Each runtime implements `ResponsesStorage` (SQLite in the Durable Object, memory on Node).
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
 * that this session does not hold (the caller looks for it elsewhere); null when the chain is complete.
 */
export interface ResponseHistory {
  segments: HistorySegment[];
  missing: string | null;
}

/** Most responses one chain walk follows. */
export const MAX_CHAIN = 10_000;

/** How long the index remembers where a response is. */
export const POINTER_TTL_MS = 7 * 24 * 3600 * 1000;

/**
 * Most responses (and thread turns) one session keeps; storing one more forgets the oldest. Bounds a session's
 * storage however long a run goes on.
 */
export const MAX_STORED_RESPONSES = 1000;

export interface ResponsesStorage extends ObjectStorage {
  /** Stores (or replaces) one response and its output items, forgetting the oldest beyond MAX_STORED_RESPONSES. */
  save(record: StoredResponseRecord, now: number): void;
  /** The stored response object (JSON), or null. */
  load(id: string): string | null;
  /** Walks `previous_response_id` links back from `id` as far as this session holds them. */
  history(id: string): ResponseHistory;
  /** The stored output items among `ids`, by id (JSON each); unknown ids are absent. */
  items(ids: string[]): Record<string, string>;
  /** Forgets a response and its items; false when it was not stored here. */
  delete(id: string): boolean;
  /** Index sessions: records which session holds response `id`; drops entries older than POINTER_TTL_MS. */
  point(id: string, object: string, now: number): void;
  pointer(id: string, now: number): string | null;
  forgetPointer(id: string): void;
}

/**
 * One object the OpenAI platform keeps besides responses (a conversation, one of its items, a stored chat completion,
 * a background run): its id and its JSON text. Objects are grouped by `kind`; a kind named `{kind}/{id}` holds the
 * children of object `id` of `kind` (a conversation's items), and goes with it when it is deleted or dropped.
 */
export interface StoredObject {
  id: string;
  json: string;
}

/**
 * Most text (UTF-16 units, all its objects' JSON together) one kind keeps in one session object, whatever its count
 * bound: one more object drops the oldest until it fits (the newest stays, however long).
 */
export const MAX_KIND_CHARS = 32_000_000;

/** The kind that holds the children of object `id` of `kind`. */
export function childKind(kind: string, id: string): string {
  return `${kind}/${id}`;
}

/** The objects of the OpenAI platform (stored as `StoredObject`s), by each runtime's responses storage. */
export interface ObjectStorage {
  /**
   * Stores (or replaces, keeping its place) each object of `kind`, new ones after the others in the order given;
   * beyond `max` objects of the kind, or MAX_KIND_CHARS of their text, the oldest are dropped, with their children.
   */
  putObjects(kind: string, objects: StoredObject[], now: number, max: number): void;
  getObject(kind: string, id: string): string | null;
  /** Every object of `kind`, oldest first. */
  listObjects(kind: string): StoredObject[];
  /** Forgets an object and its children; false when it was not stored. */
  deleteObject(kind: string, id: string): boolean;
}
