/**
 * OpenAI Uploads: a file sent in parts (`client.uploads.*`; Python's `upload_file_chunked`). `POST /v1/uploads`
 * (`bytes`, `filename`, `mime_type`, `purpose`, `expires_after`) opens an upload, pending for an hour;
 * `POST /v1/uploads/{id}/parts` (multipart `data`, at most 64 MB) adds a part; `POST /v1/uploads/{id}/complete`
 * (`part_ids` in the file's order, optional `md5`) makes the File — the parts' bytes must add up to `bytes` — and
 * answers the upload `completed` with it; `POST /v1/uploads/{id}/cancel` drops the parts. The file is a Files API file
 * like any other (`/v1/files/{id}/content`, batches, vector stores), made without copying a byte
 * (`FileStore.assemble`). Kept in the caller's namespace (objects/uploads.ts); parts of pending uploads count against
 * its `fileBytes` quota.
 */
import { apiError, type ApiError } from "../../../../http/errors";
import { formBoundary, readFormPart } from "../../../../http/multipart";
import { safeDecode } from "../../../../http/url";
import type { Response } from "../../../../http/web";
import { timeHex } from "../../../../objects/ids";
import { uploadPartKey, UploadStore, type UploadRecord } from "../../../../objects/uploads";
import { checkFileQuotas } from "../../../../tenancy/file-quota";
import { Md5 } from "../../../../util/md5";
import { echoed } from "../../../../util/text";
import { byMethod, invalid, nowSeconds, objectBody, objectRoute, type PlatformAnswer } from "../../platform";
import { arrayLengthError, invalidType, missingParameter, numberBoundError, unsupportedValue } from "../../request-error";
import type { SideRouteContext } from "../../../types";
import { batchFileNameError, expiresAfter, FILE_PURPOSES, fileObject, filesOf, newFileRecord } from "./files";

/** The most an upload may hold, as the real API says: 8 GB. */
export const MAX_UPLOAD_BYTES = 8 * 1024 ** 3;
/** The most one part may hold: 64 MB (what mockllm reads of one body, too). */
export const MAX_PART_BYTES = 64 * 1024 * 1024;
/** How long an upload stays pending. */
const UPLOAD_SECONDS = 3600;
/** Most parts one completion may name (mockllm's bound: the file's list of parts is one stored object). */
export const MAX_UPLOAD_PARTS = 10_000;

function uploadObject(r: UploadRecord, file: Record<string, unknown> | null = null): Record<string, unknown> {
  return {
    id: r.id,
    object: "upload",
    bytes: r.bytes,
    created_at: r.createdAt,
    filename: r.filename,
    purpose: r.purpose,
    status: r.status,
    expires_at: r.expiresAt,
    file,
  };
}

function noSuchUpload(id: string): ApiError {
  return apiError("not_found", `No such Upload object: ${echoed(id)}`, { param: "upload_id" });
}

/** The refusal of `action` on an upload that is no longer pending. */
function notPending(r: UploadRecord, action: string): ApiError {
  return invalid(`Cannot ${action} Upload ${r.id}: its status is '${r.status}'; only a pending Upload can be.`);
}

/** The fields `POST /v1/uploads` requires, in the order the API lists them, with the type each must have. */
const CREATE_FIELDS = [
  ["bytes", "an integer", (v: unknown) => Number.isInteger(v)],
  ["filename", "a string", (v: unknown) => typeof v === "string"],
  ["mime_type", "a string", (v: unknown) => typeof v === "string"],
  ["purpose", "a string", (v: unknown) => typeof v === "string"],
] as const;

async function create(request: Request, store: UploadStore, a: PlatformAnswer): Promise<Response> {
  const body = await objectBody(request);
  if (!body.ok) return a.fail(body.error);
  const b = body.value;
  for (const [param, expected, ok] of CREATE_FIELDS) {
    if (b[param] === undefined || b[param] === null) return a.fail(missingParameter(param));
    if (!ok(b[param])) return a.fail(invalidType(param, expected, b[param]));
  }
  const bytes = b.bytes as number;
  const filename = b.filename as string;
  const purpose = b.purpose as string;
  const tooMany = numberBoundError("bytes", bytes, { min: 0, max: MAX_UPLOAD_BYTES }, "integer");
  if (tooMany) return a.fail(tooMany);
  if (filename === "") return a.fail(invalid("Invalid 'filename': empty string. Expected a string with minimum length 1, but got an empty string instead.", "filename"));
  if ((b.mime_type as string) === "") return a.fail(invalid("Invalid 'mime_type': empty string. Expected a string with minimum length 1, but got an empty string instead.", "mime_type"));
  if (!(FILE_PURPOSES as readonly string[]).includes(purpose)) return a.fail(unsupportedValue(purpose, FILE_PURPOSES, "purpose"));
  const badName = batchFileNameError(purpose, filename);
  if (badName) return a.fail({ ...badName, param: "filename" });
  let keep: number | undefined;
  if (b.expires_after !== undefined && b.expires_after !== null) {
    const e = b.expires_after;
    if (typeof e !== "object" || Array.isArray(e)) return a.fail(invalidType("expires_after", "an object", e));
    const seconds = expiresAfter((e as Record<string, unknown>).anchor, (e as Record<string, unknown>).seconds);
    if (typeof seconds === "object") return a.fail(seconds);
    keep = seconds;
  }
  const created = nowSeconds();
  const record: UploadRecord = {
    id: timeHex("upload_", 32),
    filename,
    purpose,
    bytes,
    mimeType: b.mime_type as string,
    createdAt: created,
    expiresAt: created + UPLOAD_SECONDS,
    status: "pending",
    ...(keep !== undefined ? { fileExpiresAfter: keep } : {}),
  };
  await store.put(record);
  return a.json(uploadObject(record));
}

async function addPart(request: Request, upload: UploadRecord, store: UploadStore, a: PlatformAnswer, ctx: SideRouteContext): Promise<Response> {
  if (upload.status !== "pending") return a.fail(notPending(upload, "add a part to"));
  const boundary = formBoundary(request.headers.get("content-type"));
  if (boundary === undefined) return a.fail(invalid("Invalid Content-Type header, expected multipart/form-data."));
  const tooLarge = apiError("payload_too_large", "Part is too large. The maximum size of a part is 64 MB.", { param: "data" });
  if (Number(request.headers.get("content-length") ?? "0") > MAX_PART_BYTES + 64 * 1024) return a.fail(tooLarge);
  const parsed = await readFormPart(request, boundary, MAX_PART_BYTES + 64 * 1024, "data");
  if (!parsed.ok) return a.fail(parsed.tooLarge ? tooLarge : parsed.error);
  // `curl -F data=…` sends the part as a plain field: its text is the bytes.
  const data = parsed.bytes ?? (typeof parsed.value === "string" ? new TextEncoder().encode(parsed.value) : undefined);
  if (data === undefined) return a.fail(missingParameter("data"));
  if (data.length > MAX_PART_BYTES) return a.fail(tooLarge);
  await checkFileQuotas(ctx.rt, data.length, 0);
  const id = timeHex("part_", 32);
  await store.addPart(upload.id, id, data);
  return a.json({ id, object: "upload.part", created_at: nowSeconds(), upload_id: upload.id });
}

/** `part_ids` and `md5` of a completion, checked. */
function completion(b: Record<string, unknown>): { ok: true; partIds: string[]; md5?: string } | { ok: false; error: ApiError } {
  const ids = b.part_ids;
  if (ids === undefined || ids === null) return { ok: false, error: missingParameter("part_ids") };
  if (!Array.isArray(ids)) return { ok: false, error: invalidType("part_ids", "an array of strings", ids) };
  const long = arrayLengthError("part_ids", ids, MAX_UPLOAD_PARTS);
  if (long) return { ok: false, error: long };
  for (let i = 0; i < ids.length; i++) if (typeof ids[i] !== "string") return { ok: false, error: invalidType(`part_ids[${i}]`, "a string", ids[i]) };
  const md5 = b.md5;
  if (md5 !== undefined && md5 !== null && typeof md5 !== "string") return { ok: false, error: invalidType("md5", "a string", md5) };
  return { ok: true, partIds: ids as string[], ...(typeof md5 === "string" ? { md5 } : {}) };
}

async function complete(request: Request, upload: UploadRecord, store: UploadStore, a: PlatformAnswer, ctx: SideRouteContext): Promise<Response> {
  const body = await objectBody(request);
  if (!body.ok) return a.fail(body.error);
  const asked = completion(body.value);
  if (!asked.ok) return a.fail(asked.error);
  if (upload.status !== "pending") return a.fail(notPending(upload, "complete"));
  const parts = new Map((await store.parts(upload.id)).map((p) => [p.id, p.bytes]));
  const seen = new Set<string>();
  let total = 0;
  for (const id of asked.partIds) {
    const size = parts.get(id);
    if (size === undefined) return a.fail(invalid(`Part ${echoed(id)} is not a part of Upload ${upload.id}.`, "part_ids"));
    if (seen.has(id)) return a.fail(invalid(`Part ${echoed(id)} is named more than once in 'part_ids'.`, "part_ids"));
    seen.add(id);
    total += size;
  }
  if (total !== upload.bytes) {
    return a.fail(
      invalid(
        `The parts named hold ${total} bytes; Upload ${upload.id} was created for ${upload.bytes} bytes. The number of bytes uploaded must match the number of bytes the Upload was created with.`,
        "part_ids",
      ),
    );
  }
  if (asked.md5 !== undefined) {
    const hash = new Md5();
    for (const id of asked.partIds) hash.update((await store.partBytes(upload.id, id)) ?? new Uint8Array(0));
    const got = hash.hex();
    if (got !== asked.md5.toLowerCase()) return a.fail(invalid(`The md5 of the parts named (${got}) does not match 'md5' (${echoed(asked.md5)}).`, "md5"));
  }
  const files = filesOf(ctx.rt.objects)!;
  await checkFileQuotas(ctx.rt, 0);
  const file = await files.assemble(
    newFileRecord(upload.filename, upload.purpose, total, upload.mimeType, upload.fileExpiresAfter),
    asked.partIds.map((id) => uploadPartKey(upload.id, id)),
  );
  const done: UploadRecord = { ...upload, status: "completed", fileId: file.id };
  await store.put(done);
  // Parts uploaded and left out of the file are not kept.
  if (parts.size > seen.size) await store.dropParts(upload.id, seen);
  return a.json(uploadObject(done, fileObject(file)));
}

async function cancel(upload: UploadRecord, store: UploadStore, a: PlatformAnswer): Promise<Response> {
  if (upload.status !== "pending") return a.fail(notPending(upload, "cancel"));
  const cancelled: UploadRecord = { ...upload, status: "cancelled" };
  await store.put(cancelled);
  await store.dropParts(upload.id);
  return a.json(uploadObject(cancelled));
}

/** `/v1/uploads` and `/v1/uploads/{id}/{parts|complete|cancel}`; every call is a `POST`. */
export const openaiUploads = objectRoute(/^\/(?:v1\/)?uploads(?:\/([^/]+)\/(parts|complete|cancel))?\/?$/, ([, id, action], request, path, a, ctx) => {
  if (ctx.rt.objects === undefined) return a.fail(apiError("not_found", "mockllm: this runtime keeps no files."));
  const store = new UploadStore(ctx.rt.objects);
  if (id === undefined) return byMethod(request, path, a, { POST: () => create(request, store, a) });
  return byMethod(request, path, a, {
    async POST() {
      const upload = await store.get(safeDecode(id));
      if (upload === null) return a.fail(noSuchUpload(id));
      if (action === "parts") return addPart(request, upload, store, a, ctx);
      if (action === "complete") return complete(request, upload, store, a, ctx);
      return cancel(upload, store, a);
    },
  });
});
