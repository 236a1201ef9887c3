/**
 * OpenAI skills (`client.skills`): `/v1/skills` (create from a directory's files or a zip; list with cursors),
 * `/v1/skills/{id}` (retrieve; update `default_version`; delete), `…/content` (the default version's zip),
 * `…/versions` (create, with `default` to make it the default; list), `…/versions/{v}` (retrieve; delete) and
 * `…/versions/{v}/content`. A skill is its files with a `SKILL.md` whose front matter names it (bundle.ts); kept in the
 * caller's namespace (store.ts), its bundles counted against `fileBytes`.
 */
import { apiError, type ApiError } from "../../../../http/errors";
import { formBoundary, formStrings, readFormFiles } from "../../../../http/multipart";
import { safeDecode } from "../../../../http/url";
import { Response } from "../../../../http/web";
import { creationStamp, timeHex } from "../../../../objects/ids";
import { checkFileQuotas } from "../../../../tenancy/file-quota";
import { echoed } from "../../../../util/text";
import type { SideRouteContext } from "../../../types";
import { byMethod, invalid, nowSeconds, objectBody, objectRoute, page, pageQuery, type PlatformAnswer } from "../../platform";
import { invalidType, missingParameter } from "../../request-error";
import { MOCK_UPLOAD_BYTES } from "../batches/files";
import { skillBundle, type SkillBundle } from "./bundle";
import { MAX_SKILL_VERSIONS, MAX_SKILLS, SkillStore, type SkillRecord, type SkillVersionRecord } from "./store";

export function skillObject(r: SkillRecord): Record<string, unknown> {
  return { id: r.id, object: "skill", created_at: r.createdAt, name: r.name, description: r.description, default_version: r.defaultVersion, latest_version: r.latestVersion };
}

export function skillVersionObject(v: SkillVersionRecord): Record<string, unknown> {
  return { id: v.id, object: "skill.version", skill_id: v.skillId, version: v.version, created_at: v.createdAt, name: v.name, description: v.description };
}

export function noSuchSkill(id: string): ApiError {
  return apiError("not_found", `No such Skill: ${echoed(id)}`, { param: "skill_id" });
}

export function noSuchVersion(skillId: string, version: string): ApiError {
  return apiError("not_found", `No such Skill Version: ${echoed(version)} (skill ${echoed(skillId)})`, { param: "version" });
}

/** The skill the request's uploaded files make (`files`, `files[]`), with the form's other fields, or the refusal. */
async function uploaded(request: Request, rt: SideRouteContext["rt"]): Promise<{ bundle: SkillBundle; form: Record<string, unknown> } | ApiError> {
  const boundary = formBoundary(request.headers.get("content-type"));
  if (boundary === undefined) return invalid("Skill files must be sent as multipart/form-data in 'files' (a directory's files, or one .zip).", "files");
  const read = await readFormFiles(request, boundary, MOCK_UPLOAD_BYTES, ["files", "files[]"]);
  if (!read.ok && read.tooLarge) return apiError("payload_too_large", `mockllm: uploads above ${MOCK_UPLOAD_BYTES / 1024 / 1024} MiB are refused.`, { param: "files" });
  if (!read.ok) return read.error;
  if (read.files.length === 0) return missingParameter("files");
  const bundle = await skillBundle(read.files);
  if (typeof bundle === "string") return invalid(`Invalid skill: ${bundle}.`, "files");
  await checkFileQuotas(rt, bundle.zip.length, 0);
  return { bundle, form: read.form };
}

function versionRecord(skillId: string, version: string, bundle: SkillBundle): SkillVersionRecord {
  return {
    id: timeHex("skillver_", 48),
    skillId,
    version,
    createdAt: nowSeconds(),
    stamp: creationStamp(),
    name: bundle.name,
    description: bundle.description,
    bytes: bundle.zip.length,
  };
}

async function create(request: Request, store: SkillStore, a: PlatformAnswer, ctx: SideRouteContext): Promise<Response> {
  const got = await uploaded(request, ctx.rt);
  if ("code" in got) return a.fail(got);
  const all = await store.all();
  if (all.length >= MAX_SKILLS) return a.fail(invalid(`mockllm keeps at most ${MAX_SKILLS} skills a namespace: delete one first.`));
  const id = timeHex("skill_", 48);
  const v = versionRecord(id, "1", got.bundle);
  const r: SkillRecord = { id, createdAt: v.createdAt, stamp: v.stamp, name: v.name, description: v.description, defaultVersion: "1", latestVersion: "1", versionsMade: 1 };
  await store.putVersion(v, got.bundle.zip);
  await store.put(r);
  return a.json(skillObject(r));
}

async function update(request: Request, skill: SkillRecord, store: SkillStore, a: PlatformAnswer): Promise<Response> {
  const body = await objectBody(request);
  if (!body.ok) return a.fail(body.error);
  const wanted = body.value.default_version;
  if (wanted === undefined || wanted === null) return a.fail(missingParameter("default_version"));
  if (typeof wanted !== "string") return a.fail(invalidType("default_version", "a string", wanted));
  const v = await store.version(skill.id, wanted);
  if (v === null) return a.fail(noSuchVersion(skill.id, wanted));
  const next: SkillRecord = { ...skill, defaultVersion: v.version, name: v.name, description: v.description };
  await store.put(next);
  return a.json(skillObject(next));
}

async function createVersion(request: Request, skill: SkillRecord, store: SkillStore, a: PlatformAnswer, ctx: SideRouteContext): Promise<Response> {
  const got = await uploaded(request, ctx.rt);
  if ("code" in got) return a.fail(got);
  const flag = formStrings(got.form, "default")[0];
  if (flag !== undefined && flag !== "true" && flag !== "false") return a.fail(invalidType("default", "a boolean", flag));
  if ((await store.versions(skill.id)).length >= MAX_SKILL_VERSIONS) {
    return a.fail(invalid(`mockllm keeps at most ${MAX_SKILL_VERSIONS} versions of a skill: delete one first.`, "skill_id"));
  }
  const number = String(skill.versionsMade + 1);
  const v = versionRecord(skill.id, number, got.bundle);
  await store.putVersion(v, got.bundle.zip);
  const makeDefault = flag === "true";
  await store.put({
    ...skill,
    versionsMade: skill.versionsMade + 1,
    latestVersion: number,
    ...(makeDefault ? { defaultVersion: number, name: v.name, description: v.description } : {}),
  });
  return a.json(skillVersionObject(v));
}

function zipAnswer(body: ReadableStream<Uint8Array>, bytes: number, name: string): Response {
  return new Response(body, {
    status: 200,
    headers: { "content-type": "application/zip", "content-length": String(bytes), "content-disposition": `attachment; filename="${name.replace(/["\\\r\n]/g, "_")}.zip"` },
  });
}

async function content(skillId: string, version: string, store: SkillStore, a: PlatformAnswer): Promise<Response> {
  const bundle = await store.bundle(skillId, version);
  if (bundle === null) return a.fail(noSuchVersion(skillId, version));
  return zipAnswer(bundle.body, bundle.record.bytes, bundle.record.name);
}

async function deleteVersion(skill: SkillRecord, v: SkillVersionRecord, store: SkillStore, a: PlatformAnswer): Promise<Response> {
  if (v.version === skill.defaultVersion) {
    return a.fail(invalid(`Cannot delete version ${echoed(v.version)}: it is the skill's default_version. Make another version the default first, or delete the skill.`, "version"));
  }
  await store.deleteVersion(skill.id, v.version);
  const left = await store.versions(skill.id);
  await store.put({ ...skill, latestVersion: left.at(-1)?.version ?? skill.defaultVersion });
  return a.json({ id: v.id, object: "skill.version.deleted", deleted: true, version: v.version });
}

/** `/v1/skills[/{id}[/content | /versions[/{v}[/content]]]]`. */
export const openaiSkills = objectRoute(
  /^\/(?:v1\/)?skills(?:\/([^/]+)(?:\/(content)|\/(versions)(?:\/([^/]+)(?:\/(content))?)?)?)?\/?$/,
  async ([, rawId, skillContent, versions, rawVersion, versionContent], request, path, a, ctx) => {
    if (ctx.rt.objects === undefined) return a.fail(apiError("not_found", "mockllm: this runtime keeps no files."));
    const store = new SkillStore(ctx.rt.objects);
    if (rawId === undefined) {
      return byMethod(request, path, a, {
        GET() {
          const q = pageQuery(new URL(request.url).searchParams, "desc");
          if (!q.ok) return a.fail(q.error);
          return store.all().then((all) => a.json(page(all.map(skillObject) as { id: string }[], q.page)));
        },
        POST: () => create(request, store, a, ctx),
      });
    }
    const id = safeDecode(rawId);
    const skill = await store.get(id);
    if (skill === null) return a.fail(noSuchSkill(id));
    if (skillContent !== undefined) return byMethod(request, path, a, { GET: () => content(id, skill.defaultVersion, store, a) });
    if (versions === undefined) {
      return byMethod(request, path, a, {
        GET: () => a.json(skillObject(skill)),
        POST: () => update(request, skill, store, a),
        async DELETE() {
          await store.delete(id);
          return a.json({ id, object: "skill.deleted", deleted: true });
        },
      });
    }
    if (rawVersion === undefined) {
      return byMethod(request, path, a, {
        async GET() {
          const q = pageQuery(new URL(request.url).searchParams, "desc");
          if (!q.ok) return a.fail(q.error);
          // The cursor is a version's id; the list is oldest first before `page` orders it.
          return a.json(page((await store.versions(id)).map(skillVersionObject) as { id: string }[], q.page));
        },
        POST: () => createVersion(request, skill, store, a, ctx),
      });
    }
    const version = safeDecode(rawVersion);
    if (versionContent !== undefined) return byMethod(request, path, a, { GET: () => content(id, version, store, a) });
    const v = await store.version(id, version);
    return byMethod(request, path, a, {
      GET: () => (v === null ? a.fail(noSuchVersion(id, version)) : a.json(skillVersionObject(v))),
      DELETE: () => (v === null ? a.fail(noSuchVersion(id, version)) : deleteVersion(skill, v, store, a)),
    });
  },
);
