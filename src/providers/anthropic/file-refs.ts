/**
 * Files of Anthropic's Files API (beta) as the Messages surface sees them: the caller's files (below `anthropic/` in
 * its namespace's `ObjectStore`, apart from OpenAI's) and the check that a `document` / `image` block whose `source`
 * is `{ type: "file", file_id }` names one of them. The routes are `batches/files.ts`.
 */
import { apiError, type ApiError } from "../../http/errors";
import { FileStore } from "../../objects/files";
import { scopedObjects, type ObjectStore } from "../../objects/store";
import type { Runtime } from "../../runtime/types";
import type { MessagesRequest } from "./wire";

/** The caller's Anthropic files. */
export function anthropicFiles(objects: ObjectStore): FileStore {
  return new FileStore(scopedObjects(objects, "anthropic/"));
}

/** The real API's 404 for a file id it does not know. */
export function fileNotFound(id: string): ApiError {
  return apiError("not_found", `File not found: ${id}`);
}

/**
 * The error for a message that names a file the caller's namespace does not have (`source: { type: "file" }` in a
 * `document` or `image` block), or undefined.
 */
export async function missingFileReference(wire: MessagesRequest, rt: Runtime): Promise<ApiError | undefined> {
  let ids: string[] | undefined;
  for (const m of wire.messages) {
    if (typeof m.content === "string") continue;
    for (const b of m.content) if (b.type === "other" && b.fileId !== undefined) (ids ??= []).push(b.fileId);
  }
  if (ids === undefined) return undefined;
  if (rt.objects === undefined) return fileNotFound(ids[0]!);
  const files = anthropicFiles(rt.objects);
  for (const id of ids) if ((await files.get(id)) === null) return fileNotFound(id);
  return undefined;
}
