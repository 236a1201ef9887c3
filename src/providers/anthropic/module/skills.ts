/**
 * Anthropic's Skills API (beta; `client.beta.skills`): `POST /v1/skills` (multipart `files[]`, `display_name` or the
 * older `display_title`), `GET /v1/skills` (`limit`, `page`, `source`), `GET`/`DELETE /v1/skills/{id}`,
 * `POST`/`GET …/versions`, `GET`/`DELETE …/versions/{version}` and `GET …/versions/{version}/content` (the zip).
 * Told apart from OpenAI's `/v1/skills` by Anthropic's headers. The files are a skill as the API wants it: one
 * top-level folder named as SKILL.md's `name`, SKILL.md directly in it (or one zip of that); every later version keeps
 * the name. A skill with versions left is not deleted (the API's 400: delete its versions first).
 *
 * Two dialects, as the API answers them: a request carrying the original beta header (`skills-2025-10-02`) gets the
 * first shape — `display_title`, `latest_version`, versions addressed and deleted by their epoch-microsecond
 * `version` — and every other request the current one (`display_name`, `latest_version_id`, versions by `id`). Either
 * form of a version is accepted in a path. Kept in the caller's namespace under `anthropic/` (the OpenAI skill store,
 * ../../openai/module/skills/store.ts), the bundles counted against `fileBytes`.
 */
import { apiError, type ApiError } from "../../../http/errors";
import { jsonResponse } from "../../../http/json";
import { formBoundary, formStrings, readFormFiles } from "../../../http/multipart";
import { safeDecode } from "../../../http/url";
import { Response } from "../../../http/web";
import { creationStamp, sortableId } from "../../../objects/ids";
import { scopedObjects, type ObjectStore } from "../../../objects/store";
import { checkFileQuotas } from "../../../tenancy/file-quota";
import { echoed } from "../../../util/text";
import type { SideRouteContext } from "../../types";
import { skillBundle, type SkillBundle } from "../../openai/module/skills/bundle";
import { MAX_SKILL_VERSIONS, MAX_SKILLS, SkillStore, type SkillRecord, type SkillVersionRecord } from "../../openai/module/skills/store";
import { checkAnthropicHeaders } from "../errors";
import { cursorPage } from "../pages";

/** What mockllm reads of one upload (the API's 30 MB bound on a skill's files, with the form around them). */
const MOCK_UPLOAD_BYTES = 32 * 1024 * 1024;
/** `display_name`'s bound. */
const MAX_TITLE = 255;
/** The original beta, whose requests get the first shape of the objects. */
const FIRST_BETA = "skills-2025-10-02";

const ROUTE = /^\/v1\/skills(?:\/([^/]+)(?:\/versions(?:\/([^/]+)(\/content)?)?)?)?\/?$/;

/** ISO 8601 with microseconds, as the API writes its times. */
function isoMicros(micros: number): string {
  return `${new Date(Math.floor(micros / 1000)).toISOString().slice(0, 19)}.${String(micros % 1_000_000).padStart(6, "0")}Z`;
}

/** A new version's identifier: Unix epoch microseconds, increasing within an isolate. */
function epochMicros(): number {
  return creationStamp() * 1000 + Math.floor(Math.random() * 1000);
}

/** Whether an `anthropic-beta` header's value names the first skills beta (whose requests get its shape). */
export function firstBeta(header: string | null | undefined): boolean {
  return (header ?? "").split(",").some((b) => b.trim() === FIRST_BETA);
}

const firstShape = (request: Request): boolean => firstBeta(request.headers.get("anthropic-beta"));

/** The caller's Anthropic skills (below `anthropic/` in its namespace's store, apart from OpenAI's). */
export function anthropicSkills(objects: ObjectStore): SkillStore {
  return new SkillStore(scopedObjects(objects, "anthropic/"));
}

function skillObject(r: SkillRecord, first: boolean, latest: SkillVersionRecord | null): Record<string, unknown> {
  const created = r.createdMicros ?? r.stamp * 1000;
  const times = { created_at: isoMicros(created), updated_at: isoMicros(r.updatedMicros ?? created) };
  const title = r.title ?? r.name;
  return first
    ? { id: r.id, type: "skill", ...times, display_title: title, latest_version: latest?.version ?? null, source: "custom" }
    : { id: r.id, type: "skill", ...times, display_name: title, latest_version_id: latest?.id ?? null, source: "custom" };
}

function versionObject(v: SkillVersionRecord, first: boolean): Record<string, unknown> {
  const common = { id: v.id, type: "skill_version", created_at: isoMicros(Number(v.version)), description: v.description, name: v.name, skill_id: v.skillId };
  return first ? { ...common, directory: v.name, version: v.version } : common;
}

export const skillNotFound = (id: string): ApiError => apiError("not_found", `Skill not found: ${echoed(id)}`);
export const versionNotFound = (v: string): ApiError => apiError("not_found", `Skill version not found: ${echoed(v)}`);
const invalid = (message: string): ApiError => apiError("invalid_request", message);

/** The Agent Skills rules the API holds a SKILL.md's `name` and `description` to, beyond their lengths. */
function frontMatterError(name: string, description: string): string | undefined {
  if (!/^[a-z0-9-]+$/.test(name)) return `field 'name' in SKILL.md must contain only lowercase letters, numbers and hyphens, got '${name}'`;
  if (/anthropic|claude/.test(name)) return "field 'name' in SKILL.md cannot contain the reserved words 'anthropic' or 'claude'";
  if (/<[^>]*>/.test(description)) return "field 'description' in SKILL.md cannot contain XML tags";
  return undefined;
}

/** The skill the request's files make, with the form's other fields, or the 400 saying why they make none. */
async function uploaded(request: Request, rt: SideRouteContext["rt"]): Promise<{ bundle: SkillBundle; form: Record<string, unknown> } | ApiError> {
  const boundary = formBoundary(request.headers.get("content-type"));
  if (boundary === undefined) return invalid("Invalid Content-Type header, expected multipart/form-data.");
  const read = await readFormFiles(request, boundary, MOCK_UPLOAD_BYTES, ["files[]", "files"]);
  if (!read.ok && read.tooLarge) return apiError("payload_too_large", `mockllm: skill uploads above ${MOCK_UPLOAD_BYTES / 1024 / 1024} MiB are refused.`);
  if (!read.ok) return read.error;
  if (read.files.length === 0) return invalid("files: Field required");
  const bundle = await skillBundle(read.files);
  if (typeof bundle === "string") return invalid(`${bundle[0]!.toUpperCase()}${bundle.slice(1)}.`);
  if (bundle.directory === "") return invalid("SKILL.md file must be exactly in the top-level folder.");
  if (bundle.directory.includes("/")) return invalid(`SKILL.md file must be in the top-level folder, not nested deeper. Currently at ${bundle.directory}/SKILL.md`);
  if (bundle.directory !== bundle.name) return invalid(`The folder name '${bundle.directory}' must match the skill name '${bundle.name}' in SKILL.md.`);
  const rule = frontMatterError(bundle.name, bundle.description);
  if (rule !== undefined) return invalid(`${rule}.`);
  await checkFileQuotas(rt, bundle.zip.length, 0);
  return { bundle, form: read.form };
}

function newVersion(skillId: string, bundle: SkillBundle): SkillVersionRecord {
  const micros = epochMicros();
  return {
    id: sortableId("skillver_01", 16),
    skillId,
    version: String(micros),
    createdAt: Math.floor(micros / 1_000_000),
    stamp: Math.floor(micros / 1000),
    name: bundle.name,
    description: bundle.description,
    bytes: bundle.zip.length,
  };
}

/** A version named in a path: by its id or (as the first beta addresses it) its epoch `version`. */
export async function versionOf(store: SkillStore, skillId: string, ref: string): Promise<SkillVersionRecord | null> {
  if (/^\d+$/.test(ref)) return store.version(skillId, ref);
  return (await store.versions(skillId)).find((v) => v.id === ref) ?? null;
}

function methodNotAllowed(ctx: SideRouteContext, methods: string, path: string): Response {
  return ctx.refuse({ code: "method_not_allowed", message: `Use ${methods} for ${path}.` });
}

async function createSkill(request: Request, store: SkillStore, ctx: SideRouteContext): Promise<Response> {
  const got = await uploaded(request, ctx.rt);
  if ("code" in got) return ctx.refuse(got);
  const title = formStrings(got.form, "display_name")[0] ?? formStrings(got.form, "display_title")[0];
  if (title !== undefined && (title.length > MAX_TITLE || /[\r\n]/.test(title))) {
    return ctx.refuse(invalid(`display_name: must be a single line of at most ${MAX_TITLE} characters`));
  }
  if ((await store.all()).length >= MAX_SKILLS) return ctx.refuse(invalid(`mockllm keeps at most ${MAX_SKILLS} skills a namespace: delete one first.`));
  const id = sortableId("skill_01", 16);
  const v = newVersion(id, got.bundle);
  const r: SkillRecord = {
    id,
    createdAt: v.createdAt,
    stamp: v.stamp,
    name: v.name,
    description: v.description,
    defaultVersion: v.version,
    latestVersion: v.version,
    versionsMade: 1,
    createdMicros: Number(v.version),
    ...(title !== undefined && title !== "" ? { title } : {}),
  };
  await store.putVersion(v, got.bundle.zip);
  await store.put(r);
  return jsonResponse(skillObject(r, firstShape(request), v));
}

async function createVersion(request: Request, skill: SkillRecord, store: SkillStore, ctx: SideRouteContext): Promise<Response> {
  const got = await uploaded(request, ctx.rt);
  if ("code" in got) return ctx.refuse(got);
  if (got.bundle.name !== skill.name) return ctx.refuse(invalid(`The skill name '${got.bundle.name}' in SKILL.md must match the skill's name '${skill.name}'.`));
  if ((await store.versions(skill.id)).length >= MAX_SKILL_VERSIONS) return ctx.refuse(invalid(`mockllm keeps at most ${MAX_SKILL_VERSIONS} versions of a skill: delete one first.`));
  const v = newVersion(skill.id, got.bundle);
  await store.putVersion(v, got.bundle.zip);
  await store.put({ ...skill, latestVersion: v.version, defaultVersion: v.version, description: v.description, versionsMade: skill.versionsMade + 1, updatedMicros: Number(v.version) });
  return jsonResponse(versionObject(v, firstShape(request)));
}

async function deleteVersion(request: Request, ref: string, skill: SkillRecord, v: SkillVersionRecord, store: SkillStore): Promise<Response> {
  await store.deleteVersion(skill.id, v.version);
  const latest = (await store.versions(skill.id)).at(-1);
  await store.put({ ...skill, latestVersion: latest?.version ?? "", defaultVersion: latest?.version ?? "", updatedMicros: epochMicros() });
  // The answer names the version as the request did (the first beta's epoch `version`, else the id).
  return jsonResponse({ id: firstShape(request) || /^\d+$/.test(ref) ? v.version : v.id, type: "skill_version_deleted" });
}

async function latestOf(store: SkillStore, r: SkillRecord): Promise<SkillVersionRecord | null> {
  return r.latestVersion === "" ? null : store.version(r.id, r.latestVersion);
}

/**
 * Serves an Anthropic skills route, or undefined when the request is not one (another path, or OpenAI's client).
 * @example await serveAnthropicSkills(request, "/v1/skills", ctx)
 */
export async function serveAnthropicSkills(request: Request, path: string, ctx: SideRouteContext): Promise<Response | undefined> {
  const m = ROUTE.exec(path);
  if (m === null || !(request.headers.has("anthropic-version") || request.headers.has("x-api-key"))) return undefined;
  const headerError = checkAnthropicHeaders(request.headers);
  if (headerError) return ctx.refuse(headerError);
  if (ctx.rt.objects === undefined) return ctx.refuse(apiError("not_found", "mockllm: this runtime keeps no files."));
  const store = anthropicSkills(ctx.rt.objects);
  const first = firstShape(request);
  const [, rawId, rawVersion, content] = m;
  const method = request.method;
  if (rawId === undefined) {
    if (method === "POST") return createSkill(request, store, ctx);
    if (method !== "GET") return methodNotAllowed(ctx, "GET or POST", path);
    const query = new URL(request.url).searchParams;
    const source = query.get("source");
    // Newest first; mockllm holds no Anthropic-made skills, so `source=anthropic` lists none.
    const all = source === null || source === "" || source === "custom" ? (await store.all()).reverse() : [];
    const got = cursorPage(all, query, { defaultLimit: 20, max: 100 });
    if ("code" in got) return ctx.refuse(got);
    const data = await Promise.all(got.data.map(async (r) => skillObject(r, first, await latestOf(store, r))));
    return jsonResponse({ data, has_more: got.next_page !== null, next_page: got.next_page });
  }
  const id = safeDecode(rawId);
  const skill = await store.get(id);
  if (skill === null) return ctx.refuse(skillNotFound(id));
  if (path.endsWith("/versions") || path.endsWith("/versions/")) {
    if (method === "POST") return createVersion(request, skill, store, ctx);
    if (method !== "GET") return methodNotAllowed(ctx, "GET or POST", path);
    const got = cursorPage((await store.versions(id)).reverse(), new URL(request.url).searchParams, { defaultLimit: 20, max: 1000 });
    if ("code" in got) return ctx.refuse(got);
    return jsonResponse({ data: got.data.map((v) => versionObject(v, first)), has_more: got.next_page !== null, next_page: got.next_page });
  }
  if (rawVersion === undefined) {
    if (method === "GET") return jsonResponse(skillObject(skill, first, await latestOf(store, skill)));
    if (method !== "DELETE") return methodNotAllowed(ctx, "GET or DELETE", path);
    if ((await store.versions(id)).length > 0) return ctx.refuse(invalid(`Cannot delete skill ${echoed(id)}: it has versions. Delete all of its versions first.`));
    await store.delete(id);
    return jsonResponse({ id, type: "skill_deleted" });
  }
  const ref = safeDecode(rawVersion);
  const v = await versionOf(store, id, ref);
  if (content !== undefined) {
    if (method !== "GET") return methodNotAllowed(ctx, "GET", path);
    const bundle = v === null ? null : await store.bundle(id, v.version);
    if (bundle === null) return ctx.refuse(versionNotFound(ref));
    return new Response(bundle.body, {
      status: 200,
      headers: { "content-type": "application/zip", "content-length": String(bundle.record.bytes), "content-disposition": `attachment; filename="${bundle.record.name}.zip"` },
    });
  }
  if (v === null) return ctx.refuse(versionNotFound(ref));
  if (method === "GET") return jsonResponse(versionObject(v, first));
  if (method === "DELETE") return deleteVersion(request, ref, skill, v, store);
  return methodNotAllowed(ctx, "GET or DELETE", path);
}
