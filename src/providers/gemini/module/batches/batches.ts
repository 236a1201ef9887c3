/**
 * Gemini batch mode (contract section 11): `POST /v1beta/models/{model}:batchGenerateContent` with the requests inline
 * (`batch.inputConfig.requests.requests: [{ request, metadata }]`) or in an uploaded JSONL file
 * (`batch.inputConfig.fileName: "files/…"`, a line `{ key, request }` each: the Files API, ../files/files.ts), the
 * long-running operation at `GET /v1beta/batches/{id}`, `GET /v1beta/batches`, `POST /v1beta/batches/{id}:cancel`,
 * `DELETE /v1beta/batches/{id}`. The same engine as the other batches (objects/batch-run.ts): the requests kept as a
 * file written in parts, run lazily on the scenario's `async.processingMs` clock (at most `BATCH_LINES_PER_READ` a
 * read), each through the batch's session as a live `generateContent` call (turn/batch.ts). Inline requests get their
 * answers inline (`metadata.output.inlinedResponses`); a file's get a JSONL file of `{ key, response }` or
 * `{ key, error }` lines, named in `metadata.output.responsesFile` and downloaded at `files/{id}:download?alt=media`.
 */
import { safeDecode } from "../../../../http/url";
import { apiError, type ApiError } from "../../../../http/errors";
import { readJsonBody } from "../../../../http/body";
import { isRecord, jsonResponse } from "../../../../http/json";
import { FileStore, type FileRecord, type FileWriter, type WriterState } from "../../../../objects/files";
import { advanceBatch, runSlice } from "../../../../objects/batch-run";
import { sortableId } from "../../../../objects/ids";
import { RecordStore } from "../../../../objects/records";
import { scopedObjects, type ObjectStore } from "../../../../objects/store";
import type { Runtime } from "../../../../runtime/types";
import { linesPerRead, originHeaders, requestPrefix, runBatchLine, type LineOrigin } from "../../../../turn/batch";
import type { SideRouteContext } from "../../../types";
import { checkGeminiAuth } from "../../errors";
import { fileNotFound, GEMINI_FILE, geminiFiles } from "../../file-refs";
import { parseJsonOrUndefined } from "../../../../http/json";
import { geminiGenerateContent } from "../../index";

const CREATE = /^\/(v1beta|v1alpha|v1)\/models\/([^/:]+):batchGenerateContent$/;
const BATCH = /^\/(v1beta|v1alpha|v1)\/batches(?:\/([^/:]+)(?::(cancel))?)?$/;

interface Progress {
  lines: number;
  ok: number;
  failed: number;
  results: { record: Omit<FileRecord, "bytes" | "parts">; state: WriterState };
}

interface GeminiBatchRecord {
  id: string;
  model: string;
  displayName: string;
  createdAtMs: number;
  dueAtMs: number;
  origin: LineOrigin;
  total: number;
  requestsFileId: string;
  /** The requests came in an uploaded file: the answers go to a file too (`responsesFile`). */
  fromFile?: boolean;
  cancelledAtMs?: number;
  progress?: Progress;
  done?: { atMs: number; ok: number; failed: number; resultsFileId: string };
}

/** The batches' own files (their requests and answers), apart from the files a client uploaded. */
export function batchFiles(objects: ObjectStore): FileStore {
  return new FileStore(scopedObjects(objects, "gemini-batches/"));
}

function stores(ctx: SideRouteContext): { files: FileStore; batches: RecordStore<GeminiBatchRecord> } | undefined {
  const objects = ctx.rt.objects;
  if (objects === undefined) return undefined;
  return { files: batchFiles(objects), batches: new RecordStore<GeminiBatchRecord>(scopedObjects(objects, "gemini-batches/"), "batches/") };
}

/** The purpose of a file of answers to a batch read from a file: `files/{id}:download` serves it. */
export const BATCH_RESPONSES = "batch_responses";

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function state(b: GeminiBatchRecord, now: number): string {
  if (b.cancelledAtMs !== undefined) return "BATCH_STATE_CANCELLED";
  if (b.done !== undefined) return "BATCH_STATE_SUCCEEDED";
  return now < b.dueAtMs && b.progress === undefined ? "BATCH_STATE_PENDING" : "BATCH_STATE_RUNNING";
}

/** The long-running operation, with the answers inline once the batch is done. */
async function operation(b: GeminiBatchRecord, files: FileStore, now: number, created = false): Promise<Record<string, unknown>> {
  const ok = b.done?.ok ?? b.progress?.ok ?? 0;
  const failed = b.done?.failed ?? b.progress?.failed ?? 0;
  const metadata: Record<string, unknown> = {
    "@type": "type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatch",
    model: `models/${b.model}`,
    displayName: b.displayName,
    createTime: iso(b.createdAtMs),
    updateTime: iso(b.done?.atMs ?? b.cancelledAtMs ?? b.createdAtMs),
    batchStats: { requestCount: String(b.total), successfulRequestCount: String(ok), failedRequestCount: String(failed), pendingRequestCount: String(b.total - ok - failed) },
    state: created ? "BATCH_STATE_PENDING" : state(b, now),
    name: `batches/${b.id}`,
  };
  const ended = b.done !== undefined || b.cancelledAtMs !== undefined;
  if (ended) metadata.endTime = iso(b.done?.atMs ?? b.cancelledAtMs!);
  if (b.done !== undefined && b.fromFile === true) metadata.output = { responsesFile: `files/${b.done.resultsFileId}` };
  else if (b.done !== undefined) {
    const inlined: unknown[] = [];
    for await (const line of files.lines(b.done.resultsFileId)) if (line !== "") inlined.push(JSON.parse(line));
    metadata.output = { inlinedResponses: { inlinedResponses: inlined } };
  }
  const op: Record<string, unknown> = { name: `batches/${b.id}`, metadata };
  if (ended) {
    op.done = true;
    op.response = { "@type": "type.googleapis.com/google.ai.generativelanguage.v1main.GenerateContentBatchOutput", ...(metadata.output ? (metadata.output as object) : {}) };
  }
  return op;
}

function invalid(message: string): ApiError {
  return apiError("invalid_request", message);
}

function notFound(id: string): ApiError {
  return apiError("not_found", `Batch batches/${id} not found.`);
}

async function create(request: Request, path: string, model: string, ctx: SideRouteContext, s: NonNullable<ReturnType<typeof stores>>): Promise<Response> {
  const body = await readJsonBody(request);
  if (!body.ok) return ctx.refuse(body.error);
  const batch = isRecord(body.value) ? body.value.batch : undefined;
  const input = isRecord(batch) && isRecord(batch.inputConfig) ? batch.inputConfig : undefined;
  if (input === undefined) return ctx.refuse(invalid("* BatchGenerateContentRequest.batch.input_config: input_config is required."));
  const now = Date.now();
  const id = sortableId("", 20).toLowerCase();
  const list = input.fileName === undefined && isRecord(input.requests) ? input.requests.requests : undefined;
  if (input.fileName === undefined) {
    if (!Array.isArray(list) || list.length === 0) return ctx.refuse(invalid("* BatchGenerateContentRequest.batch.input_config.requests.requests: at least one request is required."));
    for (const [i, r] of list.entries()) {
      if (!isRecord(r) || !isRecord(r.request)) return ctx.refuse(invalid(`* BatchGenerateContentRequest.batch.input_config.requests.requests[${i}].request: request is required.`));
    }
  }
  // A file's lines are checked whole before anything is written: a refused batch leaves nothing behind.
  const upload = input.fileName !== undefined ? await requestsFile(input.fileName, ctx) : undefined;
  if (upload !== undefined && "code" in upload) return ctx.refuse(upload);
  const writer = s.files.writer({ id: sortableId("file-", 14), filename: `${id}_requests.jsonl`, purpose: "batch_requests", createdAt: Math.floor(now / 1000), mimeType: "application/jsonl" });
  let total = 0;
  if (upload !== undefined) {
    for await (const line of upload.lines()) await writer.write(`${JSON.stringify(line)}\n`);
    total = upload.count;
  } else if (Array.isArray(list)) {
    for (const [i, r] of (list as { request: Record<string, unknown>; metadata?: unknown }[]).entries()) {
      const { model: _model, ...req } = r.request;
      await writer.write(`${JSON.stringify({ key: isRecord(r.metadata) && typeof r.metadata.key === "string" ? r.metadata.key : String(i + 1), metadata: r.metadata ?? null, request: req })}\n`);
    }
    total = list.length;
  }
  await writer.close();
  const { prefix } = requestPrefix(request, path);
  const headers = originHeaders(request.headers);
  const origin: LineOrigin = { prefix, headers, path: `/v1beta/models/${model}:generateContent` };
  const scenarioName = prefix.scenario ?? headers["x-mock-scenario"];
  const stored = scenarioName !== undefined ? await ctx.rt.scenarios.get(scenarioName) : undefined;
  const displayName = isRecord(batch) && typeof batch.displayName === "string" ? batch.displayName : id;
  const record: GeminiBatchRecord = {
    id,
    model,
    displayName,
    createdAtMs: now,
    dueAtMs: now + (stored?.scenario.async?.processingMs ?? 0),
    origin,
    total,
    requestsFileId: writer.id,
    ...(input.fileName !== undefined ? { fromFile: true } : {}),
  };
  await s.batches.put(id, record);
  return jsonResponse(await operation(record, s.files, now, true));
}

/** One request line of an uploaded batch file, as the batch keeps it. */
interface RequestLine {
  key: string;
  metadata: null;
  request: Record<string, unknown>;
}

/** An uploaded JSONL file's request lines (`{ key, request }`; blank lines skipped), read as they are used. */
async function* fileRequests(files: FileStore, id: string): AsyncIterable<RequestLine | { bad: number }> {
  let n = 0;
  for await (const text of files.lines(id)) {
    if (text.trim() === "") continue;
    n++;
    const line = parseJsonOrUndefined(text);
    if (!isRecord(line) || !isRecord(line.request)) {
      yield { bad: n };
      return;
    }
    const { model: _model, ...request } = line.request;
    yield { key: typeof line.key === "string" ? line.key : String(n), metadata: null, request };
  }
}

/**
 * The uploaded file a batch reads (`fileName: "files/…"`), checked whole: how many requests it holds and a reader of
 * them; or the error (an unknown file is the API's 403; a line that is no request is named).
 */
async function requestsFile(fileName: unknown, ctx: SideRouteContext): Promise<{ count: number; lines: () => AsyncIterable<RequestLine> } | ApiError> {
  if (typeof fileName !== "string" || !fileName.startsWith("files/")) return invalid("* BatchGenerateContentRequest.batch.input_config.file_name: a file name (files/…) is required.");
  const id = fileName.slice("files/".length);
  const files = geminiFiles(ctx.rt.objects!);
  const file = await files.get(id);
  if (file === null || file.purpose !== GEMINI_FILE) return fileNotFound(id);
  let count = 0;
  for await (const line of fileRequests(files, id)) {
    if ("bad" in line) return invalid(`mockllm: line ${line.bad} of ${fileName} is not a JSON object with a \`request\` (a GenerateContentRequest) and a \`key\`.`);
    count++;
  }
  if (count === 0) return invalid(`mockllm: ${fileName} holds no requests.`);
  return {
    count,
    async *lines() {
      for await (const line of fileRequests(files, id)) if (!("bad" in line)) yield line;
    },
  };
}

async function runLines(rt: Runtime, s: NonNullable<ReturnType<typeof stores>>, b: GeminiBatchRecord, max: number): Promise<void> {
  const p: Progress = b.progress ?? {
    lines: 0,
    ok: 0,
    failed: 0,
    results: {
      record: b.fromFile
        ? { id: `batch-${b.id}`, filename: `${b.displayName}-responses`, purpose: BATCH_RESPONSES, createdAt: Math.floor(Date.now() / 1000), mimeType: "application/jsonl" }
        : { id: sortableId("file-", 14), filename: `${b.id}_results.jsonl`, purpose: "batch_results", createdAt: Math.floor(Date.now() / 1000), mimeType: "application/jsonl" },
      state: { parts: 0, bytes: 0 },
    },
  };
  const run = async (text: string, [results]: FileWriter[]) => {
    const line = JSON.parse(text) as { key: string; metadata: unknown; request: unknown };
    const answer = await runBatchLine(geminiGenerateContent, rt, line.request, b.origin, { id: `batches/${b.id}`, customId: line.key });
    const ok = answer.status >= 200 && answer.status < 300;
    if (ok) p.ok++;
    else p.failed++;
    const error = isRecord(answer.body) && isRecord(answer.body.error) ? answer.body.error : { code: answer.status, message: String(answer.body) };
    const out = ok ? { response: answer.body } : { error };
    // A file's answers are keyed by the request's key; inline ones carry their request's metadata.
    const kept = b.fromFile ? { key: line.key, ...out } : line.metadata === null ? out : { ...out, metadata: line.metadata };
    await results!.write(`${JSON.stringify(kept)}\n`);
  };
  const exhausted = await runSlice(s.files, { input: b.requestsFileId, progress: p, max, outputs: [p.results], blank: (text) => text === "", run });
  if (exhausted) {
    const file = await s.files.writer(p.results.record, p.results.state).close();
    b.done = { atMs: Date.now(), ok: p.ok, failed: p.failed, resultsFileId: file.id };
    delete b.progress;
  } else b.progress = p;
}

function advance(rt: Runtime, s: NonNullable<ReturnType<typeof stores>>, id: string): Promise<GeminiBatchRecord | null> {
  const due = (b: GeminiBatchRecord) => b.done === undefined && b.cancelledAtMs === undefined && Date.now() >= b.dueAtMs;
  const settled = (b: GeminiBatchRecord) => b.done !== undefined || b.cancelledAtMs !== undefined;
  return advanceBatch(s.batches, `gemini-batch:${id}`, id, due, settled, (fresh) => runLines(rt, s, fresh, linesPerRead(rt)));
}

export function knowsGeminiBatchPath(path: string): boolean {
  return CREATE.test(path) || BATCH.test(path);
}

/**
 * Serves a Gemini batch route, or undefined when `path` is none.
 * @example await serveGeminiBatches(request, "/v1beta/batches/abc", ctx)
 */
export async function serveGeminiBatches(request: Request, path: string, ctx: SideRouteContext): Promise<Response | undefined> {
  const created = CREATE.exec(path);
  const batch = created ? null : BATCH.exec(path);
  if (!created && !batch) return undefined;
  const url = new URL(request.url);
  // `/v1/batches…` is OpenAI's too (the client reads a job at `v1/batches/{id}`): Gemini's only with Google's key.
  if (batch && batch[1] === "v1" && !request.headers.has("x-goog-api-key") && !url.searchParams.has("key")) return undefined;
  const auth = checkGeminiAuth(request.headers, { query: url.searchParams });
  if (auth) return ctx.refuse(auth);
  const s = stores(ctx);
  if (s === undefined) return ctx.refuse(apiError("not_found", "mockllm: this runtime keeps no batches."));
  const method = request.method;
  if (created) {
    if (method !== "POST") return ctx.refuse({ code: "method_not_allowed", message: `Use POST for ${path}.` });
    return create(request, path, safeDecode(created[2]!), ctx, s);
  }
  const id = batch![2] === undefined ? undefined : safeDecode(batch![2]);
  const now = Date.now();
  if (id === undefined) {
    if (method !== "GET") return ctx.refuse({ code: "method_not_allowed", message: `Use GET for ${path}.` });
    const size = Number(url.searchParams.get("pageSize") ?? "50");
    const ids = (await s.batches.ids()).reverse();
    const token = url.searchParams.get("pageToken");
    const start = token !== null && ids.includes(token) ? ids.indexOf(token) + 1 : 0;
    const chosen = ids.slice(start, start + (Number.isInteger(size) && size > 0 ? size : 50));
    const operations = [];
    for (const bid of chosen) {
      const b = await s.batches.get(bid);
      if (b !== null) operations.push(await operation(b, s.files, now));
    }
    const more = start + chosen.length < ids.length;
    return jsonResponse({ operations, ...(more ? { nextPageToken: chosen.at(-1) } : {}) });
  }
  if (batch![3] === "cancel") {
    if (method !== "POST") return ctx.refuse({ code: "method_not_allowed", message: `Use POST for ${path}.` });
    const b = await s.batches.get(id);
    if (b === null) return ctx.refuse(notFound(id));
    if (b.done === undefined && b.cancelledAtMs === undefined) {
      b.cancelledAtMs = now;
      await s.batches.put(id, b);
    }
    return jsonResponse({});
  }
  if (method === "DELETE") {
    const b = await s.batches.get(id);
    if (b === null) return ctx.refuse(notFound(id));
    await s.files.delete(b.requestsFileId);
    if (b.done) await s.files.delete(b.done.resultsFileId);
    await s.batches.delete(id);
    return jsonResponse({});
  }
  if (method !== "GET") return ctx.refuse({ code: "method_not_allowed", message: `Use GET or DELETE for ${path}.` });
  const b = await advance(ctx.rt, s, id);
  return b === null ? ctx.refuse(notFound(id)) : jsonResponse(await operation(b, s.files, Date.now()));
}
