/**
 * Anthropic's Files API (beta `files-api-2025-04-14`; contract section 11): `POST /v1/files` (multipart `file`),
 * `GET /v1/files` (`limit`, `after_id`, `before_id`), `GET /v1/files/{id}`, `DELETE /v1/files/{id}`, and
 * `GET /v1/files/{id}/content`, which the real API allows only for files it made (here: files code execution wrote,
 * module/code-execution.ts; an uploaded file is not downloadable). Told apart from OpenAI's `/v1/files` by Anthropic's
 * headers (`anthropic-version`, `x-api-key`).
 * A `document` / `image` block whose `source` is `{ type: "file", file_id }` must name a file of the caller's
 * namespace (`missingFileReference` in ../file-refs.ts, from the Messages surface's `prepare`). Uploads count toward
 * the namespace's file quotas.
 */
import { apiError } from "../../../../http/errors";
import { jsonResponse } from "../../../../http/json";
import { Response } from "../../../../http/web";
import { formBoundary, readFormPart } from "../../../../http/multipart";
import { filesRoute, type FileStore, type FileRecord } from "../../../../objects/files";
import { sortableId } from "../../../../objects/ids";
import type { SideRouteContext } from "../../../types";
import { checkAnthropicHeaders } from "../../errors";
import { anthropicFiles, fileNotFound } from "../../file-refs";
import { idWindow } from "../../pages";
import { checkFileQuotas } from "../../../../tenancy/file-quota";
import { own } from "../../../../util/own";

/** The real limit on one file: 500 MB. */
const MAX_FILE_BYTES = 500 * 1024 * 1024;
/** What mockllm reads of one upload. */
const MOCK_UPLOAD_BYTES = 64 * 1024 * 1024;

const MIME_BY_EXTENSION: Record<string, string> = {
  pdf: "application/pdf",
  txt: "text/plain",
  md: "text/plain",
  csv: "text/csv",
  json: "application/json",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
};

/** The purpose of a file code execution wrote (module/code-execution.ts): the only kind the API lets a client download. */
export const CODE_EXECUTION_PURPOSE = "code_execution_output";

/** A file's media type from its name's extension; `application/octet-stream` for any other. */
export function mimeOfName(filename: string): string {
  const ext = filename.split(".").pop()?.toLowerCase() ?? "";
  return own(MIME_BY_EXTENSION, ext) ?? "application/octet-stream"; // `.constructor` is none
}

function fileObject(r: FileRecord): Record<string, unknown> {
  const downloadable = r.purpose === CODE_EXECUTION_PURPOSE;
  return { id: r.id, type: "file", filename: r.filename, mime_type: r.mimeType, size_bytes: r.bytes, created_at: new Date(r.createdAt * 1000).toISOString(), downloadable };
}

const notFound = fileNotFound;

/** Whether a request speaks Anthropic's dialect (its SDK sends both headers; OpenAI's sends neither). */
function isAnthropic(request: Request): boolean {
  return request.headers.has("anthropic-version") || request.headers.has("x-api-key");
}

async function upload(request: Request, files: FileStore, ctx: SideRouteContext): Promise<Response> {
  const boundary = formBoundary(request.headers.get("content-type"));
  if (boundary === undefined) return ctx.refuse(apiError("invalid_request", "Invalid Content-Type header, expected multipart/form-data."));
  if (Number(request.headers.get("content-length") ?? "0") > MAX_FILE_BYTES) return ctx.refuse(apiError("payload_too_large", "File exceeds the maximum size of 500 MB."));
  const parsed = await readFormPart(request, boundary, MOCK_UPLOAD_BYTES, "file");
  if (!parsed.ok && parsed.tooLarge) return ctx.refuse(apiError("payload_too_large", `mockllm: uploads above ${MOCK_UPLOAD_BYTES / 1024 / 1024} MiB are refused (the real API takes up to 500 MB).`));
  if (!parsed.ok) return ctx.refuse(parsed.error);
  const { value: file, bytes: content } = parsed;
  if (typeof file !== "object" || content === undefined) return ctx.refuse(apiError("invalid_request", "file: Field required"));
  const mimeType = file.type !== "application/octet-stream" && file.type !== "" ? file.type : mimeOfName(file.filename);
  await checkFileQuotas(ctx.rt, content.length);
  const record: FileRecord = {
    id: sortableId("file_011C", 12),
    filename: file.filename.slice(0, 255),
    purpose: "user_upload",
    bytes: content.length,
    createdAt: Math.floor(Date.now() / 1000),
    mimeType,
  };
  return jsonResponse(fileObject(await files.create(record, content)));
}

async function list(request: Request, files: FileStore, ctx: SideRouteContext): Promise<Response> {
  const q = new URL(request.url).searchParams;
  const raw = q.get("limit");
  const limit = raw === null ? 20 : Number(raw);
  if (!Number.isInteger(limit) || limit < 1 || limit > 1000) return ctx.refuse(apiError("invalid_request", "limit: Input should be less than or equal to 1000 and greater than or equal to 1"));
  const all = (await files.list({ limit: Number.MAX_SAFE_INTEGER })).data;
  const ids = all.map((r) => r.id);
  const { from, to, hasMore } = idWindow(ids, q, limit);
  const page = all.slice(from, to);
  return jsonResponse({ data: page.map(fileObject), has_more: hasMore, first_id: page[0]?.id ?? null, last_id: page.at(-1)?.id ?? null });
}

/**
 * Serves an Anthropic files route, or undefined when the request is not one (another path, or OpenAI's client).
 * @example await serveAnthropicFiles(request, "/v1/files", ctx)
 */
export async function serveAnthropicFiles(request: Request, path: string, ctx: SideRouteContext): Promise<Response | undefined> {
  const route = filesRoute(path);
  if (route === undefined || !isAnthropic(request)) return undefined;
  const headerError = checkAnthropicHeaders(request.headers);
  if (headerError) return ctx.refuse(headerError);
  if (ctx.rt.objects === undefined) return ctx.refuse(apiError("not_found", "mockllm: this runtime keeps no files."));
  const files = anthropicFiles(ctx.rt.objects);
  const method = request.method;
  if (route.id === undefined) {
    if (method === "POST") return upload(request, files, ctx);
    if (method === "GET") return list(request, files, ctx);
    return ctx.refuse({ code: "method_not_allowed", message: `Use GET or POST for ${path}.` });
  }
  const r = await files.get(route.id);
  if (route.action === "content") {
    if (method !== "GET") return ctx.refuse({ code: "method_not_allowed", message: `Use GET for ${path}.` });
    if (r === null) return ctx.refuse(notFound(route.id));
    if (r.purpose !== CODE_EXECUTION_PURPOSE)
      return ctx.refuse(apiError("invalid_request", `File ${route.id} is not downloadable: only files created by the API (code execution, skills) can be downloaded.`));
    const opened = await files.open(route.id);
    if (opened === null) return ctx.refuse(notFound(route.id));
    return new Response(opened.body, { status: 200, headers: { "content-type": r.mimeType, "content-length": String(r.bytes) } });
  }
  if (r === null) return ctx.refuse(notFound(route.id));
  if (method === "GET") return jsonResponse(fileObject(r));
  if (method === "DELETE") {
    await files.delete(route.id);
    return jsonResponse({ id: route.id, type: "file_deleted" });
  }
  return ctx.refuse({ code: "method_not_allowed", message: `Use GET or DELETE for ${path}.` });
}
