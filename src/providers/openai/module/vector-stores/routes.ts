/**
 * OpenAI vector stores (contract section 11): `/v1/vector_stores` (create, list, retrieve, update, delete),
 * `…/{id}/files` (attach a file with `attributes`, list with `filter`, retrieve, update attributes, delete, `…/content`
 * — the file's text chunks), `…/{id}/file_batches` (create, retrieve, cancel, list files) and `…/{id}/search`.
 *
 * Kept like conversations: each vector store is an object of kind `vector_store` in the namespace's index object
 * `__index/vector_stores`, its files and file batches that object's children (kinds `vector_store/{id}` and
 * `vector_store_batch/{id}`). A file's processing runs on the scenario's async clock (`async.processingMs`, the
 * scenario of the `/s/{name}` prefix or `x-mock-scenario`; default 0): `in_progress` until due, then `completed` —
 * worked out when read, no timers. The text searched is the file's bytes in the namespace's file store.
 */
import type { Runtime } from "../../../../runtime/types";
import type { StoredResponses } from "../../../../session/types";
import { apiError, type ApiError } from "../../../../http/errors";
import { safeDecode } from "../../../../http/url";
import { timeHex } from "../../../../objects/ids";
import { echoed, echoedValue } from "../../../../util/text";
import type { SideRoute, SideRouteContext } from "../../../types";
import { filesOf } from "../batches/files";
import { byMethod, checkMetadata, invalid, invalidUrl, nowSeconds, objectBody, objectRoute, page, pageQuery, parsedObjects, wrongMethod, type PlatformAnswer, processingMs } from "../../platform";
import { AUTO_CHUNKING, chunkText, checkFilter, passes, rank, type Attributes, type Chunk, type ChunkingStrategy } from "./search";
import { arrayLengthError, invalidType, missingParameter, unsupportedValue } from "../../request-error";

const KIND = "vector_store";
const filesKind = (id: string) => `vector_store/${id}`;
const batchesKind = (id: string) => `vector_store_batch/${id}`;

/** Most vector stores a namespace keeps; one more forgets the oldest. */
export const MAX_VECTOR_STORES = 1000;
/** Most files one vector store keeps. */
export const MAX_FILES_PER_STORE = 10_000;
/** Most file batches one vector store remembers. */
const MAX_BATCHES = 1000;
/** Most files one create call or file batch may name (the real limit on a batch is 500). */
const MAX_FILE_IDS = 500;
/** Most bytes of file text one search reads (files past it are not searched). */
export const MAX_SEARCH_BYTES = 8 * 1024 * 1024;
/** Most attributes a file carries, as the real API limits them. */
const MAX_ATTRIBUTES = 16;

interface StoreRecord {
  id: string;
  object: "vector_store";
  created_at: number;
  name: string | null;
  description?: string | null;
  metadata: Record<string, string>;
  expires_after?: { anchor: "last_active_at"; days: number } | null;
  chunking_strategy: ChunkingStrategy;
  last_active_at: number;
}

interface FileEntry {
  id: string;
  created_at: number;
  attributes: Attributes;
  chunking_strategy: ChunkingStrategy;
  usage_bytes: number;
  due_at_ms: number;
  batch_id?: string;
  cancelled?: boolean;
}

interface BatchRecord {
  id: string;
  created_at: number;
  file_ids: string[];
  due_at_ms: number;
  cancelled?: boolean;
}

const home = (rt: Runtime): StoredResponses => rt.sessions.get("__index/vector_stores");

export async function loadStore(rt: Runtime, id: string): Promise<StoreRecord | undefined> {
  const json = await home(rt).objectById(KIND, id);
  return json === null ? undefined : parsedObjects<StoreRecord>([json])[0];
}

const saveStore = (rt: Runtime, s: StoreRecord) => home(rt).putObjects(KIND, [{ id: s.id, json: JSON.stringify(s) }], MAX_VECTOR_STORES);

async function storeFiles(rt: Runtime, id: string): Promise<FileEntry[]> {
  return parsedObjects<FileEntry>((await home(rt).listObjects(filesKind(id))).map((o) => o.json));
}

export const noStore = (id: string) => apiError("not_found", `No vector store found with id '${echoed(id)}'.`);
const noFile = (id: string, vs: string) => apiError("not_found", `No file found with id '${echoed(id)}' in vector store '${echoed(vs)}'.`);

function fileStatus(f: FileEntry, now: number): "in_progress" | "completed" | "cancelled" {
  if (f.cancelled) return "cancelled";
  return now >= f.due_at_ms ? "completed" : "in_progress";
}

function counts(files: FileEntry[], now: number) {
  const c = { in_progress: 0, completed: 0, failed: 0, cancelled: 0, total: files.length };
  for (const f of files) c[fileStatus(f, now)]++;
  return c;
}

function renderStore(s: StoreRecord, files: FileEntry[]): Record<string, unknown> {
  const now = Date.now();
  const file_counts = counts(files, now);
  const usage = files.reduce((n, f) => n + (fileStatus(f, now) === "completed" ? f.usage_bytes : 0), 0);
  const expiresAt = s.expires_after ? s.last_active_at + s.expires_after.days * 86_400 : null;
  return {
    id: s.id,
    object: "vector_store",
    created_at: s.created_at,
    name: s.name,
    description: s.description ?? null,
    usage_bytes: usage,
    file_counts,
    status: file_counts.in_progress > 0 ? "in_progress" : "completed",
    ...(s.expires_after ? { expires_after: s.expires_after } : {}),
    expires_at: expiresAt,
    last_active_at: s.last_active_at,
    metadata: s.metadata,
  };
}

function renderFile(f: FileEntry, vs: string): Record<string, unknown> {
  return {
    id: f.id,
    object: "vector_store.file",
    created_at: f.created_at,
    vector_store_id: vs,
    status: fileStatus(f, Date.now()),
    last_error: null,
    usage_bytes: f.usage_bytes,
    attributes: f.attributes,
    chunking_strategy: f.chunking_strategy,
  };
}

function renderBatch(b: BatchRecord, vs: string, files: FileEntry[]): Record<string, unknown> {
  const now = Date.now();
  const mine = files.filter((f) => f.batch_id === b.id);
  const file_counts = counts(mine, now);
  const status = b.cancelled ? "cancelled" : file_counts.in_progress > 0 ? "in_progress" : "completed";
  return { id: b.id, object: "vector_store.files_batch", created_at: b.created_at, vector_store_id: vs, status, file_counts };
}

type Checked<T> = { ok: true; value: T } | { ok: false; error: ApiError };

function checkChunking(value: unknown): Checked<ChunkingStrategy> {
  if (value === undefined || value === null) return { ok: true, value: AUTO_CHUNKING };
  const v = value as Record<string, unknown>;
  if (typeof value !== "object" || Array.isArray(value)) return { ok: false, error: invalid("Invalid type for 'chunking_strategy': expected an object.", "chunking_strategy") };
  if (v.type === "auto") return { ok: true, value: AUTO_CHUNKING };
  if (v.type !== "static") return { ok: false, error: unsupportedValue(v.type, ["auto", "static"], "chunking_strategy.type") };
  const s = (v.static ?? {}) as Record<string, unknown>;
  const size = s.max_chunk_size_tokens;
  const overlap = s.chunk_overlap_tokens;
  if (typeof size !== "number" || !Number.isInteger(size) || size < 100 || size > 4096) {
    return { ok: false, error: invalid("Invalid 'chunking_strategy.static.max_chunk_size_tokens': expected an integer between 100 and 4096.", "chunking_strategy.static.max_chunk_size_tokens") };
  }
  if (typeof overlap !== "number" || !Number.isInteger(overlap) || overlap < 0 || overlap > size / 2) {
    return {
      ok: false,
      error: invalid(
        "Invalid 'chunking_strategy.static.chunk_overlap_tokens': must be a non-negative integer not exceeding half of max_chunk_size_tokens.",
        "chunking_strategy.static.chunk_overlap_tokens",
      ),
    };
  }
  return { ok: true, value: { type: "static", static: { max_chunk_size_tokens: size, chunk_overlap_tokens: overlap } } };
}

function checkAttributes(value: unknown): Checked<Attributes> {
  if (value === undefined || value === null) return { ok: true, value: {} };
  if (typeof value !== "object" || Array.isArray(value)) return { ok: false, error: invalid("Invalid type for 'attributes': expected an object.", "attributes") };
  const entries = Object.entries(value as Record<string, unknown>);
  if (entries.length > MAX_ATTRIBUTES)
    return { ok: false, error: invalid(`Invalid 'attributes': too many properties. Expected an object with at most ${MAX_ATTRIBUTES} properties, but got ${entries.length} instead.`, "attributes") };
  for (const [k, v] of entries) {
    if (k.length > 64) return { ok: false, error: invalid(`Invalid 'attributes': key '${echoed(k)}' is longer than 64 characters.`, "attributes") };
    if (typeof v === "string" ? v.length > 512 : typeof v !== "number" && typeof v !== "boolean") {
      return { ok: false, error: invalid(`Invalid 'attributes.${echoed(k)}': expected a string of at most 512 characters, a number or a boolean.`, `attributes.${k}`) };
    }
  }
  return { ok: true, value: value as Attributes };
}

function checkExpiresAfter(value: unknown): Checked<StoreRecord["expires_after"]> {
  if (value === undefined || value === null) return { ok: true, value: value as null | undefined };
  const v = value as Record<string, unknown>;
  if (typeof value !== "object" || v.anchor !== "last_active_at")
    return { ok: false, error: invalid("Invalid value for 'expires_after.anchor': supported values are: 'last_active_at'.", "expires_after.anchor") };
  if (typeof v.days !== "number" || !Number.isInteger(v.days) || v.days < 1 || v.days > 365) {
    return { ok: false, error: invalid("Invalid 'expires_after.days': expected an integer between 1 and 365.", "expires_after.days") };
  }
  return { ok: true, value: { anchor: "last_active_at", days: v.days } };
}

function checkFileIds(value: unknown, param: string): Checked<string[]> {
  if (value === undefined) return { ok: true, value: [] };
  if (!Array.isArray(value)) return { ok: false, error: invalidType(param, "an array of strings", value) };
  const at = value.findIndex((x) => typeof x !== "string");
  if (at >= 0) return { ok: false, error: invalidType(`${param}[${at}]`, "a string", value[at]) };
  const tooLong = arrayLengthError(param, value, MAX_FILE_IDS);
  if (tooLong) return { ok: false, error: tooLong };
  return { ok: true, value: value as string[] };
}

/** Attaches files (each checked to exist in the namespace's file store) to vector store `vs`. */
async function attach(
  rt: Runtime,
  request: Request,
  vs: string,
  wanted: { id: string; attributes: Attributes; chunking: ChunkingStrategy }[],
  batchId?: string,
): Promise<{ ok: true; entries: FileEntry[] } | { ok: false; error: ApiError }> {
  const files = filesOf(rt.objects);
  if (files === undefined) return { ok: false, error: apiError("not_found", "mockllm: this runtime keeps no files.") };
  const existing = await storeFiles(rt, vs);
  if (existing.length + wanted.length > MAX_FILES_PER_STORE) {
    return { ok: false, error: invalid(`mockllm keeps at most ${MAX_FILES_PER_STORE} files in one vector store.`, "file_id") };
  }
  const due = Date.now() + (await processingMs(request, rt));
  const entries: FileEntry[] = [];
  for (const w of wanted) {
    const record = await files.get(w.id);
    if (record === null) return { ok: false, error: invalid(`File ${echoed(w.id)} not found`, "file_id") };
    entries.push({ id: w.id, created_at: nowSeconds(), attributes: w.attributes, chunking_strategy: w.chunking, usage_bytes: record.bytes, due_at_ms: due, ...(batchId ? { batch_id: batchId } : {}) });
  }
  if (entries.length > 0) {
    await home(rt).putObjects(
      filesKind(vs),
      entries.map((e) => ({ id: e.id, json: JSON.stringify(e) })),
      MAX_FILES_PER_STORE,
    );
  }
  return { ok: true, entries };
}

async function touch(rt: Runtime, s: StoreRecord): Promise<void> {
  await saveStore(rt, { ...s, last_active_at: nowSeconds() });
}

async function createStore(request: Request, rt: Runtime, a: PlatformAnswer): Promise<Response> {
  const body = await objectBody(request);
  if (!body.ok) return a.fail(body.error);
  const v = body.value;
  const metadata = checkMetadata(v.metadata);
  if (!metadata.ok) return a.fail(metadata.error);
  if (v.name !== undefined && v.name !== null && typeof v.name !== "string") return a.fail(invalid("Invalid type for 'name': expected a string.", "name"));
  const expires = checkExpiresAfter(v.expires_after);
  if (!expires.ok) return a.fail(expires.error);
  const chunking = checkChunking(v.chunking_strategy);
  if (!chunking.ok) return a.fail(chunking.error);
  const ids = checkFileIds(v.file_ids, "file_ids");
  if (!ids.ok) return a.fail(ids.error);
  const now = nowSeconds();
  const s: StoreRecord = {
    id: timeHex("vs_", 32),
    object: "vector_store",
    created_at: now,
    name: typeof v.name === "string" ? v.name : null,
    ...(typeof v.description === "string" ? { description: v.description } : {}),
    metadata: metadata.value ?? {},
    ...(expires.value ? { expires_after: expires.value } : {}),
    chunking_strategy: chunking.value,
    last_active_at: now,
  };
  const files = filesOf(rt.objects);
  for (const id of ids.value) if (files === undefined || (await files.get(id)) === null) return a.fail(invalid(`File ${echoed(id)} not found`, "file_ids"));
  await saveStore(rt, s);
  const attached = await attach(
    rt,
    request,
    s.id,
    ids.value.map((id) => ({ id, attributes: {}, chunking: chunking.value })),
  );
  if (!attached.ok) return a.fail(attached.error);
  return a.json(renderStore(s, attached.entries));
}

async function listStores(request: Request, rt: Runtime, a: PlatformAnswer): Promise<Response> {
  const q = pageQuery(new URL(request.url).searchParams, "desc");
  if (!q.ok) return a.fail(q.error);
  // Oldest first, as they were made (an update keeps a store's place).
  const all = parsedObjects<StoreRecord>((await home(rt).listObjects(KIND)).map((o) => o.json));
  const p = page(all, q.page);
  const data = [];
  for (const s of p.data) data.push(renderStore(s, await storeFiles(rt, s.id)));
  return a.json({ ...p, data });
}

async function store(request: Request, rt: Runtime, a: PlatformAnswer, s: StoreRecord): Promise<Response> {
  if (request.method === "GET") return a.json(renderStore(s, await storeFiles(rt, s.id)));
  if (request.method === "DELETE") {
    // Its files go with it (they are its children); its batches are dropped one by one.
    for (const b of await home(rt).listObjects(batchesKind(s.id))) await home(rt).deleteObject(batchesKind(s.id), b.id);
    await home(rt).deleteObject(KIND, s.id);
    return a.json({ id: s.id, object: "vector_store.deleted", deleted: true });
  }
  const body = await objectBody(request);
  if (!body.ok) return a.fail(body.error);
  const v = body.value;
  const updated: StoreRecord = { ...s, last_active_at: nowSeconds() };
  if ("metadata" in v) {
    const metadata = checkMetadata(v.metadata);
    if (!metadata.ok) return a.fail(metadata.error);
    updated.metadata = metadata.value ?? {};
  }
  if ("name" in v) {
    if (v.name !== null && typeof v.name !== "string") return a.fail(invalid("Invalid type for 'name': expected a string.", "name"));
    updated.name = v.name as string | null;
  }
  if ("expires_after" in v) {
    const expires = checkExpiresAfter(v.expires_after);
    if (!expires.ok) return a.fail(expires.error);
    if (expires.value) updated.expires_after = expires.value;
    else delete updated.expires_after;
  }
  await saveStore(rt, updated);
  return a.json(renderStore(updated, await storeFiles(rt, s.id)));
}

async function files(request: Request, rt: Runtime, a: PlatformAnswer, s: StoreRecord, fileId: string | undefined, content: boolean): Promise<Response> {
  const method = request.method;
  if (fileId === undefined) {
    if (method === "POST") {
      const body = await objectBody(request);
      if (!body.ok) return a.fail(body.error);
      const v = body.value;
      if (typeof v.file_id !== "string") return a.fail(missingParameter("file_id"));
      const attributes = checkAttributes(v.attributes);
      if (!attributes.ok) return a.fail(attributes.error);
      const chunking = v.chunking_strategy === undefined ? { ok: true as const, value: s.chunking_strategy } : checkChunking(v.chunking_strategy);
      if (!chunking.ok) return a.fail(chunking.error);
      const attached = await attach(rt, request, s.id, [{ id: v.file_id, attributes: attributes.value, chunking: chunking.value }]);
      if (!attached.ok) return a.fail(attached.error);
      await touch(rt, s);
      return a.json(renderFile(attached.entries[0] as FileEntry, s.id));
    }
    if (method !== "GET") return a.fail(wrongMethod(["GET", "POST"], new URL(request.url).pathname));
    return listFiles(request, a, s.id, await storeFiles(rt, s.id));
  }
  const json = await home(rt).objectById(filesKind(s.id), fileId);
  const entry = json === null ? undefined : parsedObjects<FileEntry>([json])[0];
  if (entry === undefined) return a.fail(noFile(fileId, s.id));
  if (content) {
    if (method !== "GET") return a.fail(wrongMethod(["GET"], new URL(request.url).pathname));
    const text = await fileText(rt, fileId, MAX_SEARCH_BYTES);
    const data = chunkText(text ?? "", entry.chunking_strategy).map((t) => ({ type: "text", text: t }));
    return a.json({ object: "vector_store.file_content.page", data, has_more: false, next_page: null });
  }
  if (method === "GET") return a.json(renderFile(entry, s.id));
  if (method === "DELETE") {
    await home(rt).deleteObject(filesKind(s.id), fileId);
    return a.json({ id: fileId, object: "vector_store.file.deleted", deleted: true });
  }
  const body = await objectBody(request);
  if (!body.ok) return a.fail(body.error);
  if (!("attributes" in body.value)) return a.fail(missingParameter("attributes"));
  const attributes = checkAttributes(body.value.attributes);
  if (!attributes.ok) return a.fail(attributes.error);
  const updated = { ...entry, attributes: attributes.value };
  await home(rt).putObjects(filesKind(s.id), [{ id: fileId, json: JSON.stringify(updated) }], MAX_FILES_PER_STORE);
  return a.json(renderFile(updated, s.id));
}

const FILE_FILTERS = ["in_progress", "completed", "failed", "cancelled"];

function listFiles(request: Request, a: PlatformAnswer, vs: string, entries: FileEntry[]): Response {
  const params = new URL(request.url).searchParams;
  const q = pageQuery(params, "desc");
  if (!q.ok) return a.fail(q.error);
  const filter = params.get("filter");
  if (filter !== null && !FILE_FILTERS.includes(filter)) {
    return a.fail(unsupportedValue(filter, FILE_FILTERS, "filter"));
  }
  const now = Date.now();
  const kept = filter === null ? entries : entries.filter((e) => fileStatus(e, now) === filter);
  const p = page(kept, q.page);
  return a.json({ ...p, data: p.data.map((e) => renderFile(e, vs)) });
}

async function batches(request: Request, rt: Runtime, a: PlatformAnswer, s: StoreRecord, batchId: string | undefined, action: string | undefined): Promise<Response> {
  const method = request.method;
  if (batchId === undefined) {
    if (method !== "POST") return a.fail(wrongMethod(["POST"], new URL(request.url).pathname));
    const body = await objectBody(request);
    if (!body.ok) return a.fail(body.error);
    const v = body.value;
    const attributes = checkAttributes(v.attributes);
    if (!attributes.ok) return a.fail(attributes.error);
    const chunking = v.chunking_strategy === undefined ? { ok: true as const, value: s.chunking_strategy } : checkChunking(v.chunking_strategy);
    if (!chunking.ok) return a.fail(chunking.error);
    const wanted: { id: string; attributes: Attributes; chunking: ChunkingStrategy }[] = [];
    if (v.files !== undefined) {
      if (v.file_ids !== undefined) return a.fail(invalid("Provide either 'file_ids' or 'files', not both.", "files"));
      if (!Array.isArray(v.files) || v.files.length > MAX_FILE_IDS) return a.fail(invalid(`Invalid 'files': expected an array of at most ${MAX_FILE_IDS} objects.`, "files"));
      for (const [i, f] of (v.files as Record<string, unknown>[]).entries()) {
        if (typeof f?.file_id !== "string") return a.fail(missingParameter(`files[${i}].file_id`));
        const attrs = f.attributes === undefined ? attributes : checkAttributes(f.attributes);
        if (!attrs.ok) return a.fail(attrs.error);
        const ch = f.chunking_strategy === undefined ? chunking : checkChunking(f.chunking_strategy);
        if (!ch.ok) return a.fail(ch.error);
        wanted.push({ id: f.file_id, attributes: attrs.value, chunking: ch.value });
      }
    } else {
      const ids = checkFileIds(v.file_ids, "file_ids");
      if (!ids.ok) return a.fail(ids.error);
      if (ids.value.length === 0) return a.fail(missingParameter("file_ids"));
      for (const id of ids.value) wanted.push({ id, attributes: attributes.value, chunking: chunking.value });
    }
    const id = timeHex("vsfb_", 32);
    const attached = await attach(rt, request, s.id, wanted, id);
    if (!attached.ok) return a.fail(attached.error);
    const due = attached.entries[0]?.due_at_ms ?? Date.now();
    const b: BatchRecord = { id, created_at: nowSeconds(), file_ids: wanted.map((w) => w.id), due_at_ms: due };
    await home(rt).putObjects(batchesKind(s.id), [{ id, json: JSON.stringify(b) }], MAX_BATCHES);
    await touch(rt, s);
    return a.json(renderBatch(b, s.id, await storeFiles(rt, s.id)));
  }
  const json = await home(rt).objectById(batchesKind(s.id), batchId);
  const b = json === null ? undefined : parsedObjects<BatchRecord>([json])[0];
  if (b === undefined) return a.fail(apiError("not_found", `No file batch found with id '${echoed(batchId)}' in vector store '${echoed(s.id)}'.`));
  const all = await storeFiles(rt, s.id);
  if (action === undefined) return method === "GET" ? a.json(renderBatch(b, s.id, all)) : a.fail(wrongMethod(["GET"], new URL(request.url).pathname));
  if (action === "files")
    return method === "GET"
      ? listFiles(
          request,
          a,
          s.id,
          all.filter((f) => f.batch_id === b.id),
        )
      : a.fail(wrongMethod(["GET"], new URL(request.url).pathname));
  if (method !== "POST") return a.fail(wrongMethod(["POST"], new URL(request.url).pathname));
  const now = Date.now();
  const pending = all.filter((f) => f.batch_id === b.id && fileStatus(f, now) === "in_progress");
  if (pending.length > 0) {
    const cancelled = { ...b, cancelled: true };
    await home(rt).putObjects(batchesKind(s.id), [{ id: b.id, json: JSON.stringify(cancelled) }], MAX_BATCHES);
    await home(rt).putObjects(
      filesKind(s.id),
      pending.map((f) => ({ id: f.id, json: JSON.stringify({ ...f, cancelled: true }) })),
      MAX_FILES_PER_STORE,
    );
    return a.json(renderBatch(cancelled, s.id, await storeFiles(rt, s.id)));
  }
  return a.json(renderBatch(b, s.id, all));
}

/** The file's text (its first `max` bytes), or undefined when the file is gone. */
async function fileText(rt: Runtime, fileId: string, max: number): Promise<string | undefined> {
  const opened = await filesOf(rt.objects)?.open(fileId);
  if (!opened) return undefined;
  const reader = opened.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let read = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    const take = value.subarray(0, Math.max(0, max - read));
    text += decoder.decode(take, { stream: true });
    read += take.length;
    if (read >= max) {
      await reader.cancel();
      break;
    }
  }
  return text + decoder.decode();
}

/** What a search asks for, checked. */
export interface SearchQuery {
  queries: string[];
  maxResults: number;
  filters?: unknown;
  scoreThreshold: number;
}

export function checkSearch(v: Record<string, unknown>): Checked<SearchQuery> {
  const q = v.query;
  const queries = typeof q === "string" ? [q] : Array.isArray(q) && q.every((x) => typeof x === "string") ? (q as string[]) : undefined;
  if (queries === undefined)
    return { ok: false, error: invalid(q === undefined ? "Missing required parameter: 'query'." : "Invalid type for 'query': expected a string or an array of strings.", "query") };
  const max = v.max_num_results ?? 10;
  if (typeof max !== "number" || !Number.isInteger(max) || max < 1 || max > 50) {
    return { ok: false, error: invalid(`Invalid 'max_num_results': expected an integer between 1 and 50, but got ${echoedValue(max)} instead.`, "max_num_results") };
  }
  if (v.filters !== undefined && v.filters !== null) {
    const bad = checkFilter(v.filters, "filters");
    if (bad) return { ok: false, error: invalid(bad, "filters") };
  }
  const ranking = (v.ranking_options ?? {}) as Record<string, unknown>;
  const threshold = ranking.score_threshold ?? 0;
  if (typeof threshold !== "number" || threshold < 0 || threshold > 1) {
    return { ok: false, error: invalid("Invalid 'ranking_options.score_threshold': expected a number between 0 and 1.", "ranking_options.score_threshold") };
  }
  return { ok: true, value: { queries, maxResults: max, ...(v.filters ? { filters: v.filters } : {}), scoreThreshold: threshold } };
}

export interface SearchResult {
  file_id: string;
  filename: string;
  score: number;
  attributes: Attributes;
  content: { type: "text"; text: string }[];
}

/**
 * Searches vector stores `ids` of the namespace (unknown ones are skipped): the completed files passing `filters`,
 * their text (at most `MAX_SEARCH_BYTES` read in all) chunked and ranked. Shared with the Responses `file_search` tool.
 */
export async function searchStores(rt: Runtime, ids: string[], q: SearchQuery): Promise<SearchResult[]> {
  const now = Date.now();
  const chunks: Chunk[] = [];
  let budget = MAX_SEARCH_BYTES;
  const names = filesOf(rt.objects);
  for (const vs of ids) {
    for (const f of await storeFiles(rt, vs)) {
      if (budget <= 0) break;
      if (fileStatus(f, now) !== "completed") continue;
      if (q.filters !== undefined && !passes(q.filters, f.attributes)) continue;
      const record = await names?.get(f.id);
      if (!record) continue;
      const text = await fileText(rt, f.id, budget);
      if (text === undefined) continue;
      budget -= Math.min(record.bytes, budget);
      for (const t of chunkText(text, f.chunking_strategy)) chunks.push({ fileId: f.id, filename: record.filename, attributes: f.attributes, text: t });
    }
  }
  return rank(chunks, q.queries)
    .filter((h) => h.score >= q.scoreThreshold)
    .slice(0, q.maxResults)
    .map((h) => ({ file_id: h.fileId, filename: h.filename, score: h.score, attributes: h.attributes, content: [{ type: "text", text: h.text }] }));
}

async function search(request: Request, rt: Runtime, a: PlatformAnswer, s: StoreRecord): Promise<Response> {
  if (request.method !== "POST") return a.fail(wrongMethod(["POST"], new URL(request.url).pathname));
  const body = await objectBody(request);
  if (!body.ok) return a.fail(body.error);
  const checked = checkSearch(body.value);
  if (!checked.ok) return a.fail(checked.error);
  const data = await searchStores(rt, [s.id], checked.value);
  await touch(rt, s);
  return a.json({ object: "vector_store.search_results.page", search_query: checked.value.queries, data, has_more: false, next_page: null });
}

const PATH = /^\/(?:v1\/)?vector_stores(?:\/([^/]+)(?:\/(files|file_batches|search)(?:\/([^/]+)(?:\/(content|cancel|files))?)?)?)?\/?$/;

async function serve([, rawId, sub, rawChild, action]: RegExpExecArray, request: Request, path: string, a: PlatformAnswer, ctx: SideRouteContext): Promise<Response> {
  const rt = ctx.rt;
  if (rawId === undefined) return byMethod(request, path, a, { GET: () => listStores(request, rt, a), POST: () => createStore(request, rt, a) });
  const id = safeDecode(rawId);
  const s = await loadStore(rt, id);
  if (!s) return a.fail(noStore(id));
  const child = rawChild === undefined ? undefined : safeDecode(rawChild);
  if (sub === undefined) {
    const one = () => store(request, rt, a, s);
    return byMethod(request, path, a, { GET: one, POST: one, DELETE: one });
  }
  if (sub === "search") return child === undefined ? search(request, rt, a, s) : a.fail(invalidUrl(request, path));
  if (sub === "files") {
    if (action !== undefined && action !== "content") return a.fail(invalidUrl(request, path));
    return files(request, rt, a, s, child, action === "content");
  }
  if (action === "content") return a.fail(invalidUrl(request, path));
  return batches(request, rt, a, s, child, action);
}

/** The `/v1/vector_stores` routes. */
export const openaiVectorStores: SideRoute = objectRoute(PATH, serve);
