/**
 * OpenAI Files (contract section 11): `POST /v1/files` (multipart: `file`, `purpose`, `expires_after[anchor]`,
 * `expires_after[seconds]`), `GET /v1/files` (`purpose`, `order`, `after`, `limit`), `GET /v1/files/{id}`,
 * `GET /v1/files/{id}/content` (the exact bytes), `DELETE /v1/files/{id}`. Files live in the caller's namespace
 * (`Runtime.objects`, scoped): another team's key gets the same 404 as an id that never existed.
 */
import { apiError, type ApiError } from "../../../../http/errors";
import { jsonResponse } from "../../../../http/json";
import { formBoundary, readFormPart, type FormSummary } from "../../../../http/multipart";
import { Response } from "../../../../http/web";
import { FILES_PATHS, FileStore, filesRoute, type FileRecord } from "../../../../objects/files";
import { sortableId } from "../../../../objects/ids";
import type { ObjectStore } from "../../../../objects/store";
import type { SideRouteContext } from "../../../types";
import { checkOpenAIAuth } from "../../errors";
import { checkFileQuotas } from "../../../../tenancy/file-quota";

/** The purposes `POST /v1/files` (and `POST /v1/uploads`) take. */
export const FILE_PURPOSES = ["assistants", "batch", "fine-tune", "vision", "user_data", "evals"] as const;
/** The real limit on one file. */
export const MAX_FILE_BYTES = 512 * 1024 * 1024;
/** What mockllm reads of one upload (a whole body is held while it is parsed): 64 MiB. */
export const MOCK_UPLOAD_BYTES = 64 * 1024 * 1024;
/** `purpose=batch`: kept 30 days unless `expires_after` says otherwise. */
const BATCH_FILE_SECONDS = 30 * 24 * 3600;
/** Longest file name kept (a longer one is cut). */
export const MAX_FILENAME = 512;

/** The file as the API renders it. */
export function fileObject(r: FileRecord): Record<string, unknown> {
  return {
    object: "file",
    id: r.id,
    purpose: r.purpose,
    filename: r.filename,
    bytes: r.bytes,
    created_at: r.createdAt,
    expires_at: r.expiresAt ?? null,
    status: "processed",
    status_details: null,
  };
}

/** The file store of the caller's namespace, or undefined where the runtime keeps none. */
export function filesOf(objects: ObjectStore | undefined): FileStore | undefined {
  return objects === undefined ? undefined : new FileStore(objects);
}

export function noSuchFile(id: string, param = "id"): ApiError {
  return apiError("not_found", `No such File object: ${id}`, { param });
}

export function knowsFilesPath(path: string): boolean {
  return FILES_PATHS.some((b) => path === b || path.startsWith(`${b}/`));
}

function single(form: FormSummary, name: string): string | undefined {
  const v = form[name];
  const one = Array.isArray(v) ? v[0] : v;
  return typeof one === "string" ? one : undefined;
}

function badRequest(message: string, param: string | null, code?: string): ApiError {
  return apiError("invalid_request", message, { ...(param !== null ? { param } : {}), ...(code !== undefined ? { providerCode: code } : {}) });
}

/** The `limit` query: 1…`max`, else the real 400. */
export function limitParam(query: URLSearchParams, fallback: number, max: number): number | ApiError {
  const raw = query.get("limit");
  if (raw === null) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > max) return badRequest(`Invalid 'limit': integer must be between 1 and ${max}, got ${raw}.`, "limit", "integer_out_of_range");
  return n;
}

async function upload(request: Request, files: FileStore, ctx: SideRouteContext): Promise<Response> {
  const boundary = formBoundary(request.headers.get("content-type"));
  if (boundary === undefined) return ctx.refuse(badRequest("Invalid Content-Type header, expected multipart/form-data.", null));
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > MAX_FILE_BYTES) return ctx.refuse(apiError("payload_too_large", "File is too large. The maximum file size is 512 MB.", { param: "file" }));
  const parsed = await readFormPart(request, boundary, MOCK_UPLOAD_BYTES, "file");
  if (!parsed.ok && parsed.tooLarge)
    return ctx.refuse(apiError("payload_too_large", `mockllm: uploads above ${MOCK_UPLOAD_BYTES / 1024 / 1024} MiB are refused (the real API takes up to 512 MB).`, { param: "file" }));
  if (!parsed.ok) return ctx.refuse(parsed.error);
  const { form, value: file, bytes: content } = parsed;
  const purpose = single(form, "purpose");
  if (purpose === undefined) return ctx.refuse(badRequest("Missing required parameter: 'purpose'.", "purpose", "missing_required_parameter"));
  if (!(FILE_PURPOSES as readonly string[]).includes(purpose)) {
    return ctx.refuse(badRequest(`'${purpose}' is not one of [${FILE_PURPOSES.map((p) => `'${p}'`).join(", ")}] - 'purpose'`, "purpose"));
  }
  if (typeof file !== "object" || content === undefined) return ctx.refuse(badRequest("Missing required parameter: 'file'.", "file", "missing_required_parameter"));
  const filename = file.filename.slice(0, MAX_FILENAME);
  const badName = batchFileNameError(purpose, filename);
  if (badName) return ctx.refuse(badName);
  const anchor = single(form, "expires_after[anchor]");
  const seconds = single(form, "expires_after[seconds]");
  const keep = anchor === undefined && seconds === undefined ? undefined : expiresAfter(anchor, seconds);
  if (typeof keep === "object") return ctx.refuse(keep);
  await checkFileQuotas(ctx.rt, content.length);
  return jsonResponse(fileObject(await files.create(newFileRecord(filename, purpose, content.length, file.type, keep), content)));
}

/**
 * `expires_after`'s anchor and seconds as the real API checks them: the seconds (3600–2592000) or its refusal.
 * @example expiresAfter("created_at", "60") // the 400 naming 'expires_after.seconds'
 */
export function expiresAfter(anchor: unknown, seconds: unknown): number | ApiError {
  if (anchor !== "created_at") return badRequest(`Invalid value for 'expires_after.anchor': expected 'created_at'.`, "expires_after.anchor");
  const n = Number(seconds);
  if (seconds === undefined || seconds === null || !Number.isInteger(n) || n < 3600 || n > 2592000) {
    return badRequest(`Invalid 'expires_after.seconds': integer must be between 3600 and 2592000, got ${String(seconds ?? "none")}.`, "expires_after.seconds", "integer_out_of_range");
  }
  return n;
}

/** A new file's record, created now: kept `keepSeconds` (`expires_after`), else 30 days for `batch`, else until deleted. */
export function newFileRecord(filename: string, purpose: string, bytes: number, mimeType: string, keepSeconds: number | undefined): FileRecord {
  const created = Math.floor(Date.now() / 1000);
  const record: FileRecord = { id: sortableId("file-", 14), filename: filename.slice(0, MAX_FILENAME), purpose, bytes, createdAt: created, mimeType };
  const keep = keepSeconds ?? (purpose === "batch" ? BATCH_FILE_SECONDS : undefined);
  if (keep !== undefined) record.expiresAt = created + keep;
  return record;
}

/** The refusal of a batch file whose name is not `.jsonl`, as `POST /v1/files` words it. */
export function batchFileNameError(purpose: string, filename: string): ApiError | undefined {
  return purpose === "batch" && !filename.toLowerCase().endsWith(".jsonl") ? badRequest("Invalid file format for Batch API. Must be .jsonl", "file") : undefined;
}

async function list(url: URL, files: FileStore, ctx: SideRouteContext): Promise<Response> {
  const q = url.searchParams;
  const limit = limitParam(q, 10000, 10000);
  if (typeof limit !== "number") return ctx.refuse(limit);
  const order = q.get("order") ?? "desc";
  if (order !== "asc" && order !== "desc") return ctx.refuse(badRequest(`Invalid value for 'order': expected 'asc' or 'desc', got '${order}'.`, "order"));
  const purpose = q.get("purpose") ?? undefined;
  const after = q.get("after") ?? undefined;
  const page = await files.list({ order, limit, ...(purpose !== undefined ? { purpose } : {}), ...(after !== undefined ? { after } : {}) });
  const data = page.data.map(fileObject);
  return jsonResponse({ object: "list", data, first_id: page.data[0]?.id ?? null, last_id: page.data.at(-1)?.id ?? null, has_more: page.hasMore });
}

/**
 * Serves a files route, or undefined when `path` is none.
 * @example await serveFiles(request, "/v1/files", ctx)
 */
export async function serveFiles(request: Request, path: string, ctx: SideRouteContext): Promise<Response | undefined> {
  const route = filesRoute(path);
  if (route === undefined) return undefined;
  const auth = checkOpenAIAuth(request.headers);
  if (auth) return ctx.refuse(auth);
  const files = filesOf(ctx.rt.objects);
  if (files === undefined) return ctx.refuse(apiError("not_found", "mockllm: this runtime keeps no files."));
  const method = request.method;
  if (route.id === undefined) {
    if (method === "POST") return upload(request, files, ctx);
    if (method === "GET") return list(new URL(request.url), files, ctx);
    return ctx.refuse({ code: "method_not_allowed", message: `Use GET or POST for ${path}.` });
  }
  if (route.action === "content") {
    if (method !== "GET") return ctx.refuse({ code: "method_not_allowed", message: `Use GET for ${path}.` });
    const opened = await files.open(route.id);
    if (opened === null) return ctx.refuse(noSuchFile(route.id));
    return new Response(opened.body, { status: 200, headers: { "content-type": "application/octet-stream", "content-length": String(opened.record.bytes) } });
  }
  if (method === "GET") {
    const r = await files.get(route.id);
    return r === null ? ctx.refuse(noSuchFile(route.id)) : jsonResponse(fileObject(r));
  }
  if (method === "DELETE") {
    const gone = (await files.get(route.id)) !== null && (await files.delete(route.id));
    return gone ? jsonResponse({ id: route.id, object: "file", deleted: true }) : ctx.refuse(noSuchFile(route.id));
  }
  return ctx.refuse({ code: "method_not_allowed", message: `Use GET or DELETE for ${path}.` });
}
