/**
 * The Agents API's hosted environments as objects (`client.beta.agents.environments`, `.environments.templates`): a
 * hosted configuration — capability directories, network policy, packages, desktop — given inline on a session, saved
 * as a reusable template, or made an environment sessions name by id. mockllm runs no sandbox: an environment is
 * `ready` at once, and a session's agent is played by the script whatever its environment. Files, plugins and skills
 * are refused (mockllm provisions none); `env` and `setup_commands` are the sandbox's secrets: accepted, never
 * answered back (the API's objects have neither).
 */
import type { z } from "zod";
import { apiError, type ApiError, isApiError } from "../../../../http/errors";
import type { Runtime } from "../../../../runtime/types";
import { echoed } from "../../../../util/text";
import { bodyOrError, byMethod, invalid, invalidUrl, listedPage, nowSeconds, type PlatformAnswer, parsedBody } from "../../platform";
import { hostedWire, newId } from "./objects";
import { filesOf, noSuchFile } from "../batches/files";
import { agentsHome, loadAll, loadOne, saveAll } from "./store";

type Json = Record<string, unknown>;

export const ENVIRONMENT_KIND = "environment";
export const TEMPLATE_KIND = "environment_template";

export type HostedFields = { [K in keyof ReturnType<typeof hostedWire>["fields"]]?: z.infer<ReturnType<typeof hostedWire>["fields"][K]> };

/** A hosted configuration resolved as the API answers it. */
export interface HostedConfig {
  capability_directories: string[];
  files: HostedFile[];
  network: { access: "enabled" | "disabled" | "restricted"; allowed_domains: string[] };
  packages: { npm: string[]; python: string[]; system: string[] };
  plugins: Json[];
  skills: Json[];
  desktop?: { enabled: boolean };
}

export interface EnvironmentTemplate extends HostedConfig {
  id: string;
  created_at: number;
  name: string | null;
  object: "agent.environment.template";
  updated_at: number;
}

/** An environment as kept: the API's object and the configuration sessions that name it run with. */
export interface StoredEnvironment {
  id: string;
  files: HostedFile[];
  object: "agent.environment";
  plugins: Json[];
  skills: Json[];
  status: "ready";
  type: "openai_hosted";
  created_at: number;
  mock: { config: HostedConfig };
}

const NO_CONFIG: HostedConfig = { capability_directories: [], files: [], network: { access: "disabled", allowed_domains: [] }, packages: { npm: [], python: [], system: [] }, plugins: [], skills: [] };

/** A hosted file as kept (the API's `HostedEnvironmentFile`): a Files API file or inline bytes, at an absolute path. */
export type HostedFile = { id: string; file_id?: string; path: string; size_bytes: number; type: "file_id" | "inline" };

/** Bytes of standard base64 `data`, or undefined when it is not base64. */
function base64Bytes(data: string): number | undefined {
  if (data.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(data)) return undefined;
  return (data.length / 4) * 3 - (data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0);
}

/** Files of a hosted configuration checked: a `file_id` must be one of the caller's Files API files, `data` base64. */
export async function hostedFiles(files: NonNullable<HostedFields["files"]>, at: string, rt: Runtime): Promise<HostedFile[] | ApiError> {
  const store = filesOf(rt.objects);
  const out: HostedFile[] = [];
  for (const [i, f] of files.entries()) {
    if (!f.path.startsWith("/")) return invalid(`Invalid '${at}[${i}].path': expected an absolute path, but got '${echoed(f.path)}' instead.`, `${at}[${i}].path`);
    if (f.type === "inline") {
      const bytes = base64Bytes(f.data);
      if (bytes === undefined) return invalid(`Invalid '${at}[${i}].data': expected standard base64.`, `${at}[${i}].data`);
      out.push({ id: newId("envfile_"), path: f.path, size_bytes: bytes, type: "inline" });
      continue;
    }
    const record = store === undefined ? null : await store.get(f.file_id);
    if (record === null) return noSuchFile(f.file_id, `${at}[${i}].file_id`);
    out.push({ id: newId("envfile_"), file_id: f.file_id, path: f.path, size_bytes: record.bytes, type: "file_id" });
  }
  return out;
}

/** A file as a template or an automation answers it (no id; a Files API file without its size). */
export function templateFile(f: HostedFile): Json {
  return f.type === "file_id" ? { file_id: f.file_id, path: f.path, type: "file_id" } : { path: f.path, size_bytes: f.size_bytes, type: "inline" };
}

/**
 * `base` with the fields `f` names changed (omitted ones kept, `null` back to the default); files checked against
 * the caller's Files API; plugins and skills refused.
 */
export async function hostedConfig(f: HostedFields, at: string, rt: Runtime, base: HostedConfig = NO_CONFIG): Promise<HostedConfig | ApiError> {
  for (const field of ["plugins", "skills"] as const) {
    const v = f[field];
    if (v !== undefined && v !== null && v.length > 0) return invalid(`mockllm provisions no hosted environment: '${at}${field}' is not served (docs/guide/openai-agents.md).`, `${at}${field}`);
  }
  const files = f.files === undefined ? base.files : f.files === null ? [] : await hostedFiles(f.files, `${at}files`, rt);
  if (isApiError(files)) return files;
  const list = (v: string[] | null | undefined, kept: string[]): string[] => (v === undefined ? kept : (v ?? []));
  const p = f.packages;
  return {
    capability_directories: list(f.capability_directories, base.capability_directories),
    files,
    network: f.network === undefined ? base.network : f.network === null ? NO_CONFIG.network : { access: f.network.access, allowed_domains: f.network.allowed_domains ?? [] },
    packages:
      p === undefined
        ? base.packages
        : p === null
          ? NO_CONFIG.packages
          : { npm: list(p.npm, base.packages.npm), python: list(p.python, base.packages.python), system: list(p.system, base.packages.system) },
    plugins: [],
    skills: [],
    ...(f.desktop === undefined ? (base.desktop !== undefined ? { desktop: base.desktop } : {}) : f.desktop === null ? {} : { desktop: { enabled: f.desktop.enabled } }),
  };
}

/** The configuration a template names, or its 404. */
export async function templateConfig(rt: Runtime, id: string): Promise<HostedConfig | ApiError> {
  const t = await loadOne<EnvironmentTemplate>(agentsHome(rt), TEMPLATE_KIND, id);
  if (t === undefined) return apiError("not_found", `No environment template found with id '${echoed(id)}'.`, { param: "environment_template_id" });
  const { id: _i, created_at: _c, name: _n, object: _o, updated_at: _u, ...config } = t;
  return config;
}

/** The environment `id` names, or its 404. */
export async function savedEnvironment(rt: Runtime, id: string): Promise<StoredEnvironment | ApiError> {
  const env = await loadOne<StoredEnvironment>(agentsHome(rt), ENVIRONMENT_KIND, id);
  return env ?? apiError("not_found", `No environment found with id '${echoed(id)}'.`, { param: "environment_id" });
}

/** An environment as the API answers it. */
function shownEnvironment(e: StoredEnvironment): Json {
  const { mock: _m, created_at: _c, ...shown } = e;
  return shown;
}

async function createEnvironment(request: Request, a: PlatformAnswer, rt: Runtime): Promise<Response> {
  const raw = await bodyOrError(request);
  if (isApiError(raw)) return a.fail(raw);
  const b = parsedBody(hostedWire().EnvironmentCreate, raw);
  if (isApiError(b)) return a.fail(b);
  const { type: _t, environment_template_id: templateId, ...fields } = b.environment;
  const base = templateId === undefined ? NO_CONFIG : await templateConfig(rt, templateId);
  if (isApiError(base)) return a.fail(base);
  const config = await hostedConfig(fields, "environment.", rt, base);
  if (isApiError(config)) return a.fail(config);
  const env: StoredEnvironment = {
    id: newId("env_"),
    files: config.files,
    object: "agent.environment",
    plugins: [],
    skills: [],
    status: "ready",
    type: "openai_hosted",
    created_at: nowSeconds(),
    mock: { config },
  };
  await saveAll(agentsHome(rt), ENVIRONMENT_KIND, [env]);
  return a.json(shownEnvironment(env));
}

/** An environment's file as `environments.files` answers it. */
function environmentFile(envId: string, f: HostedFile): Json {
  return { environment_id: envId, object: "agent.environment.file", path: f.path, size_bytes: f.size_bytes };
}

/**
 * `/v1/agents/environments/{id}/files`: a file copied in (a Files API file or inline bytes; one at the same path
 * replaced), and the files listed (`path`: a directory's; `order` by path; `limit`, `page` an opaque token).
 */
async function serveEnvironmentFiles(request: Request, path: string, id: string, a: PlatformAnswer, rt: Runtime): Promise<Response> {
  const env = await savedEnvironment(rt, id);
  if (isApiError(env)) return a.fail(env);
  return byMethod(request, path, a, {
    async GET() {
      const q = new URL(request.url).searchParams;
      const dir = q.get("path");
      const order = q.get("order") ?? "asc";
      if (order !== "asc" && order !== "desc") return a.fail(invalid(`Invalid value for 'order': expected 'asc' or 'desc', but got '${echoed(order)}' instead.`, "order"));
      const limit = Number(q.get("limit") ?? "100");
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) return a.fail(invalid("Invalid 'limit': expected an integer from 1 to 1000.", "limit"));
      const start = Number(q.get("page") ?? "0");
      if (!Number.isInteger(start) || start < 0) return a.fail(invalid("Invalid 'page': not a page token of this list.", "page"));
      const prefix = dir === null || dir === "" ? "" : dir.endsWith("/") ? dir : `${dir}/`;
      const files = env.files.filter((f) => f.path.startsWith(prefix)).sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
      if (order === "desc") files.reverse();
      const data = files.slice(start, start + limit).map((f) => environmentFile(id, f));
      const more = start + limit < files.length;
      return a.json({ data, has_more: more, next: more ? String(start + limit) : null });
    },
    async POST() {
      const raw = await bodyOrError(request);
      if (isApiError(raw)) return a.fail(raw);
      const type = raw.type;
      if (type !== "file_id" && type !== "inline")
        return a.fail(type === undefined ? invalid("Missing required parameter: 'type'.", "type") : invalid(`Invalid value for 'type': expected 'file_id' or 'inline'.`, "type"));
      const files = hostedWire().fields.files;
      const parsed = files.safeParse([raw]);
      if (!parsed.success || parsed.data === null || parsed.data === undefined) return a.fail(invalid(`Invalid body: a file is { type: 'file_id', file_id, path } or { type: 'inline', data, path }.`));
      const made = await hostedFiles(parsed.data, "files", rt);
      if (isApiError(made)) return a.fail({ ...made, message: made.message.replace("'files[0].", "'") });
      const file = made[0]!;
      const kept = env.files.filter((f) => f.path !== file.path).concat(file);
      const updated: StoredEnvironment = { ...env, files: kept, mock: { config: { ...env.mock.config, files: kept } } };
      await saveAll(agentsHome(rt), ENVIRONMENT_KIND, [updated]);
      return a.json(environmentFile(id, file));
    },
  });
}

/** `/v1/agents/environments[/{id}[/files]]`: create, list (`type`), retrieve; an environment's files. */
export async function serveEnvironments(request: Request, path: string, id: string | undefined, below: string | undefined, a: PlatformAnswer, rt: Runtime): Promise<Response> {
  if (id === undefined) {
    return byMethod(request, path, a, {
      async GET() {
        const type = new URL(request.url).searchParams.get("type");
        if (type !== null && type !== "openai_hosted") return a.fail(invalid(`Invalid value for 'type': expected 'openai_hosted', but got '${echoed(type)}' instead.`, "type"));
        return listedPage(
          request,
          a,
          (await loadAll<StoredEnvironment>(agentsHome(rt), ENVIRONMENT_KIND)).map((e) => shownEnvironment(e) as Json & { id: string }),
        );
      },
      POST: () => createEnvironment(request, a, rt),
    });
  }
  if (below === "files") return serveEnvironmentFiles(request, path, id, a, rt);
  if (below !== undefined) return a.fail(invalidUrl(request, path));
  return byMethod(request, path, a, {
    async GET() {
      const env = await savedEnvironment(rt, id);
      return isApiError(env) ? a.fail(env) : a.json(shownEnvironment(env));
    },
  });
}

/** A template as the API answers it: its files without ids (`HostedTemplateFileResource…`). */
function shownTemplate(t: EnvironmentTemplate): Json {
  return { ...t, files: t.files.map(templateFile) };
}

/** `/v1/agents/environments/templates[/{id}]`: create, retrieve, update, list, delete. */
export async function serveTemplates(request: Request, path: string, id: string | undefined, a: PlatformAnswer, rt: Runtime): Promise<Response> {
  const home = agentsHome(rt);
  const save = async (b: Json, base: EnvironmentTemplate | undefined): Promise<Response> => {
    const parsed = parsedBody(hostedWire().Template, b);
    if (isApiError(parsed)) return a.fail(parsed);
    const { name, ...fields } = parsed;
    const config = await hostedConfig(fields, "", rt, base);
    if (isApiError(config)) return a.fail(config);
    const now = nowSeconds();
    const t: EnvironmentTemplate = {
      id: base?.id ?? newId("envtpl_"),
      ...config,
      created_at: base?.created_at ?? now,
      name: name === undefined ? (base?.name ?? null) : name,
      object: "agent.environment.template",
      updated_at: now,
    };
    await saveAll(home, TEMPLATE_KIND, [t]);
    return a.json(shownTemplate(t));
  };
  if (id === undefined) {
    return byMethod(request, path, a, {
      GET: async () =>
        listedPage(
          request,
          a,
          (await loadAll<EnvironmentTemplate>(home, TEMPLATE_KIND)).map((x) => shownTemplate(x) as Json & { id: string }),
        ),
      async POST() {
        const b = await bodyOrError(request);
        return isApiError(b) ? a.fail(b) : save(b, undefined);
      },
    });
  }
  const t = await loadOne<EnvironmentTemplate>(home, TEMPLATE_KIND, id);
  if (t === undefined) return a.fail(apiError("not_found", `No environment template found with id '${echoed(id)}'.`, { param: "environment_template_id" }));
  return byMethod(request, path, a, {
    GET: () => a.json(shownTemplate(t)),
    async POST() {
      const b = await bodyOrError(request);
      return isApiError(b) ? a.fail(b) : save(b, t);
    },
    async DELETE() {
      await home.deleteObject(TEMPLATE_KIND, id);
      return a.json({ id, deleted: true, object: "agent.environment.template.deleted" });
    },
  });
}
