/**
 * What a session stores from a client is bounded the same way on both runtimes. A journal entry is one SQLite value
 * on Workers, whose SQLite refuses a value over ~2 MB (SQLITE_TOOBIG); the request body is already cut to
 * JOURNAL_BODY_LIMIT (http/body.ts) and the canonical view's strings to CANONICAL_TEXT_LIMIT, but the rest a client
 * controls is not: an MCP call's arguments (and the mismatch error quoting them), the names of thousands of tools.
 * An entry whose JSON would pass JOURNAL_ENTRY_BYTES has its long strings cut (with a marker) and long lists
 * shortened; what is still too large is replaced by a marker or left out, and a reason says the entry was cut.
 */
import { CANONICAL_TEXT_LIMIT, cutText } from "./canonical-view";
import type { JournalDraft } from "./core";

/** Most UTF-8 bytes of one journal entry's JSON: under workerd's SQLite value limit (2,000,000 bytes), with room. */
export const JOURNAL_ENTRY_BYTES = 1_000_000;
/** Most items a list (or keys an object) keeps in an entry that had to be cut. */
const LIST_LIMIT = 100;

/**
 * At most how many bytes `value`'s JSON takes (6 per UTF-16 unit covers `\u0000` escapes), counting until `budget`
 * is passed: a walk, no serialisation, so an ordinary entry costs little.
 */
function upperBound(value: unknown, budget: number): number {
  let total = 0;
  const stack: unknown[] = [value];
  while (stack.length > 0 && total <= budget) {
    const v = stack.pop();
    if (typeof v === "string") total += v.length * 6 + 2;
    else if (Array.isArray(v)) {
      total += v.length + 2;
      for (const x of v) stack.push(x);
    } else if (typeof v === "object" && v !== null) {
      total += 2;
      // for…in over own keys, not Object.entries: every request's entry is walked, and its pairs were ~3 KB of
      // garbage a JSON turn on Node (a thirteenth of what the turn allocates).
      const record = v as Record<string, unknown>;
      for (const k in record) {
        if (!Object.hasOwn(record, k)) continue;
        total += k.length * 6 + 4;
        stack.push(record[k]);
      }
    } else total += 24;
  }
  return total;
}

function bytesOf(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value) ?? "").length;
}

/** Strings cut to CANONICAL_TEXT_LIMIT (with a marker), lists and objects to their first LIST_LIMIT items. */
function shrink(value: unknown): unknown {
  if (typeof value === "string") return cutText(value, CANONICAL_TEXT_LIMIT);
  if (Array.isArray(value)) return value.slice(0, LIST_LIMIT).map(shrink);
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(
      Object.entries(value)
        .slice(0, LIST_LIMIT)
        .map(([k, v]) => [k, shrink(v)]),
    );
  return value;
}

/** The same value with the same shape, shrunk (shrink keeps every string a string, list a list, object an object). */
function shrunk<V>(value: V): V {
  return shrink(value) as V;
}

/**
 * The entry as the journal keeps it: itself when its JSON fits JOURNAL_ENTRY_BYTES; else its headers and canonical
 * view shrunk, its body shrunk only when over a third of the budget (and replaced by a marker when still over), a
 * canonical view still over it left out, and a reason saying so.
 * @example boundEntry(mcpEntryWith8MiBArguments).canonical?.arguments // { blob: "xxxx…[mockllm: truncated 8384608 characters]" }
 */
export function boundEntry<T extends JournalDraft>(entry: T): T {
  if (upperBound(entry, JOURNAL_ENTRY_BYTES) <= JOURNAL_ENTRY_BYTES) return entry;
  const size = bytesOf(entry);
  if (size <= JOURNAL_ENTRY_BYTES) return entry;
  const share = JOURNAL_ENTRY_BYTES / 3;
  // The body is already cut to JOURNAL_BODY_LIMIT when it came as text (http/body.ts): shrunk only if still too large.
  const request = { ...entry.request, headers: shrunk(entry.request.headers) };
  if (bytesOf(request.body) > share) request.body = shrink(request.body);
  if (bytesOf(request.body) > share) request.body = `[mockllm: a ${bytesOf(entry.request.body)}-byte body, not journaled]`;
  const reasons = [...entry.reasons.slice(0, LIST_LIMIT).map((r) => cutText(r, CANONICAL_TEXT_LIMIT)), `mockllm: this entry (${size} bytes) was cut to fit the journal`];
  const out: T = { ...entry, request, reasons };
  if (entry.canonical !== undefined) {
    const canonical = shrunk(entry.canonical);
    if (bytesOf(canonical) <= share) out.canonical = canonical;
    else delete out.canonical;
  }
  return out;
}

/**
 * The entry's JSON as the journal keeps it (`boundEntry`'s entry, serialised), for a storage that keeps JSON text
 * (SQLite on Workers): an entry whose JSON has at most a third of JOURNAL_ENTRY_BYTES in UTF-16 units fits (3 UTF-8
 * bytes at most per unit), so the common entry is serialised once and never walked.
 * @example sqlStorage.exec("INSERT INTO journal (entry) VALUES (?)", boundJson(draft))
 */
export function boundJson(entry: JournalDraft, bodyJson?: string): string {
  const json = bodyJson === undefined ? JSON.stringify(entry) : withBodyText(entry, bodyJson);
  if (json.length <= JOURNAL_ENTRY_BYTES / 3) return json;
  return JSON.stringify(boundEntry(bodyJson === undefined ? entry : withParsedBody(entry, bodyJson)));
}

/**
 * The entry with its request's body parsed from `bodyJson` (where `entry.request.body` was left undefined): what a
 * storage of objects keeps, and what an entry too large for its text is cut from. The body keeps its place.
 * @example withParsedBody(draft, '{"model":"m"}').request.body // { model: "m" }
 */
export function withParsedBody<T extends JournalDraft>(entry: T, bodyJson: string): T {
  return { ...entry, request: { ...entry.request, body: JSON.parse(bodyJson) } };
}

/**
 * Stands for the request's body in the entry's JSON until the body is spliced in: a string no client can make the
 * value of a key named `body` before the request's own (header values hold no NUL; every string value's quotes are
 * escaped, so `"body":"` can only be a key).
 */
const BODY_MARK = "\u0000mockllm:body\u0000";
const BODY_KEY = '"body":';
const BODY_SLOT = `${BODY_KEY}${JSON.stringify(BODY_MARK)}`;

/**
 * The entry's JSON with its request's body given as JSON text (`entry.request.body` undefined): the same text
 * `JSON.stringify` makes of the entry with the body parsed from it, but for the body's own spacing — the body is
 * copied, not walked. The entry is serialised once, its body's place (last in the request, where every journaled wire
 * request has it) holding a mark that the body's text then replaces.
 * @example JSON.parse(withBodyText(draft, '{"model": "m"}')).request.body // { model: "m" }
 */
export function withBodyText(entry: JournalDraft, bodyJson: string): string {
  const text = markedJson(entry);
  const at = text.indexOf(BODY_SLOT);
  return `${text.slice(0, at)}${BODY_KEY}${bodyJson}${text.slice(at + BODY_SLOT.length)}`;
}

/** The entry's JSON with the body's mark in its body's place. */
function markedJson(entry: JournalDraft): string {
  return JSON.stringify({ ...entry, request: { ...entry.request, body: BODY_MARK } });
}

/** An entry kept as two texts: its JSON with the body's mark in the body's place, and the body's own JSON text. */
export interface EntryApart {
  entry: string;
  body: string;
}

/**
 * What a storage keeping texts in memory keeps of an entry whose body came as text (`entry.request.body` undefined):
 * the entry's JSON and the body's text apart, when together they are within the bound `boundJson` keeps (`joinApart`
 * reads them back as one entry), so the body is neither walked nor copied into a new text; past the bound,
 * `boundJson`'s one text.
 * @example joinApart(keptApart(draft, '{"model":"m"}') as EntryApart).request.body // { model: "m" }
 */
export function keptApart(entry: JournalDraft, bodyJson: string): EntryApart | string {
  const text = markedJson(entry);
  // The length of the text `withBodyText` would splice, measured without splicing it.
  if (text.length - BODY_SLOT.length + BODY_KEY.length + bodyJson.length <= JOURNAL_ENTRY_BYTES / 3) return { entry: text, body: bodyJson };
  return boundJson(entry, bodyJson);
}

/**
 * The entry `keptApart` kept as two texts, parsed: the same value `JSON.parse` makes of `boundJson`'s one text.
 * @example joinApart({ entry: markedText, body: '{"model":"m"}' }).request.body // { model: "m" }
 */
export function joinApart<T extends JournalDraft>(kept: EntryApart): T {
  const entry = JSON.parse(kept.entry) as T;
  entry.request.body = JSON.parse(kept.body);
  return entry;
}
