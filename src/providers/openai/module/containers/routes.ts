/**
 * OpenAI containers (Code Interpreter's sandboxes): `/v1/containers` (create with `name`, `expires_after`, `file_ids`,
 * `memory_limit`, `network_policy`; list with `name`, `after`, `limit`, `order`; retrieve; delete) and
 * `/v1/containers/{id}/files` (create from a multipart `file` or a JSON `file_id`; list; retrieve; delete;
 * `…/{file}/content`, the bytes). Files the model's code wrote (`respond.serverTools` `code_execution` `files`, see
 * code-interpreter.ts) are kept here too, `source: "assistant"`, so a client follows a `container_file_citation` to its
 * bytes. Kept in the caller's namespace (store.ts).
 */
import { apiError, type ApiError } from "../../../../http/errors";
import { formBoundary, readFormPart } from "../../../../http/multipart";
import { safeDecode } from "../../../../http/url";
import { Response } from "../../../../http/web";
import { creationStamp, randomHex, timeHex } from "../../../../objects/ids";
import { echoed } from "../../../../util/text";
import { byMethod, invalid, nowSeconds, objectBody, objectRoute, page, pageQuery, type PlatformAnswer } from "../../platform";
import { invalidType, missingParameter, numberBoundError, unsupportedValue } from "../../request-error";
import type { SideRouteContext } from "../../../types";
import { checkFileQuotas } from "../../../../tenancy/file-quota";
import { filesOf, MOCK_UPLOAD_BYTES, noSuchFile } from "../batches/files";
import { containerExpired, ContainerStore, newContainerFileId, type ContainerFileRecord, type ContainerRecord } from "./store";
import { noSuchSkill, noSuchVersion } from "../skills/routes";
import { SkillStore } from "../skills/store";

/** The memory limits the API takes; `1g` unless asked. */
export const MEMORY_LIMITS = ["1g", "4g", "16g", "64g"] as const;
/** Minutes of inactivity before a container expires, unless `expires_after` says otherwise. */
export const DEFAULT_MINUTES = 20;
/** Most file ids one create may copy in. */
const MAX_FILE_IDS = 100;

export function containerObject(r: ContainerRecord, now = nowSeconds()): Record<string, unknown> {
  return {
    id: r.id,
    object: "container",
    created_at: r.createdAt,
    status: containerExpired(r, now) ? "expired" : "running",
    expires_after: { anchor: "last_active_at", minutes: r.minutes },
    last_active_at: r.lastActiveAt,
    ...(r.networkPolicy !== undefined ? { network_policy: r.networkPolicy } : {}),
    memory_limit: r.memoryLimit,
    name: r.name,
  };
}

export function containerFileObject(f: ContainerFileRecord): Record<string, unknown> {
  return { id: f.id, object: "container.file", created_at: f.createdAt, bytes: f.bytes, container_id: f.containerId, path: f.path, source: f.source };
}

export function noSuchContainer(id: string): ApiError {
  return apiError("not_found", `No such Container: ${echoed(id)}`, { param: "container_id" });
}

/** The refusal of a container past its expiry, for anything but reading it or deleting it. */
export function expiredContainer(id: string): ApiError {
  return invalid(`Container ${echoed(id)} is expired: it was not used for longer than its expires_after.minutes.`, "container_id");
}

/** Where a file copied or uploaded into a container lands: `/mnt/data/`, 32 hex and its name (as the real paths look). */
function userPath(filename: string): string {
  return `/mnt/data/${randomHex(32)}-${filename}`;
}

/**
 * Copies Files API files into a container (`file_ids` of a create, of a Code Interpreter `auto` container, or a file
 * create's `file_id`): the refusal of the first id the namespace does not hold, else the records written.
 */
export async function copyFiles(rt: SideRouteContext["rt"], store: ContainerStore, containerId: string, fileIds: string[]): Promise<ContainerFileRecord[] | ApiError> {
  const files = filesOf(rt.objects);
  if (files === undefined) return apiError("not_found", "mockllm: this runtime keeps no files.");
  const out: ContainerFileRecord[] = [];
  const found = [];
  for (const id of fileIds) {
    const r = await files.get(id);
    if (r === null) return noSuchFile(id, "file_ids");
    found.push(r);
  }
  // Every id found and the quota checked before a byte is written: a refusal leaves nothing behind.
  await checkFileQuotas(
    rt,
    found.reduce((n, r) => n + r.bytes, 0),
    0,
  );
  for (const { id } of found) {
    const opened = await files.open(id);
    if (opened === null) return noSuchFile(id, "file_ids");
    const bytes = new Uint8Array(await new Response(opened.body).arrayBuffer());
    const r: ContainerFileRecord = {
      id: newContainerFileId(),
      containerId,
      createdAt: nowSeconds(),
      stamp: creationStamp(),
      bytes: bytes.length,
      path: userPath(opened.record.filename),
      source: "user",
    };
    await store.putFile(r, bytes);
    out.push(r);
  }
  return out;
}

/** `file_ids` of a body: an array of at most 100 strings, or the refusal. */
export function fileIdsOf(value: unknown, param: string): string[] | ApiError {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((v) => typeof v === "string")) return invalidType(param, "an array of strings", value);
  if (value.length > MAX_FILE_IDS)
    return invalid(`Invalid '${param}': array too long. Expected an array with maximum length ${MAX_FILE_IDS}, but got an array with length ${value.length} instead.`, param);
  return value as string[];
}

async function create(request: Request, store: ContainerStore, a: PlatformAnswer, ctx: SideRouteContext): Promise<Response> {
  const body = await objectBody(request);
  if (!body.ok) return a.fail(body.error);
  const b = body.value;
  if (b.name === undefined || b.name === null) return a.fail(missingParameter("name"));
  if (typeof b.name !== "string") return a.fail(invalidType("name", "a string", b.name));
  let minutes = DEFAULT_MINUTES;
  if (b.expires_after !== undefined && b.expires_after !== null) {
    const e = b.expires_after as Record<string, unknown>;
    if (typeof e !== "object" || Array.isArray(e)) return a.fail(invalidType("expires_after", "an object", e));
    if (e.anchor !== "last_active_at") return a.fail(unsupportedValue(e.anchor, ["last_active_at"], "expires_after.anchor"));
    if (!Number.isInteger(e.minutes)) return a.fail(e.minutes === undefined ? missingParameter("expires_after.minutes") : invalidType("expires_after.minutes", "an integer", e.minutes));
    const bad = numberBoundError("expires_after.minutes", e.minutes as number, { min: 1 }, "integer");
    if (bad) return a.fail(bad);
    minutes = e.minutes as number;
  }
  const memory = b.memory_limit ?? "1g";
  if (!(MEMORY_LIMITS as readonly unknown[]).includes(memory)) return a.fail(unsupportedValue(memory, MEMORY_LIMITS, "memory_limit"));
  const policy = b.network_policy;
  if (policy !== undefined && policy !== null) {
    const type = typeof policy === "object" && !Array.isArray(policy) ? (policy as Record<string, unknown>).type : undefined;
    if (type !== "disabled" && type !== "allowlist") return a.fail(unsupportedValue(type, ["disabled", "allowlist"], "network_policy.type"));
  }
  const fileIds = fileIdsOf(b.file_ids, "file_ids");
  if (!Array.isArray(fileIds)) return a.fail(fileIds);
  const skills = await missingSkill(b.skills, ctx);
  if (skills) return a.fail(skills);
  const now = nowSeconds();
  const record: ContainerRecord = {
    id: timeHex("cntr_", 48),
    createdAt: now,
    stamp: creationStamp(),
    lastActiveAt: now,
    minutes,
    name: b.name,
    memoryLimit: memory as string,
    ...(policy !== undefined && policy !== null ? { networkPolicy: policy } : {}),
  };
  // The files first: a refused one (unknown, past the quota) leaves no container behind.
  const copied = await copyFiles(ctx.rt, store, record.id, fileIds);
  if (!Array.isArray(copied)) return a.fail(copied);
  await store.create(record);
  return a.json(containerObject(record));
}

/**
 * The refusal of a create's `skills` naming a skill (or a version of it) the namespace does not hold: a
 * `skill_reference` is checked against `/v1/skills`; an inline skill carries its own files. Not kept: the container
 * shows no skills.
 */
async function missingSkill(skills: unknown, ctx: SideRouteContext): Promise<ApiError | undefined> {
  if (skills === undefined || skills === null) return undefined;
  if (!Array.isArray(skills)) return invalidType("skills", "an array of objects", skills);
  const store = new SkillStore(ctx.rt.objects!);
  for (const [i, ref] of skills.entries()) {
    if (typeof ref !== "object" || ref === null || (ref as { type?: unknown }).type !== "skill_reference") continue;
    const { skill_id: id, version } = ref as { skill_id?: unknown; version?: unknown };
    if (typeof id !== "string") return id === undefined ? missingParameter(`skills[${i}].skill_id`) : invalidType(`skills[${i}].skill_id`, "a string", id);
    const skill = await store.get(id);
    if (skill === null) return { ...noSuchSkill(id), param: `skills[${i}].skill_id` };
    if (typeof version === "string" && version !== "latest" && (await store.version(id, version)) === null) {
      return { ...noSuchVersion(id, version), param: `skills[${i}].version` };
    }
  }
  return undefined;
}

async function list(url: URL, store: ContainerStore, a: PlatformAnswer): Promise<Response> {
  const q = pageQuery(url.searchParams, "desc");
  if (!q.ok) return a.fail(q.error);
  const name = url.searchParams.get("name");
  const now = nowSeconds();
  const all = (await store.all()).filter((r) => name === null || r.name === name);
  return a.json(
    page(
      all.map((r) => containerObject(r, now) as { id: string }),
      q.page,
    ),
  );
}

async function addFile(request: Request, container: ContainerRecord, store: ContainerStore, a: PlatformAnswer, ctx: SideRouteContext): Promise<Response> {
  const boundary = formBoundary(request.headers.get("content-type"));
  if (boundary === undefined) {
    // A JSON body naming a file of the Files API.
    const body = await objectBody(request);
    if (!body.ok) return a.fail(body.error);
    const id = body.value.file_id;
    if (id === undefined || id === null) return a.fail(invalid("Either 'file' (a multipart upload) or 'file_id' is required.", "file_id"));
    if (typeof id !== "string") return a.fail(invalidType("file_id", "a string", id));
    const copied = await copyFiles(ctx.rt, store, container.id, [id]);
    if (!Array.isArray(copied)) return a.fail({ ...copied, param: "file_id" });
    await store.touch(container);
    return a.json(containerFileObject(copied[0]!));
  }
  const parsed = await readFormPart(request, boundary, MOCK_UPLOAD_BYTES, "file");
  if (!parsed.ok && parsed.tooLarge) return a.fail(apiError("payload_too_large", `mockllm: uploads above ${MOCK_UPLOAD_BYTES / 1024 / 1024} MiB are refused.`, { param: "file" }));
  if (!parsed.ok) return a.fail(parsed.error);
  const { value: file, bytes: content } = parsed;
  if (typeof file !== "object" || content === undefined) return a.fail(invalid("Either 'file' (a multipart upload) or 'file_id' is required.", "file"));
  await checkFileQuotas(ctx.rt, content.length, 0);
  const r: ContainerFileRecord = {
    id: newContainerFileId(),
    containerId: container.id,
    createdAt: nowSeconds(),
    stamp: creationStamp(),
    bytes: content.length,
    path: userPath(file.filename),
    source: "user",
  };
  await store.putFile(r, content);
  await store.touch(container);
  return a.json(containerFileObject(r));
}

async function serveFiles(
  request: Request,
  url: URL,
  path: string,
  container: ContainerRecord,
  fileId: string | undefined,
  content: boolean,
  store: ContainerStore,
  a: PlatformAnswer,
  ctx: SideRouteContext,
): Promise<Response> {
  if (fileId === undefined) {
    return byMethod(request, path, a, {
      GET: async () => {
        const q = pageQuery(url.searchParams, "desc");
        if (!q.ok) return a.fail(q.error);
        return a.json(page((await store.files(container.id)).map(containerFileObject) as { id: string }[], q.page));
      },
      POST: () => (containerExpired(container, nowSeconds()) ? a.fail(expiredContainer(container.id)) : addFile(request, container, store, a, ctx)),
    });
  }
  const f = await store.file(container.id, fileId);
  const missing = () => a.fail(apiError("not_found", `No such Container File: ${echoed(fileId)}`, { param: "file_id" }));
  if (content) {
    return byMethod(request, path, a, {
      async GET() {
        const bytes = f === null ? null : await store.fileBytes(container.id, fileId);
        if (f === null || bytes === null) return missing();
        return new Response(bytes, { status: 200, headers: { "content-type": "application/octet-stream", "content-length": String(f.bytes) } });
      },
    });
  }
  return byMethod(request, path, a, {
    GET: () => (f === null ? missing() : a.json(containerFileObject(f))),
    async DELETE() {
      if (f === null) return missing();
      await store.deleteFile(container.id, fileId);
      return a.json({ id: fileId, object: "container.file.deleted", deleted: true });
    },
  });
}

/** `/v1/containers`, `/v1/containers/{id}`, `/v1/containers/{id}/files`, `…/files/{file}`, `…/files/{file}/content`. */
export const openaiContainers = objectRoute(
  /^\/(?:v1\/)?containers(?:\/([^/]+)(?:\/(files)(?:\/([^/]+)(?:\/(content))?)?)?)?\/?$/,
  async ([, rawId, files, rawFile, content], request, path, a, ctx) => {
    if (ctx.rt.objects === undefined) return a.fail(apiError("not_found", "mockllm: this runtime keeps no files."));
    const store = new ContainerStore(ctx.rt.objects);
    const url = new URL(request.url);
    if (rawId === undefined) return byMethod(request, path, a, { GET: () => list(url, store, a), POST: () => create(request, store, a, ctx) });
    const id = safeDecode(rawId);
    const container = await store.get(id);
    if (container === null) return a.fail(noSuchContainer(id));
    if (files !== undefined) return serveFiles(request, url, path, container, rawFile === undefined ? undefined : safeDecode(rawFile), content !== undefined, store, a, ctx);
    return byMethod(request, path, a, {
      GET: () => a.json(containerObject(container)),
      async DELETE() {
        await store.delete(id);
        return a.json({ id, object: "container.deleted", deleted: true });
      },
    });
  },
);
