/**
 * The Agents API's hosted environments as objects (`client.beta.agents.environments`, `.environments.templates`): a
 * hosted configuration — capability directories, network policy, packages, desktop — given inline on a session, saved
 * as a reusable template, or made an environment sessions name by id. mockllm runs no sandbox: an environment is
 * `ready` at once, and a session's agent is played by the script whatever its environment. Files, plugins and skills
 * are refused (mockllm provisions none); `env` and `setup_commands` are the sandbox's secrets: accepted, never
 * answered back (the API's objects have neither).
 */
import type { z } from "zod";
import { apiError, type ApiError } from "../../../../http/errors";
import type { Runtime } from "../../../../runtime/types";
import { echoed } from "../../../../util/text";
import { bodyOrError, byMethod, invalid, listedPage, nowSeconds, type PlatformAnswer } from "../../platform";
import { hostedWire, isApiError, newId, parsedBody } from "./objects";
import { agentsHome, loadAll, loadOne, saveAll } from "./store";

type Json = Record<string, unknown>;

export const ENVIRONMENT_KIND = "environment";
export const TEMPLATE_KIND = "environment_template";

export type HostedFields = { [K in keyof ReturnType<typeof hostedWire>["fields"]]?: z.infer<ReturnType<typeof hostedWire>["fields"][K]> };

/** A hosted configuration resolved as the API answers it. */
export interface HostedConfig {
  capability_directories: string[];
  files: Json[];
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
  files: Json[];
  object: "agent.environment";
  plugins: Json[];
  skills: Json[];
  status: "ready";
  type: "openai_hosted";
  created_at: number;
  mock: { config: HostedConfig };
}

const NO_CONFIG: HostedConfig = { capability_directories: [], files: [], network: { access: "disabled", allowed_domains: [] }, packages: { npm: [], python: [], system: [] }, plugins: [], skills: [] };

/** `base` with the fields `f` names changed (omitted ones kept, `null` back to the default); files, plugins and skills refused. */
export function hostedConfig(f: HostedFields, at: string, base: HostedConfig = NO_CONFIG): HostedConfig | ApiError {
  for (const field of ["files", "plugins", "skills"] as const) {
    const v = f[field];
    if (v !== undefined && v !== null && v.length > 0) return invalid(`mockllm provisions no hosted environment: '${at}${field}' is not served (docs/guide/openai-agents.md).`, `${at}${field}`);
  }
  const list = (v: string[] | null | undefined, kept: string[]): string[] => (v === undefined ? kept : (v ?? []));
  const p = f.packages;
  return {
    capability_directories: list(f.capability_directories, base.capability_directories),
    files: [],
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
  const config = hostedConfig(fields, "environment.", base);
  if (isApiError(config)) return a.fail(config);
  const env: StoredEnvironment = {
    id: newId("env_"),
    files: [],
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

/** `/v1/agents/environments[/{id}]`: create, list (`type`), retrieve; an environment's files are not served. */
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
  if (below === "files")
    return a.fail(apiError("not_found", `mockllm provisions no hosted environment: an environment's files are not served (${request.method} ${echoed(path)}): docs/guide/openai-agents.md.`));
  if (below !== undefined) return a.fail(apiError("not_found", `Invalid URL (${request.method} ${echoed(path)})`));
  return byMethod(request, path, a, {
    async GET() {
      const env = await savedEnvironment(rt, id);
      return isApiError(env) ? a.fail(env) : a.json(shownEnvironment(env));
    },
  });
}

/** `/v1/agents/environments/templates[/{id}]`: create, retrieve, update, list, delete. */
export async function serveTemplates(request: Request, path: string, id: string | undefined, a: PlatformAnswer, rt: Runtime): Promise<Response> {
  const home = agentsHome(rt);
  const save = async (b: Json, base: EnvironmentTemplate | undefined): Promise<Response> => {
    const parsed = parsedBody(hostedWire().Template, b);
    if (isApiError(parsed)) return a.fail(parsed);
    const { name, ...fields } = parsed;
    const config = hostedConfig(fields, "", base);
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
    return a.json(t);
  };
  if (id === undefined) {
    return byMethod(request, path, a, {
      GET: async () => listedPage(request, a, await loadAll<EnvironmentTemplate>(home, TEMPLATE_KIND)),
      async POST() {
        const b = await bodyOrError(request);
        return isApiError(b) ? a.fail(b) : save(b, undefined);
      },
    });
  }
  const t = await loadOne<EnvironmentTemplate>(home, TEMPLATE_KIND, id);
  if (t === undefined) return a.fail(apiError("not_found", `No environment template found with id '${echoed(id)}'.`, { param: "environment_template_id" }));
  return byMethod(request, path, a, {
    GET: () => a.json(t),
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
