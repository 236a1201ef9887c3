/**
 * Gemini's Files API (`ai.files` in `@google/genai`; `@ai-sdk/google` uploads through it too), in the caller's
 * namespace (`Runtime.objects`, scoped):
 *  - `POST /upload/v1beta/files` with `X-Goog-Upload-Protocol: resumable` and `X-Goog-Upload-Command: start` (the
 *    body `{ file: { displayName, name? } }`, the size and type in `X-Goog-Upload-Header-Content-Length` / `-Type`)
 *    answers `x-goog-upload-url` and `x-goog-upload-status: active`; the bytes then go to that URL with
 *    `X-Goog-Upload-Command: upload, finalize` (or `upload` for all but the last chunk, at `X-Goog-Upload-Offset`),
 *    and the last answers `{ file }` with `x-goog-upload-status: final`;
 *  - `GET /v1beta/files` (`pageSize` ≤ 100, default 10, `pageToken`), `GET` and `DELETE /v1beta/files/{id}`;
 * under `v1alpha` and `v1` too (`@google/genai` 3 sends `v1`; there only a Google-keyed request is Gemini's).
 * The upload URL carries what `start` was told (no state is kept between the two: an abandoned upload leaves
 * nothing), and the caller's namespace key when it used one, since a client may send the bytes without credentials
 * (`@ai-sdk/google` does). A file unknown to the namespace is the API's 403 (file-refs.ts). Files expire after 48
 * hours, as the API's do; uploads count toward the namespace's file quotas.
 */
import { apiError } from "../../../../http/errors";
import { base64, base64url, fromBase64 } from "../../../../util/base64";
import { readBoundedBytes } from "../../../../http/body";
import { readSideBody } from "../../side-body";
import { isRecord, jsonResponse } from "../../../../http/json";
import { Response } from "../../../../http/web";
import type { FileRecord, FileStore } from "../../../../objects/files";
import type { SideRoute, SideRouteContext } from "../../../types";
import { checkGeminiAuth } from "../../errors";
import { fileNotFound, fileResource, GEMINI_FILE, geminiFiles } from "../../file-refs";
import { checkFileQuotas } from "../../../../tenancy/file-quota";
import { BATCH_RESPONSES, batchFiles } from "../batches/batches";
import { credentialValues } from "../../../../tenancy/resolve";
import { isNamespaceKey } from "../../../../tenancy/keys";
import { echoed } from "../../../../util/text";
import { randomLowerAlnum } from "../../../../objects/ids";

/** The real limit on one file: 2 GB. */
const MAX_FILE_BYTES = 2 * 1024 * 1024 * 1024;
/** What mockllm takes of one file (each chunk is held whole while it is stored): 64 MiB. */
const MOCK_UPLOAD_BYTES = 64 * 1024 * 1024;
/** Files live 48 hours. */
const TTL_SECONDS = 48 * 3600;
/** An upload's chunks wait at most a day for the rest. */
const PART_TTL_SECONDS = 24 * 3600;
/** The purpose of a chunk waiting for the rest of its upload. */
const UPLOAD_PART = "gemini_upload_part";
/** Every chunk but the last is a whole number of these (Google's resumable uploads take 256 KiB multiples), so an upload has at most 256 chunks to join. */
const CHUNK_QUANTUM = 256 * 1024;

const UPLOAD_PATH = /^\/upload\/(v1beta|v1alpha|v1)\/files$/;
const FILES_PATH = /^(?:\/download)?\/(v1beta|v1alpha|v1)\/files(?:\/([^/:]+)(?::(download))?)?$/;

/**
 * `/v1/files` is also OpenAI's and Anthropic's: it is Gemini's when the request carries Google's key
 * (`x-goog-api-key` or `?key=`), as `@google/genai` 3's requests do (its default API version is `v1`).
 */
function googleKeyed(request: Request, query: URLSearchParams): boolean {
  return request.headers.has("x-goog-api-key") || query.has("key");
}

export function knowsGeminiFilesPath(path: string): boolean {
  return UPLOAD_PATH.test(path) || FILES_PATH.test(path);
}

/** What `start` was told, carried in the upload URL's `upload_id`. */
interface PendingUpload {
  /** The chosen id, or empty: one is made at the end. */
  id: string;
  displayName: string;
  mimeType: string;
  /** The declared size. */
  size: number;
  /** When `start` was called (ms). */
  at: number;
  /** Random, with `at`: names the chunks waiting for the rest (two uploads started in one millisecond stay apart). */
  nonce: string;
}

function encodePending(p: PendingUpload): string {
  return base64url(new TextEncoder().encode(JSON.stringify(p)));
}

function decodePending(text: string): PendingUpload | undefined {
  if (text.length > 4096 || !/^[A-Za-z0-9_-]+$/.test(text)) return undefined;
  try {
    const v: unknown = JSON.parse(new TextDecoder().decode(fromBase64(text)));
    if (!isRecord(v) || typeof v.id !== "string" || typeof v.displayName !== "string" || typeof v.mimeType !== "string") return undefined;
    if (typeof v.size !== "number" || typeof v.at !== "number" || typeof v.nonce !== "string" || !/^[a-z0-9]{1,16}$/.test(v.nonce)) return undefined;
    return v as unknown as PendingUpload;
  } catch {
    return undefined;
  }
}

/** A new file id: 12 lower-case letters and digits, as the API makes them. */
const newFileId = () => randomLowerAlnum(12);

/** The id rules of `File.name`: up to 40 lower-case letters, digits or dashes, not starting or ending with a dash. */
function validId(id: string): boolean {
  return /^[a-z0-9](?:[a-z0-9-]{0,38}[a-z0-9])?$/.test(id);
}

const header = (request: Request, name: string) => request.headers.get(name)?.trim() ?? "";

/** The origin and path prefix (`/s/{scenario}/{session}`) the request came through: where the mock answers. */
function base(request: Request, path: string): { origin: string; prefix: string } {
  const url = new URL(request.url);
  const prefix = url.pathname.endsWith(path) ? url.pathname.slice(0, url.pathname.length - path.length) : "";
  return { origin: url.origin, prefix };
}

async function start(request: Request, path: string, version: string, files: FileStore, ctx: SideRouteContext): Promise<Response> {
  const protocol = header(request, "x-goog-upload-protocol").toLowerCase();
  if (protocol !== "resumable") {
    return ctx.refuse(apiError("invalid_request", `mockllm: only the resumable upload protocol is served (X-Goog-Upload-Protocol: resumable); got '${echoed(protocol || "none")}'.`));
  }
  if (header(request, "x-goog-upload-command").toLowerCase() !== "start") {
    return ctx.refuse(apiError("invalid_request", "An upload starts with X-Goog-Upload-Command: start, then sends its bytes to the x-goog-upload-url it answers."));
  }
  const declared = header(request, "x-goog-upload-header-content-length");
  const size = declared === "" ? 0 : Number(declared);
  if (!Number.isSafeInteger(size) || size < 0) return ctx.refuse(apiError("invalid_request", `Invalid X-Goog-Upload-Header-Content-Length: '${echoed(declared)}'.`));
  if (size > MAX_FILE_BYTES) return ctx.refuse(apiError("payload_too_large", "File size exceeds the 2 GB limit."));
  if (size > MOCK_UPLOAD_BYTES) return ctx.refuse(apiError("payload_too_large", `mockllm: files above ${MOCK_UPLOAD_BYTES / 1024 / 1024} MiB are refused (the real API takes up to 2 GB).`));
  const read = await readSideBody(request, 64 * 1024);
  if (!read.ok) return ctx.refuse(read.error);
  const body = read.value;
  const file = isRecord(body) && isRecord(body.file) ? body.file : {};
  const displayName = file.displayName ?? file.display_name ?? "";
  if (typeof displayName !== "string" || displayName.length > 512) {
    return ctx.refuse(apiError("invalid_request", "file.display_name must be a string of at most 512 characters.", { param: "file.display_name" }));
  }
  const name = typeof file.name === "string" ? file.name.replace(/^files\//, "") : "";
  if (name !== "" && !validId(name)) {
    return ctx.refuse(apiError("invalid_request", `Invalid file name '${echoed(name)}': up to 40 lower-case letters, digits or dashes, not starting or ending with a dash.`, { param: "file.name" }));
  }
  if (name !== "" && (await files.get(name)) !== null) return ctx.refuse(apiError("invalid_request", `File files/${name} already exists.`, { status: 409, type: "ALREADY_EXISTS" }));
  const typed = header(request, "x-goog-upload-header-content-type") || (typeof file.mimeType === "string" ? file.mimeType : "") || "application/octet-stream";
  const pending: PendingUpload = { id: name, displayName, mimeType: typed, size, at: Date.now(), nonce: randomLowerAlnum(8) };
  const { origin, prefix } = base(request, path);
  const key = credentialValues(request).find(isNamespaceKey);
  const url = `${origin}${prefix}/upload/${version}/files?upload_id=${encodePending(pending)}&upload_protocol=resumable${key !== undefined ? `&key=${encodeURIComponent(key)}` : ""}`;
  return new Response(null, { status: 200, headers: { "x-goog-upload-url": url, "x-goog-upload-status": "active", "x-goog-upload-chunk-granularity": "8388608" } });
}

const partId = (p: PendingUpload, offset: number) => `upload-${p.at.toString(36)}-${p.nonce}-${offset}`;

/** A chunk of an upload at `X-Goog-Upload-Offset`; the last (`finalize`) makes the file from the chunks before it. */
async function chunk(request: Request, path: string, version: string, files: FileStore, ctx: SideRouteContext, pending: PendingUpload): Promise<Response> {
  const command = header(request, "x-goog-upload-command")
    .toLowerCase()
    .split(/\s*,\s*/);
  if (!command.includes("upload")) return ctx.refuse(apiError("invalid_request", "Send the bytes with X-Goog-Upload-Command: upload (and finalize on the last chunk)."));
  const offset = Number(header(request, "x-goog-upload-offset") || "0");
  const bytes = await readBoundedBytes(request, MOCK_UPLOAD_BYTES);
  if (bytes === undefined) return ctx.refuse(apiError("payload_too_large", `mockllm: files above ${MOCK_UPLOAD_BYTES / 1024 / 1024} MiB are refused (the real API takes up to 2 GB).`));
  if (!Number.isSafeInteger(offset) || offset < 0 || offset + bytes.length > MOCK_UPLOAD_BYTES) {
    return ctx.refuse(apiError("invalid_request", `Invalid X-Goog-Upload-Offset: '${echoed(header(request, "x-goog-upload-offset"))}'.`));
  }
  const now = Math.floor(Date.now() / 1000);
  const final = command.includes("finalize");
  await checkFileQuotas(ctx.rt, bytes.length);
  if (!final) {
    if (bytes.length === 0 || bytes.length % CHUNK_QUANTUM !== 0) {
      return ctx.refuse(apiError("invalid_request", `A chunk before the last must be a non-zero multiple of ${CHUNK_QUANTUM} bytes; this one is ${bytes.length}.`));
    }
    await files.create({ id: partId(pending, offset), filename: "", purpose: UPLOAD_PART, bytes: 0, createdAt: now, expiresAt: now + PART_TTL_SECONDS, mimeType: "application/octet-stream" }, bytes);
    return new Response(null, { status: 200, headers: { "x-goog-upload-status": "active", "x-goog-upload-size-received": String(offset + bytes.length) } });
  }
  // The chunks before this one, in order of their offsets, then this one.
  const earlier: { offset: number; bytes: Uint8Array }[] = [];
  for (let at = 0; at < offset; ) {
    const part = await files.open(partId(pending, at));
    if (part === null) return ctx.refuse(apiError("invalid_request", `mockllm: no chunk of this upload starts at offset ${at}; send the chunks in order from 0.`));
    const got = new Uint8Array(await new Response(part.body).arrayBuffer());
    // Kept chunks are never empty (above); a stored one that is would not move `at`.
    if (got.length === 0) return ctx.refuse(apiError("invalid_request", `mockllm: the chunk at offset ${at} is empty; start the upload again.`));
    earlier.push({ offset: at, bytes: got });
    at += got.length;
  }
  const whole = new Uint8Array(offset + bytes.length);
  for (const e of earlier) whole.set(e.bytes, e.offset);
  whole.set(bytes, offset);
  const id = pending.id !== "" ? pending.id : newFileId();
  if (pending.id !== "" && (await files.get(id)) !== null) return ctx.refuse(apiError("invalid_request", `File files/${id} already exists.`, { status: 409, type: "ALREADY_EXISTS" }));
  const sha256 = base64(new Uint8Array(await crypto.subtle.digest("SHA-256", whole)));
  const record: FileRecord = { id, filename: pending.displayName, purpose: GEMINI_FILE, bytes: whole.length, createdAt: now, expiresAt: now + TTL_SECONDS, mimeType: pending.mimeType, sha256 };
  const stored = await files.create(record, whole);
  for (const e of earlier) await files.delete(partId(pending, e.offset));
  const { origin, prefix } = base(request, path);
  return jsonResponse({ file: fileResource(stored, `${origin}${prefix}`, version) }, 200, { "x-goog-upload-status": "final" });
}

async function list(request: Request, version: string, files: FileStore, ctx: SideRouteContext, origin: string): Promise<Response> {
  const q = new URL(request.url).searchParams;
  const raw = q.get("pageSize") ?? q.get("page_size");
  const size = raw === null || raw === "" || raw === "0" ? 10 : Number(raw);
  if (!Number.isInteger(size) || size < 0) return ctx.refuse(apiError("invalid_request", `Invalid value at 'page_size' (TYPE_INT32), "${echoed(raw ?? "")}"`, { param: "pageSize" }));
  const limit = Math.min(size, 100);
  const token = q.get("pageToken") ?? q.get("page_token") ?? undefined;
  const page = await files.list({ order: "desc", limit, purpose: GEMINI_FILE, ...(token ? { after: token } : {}) });
  const last = page.data.at(-1);
  return jsonResponse({
    ...(page.data.length > 0 ? { files: page.data.map((r) => fileResource(r, origin, version)) } : {}),
    ...(page.hasMore && last ? { nextPageToken: last.id } : {}),
  });
}

/**
 * `files/{id}:download` (`?alt=media`; also under `/download/…`, where `@ai-sdk/google` asks): the bytes of a file the
 * API generated — a batch's answers (`responsesFile`) —; an uploaded file is refused, as the API refuses it.
 */
async function download(request: Request, path: string, id: string, files: FileStore, ctx: SideRouteContext): Promise<Response> {
  if (request.method !== "GET") return ctx.refuse(apiError("method_not_allowed", `Use GET for ${path}.`));
  const uploaded = await files.get(id);
  if (uploaded !== null && uploaded.purpose === GEMINI_FILE) {
    return ctx.refuse(apiError("invalid_request", `File files/${id} cannot be downloaded: only files the API generates can be (this one was uploaded).`));
  }
  const generated = await batchFiles(ctx.rt.objects!).open(id);
  if (generated === null || generated.record.purpose !== BATCH_RESPONSES) return ctx.refuse(fileNotFound(id));
  return new Response(generated.body, { status: 200, headers: { "content-type": generated.record.mimeType, "content-length": String(generated.record.bytes) } });
}

/** Serves a Files API route, or undefined when `path` is not one. */
async function serve(request: Request, path: string, ctx: SideRouteContext): Promise<Response | undefined> {
  const upload = UPLOAD_PATH.exec(path);
  const item = upload ? null : FILES_PATH.exec(path);
  if (!upload && !item) return undefined;
  const query = new URL(request.url).searchParams;
  if (item?.[1] === "v1" && !googleKeyed(request, query)) return undefined;
  const pendingText = upload ? query.get("upload_id") : null;
  // The bytes may come without credentials (the upload URL is the capability, as Google's is).
  if (pendingText === null) {
    const auth = checkGeminiAuth(request.headers, { query });
    if (auth) return ctx.refuse(auth);
  }
  if (ctx.rt.objects === undefined) return ctx.refuse(apiError("not_found", "mockllm: this runtime keeps no files."));
  const files = geminiFiles(ctx.rt.objects);
  if (upload) {
    const version = upload[1]!;
    if (request.method !== "POST") return ctx.refuse(apiError("method_not_allowed", `Use POST for ${path}.`));
    if (pendingText === null) return start(request, path, version, files, ctx);
    const pending = decodePending(pendingText);
    if (!pending) return ctx.refuse(apiError("invalid_request", "Invalid upload_id: start the upload again."));
    return chunk(request, path, version, files, ctx, pending);
  }
  const [, version, rawId, action] = item!;
  if (path.startsWith("/download/") && action !== "download") return undefined;
  const { origin, prefix } = base(request, path);
  if (rawId === undefined) {
    if (request.method !== "GET") return ctx.refuse(apiError("method_not_allowed", `Use GET for ${path}; uploads go to /upload/${version}/files.`));
    return list(request, version!, files, ctx, `${origin}${prefix}`);
  }
  let id = rawId!;
  try {
    id = decodeURIComponent(id);
  } catch {
    // an id that does not decode is no file's: answered as unknown
  }
  if (action === "download") return download(request, path, id, files, ctx);
  const r = await files.get(id);
  if (r === null || r.purpose !== GEMINI_FILE) return ctx.refuse(fileNotFound(id));
  if (request.method === "GET") return jsonResponse(fileResource(r, `${origin}${prefix}`, version!));
  if (request.method === "DELETE") {
    await files.delete(id);
    return jsonResponse({});
  }
  return ctx.refuse(apiError("method_not_allowed", `Use GET or DELETE for ${path}.`));
}

/** Before OpenAI's and Anthropic's files routes, which share `/v1/files` (Gemini's answers only Google-keyed requests there). */
export const geminiFilesRoute: SideRoute = { order: -1, knows: knowsGeminiFilesPath, serve };
