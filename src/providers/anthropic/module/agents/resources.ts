/**
 * A managed-agents session's resources: files of the caller's Files API mounted in the session's container (at
 * `mount_path`, `/mnt/session/uploads/{file_id}` unless given), on the session object (`resources`) and on
 * `/v1/sessions/{id}/resources[/{resource_id}]` (list, add, retrieve, update, delete). GitHub repositories and memory
 * stores are refused with a 400 that says so (mockllm has no repository to clone and no memory stores).
 */
import { readJsonBody } from "../../../../http/body";
import { apiError, type ApiError } from "../../../../http/errors";
import { isRecord, jsonResponse } from "../../../../http/json";
import { sortableId } from "../../../../objects/ids";
import type { Runtime } from "../../../../runtime/types";
import type { SideRouteContext } from "../../../types";
import { anthropicFiles, fileNotFound } from "../../file-refs";
import { invalid, isApiError, timestamp, type StoredSession } from "./objects";
import { cursorPage } from "../../pages";
import { agentsHome, SESSION_KIND, saveOne } from "./store";

type Json = Record<string, unknown>;

/** Most resources one session mounts. */
const MAX_RESOURCES = 100;

const resourceNotFound = (id: string): ApiError => apiError("not_found", `Session resource not found: ${id}`);

/** One resource of a create's `resources` (or an add's body), checked: the resource as the session shows it. */
export async function resourceOf(v: unknown, at: string, rt: Runtime, taken: readonly Json[]): Promise<Json | ApiError> {
  if (!isRecord(v)) return invalid(`${at}: Input should be a valid dictionary`);
  if (v.type === "github_repository" || v.type === "memory_store") return invalid(`${at}.type: mockllm does not mount '${v.type}' resources yet; mount files (type 'file').`);
  if (v.type !== "file") return invalid(`${at}: Input tag '${String(v.type)}' found using 'type' does not match any of the expected tags: 'file', 'github_repository', 'memory_store'`);
  if (typeof v.file_id !== "string" || v.file_id === "") return invalid(`${at}.file_id: Field required`);
  if (rt.objects === undefined || (await anthropicFiles(rt.objects).get(v.file_id)) === null) return fileNotFound(v.file_id);
  const mount = v.mount_path === undefined || v.mount_path === null ? `/mnt/session/uploads/${v.file_id}` : v.mount_path;
  if (typeof mount !== "string" || !mount.startsWith("/")) return invalid(`${at}.mount_path: must be an absolute path`);
  const clash = taken.find((r) => r.mount_path === mount);
  if (clash !== undefined) return invalid(`${at}.mount_path: '${mount}' is already the mount path of ${String(clash.id)}`);
  if (taken.length >= MAX_RESOURCES) return invalid(`${at}: a session mounts at most ${MAX_RESOURCES} resources`);
  const now = timestamp();
  return { id: sortableId("sesrsc_011C", 12), type: "file", file_id: v.file_id, mount_path: mount, created_at: now, updated_at: now };
}

/** A create's `resources`, all or none. */
export async function resourcesOf(v: unknown, rt: Runtime): Promise<Json[] | ApiError> {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) return invalid("resources: Input should be a valid list");
  const out: Json[] = [];
  for (const [i, r] of v.entries()) {
    const got = await resourceOf(r, `resources.${i}`, rt, out);
    if (isApiError(got)) return got;
    out.push(got);
  }
  return out;
}

/** Serves `/v1/sessions/{id}/resources[/{resource_id}]` for a session that exists. */
export async function serveResources(request: Request, path: string, session: StoredSession, resourceId: string | undefined, ctx: SideRouteContext): Promise<Response> {
  const method = request.method;
  const save = () => {
    session.updated_at = timestamp();
    return saveOne(agentsHome(ctx.rt), SESSION_KIND, session);
  };
  if (resourceId === undefined) {
    if (method === "GET") {
      const got = cursorPage(session.resources as { id: string }[], new URL(request.url).searchParams, { defaultLimit: 20, max: 100 });
      return isApiError(got) ? ctx.refuse(got) : jsonResponse({ data: got.data, next_page: got.next_page });
    }
    if (method !== "POST") return ctx.refuse(apiError("method_not_allowed", `Use GET or POST for ${path}.`));
    const body = await readJsonBody(request);
    if (!body.ok) return ctx.refuse(body.error);
    if (session.archived_at !== null) return ctx.refuse(invalid(`Session ${session.id} is archived and cannot be modified.`));
    const added = await resourceOf(body.value, "body", ctx.rt, session.resources);
    if (isApiError(added)) return ctx.refuse({ ...added, message: added.message.replace(/^body\./, "") });
    session.resources.push(added);
    await save();
    return jsonResponse(added);
  }
  const resource = session.resources.find((r) => r.id === resourceId);
  if (resource === undefined) return ctx.refuse(resourceNotFound(resourceId));
  if (method === "GET") return jsonResponse(resource);
  if (method === "DELETE") {
    session.resources = session.resources.filter((r) => r !== resource);
    await save();
    return jsonResponse({ id: resourceId, type: "session_resource_deleted" });
  }
  if (method !== "POST") return ctx.refuse(apiError("method_not_allowed", `Use GET, POST or DELETE for ${path}.`));
  const body = await readJsonBody(request);
  if (!body.ok) return ctx.refuse(body.error);
  // Only a GitHub repository's authorization token can be rotated; a file has nothing to update.
  return ctx.refuse(invalid(`authorization_token: only github_repository resources can be updated; ${resourceId} is a file.`));
}
