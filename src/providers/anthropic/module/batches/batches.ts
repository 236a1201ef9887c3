/**
 * Anthropic Message Batches (contract section 11): `POST /v1/messages/batches` (`requests: [{ custom_id, params }]`),
 * `GET /v1/messages/batches` (`limit`, `after_id`, `before_id`), `GET …/{id}`, `POST …/{id}/cancel`,
 * `DELETE …/{id}`, `GET …/{id}/results` (JSONL: `succeeded` with the message, `errored` with the error body,
 * `canceled`).
 *
 * The same engine as OpenAI's batches (objects/batch-run.ts under each): the requests are kept as a file written
 * in parts, the batch runs lazily on the first read after the scenario's `async.processingMs`, each request through
 * the batch's session as a live `/v1/messages` call (turn/batch.ts), and the results are written in parts and served
 * streamed. Its objects live below `anthropic-batches/` in the caller's namespace, apart from either Files API.
 */
import { restPath } from "../../../../http/url";
import { apiError, type ApiError } from "../../../../http/errors";
import { readJsonBody } from "../../../../http/body";
import { isRecord, jsonResponse } from "../../../../http/json";
import { Response } from "../../../../http/web";
import { FileStore, type FileRecord, type FileWriter, type WriterState } from "../../../../objects/files";
import { advanceBatch, runSlice } from "../../../../objects/batch-run";
import { sortableId } from "../../../../objects/ids";
import { RecordStore } from "../../../../objects/records";
import { scopedObjects } from "../../../../objects/store";
import type { Runtime } from "../../../../runtime/types";
import { linesPerRead, originHeaders, requestPrefix, runBatchLine, type LineOrigin } from "../../../../turn/batch";
import type { SideRouteContext } from "../../../types";
import { checkAnthropicHeaders } from "../../errors";
import { anthropicMessages } from "../../index";
import { idWindow } from "../../pages";

const BASES = ["/v1/messages/batches", "/messages/batches"];
const MAX_REQUESTS = 100_000;
const CUSTOM_ID = /^[a-zA-Z0-9_-]{1,64}$/;
const DAY_MS = 24 * 3600 * 1000;
/** Results stay available 29 days after creation. */
const RESULTS_MS = 29 * DAY_MS;

interface Counts {
  processing: number;
  succeeded: number;
  errored: number;
  canceled: number;
  expired: number;
}

interface MessageBatchRecord {
  id: string;
  createdAtMs: number;
  dueAtMs: number;
  origin: LineOrigin;
  total: number;
  /** The file the requests were kept in (one `{custom_id, params}` per line). */
  requestsFileId: string;
  cancelAtMs?: number;
  done?: { atMs: number; counts: Counts; resultsFileId: string };
  /** Requests run so far, when the batch runs over several reads: the counts and the results file's checkpoint. */
  progress?: Progress;
}

interface Progress {
  lines: number;
  counts: Counts;
  results: { record: Omit<FileRecord, "bytes" | "parts">; state: WriterState };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function batchObject(b: MessageBatchRecord, prefixUrl: string): Record<string, unknown> {
  const ended = b.done !== undefined;
  const so = b.progress?.counts;
  const counts: Counts =
    b.done?.counts ?? (so ? { ...so, processing: b.total - so.succeeded - so.errored - so.canceled - so.expired } : { processing: b.total, succeeded: 0, errored: 0, canceled: 0, expired: 0 });
  const status = ended ? "ended" : b.cancelAtMs !== undefined ? "canceling" : "in_progress";
  return {
    id: b.id,
    type: "message_batch",
    processing_status: status,
    request_counts: counts,
    ended_at: ended ? iso(b.done!.atMs) : null,
    created_at: iso(b.createdAtMs),
    expires_at: iso(b.createdAtMs + DAY_MS),
    archived_at: null,
    cancel_initiated_at: b.cancelAtMs !== undefined ? iso(b.cancelAtMs) : null,
    results_url: ended ? `${prefixUrl}/v1/messages/batches/${b.id}/results` : null,
  };
}

function invalid(message: string): ApiError {
  return apiError("invalid_request", message);
}

function notFound(id: string): ApiError {
  return apiError("not_found", `No message batch found with id '${id}'.`);
}

function stores(ctx: SideRouteContext): { files: FileStore; batches: RecordStore<MessageBatchRecord> } | undefined {
  const objects = ctx.rt.objects;
  if (objects === undefined) return undefined;
  const own = scopedObjects(objects, "anthropic-batches/");
  return { files: new FileStore(own), batches: new RecordStore<MessageBatchRecord>(own, "message-batches/") };
}

async function create(request: Request, path: string, ctx: SideRouteContext, s: NonNullable<ReturnType<typeof stores>>): Promise<Response> {
  const body = await readJsonBody(request);
  if (!body.ok) return ctx.refuse(body.error);
  const v = body.value;
  if (!isRecord(v) || !Array.isArray(v.requests)) return ctx.refuse(invalid("requests: Field required"));
  const requests = v.requests as unknown[];
  if (requests.length === 0) return ctx.refuse(invalid("requests: List should have at least 1 item after validation, not 0"));
  if (requests.length > MAX_REQUESTS) return ctx.refuse(invalid(`requests: List should have at most ${MAX_REQUESTS} items after validation, not ${requests.length}`));
  const seen = new Set<string>();
  for (const [i, r] of requests.entries()) {
    if (!isRecord(r)) return ctx.refuse(invalid(`requests.${i}: Input should be a valid dictionary`));
    if (typeof r.custom_id !== "string" || !CUSTOM_ID.test(r.custom_id)) return ctx.refuse(invalid(`requests.${i}.custom_id: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'`));
    if (!isRecord(r.params)) return ctx.refuse(invalid(`requests.${i}.params: Field required`));
    if (seen.has(r.custom_id)) return ctx.refuse(invalid(`requests: Duplicate custom_id values are not allowed. Found duplicate: '${r.custom_id}'`));
    seen.add(r.custom_id);
  }
  const now = Date.now();
  const { prefix } = requestPrefix(request, path);
  const headers = originHeaders(request.headers);
  for (const name of ["anthropic-version", "anthropic-beta"]) {
    const value = request.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  const origin: LineOrigin = { prefix, headers, path: "/v1/messages" };
  const scenarioName = prefix.scenario ?? headers["x-mock-scenario"];
  const stored = scenarioName !== undefined ? await ctx.rt.scenarios.get(scenarioName) : undefined;
  const id = sortableId("msgbatch_01", 16);
  const writer = s.files.writer({ id: sortableId("file_", 16), filename: `${id}_requests.jsonl`, purpose: "message_batch_requests", createdAt: Math.floor(now / 1000), mimeType: "application/jsonl" });
  for (const r of requests as { custom_id: string; params: unknown }[]) await writer.write(`${JSON.stringify({ custom_id: r.custom_id, params: r.params })}\n`);
  await writer.close();
  const record: MessageBatchRecord = { id, createdAtMs: now, dueAtMs: now + (stored?.scenario.async?.processingMs ?? 0), origin, total: requests.length, requestsFileId: writer.id };
  await s.batches.put(id, record);
  return jsonResponse(batchObject(record, ""));
}

/**
 * Runs the next `max` requests (streamed; those run by earlier reads skipped) — after a cancel, marks every one left
 * canceled — appending to the results; the batch has ended when none is left.
 */
async function runLines(rt: Runtime, s: NonNullable<ReturnType<typeof stores>>, b: MessageBatchRecord, max: number): Promise<void> {
  const p: Progress = b.progress ?? {
    lines: 0,
    counts: { processing: 0, succeeded: 0, errored: 0, canceled: 0, expired: 0 },
    results: {
      record: { id: sortableId("file_", 16), filename: `${b.id}_results.jsonl`, purpose: "message_batch_results", createdAt: Math.floor(Date.now() / 1000), mimeType: "application/jsonl" },
      state: { parts: 0, bytes: 0 },
    },
  };
  const counts = p.counts;
  const canceled = b.cancelAtMs !== undefined;
  const run = async (text: string, [results]: FileWriter[]) => {
    const { custom_id, params } = JSON.parse(text) as { custom_id: string; params: unknown };
    let result: unknown;
    if (canceled) {
      counts.canceled++;
      result = { type: "canceled" };
    } else {
      const answer = await runBatchLine(anthropicMessages, rt, params, b.origin, { id: b.id, customId: custom_id });
      const ok = answer.status >= 200 && answer.status < 300;
      if (ok) counts.succeeded++;
      else counts.errored++;
      result = ok ? { type: "succeeded", message: answer.body } : { type: "errored", error: answer.body };
    }
    await results!.write(`${JSON.stringify({ custom_id, result })}\n`);
  };
  // After a cancel every request left is marked canceled in this read, however many.
  const exhausted = await runSlice(s.files, { input: b.requestsFileId, progress: p, max: canceled ? Number.POSITIVE_INFINITY : max, outputs: [p.results], blank: (text) => text === "", run });
  if (exhausted) {
    const file = await s.files.writer(p.results.record, p.results.state).close();
    b.done = { atMs: Date.now(), counts, resultsFileId: file.id };
    delete b.progress;
  } else b.progress = p;
}

function advance(rt: Runtime, s: NonNullable<ReturnType<typeof stores>>, id: string): Promise<MessageBatchRecord | null> {
  const due = (b: MessageBatchRecord) => {
    if (b.done !== undefined) return false;
    const now = Date.now();
    const canceledBefore = b.cancelAtMs !== undefined && now > b.cancelAtMs;
    return canceledBefore || (b.cancelAtMs === undefined && now >= b.dueAtMs);
  };
  return advanceBatch(
    s.batches,
    `msgbatch:${id}`,
    id,
    due,
    (b) => b.done !== undefined,
    (fresh) => runLines(rt, s, fresh, linesPerRead(rt)),
  );
}

/** `/v1/messages/batches…` → the id and the action, or undefined when the path is none of these routes. */
function routeOf(path: string): { id?: string; action?: "cancel" | "results" } | undefined {
  return restPath(BASES, ACTIONS, path);
}

const ACTIONS = ["cancel", "results"] as const;

export function knowsMessageBatchesPath(path: string): boolean {
  return BASES.some((b) => path === b || path.startsWith(`${b}/`));
}

function limitOf(q: URLSearchParams): number | ApiError {
  const raw = q.get("limit");
  if (raw === null) return 20;
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 && n <= 1000 ? n : invalid(`limit: Input should be less than or equal to 1000 and greater than or equal to 1`);
}

/**
 * Serves a Message Batches route, or undefined when `path` is none.
 * @example await serveMessageBatches(request, "/v1/messages/batches", ctx)
 */
export async function serveMessageBatches(request: Request, path: string, ctx: SideRouteContext): Promise<Response | undefined> {
  const route = routeOf(path);
  if (route === undefined) return undefined;
  const headerError = checkAnthropicHeaders(request.headers);
  if (headerError) return ctx.refuse(headerError);
  const s = stores(ctx);
  if (s === undefined) return ctx.refuse(apiError("not_found", "mockllm: this runtime keeps no batches."));
  const { url: prefixUrl } = requestPrefix(request, path);
  const method = request.method;
  const now = Date.now();
  if (route.id === undefined) {
    if (method === "POST") return create(request, path, ctx, s);
    if (method !== "GET") return ctx.refuse({ code: "method_not_allowed", message: `Use GET or POST for ${path}.` });
    const q = new URL(request.url).searchParams;
    const limit = limitOf(q);
    if (typeof limit !== "number") return ctx.refuse(limit);
    const ids = (await s.batches.ids()).reverse();
    const { from, to, hasMore } = idWindow(ids, q, limit);
    const window = ids.slice(from, to);
    const data = (await Promise.all(window.map((id) => s.batches.get(id)))).filter((b): b is MessageBatchRecord => b !== null).map((b) => batchObject(b, prefixUrl));
    return jsonResponse({ data, has_more: hasMore, first_id: window[0] ?? null, last_id: window.at(-1) ?? null });
  }
  const id = route.id;
  if (route.action === "cancel") {
    if (method !== "POST") return ctx.refuse({ code: "method_not_allowed", message: `Use POST for ${path}.` });
    const b = await s.batches.get(id);
    if (b === null) return ctx.refuse(notFound(id));
    if (b.done === undefined && b.cancelAtMs === undefined) {
      b.cancelAtMs = now;
      await s.batches.put(id, b);
    }
    return jsonResponse(batchObject(b, prefixUrl));
  }
  if (route.action === "results") {
    if (method !== "GET") return ctx.refuse({ code: "method_not_allowed", message: `Use GET for ${path}.` });
    const b = await advance(ctx.rt, s, id);
    if (b === null) return ctx.refuse(notFound(id));
    if (b.done === undefined) return ctx.refuse(invalid(`Message batch ${id} has not finished processing; its results are not available yet.`));
    if (now > b.createdAtMs + RESULTS_MS) return ctx.refuse(notFound(id));
    const opened = await s.files.open(b.done.resultsFileId);
    if (opened === null) return ctx.refuse(notFound(id));
    return new Response(opened.body, { status: 200, headers: { "content-type": "application/binary", "content-length": String(opened.record.bytes) } });
  }
  if (method === "DELETE") {
    const b = await advance(ctx.rt, s, id);
    if (b === null) return ctx.refuse(notFound(id));
    if (b.done === undefined) return ctx.refuse(invalid(`Message batch ${id} cannot be deleted while it is in progress; cancel it first.`));
    await s.files.delete(b.requestsFileId);
    await s.files.delete(b.done.resultsFileId);
    await s.batches.delete(id);
    return jsonResponse({ id, type: "message_batch_deleted" });
  }
  if (method !== "GET") return ctx.refuse({ code: "method_not_allowed", message: `Use GET or DELETE for ${path}.` });
  const b = await advance(ctx.rt, s, id);
  return b === null ? ctx.refuse(notFound(id)) : jsonResponse(batchObject(b, prefixUrl));
}
