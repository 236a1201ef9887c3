/**
 * OpenAI Batches (contract section 11): `POST /v1/batches` from an uploaded JSONL, `GET /v1/batches` (`after`,
 * `limit`), `GET /v1/batches/{id}`, `POST /v1/batches/{id}/cancel`.
 *
 * The life cycle runs on the scenario's async clock (`async.processingMs`, default 0) and advances lazily, when the
 * batch is read — no timer, the same on both runtimes: the creation answer is `validating`; a read before the batch
 * is due shows `in_progress`; the first read after it runs every line through the batch's session in input order
 * (turn/batch.ts: the same parse, selection, `Session.next()` and renderers as a live call) and answers `completed`
 * with `output_file_id` / `error_file_id`. The input file is checked at creation; a file the real API refuses makes a
 * `failed` batch with `errors.data`. A cancel before the lines ran answers `cancelling`, then `cancelled`.
 * Lines are streamed from the input file and written out in parts (objects/files.ts): memory stays bounded.
 */
import { restPath } from "../../../../http/url";
import { apiError, type ApiError } from "../../../../http/errors";
import { readJsonBody } from "../../../../http/body";
import { isRecord, jsonResponse } from "../../../../http/json";
import type { FileRecord, FileStore, FileWriter, WriterState } from "../../../../objects/files";
import { advanceBatch, runSlice } from "../../../../objects/batch-run";
import { randomHex, sortableId } from "../../../../objects/ids";
import { RecordStore } from "../../../../objects/records";
import type { Runtime } from "../../../../runtime/types";
import type { ProviderSurface, SideRouteContext } from "../../../types";
import { linesPerRead, originHeaders, requestPrefix, runBatchLine, type LineOrigin } from "../../../../turn/batch";
import { openaiChat } from "../../chat";
import { openaiEmbeddings } from "../../embeddings";
import { openaiCompletions } from "../../completions";
import { openaiModerations } from "../../moderations";
import { openaiResponses } from "../../responses";
import { checkOpenAIAuth } from "../../errors";
import { fileObject, filesOf, limitParam, noSuchFile } from "./files";
import { checkMetadata } from "../../platform";
import { unsupportedValue } from "../../request-error";
import { raiseEvent } from "../../../../webhooks/hub";

/** The endpoints a batch's lines may call, and the surface that answers each. */
const ENDPOINT_SURFACES: Record<string, ProviderSurface<any>> = {
  "/v1/chat/completions": openaiChat,
  "/v1/responses": openaiResponses,
  "/v1/embeddings": openaiEmbeddings,
  "/v1/completions": openaiCompletions,
  "/v1/moderations": openaiModerations,
};
const ENDPOINTS = Object.keys(ENDPOINT_SURFACES);
/** The real API's most requests in one batch. */
const MAX_LINES = 50_000;
/** Most validation errors a failed batch lists. */
const MAX_ERRORS = 100;
const COMPLETION_WINDOW_SECONDS = 24 * 3600;
const BATCHES_PATHS = ["/v1/batches", "/batches"];

interface LineError {
  code: string;
  message: string;
  param: string | null;
  line: number | null;
}

interface Usage {
  input: number;
  cached: number;
  output: number;
  reasoning: number;
}

/** A batch as kept between its requests. */
export interface BatchRecord {
  id: string;
  endpoint: string;
  inputFileId: string;
  completionWindow: string;
  metadata: Record<string, string> | null;
  /** Epoch ms. */
  createdAtMs: number;
  /** When its lines are due (epoch ms): creation plus the scenario's `async.processingMs`. */
  dueAtMs: number;
  origin: LineOrigin;
  total: number;
  model: string | null;
  /** Validation errors: the batch failed. */
  errors?: LineError[];
  cancelledAtMs?: number;
  /** Set once the lines ran. */
  done?: { atMs: number; completed: number; failed: number; outputFileId: string | null; errorFileId: string | null; usage: Usage };
  /** Lines run so far, when the batch runs over several reads (`linesPerRead`): the counts and both files' checkpoints. */
  progress?: Progress;
}

interface Progress {
  lines: number;
  completed: number;
  failed: number;
  usage: Usage;
  output: { record: Omit<FileRecord, "bytes" | "parts">; state: WriterState };
  errors: { record: Omit<FileRecord, "bytes" | "parts">; state: WriterState };
}

function seconds(ms: number): number {
  return Math.floor(ms / 1000);
}

/** What a client sees of the batch at `now` (a read after the cancel or the due time shows the next state). */
function batchObject(b: BatchRecord, state: "created" | "read" | "cancel", now: number): Record<string, unknown> {
  const created = seconds(b.createdAtMs);
  const out: Record<string, unknown> = {
    id: b.id,
    object: "batch",
    endpoint: b.endpoint,
    model: b.model,
    errors: null,
    input_file_id: b.inputFileId,
    completion_window: b.completionWindow,
    status: "validating",
    output_file_id: null,
    error_file_id: null,
    created_at: created,
    in_progress_at: null,
    expires_at: created + COMPLETION_WINDOW_SECONDS,
    finalizing_at: null,
    completed_at: null,
    failed_at: null,
    expired_at: null,
    cancelling_at: null,
    cancelled_at: null,
    request_counts: { total: 0, completed: 0, failed: 0 },
    usage: usageObject(undefined),
    metadata: b.metadata,
  };
  if (state === "created") return out;
  if (b.errors !== undefined) {
    return { ...out, status: "failed", failed_at: created, errors: { object: "list", data: b.errors } };
  }
  out.in_progress_at = created;
  const counts = b.done ?? b.progress;
  out.request_counts = { total: b.total, completed: counts?.completed ?? 0, failed: counts?.failed ?? 0 };
  if (b.cancelledAtMs !== undefined && (b.done === undefined || b.done.atMs >= b.cancelledAtMs)) {
    // Any read after the cancel, also one in the cancel's own millisecond (a fast client's next request).
    const cancelled = state === "read" && now >= b.cancelledAtMs;
    const files = cancelled && b.done !== undefined ? { output_file_id: b.done.outputFileId, error_file_id: b.done.errorFileId, usage: usageObject(b.done.usage) } : {};
    return { ...out, status: cancelled ? "cancelled" : "cancelling", cancelling_at: seconds(b.cancelledAtMs), cancelled_at: cancelled ? seconds(b.cancelledAtMs) : null, ...files };
  }
  if (b.done === undefined) return { ...out, status: "in_progress" };
  const at = seconds(b.done.atMs);
  return {
    ...out,
    status: "completed",
    finalizing_at: at,
    completed_at: at,
    output_file_id: b.done.outputFileId,
    error_file_id: b.done.errorFileId,
    usage: usageObject(b.done.usage),
  };
}

function usageObject(u: Usage | undefined): Record<string, unknown> {
  const v = u ?? { input: 0, cached: 0, output: 0, reasoning: 0 };
  return {
    input_tokens: v.input,
    output_tokens: v.output,
    total_tokens: v.input + v.output,
    input_tokens_details: { cached_tokens: v.cached },
    output_tokens_details: { reasoning_tokens: v.reasoning },
  };
}

/** Adds a line's answer's usage (Chat's `prompt_tokens`, Responses' `input_tokens`, embeddings' `prompt_tokens`). */
function addUsage(sum: Usage, body: unknown): void {
  if (!isRecord(body) || !isRecord(body.usage)) return;
  const u = body.usage;
  const num = (v: unknown) => (typeof v === "number" ? v : 0);
  sum.input += num(u.input_tokens ?? u.prompt_tokens);
  sum.output += num(u.output_tokens ?? u.completion_tokens);
  const inDetails = u.input_tokens_details ?? u.prompt_tokens_details;
  const outDetails = u.output_tokens_details ?? u.completion_tokens_details;
  if (isRecord(inDetails)) sum.cached += num(inDetails.cached_tokens);
  if (isRecord(outDetails)) sum.reasoning += num(outDetails.reasoning_tokens);
}

function badRequest(message: string, param: string | null, code?: string): ApiError {
  return apiError("invalid_request", message, { ...(param !== null ? { param } : {}), ...(code !== undefined ? { providerCode: code } : {}) });
}

function noSuchBatch(id: string): ApiError {
  return apiError("not_found", `No batch found with id '${id}'.`, { param: "batch_id" });
}

/** One input line parsed, or the error the real validation names. */
type ParsedLine = { ok: true; customId: string; body: Record<string, unknown> } | { ok: false; error: Omit<LineError, "line"> };

function parseLine(text: string, endpoint: string): ParsedLine {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: { code: "invalid_json_line", message: "This line is not parseable as valid JSON.", param: null } };
  }
  if (!isRecord(value)) return { ok: false, error: { code: "invalid_json_line", message: "This line is not a JSON object.", param: null } };
  const customId = value.custom_id;
  if (typeof customId !== "string" || customId === "") {
    return { ok: false, error: { code: "missing_required_parameter", message: "Missing required parameter: 'custom_id'.", param: "custom_id" } };
  }
  if (value.method !== "POST") return { ok: false, error: { code: "invalid_method", message: "The method for this request must be 'POST'.", param: "method" } };
  if (value.url !== endpoint) {
    return { ok: false, error: { code: "invalid_url", message: `The URL provided for this request does not match the batch endpoint (${endpoint}).`, param: "url" } };
  }
  if (!isRecord(value.body)) return { ok: false, error: { code: "missing_required_parameter", message: "Missing required parameter: 'body'.", param: "body" } };
  return { ok: true, customId, body: value.body };
}

/** Checks the whole input file (streamed): its lines, their count and model; the errors a failed batch lists. */
async function validateInput(files: FileStore, fileId: string, endpoint: string): Promise<{ total: number; model: string | null; errors: LineError[] }> {
  const errors: LineError[] = [];
  const seen = new Set<string>();
  let total = 0;
  let model: string | null = null;
  let n = 0;
  const push = (e: Omit<LineError, "line">, line: number | null) => {
    if (errors.length < MAX_ERRORS) errors.push({ ...e, line });
  };
  for await (const text of files.lines(fileId)) {
    n++;
    if (text.trim() === "") continue;
    total++;
    const parsed = parseLine(text, endpoint);
    if (!parsed.ok) {
      push(parsed.error, n);
      continue;
    }
    if (seen.has(parsed.customId)) {
      push(
        {
          code: "duplicate_custom_id",
          message: "The custom_id for this request is a duplicate of another request. The custom_id parameter must be unique for each request in a batch.",
          param: "custom_id",
        },
        n,
      );
    }
    seen.add(parsed.customId);
    const m = typeof parsed.body.model === "string" ? parsed.body.model : undefined;
    if (m === undefined && endpoint !== "/v1/moderations") {
      push({ code: "missing_required_parameter", message: "Missing required parameter: 'body.model'.", param: "body.model" }, n);
    } else if (m !== undefined) {
      if (model === null) model = m;
      else if (m !== model)
        push(
          {
            code: "mismatched_model",
            message: `The provided model '${m}' does not match the model of other requests in this batch ('${model}'). A batch can only use one model.`,
            param: "body.model",
          },
          n,
        );
    }
  }
  if (total === 0) push({ code: "empty_file", message: "The batch input file is empty.", param: null }, null);
  if (total > MAX_LINES) push({ code: "too_many_requests", message: `The batch input file contains ${total} requests; a batch can have at most ${MAX_LINES}.`, param: null }, null);
  return { total, model, errors };
}

/** The files a batch writes, and where it stands, before its first line runs. */
function startProgress(b: BatchRecord): Progress {
  const now = Math.floor(Date.now() / 1000);
  const base = { createdAt: now, mimeType: "application/jsonl", purpose: "batch_output", expiresAt: now + 30 * 24 * 3600 };
  const empty = { parts: 0, bytes: 0 };
  return {
    lines: 0,
    completed: 0,
    failed: 0,
    usage: { input: 0, cached: 0, output: 0, reasoning: 0 },
    output: { record: { ...base, id: sortableId("file-", 14), filename: `${b.id}_output.jsonl` }, state: empty },
    errors: { record: { ...base, id: sortableId("file-", 14), filename: `${b.id}_error.jsonl` }, state: empty },
  };
}

/** Writes the output and error files that have lines: the batch's end (or a cancel's partial results). */
async function finish(files: FileStore, p: Progress): Promise<NonNullable<BatchRecord["done"]>> {
  const outputFileId = p.completed > 0 ? (await files.writer(p.output.record, p.output.state).close()).id : null;
  const errorFileId = p.failed > 0 ? (await files.writer(p.errors.record, p.errors.state).close()).id : null;
  return { atMs: Date.now(), completed: p.completed, failed: p.failed, outputFileId, errorFileId, usage: p.usage };
}

/**
 * Runs the next `max` lines (streamed; those run by earlier reads skipped) through the batch's session, appending to
 * the output and error files; the batch is done when no line is left.
 */
async function runLines(rt: Runtime, files: FileStore, b: BatchRecord, max: number): Promise<void> {
  const surface = ENDPOINT_SURFACES[b.endpoint]!;
  const p = b.progress ?? startProgress(b);
  const run = async (text: string, [output, errors]: FileWriter[]) => {
    const parsed = parseLine(text, b.endpoint);
    if (!parsed.ok) return;
    const answer = await runBatchLine(surface, rt, parsed.body, b.origin, { id: b.id, customId: parsed.customId });
    const line = { id: `batch_req_${randomHex(32)}`, custom_id: parsed.customId, response: { status_code: answer.status, request_id: answer.requestId, body: answer.body }, error: null };
    if (answer.status >= 200 && answer.status < 300) {
      p.completed++;
      addUsage(p.usage, answer.body);
      await output!.write(`${JSON.stringify(line)}\n`);
    } else {
      p.failed++;
      await errors!.write(`${JSON.stringify(line)}\n`);
    }
  };
  const exhausted = await runSlice(files, { input: b.inputFileId, progress: p, max, outputs: [p.output, p.errors], blank: (text) => text.trim() === "", run });
  if (exhausted) {
    b.done = await finish(files, p);
    delete b.progress;
  } else b.progress = p;
}

/** The batch as it stands now, running its lines first when they are due. */
function advance(rt: Runtime, files: FileStore, store: RecordStore<BatchRecord>, id: string): Promise<BatchRecord | null> {
  const due = (b: BatchRecord) => b.errors === undefined && b.done === undefined && b.cancelledAtMs === undefined && Date.now() >= b.dueAtMs;
  const settled = (b: BatchRecord) => b.done !== undefined || b.cancelledAtMs !== undefined;
  return advanceBatch(store, `batch:${id}`, id, due, settled, (fresh) => runLines(rt, files, fresh, linesPerRead(rt)));
}

async function create(request: Request, path: string, ctx: SideRouteContext, files: FileStore, store: RecordStore<BatchRecord>): Promise<Response> {
  const body = await readJsonBody(request);
  if (!body.ok) return ctx.refuse(body.error);
  const v = body.value;
  if (!isRecord(v)) return ctx.refuse(badRequest("The body must be a JSON object.", null));
  for (const name of ["input_file_id", "endpoint", "completion_window"]) {
    if (v[name] === undefined) return ctx.refuse(badRequest(`Missing required parameter: '${name}'.`, name, "missing_required_parameter"));
    if (typeof v[name] !== "string") return ctx.refuse(badRequest(`Invalid type for '${name}': expected a string, but got ${typeof v[name]} instead.`, name, "invalid_type"));
  }
  const endpoint = v.endpoint as string;
  if (!ENDPOINTS.includes(endpoint)) {
    return ctx.refuse(unsupportedValue(endpoint, ENDPOINTS, "endpoint"));
  }
  if (v.completion_window !== "24h") return ctx.refuse(unsupportedValue(v.completion_window, ["24h"], "completion_window"));
  const metadata = checkMetadata(v.metadata);
  if (!metadata.ok) return ctx.refuse(metadata.error);
  const inputFileId = v.input_file_id as string;
  const input = await files.get(inputFileId);
  if (input === null) return ctx.refuse(noSuchFile(inputFileId, "input_file_id"));
  if (input.purpose !== "batch") return ctx.refuse(badRequest(`Invalid 'input_file_id': '${inputFileId}'. The file must be uploaded with purpose 'batch'.`, "input_file_id"));
  const { prefix } = requestPrefix(request, path);
  const origin: LineOrigin = { prefix, headers: originHeaders(request.headers), path: endpoint };
  const scenarioName = prefix.scenario ?? origin.headers["x-mock-scenario"];
  const stored = scenarioName !== undefined ? await ctx.rt.scenarios.get(scenarioName) : undefined;
  const processingMs = stored?.scenario.async?.processingMs ?? 0;
  const checked = await validateInput(files, inputFileId, endpoint);
  const now = Date.now();
  const record: BatchRecord = {
    id: sortableId("batch_", 24),
    endpoint,
    inputFileId,
    completionWindow: "24h",
    metadata: metadata.value ?? null,
    createdAtMs: now,
    dueAtMs: now + processingMs,
    origin,
    total: checked.total,
    model: checked.model,
  };
  if (checked.errors.length > 0) record.errors = checked.errors;
  await store.put(record.id, record);
  // Its end's webhook event: failed now (validation), else completed when due (its lines run on the read that follows).
  await raiseEvent(ctx.rt, `batch:${record.id}`, record.errors ? now : record.dueAtMs, record.errors ? "batch.failed" : "batch.completed", record.id);
  return jsonResponse(batchObject(record, "created", now));
}

/** `/v1/batches…` → the id and whether `/cancel` was asked, or undefined when the path is not a batches route. */
function batchesPath(path: string): { id?: string; action?: "cancel" } | undefined {
  return restPath(BATCHES_PATHS, BATCH_ACTIONS, path);
}

const BATCH_ACTIONS = ["cancel"] as const;

export function knowsBatchesPath(path: string): boolean {
  return BATCHES_PATHS.some((b) => path === b || path.startsWith(`${b}/`));
}

/**
 * Serves a batches route, or undefined when `path` is none.
 * @example await serveBatches(request, "/v1/batches", ctx)
 */
export async function serveBatches(request: Request, path: string, ctx: SideRouteContext): Promise<Response | undefined> {
  const route = batchesPath(path);
  if (route === undefined) return undefined;
  const auth = checkOpenAIAuth(request.headers);
  if (auth) return ctx.refuse(auth);
  const files = filesOf(ctx.rt.objects);
  if (files === undefined || ctx.rt.objects === undefined) return ctx.refuse(apiError("not_found", "mockllm: this runtime keeps no batches."));
  const store = new RecordStore<BatchRecord>(ctx.rt.objects, "batches/");
  const method = request.method;
  if (route.id === undefined) {
    if (method === "POST") return create(request, path, ctx, files, store);
    if (method !== "GET") return ctx.refuse({ code: "method_not_allowed", message: `Use GET or POST for ${path}.` });
    const url = new URL(request.url);
    const limit = limitParam(url.searchParams, 20, 100);
    if (typeof limit !== "number") return ctx.refuse(limit);
    const after = url.searchParams.get("after") ?? undefined;
    const page = await store.page({ limit, ...(after !== undefined ? { after } : {}) });
    const now = Date.now();
    const data = page.data.map((b) => batchObject(b, "read", now));
    return jsonResponse({ object: "list", data, first_id: page.data[0]?.id ?? null, last_id: page.data.at(-1)?.id ?? null, has_more: page.hasMore });
  }
  const id = route.id;
  if (route.action === "cancel") {
    if (method !== "POST") return ctx.refuse({ code: "method_not_allowed", message: `Use POST for ${path}.` });
    const b = await store.get(id);
    if (b === null) return ctx.refuse(noSuchBatch(id));
    const now = Date.now();
    if (b.errors !== undefined || b.done !== undefined) {
      const status = batchObject(b, "read", now).status;
      return ctx.refuse(apiError("invalid_request", `Cannot cancel a batch with status '${status}'.`, { status: 409 }));
    }
    if (b.cancelledAtMs === undefined) {
      b.cancelledAtMs = now;
      // Lines already run stay: the cancelled batch's partial results.
      if (b.progress !== undefined) {
        b.done = { ...(await finish(files, b.progress)), atMs: now };
        delete b.progress;
      }
      await store.put(id, b);
      await raiseEvent(ctx.rt, `batch:${id}`, now, "batch.cancelled", id);
    }
    return jsonResponse(batchObject(b, "cancel", now));
  }
  if (method !== "GET") return ctx.refuse({ code: "method_not_allowed", message: `Use GET for ${path}.` });
  const b = await advance(ctx.rt, files, store, id);
  return b === null ? ctx.refuse(noSuchBatch(id)) : jsonResponse(batchObject(b, "read", Date.now()));
}

export { fileObject };
