/**
 * Files of Gemini's Files API as the generateContent surface sees them: the caller's files (below `gemini/` in its
 * namespace's `ObjectStore`, apart from OpenAI's and Anthropic's), the API's File resource, and the check that a
 * `fileData.fileUri` naming a Files API file names one of them. The routes are module/files/files.ts.
 */
import { apiError, type ApiError } from "../../http/errors";
import { FileStore, type FileRecord } from "../../objects/files";
import { scopedObjects, type ObjectStore } from "../../objects/store";
import type { Runtime } from "../../runtime/types";
import type { Content } from "./wire";

/** The purpose of an uploaded Gemini file (the parts of an upload in progress carry another). */
export const GEMINI_FILE = "gemini";

/** The caller's Gemini files. */
export function geminiFiles(objects: ObjectStore): FileStore {
  return new FileStore(scopedObjects(objects, "gemini/"));
}

/**
 * The real API's answer for a file it does not know, or one another project owns: 403, not 404 (the wording of
 * google-gemini/deprecated-generative-ai-python#692 and googleapis/python-genai#1218).
 */
export function fileNotFound(id: string): ApiError {
  return apiError("permission", `You do not have permission to access the File ${id} or it may not exist.`);
}

/** RFC 3339 with milliseconds, as Google's timestamps are written (0, 3, 6 or 9 fraction digits). */
function timestamp(seconds: number, ms = 0): string {
  return new Date(seconds * 1000 + ms).toISOString();
}

/**
 * The File resource: `sizeBytes` an int64 as text, `sha256Hash` base64, `uri` where this mock serves it (clients pass
 * it back as `fileData.fileUri`), `state: "ACTIVE"` at once (nothing to process), `source: "UPLOADED"`.
 */
export function fileResource(r: FileRecord, origin: string, version: string): Record<string, unknown> {
  return {
    name: `files/${r.id}`,
    ...(r.filename !== "" ? { displayName: r.filename } : {}),
    mimeType: r.mimeType,
    sizeBytes: String(r.bytes),
    createTime: timestamp(r.createdAt),
    updateTime: timestamp(r.createdAt),
    ...(r.expiresAt !== undefined ? { expirationTime: timestamp(r.expiresAt) } : {}),
    ...(r.sha256 !== undefined ? { sha256Hash: r.sha256 } : {}),
    uri: `${origin}/${version}/files/${r.id}`,
    state: "ACTIVE",
    source: "UPLOADED",
  };
}

/** The file id a `fileUri` names when it is a Files API URI (`…/v1beta/files/{id}` or `files/{id}`), else undefined. */
export function fileIdOfUri(uri: string): string | undefined {
  const m = /^(?:https?:\/\/[^?#]*\/(?:v1beta|v1alpha|v1)\/)?files\/([a-z0-9-]{1,40})$/.exec(uri);
  return m?.[1];
}

/** The error for the first of `ids` the caller's namespace has no Files API file for, or undefined. */
export async function missingFile(ids: readonly string[], rt: Runtime): Promise<ApiError | undefined> {
  if (ids.length === 0) return undefined;
  if (rt.objects === undefined) return fileNotFound(ids[0]!);
  const files = geminiFiles(rt.objects);
  for (const id of ids) {
    const r = await files.get(id);
    if (r === null || r.purpose !== GEMINI_FILE) return fileNotFound(id);
  }
  return undefined;
}

/**
 * The error for contents that name a Files API file the caller's namespace does not have (`fileData.fileUri`), or
 * undefined. Other URIs (a `gs://` object, a YouTube link) are not checked.
 */
export function missingFileReference(contents: readonly Content[], rt: Runtime): Promise<ApiError | undefined> | undefined {
  let ids: string[] | undefined;
  for (const c of contents) {
    for (const p of c.parts ?? []) {
      const id = p.fileData ? fileIdOfUri(p.fileData.fileUri) : undefined;
      if (id !== undefined) (ids ??= []).push(id);
    }
  }
  return ids === undefined ? undefined : missingFile(ids, rt);
}
