/**
 * Claude Managed Agents (beta `managed-agents-2026-04-01`; `client.beta.agents`, `.environments`, `.sessions`):
 * agents and their versions, environments, sessions and their events (events.ts), kept in the caller's namespace
 * (store.ts). A session's agent is played by the script (loop.ts): its model requests are Messages turns under the
 * prefix and `x-mock-*` headers the session was created with. Told apart from other providers' paths by Anthropic's
 * headers; without the beta header the routes answer 404, as the API does.
 */
import { readJsonBody } from "../../../../http/body";
import { apiError, type ApiError } from "../../../../http/errors";
import { isRecord, jsonResponse } from "../../../../http/json";
import { safeDecode } from "../../../../http/url";
import { echoed } from "../../../../util/text";
import { originHeaders, requestPrefix } from "../../../../turn/batch";
import type { SideRouteContext } from "../../../types";
import { checkAnthropicHeaders } from "../../errors";
import { anthropicSkills, skillNotFound } from "../skills";
import { applyEvents, changeSession, checkedEvents, harnessOf, saveTurn, serveEvents } from "./events";
import { EventLog } from "./loop";
import { resourcesOf, serveResources } from "./resources";
import { budgetOf, budgetUpdateError } from "./budget";
import { priceOf } from "../../../../scenario/prices";
import {
  agentFields,
  agentNotFound,
  conflict,
  environmentFields,
  environmentNotFound,
  invalid,
  isApiError,
  metadataOf,
  newAgentId,
  newEnvironmentId,
  newSessionId,
  sessionNotFound,
  snapshot,
  stringField,
  timestamp,
  type Agent,
  type AgentSession,
  type Environment,
  type StoredSession,
} from "./objects";
import { createdWithin } from "./pages";
import { cursorPage } from "../../pages";
import { AGENT_KIND, agentsHome, deleteHead, ENVIRONMENT_KIND, loadAll, loadOne, MAX_AGENT_VERSIONS, SESSION_KIND, saveOne, versionsKind } from "./store";

type Json = Record<string, unknown>;

export const MANAGED_AGENTS_BETA = "managed-agents-2026-04-01";
const ROUTE = /^\/v1\/(agents|environments|sessions)(?:\/([^/]+)(?:\/(archive|versions|events|resources)(?:\/([^/]+))?)?)?\/?$/;
const LIST = { defaultLimit: 20, max: 100 };

/** Whether a path is one of these routes (so `/s/{scenario}/…` never takes it for a session name). */
export function knowsManagedAgentsPath(path: string): boolean {
  return ROUTE.test(path);
}

const notAllowed = (ctx: SideRouteContext, methods: string, path: string): Response => ctx.refuse(apiError("method_not_allowed", `Use ${methods} for ${path}.`));
/** A path below these routes that names nothing: the router's own 404 for an unknown URL. */
const unknownUrl = (ctx: SideRouteContext, request: Request, path: string): Response => ctx.refuse(apiError("not_found", `Unknown request URL: ${request.method} ${echoed(path)}.`));

function includeArchived(query: URLSearchParams): boolean {
  return query.get("include_archived") === "true";
}

type Archivable = { id: string; archived_at: string | null };

/** A list of agents or environments (stored oldest first): newest first, the archived only with `include_archived`. */
function newestListed<T extends Archivable>(stored: T[], query: URLSearchParams, ctx: SideRouteContext): Response {
  const newest = [...stored].reverse();
  return listed(includeArchived(query) ? newest : newest.filter((o) => o.archived_at === null), query, ctx);
}

/** `POST …/archive`: the object archived (read-only from then on; archiving again keeps the first time). */
async function archive<T extends Archivable>(request: Request, path: string, kind: string, object: T, ctx: SideRouteContext): Promise<Response> {
  if (request.method !== "POST") return notAllowed(ctx, "POST", path);
  const archived = { ...object, archived_at: object.archived_at ?? timestamp() };
  await saveOne(agentsHome(ctx.rt), kind, archived);
  return jsonResponse(archived);
}

function listed<T extends { id: string }>(items: T[], query: URLSearchParams, ctx: SideRouteContext, bidirectional = false): Response {
  const got = cursorPage(items, query, LIST);
  if (isApiError(got)) return ctx.refuse(got);
  return jsonResponse(bidirectional ? got : { data: got.data, next_page: got.next_page });
}

async function body(request: Request): Promise<Json | ApiError> {
  const got = await readJsonBody(request);
  return got.ok ? got.value : got.error;
}

// Agents

/** The first custom skill an agent names that the caller's skills store does not hold (the API's 404), if any. */
async function missingSkill(skills: readonly Json[], ctx: SideRouteContext): Promise<ApiError | undefined> {
  const store = ctx.rt.objects === undefined ? undefined : anthropicSkills(ctx.rt.objects);
  for (const [i, skill] of skills.entries()) {
    if (skill.type !== "custom") continue;
    if (typeof skill.skill_id !== "string" || skill.skill_id === "") return invalid(`skills.${i}.skill_id: Field required`);
    if (store === undefined || (await store.get(skill.skill_id)) === null) return skillNotFound(skill.skill_id);
  }
  return undefined;
}

async function serveAgents(request: Request, path: string, id: string | undefined, action: string | undefined, ctx: SideRouteContext): Promise<Response> {
  const home = agentsHome(ctx.rt);
  const method = request.method;
  const query = new URL(request.url).searchParams;
  if (id === undefined) {
    if (method === "GET") {
      const within = createdWithin<Agent>(query, (a) => a.created_at);
      if (isApiError(within)) return ctx.refuse(within);
      return newestListed((await loadAll<Agent>(home, AGENT_KIND)).filter(within), query, ctx);
    }
    if (method !== "POST") return notAllowed(ctx, "GET or POST", path);
    const b = await body(request);
    if (isApiError(b)) return ctx.refuse(b);
    const fields = agentFields(b);
    if (isApiError(fields)) return ctx.refuse(fields);
    const noSkill = await missingSkill(fields.skills, ctx);
    if (noSkill !== undefined) return ctx.refuse(noSkill);
    const now = timestamp();
    const agent: Agent = { id: newAgentId(), type: "agent", ...fields, version: 1, created_at: now, updated_at: now, archived_at: null };
    await saveOne(home, versionsKind(agent.id), { ...agent, id: "1" }, MAX_AGENT_VERSIONS);
    await saveOne(home, AGENT_KIND, agent);
    return jsonResponse(agent);
  }
  const agent = await loadOne<Agent>(home, AGENT_KIND, id);
  if (agent === undefined) return ctx.refuse(agentNotFound(id));
  if (action === "versions") {
    if (method !== "GET") return notAllowed(ctx, "GET", path);
    return versionPage((await loadAll<Agent>(home, versionsKind(id))).reverse(), id, query, ctx);
  }
  if (action === "archive") return archive(request, path, AGENT_KIND, agent, ctx);
  if (action !== undefined) return unknownUrl(ctx, request, path);
  if (method === "GET") {
    const v = query.get("version");
    if (v === null || v === "") return jsonResponse(agent);
    if (!/^[1-9]\d*$/.test(v)) return ctx.refuse(invalid("version: Input should be a valid integer greater than or equal to 1"));
    const got = await loadOne<Agent>(home, versionsKind(id), v);
    return got === undefined ? ctx.refuse(apiError("not_found", `Agent ${id} has no version ${v}.`)) : jsonResponse({ ...got, id });
  }
  if (method !== "POST") return notAllowed(ctx, "GET or POST", path);
  const b = await body(request);
  if (isApiError(b)) return ctx.refuse(b);
  if (agent.archived_at !== null) return ctx.refuse(invalid(`Agent ${id} is archived and cannot be modified.`));
  if (b.version !== undefined && b.version !== null && b.version !== agent.version) {
    if (typeof b.version !== "number" || !Number.isInteger(b.version) || b.version < 1) return ctx.refuse(invalid("version: Input should be a valid integer greater than or equal to 1"));
    return ctx.refuse(conflict(`Agent ${id} is at version ${agent.version}, not ${b.version}: fetch it again and retry the update.`));
  }
  const fields = agentFields(b, agent);
  if (isApiError(fields)) return ctx.refuse(fields);
  const noSkill = b.skills === undefined ? undefined : await missingSkill(fields.skills, ctx);
  if (noSkill !== undefined) return ctx.refuse(noSkill);
  const { id: _i, type: _t, version: _v, created_at: _c, updated_at: _u, archived_at: _a, ...before } = agent;
  if (JSON.stringify(fields) === JSON.stringify(before)) return jsonResponse(agent);
  const updated: Agent = { ...agent, ...fields, version: agent.version + 1, updated_at: timestamp() };
  await saveOne(home, versionsKind(id), { ...updated, id: String(updated.version) }, MAX_AGENT_VERSIONS);
  await saveOne(home, AGENT_KIND, updated);
  return jsonResponse(updated);
}

/** An agent's versions (kept under their version numbers), newest first, each answered with the agent's id. */
function versionPage(versions: Agent[], agentId: string, query: URLSearchParams, ctx: SideRouteContext): Response {
  const got = cursorPage(versions, query, LIST);
  if (isApiError(got)) return ctx.refuse(got);
  return jsonResponse({ data: got.data.map((v) => ({ ...v, id: agentId })), next_page: got.next_page });
}

// Environments

async function serveEnvironments(request: Request, path: string, id: string | undefined, action: string | undefined, ctx: SideRouteContext): Promise<Response> {
  const home = agentsHome(ctx.rt);
  const method = request.method;
  const query = new URL(request.url).searchParams;
  if (id === undefined) {
    const all = await loadAll<Environment>(home, ENVIRONMENT_KIND);
    if (method === "GET") return newestListed(all, query, ctx);
    if (method !== "POST") return notAllowed(ctx, "GET or POST", path);
    const b = await body(request);
    if (isApiError(b)) return ctx.refuse(b);
    const fields = environmentFields(b);
    if (isApiError(fields)) return ctx.refuse(fields);
    if (all.some((e) => e.name === fields.name)) return ctx.refuse(conflict(`An environment named '${fields.name}' already exists.`));
    const now = timestamp();
    const env: Environment = { id: newEnvironmentId(), type: "environment", ...fields, created_at: now, updated_at: now, archived_at: null };
    await saveOne(home, ENVIRONMENT_KIND, env);
    return jsonResponse(env);
  }
  const env = await loadOne<Environment>(home, ENVIRONMENT_KIND, id);
  if (env === undefined) return ctx.refuse(environmentNotFound(id));
  if (action === "archive") return archive(request, path, ENVIRONMENT_KIND, env, ctx);
  if (action !== undefined) return unknownUrl(ctx, request, path);
  if (method === "GET") return jsonResponse(env);
  if (method === "DELETE") {
    await home.deleteObject(ENVIRONMENT_KIND, id);
    return jsonResponse({ id, type: "environment_deleted" });
  }
  if (method !== "POST") return notAllowed(ctx, "GET, POST or DELETE", path);
  const b = await body(request);
  if (isApiError(b)) return ctx.refuse(b);
  if (env.archived_at !== null) return ctx.refuse(apiError("invalid_request", `Environment ${id} is archived and cannot be modified.`, { details: { error_code: "environment_archived" } }));
  const fields = environmentFields(b, env);
  if (isApiError(fields)) return ctx.refuse(fields);
  const updated: Environment = { ...env, ...fields, updated_at: timestamp() };
  await saveOne(home, ENVIRONMENT_KIND, updated);
  return jsonResponse(updated);
}

// Sessions

/** The agent a session's `agent` names (an id, `{ type: "agent", id, version }` or with overrides), resolved. */
async function sessionAgent(ref: unknown, ctx: SideRouteContext): Promise<Agent | ApiError> {
  const home = agentsHome(ctx.rt);
  const id = typeof ref === "string" ? ref : isRecord(ref) && typeof ref.id === "string" ? ref.id : undefined;
  if (id === undefined) return invalid("agent: Field required");
  if (isRecord(ref) && ref.type !== "agent" && ref.type !== "agent_with_overrides")
    return invalid(`agent: Input tag '${String(ref.type)}' found using 'type' does not match any of the expected tags: 'agent', 'agent_with_overrides'`);
  const latest = await loadOne<Agent>(home, AGENT_KIND, id);
  if (latest === undefined) return agentNotFound(id);
  if (latest.archived_at !== null) return invalid(`Agent ${id} is archived: a new session cannot use it.`);
  let agent = latest;
  const version = isRecord(ref) ? ref.version : undefined;
  if (version !== undefined && version !== null) {
    const pinned = typeof version === "number" && Number.isInteger(version) ? await loadOne<Agent>(home, versionsKind(id), String(version)) : undefined;
    if (pinned === undefined) return invalid(`agent.version: agent ${id} has no version ${String(version)}`);
    agent = { ...pinned, id };
  }
  if (isRecord(ref) && ref.type === "agent_with_overrides") {
    const { type: _t, id: _i, version: _v, ...overrides } = ref;
    const fields = agentFields(overrides, agent);
    if (isApiError(fields)) return { ...fields, message: `agent.${fields.message}` };
    const noSkill = overrides.skills === undefined ? undefined : await missingSkill(fields.skills, ctx);
    if (noSkill !== undefined) return noSkill;
    agent = { ...agent, ...fields };
  }
  return agent;
}

const EMPTY_USAGE = (model: string) => ({
  input_tokens: 0,
  output_tokens: 0,
  cache_read_input_tokens: 0,
  cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 },
  list_cost: priceOf(model) === undefined ? null : { amount: "0", currency: "USD" as const },
});

/** A session as the API answers it (what mockllm keeps beside it left out). */
function shown(s: StoredSession): AgentSession {
  const { mock: _m, ...session } = s;
  return session;
}

async function createSession(request: Request, path: string, ctx: SideRouteContext): Promise<Response> {
  const b = await body(request);
  if (isApiError(b)) return ctx.refuse(b);
  const agent = await sessionAgent(b.agent, ctx);
  if (isApiError(agent)) return ctx.refuse(agent);
  if (typeof b.environment_id !== "string" || b.environment_id === "") return ctx.refuse(invalid("environment_id: Field required"));
  const env = await loadOne<Environment>(agentsHome(ctx.rt), ENVIRONMENT_KIND, b.environment_id);
  if (env === undefined) return ctx.refuse(environmentNotFound(b.environment_id));
  if (env.archived_at !== null) return ctx.refuse(apiError("invalid_request", `Environment ${env.id} is archived: a new session cannot use it.`, { details: { error_code: "environment_archived" } }));
  const title = stringField(b.title, "title", 512, false);
  if (isApiError(title)) return ctx.refuse(title);
  const metadata = metadataOf(b.metadata);
  if (isApiError(metadata)) return ctx.refuse(metadata);
  const resources = await resourcesOf(b.resources, ctx.rt);
  if (isApiError(resources)) return ctx.refuse(resources);
  if (b.vault_ids !== undefined && b.vault_ids !== null && !(Array.isArray(b.vault_ids) && b.vault_ids.every((v) => typeof v === "string")))
    return ctx.refuse(invalid("vault_ids: Input should be a valid list of strings"));
  const budget = b.budget === undefined ? null : budgetOf(b.budget, agent.model.id);
  if (isApiError(budget)) return ctx.refuse(budget);
  const { prefix } = requestPrefix(request, path);
  const now = timestamp();
  const session: StoredSession = {
    id: newSessionId(),
    type: "session",
    status: "idle",
    title: title ?? null,
    environment_id: env.id,
    agent: snapshot(agent),
    resources,
    metadata,
    vault_ids: Array.isArray(b.vault_ids) ? (b.vault_ids as string[]) : [],
    budget,
    outcome_evaluations: [],
    stats: { active_seconds: 0, duration_seconds: 0 },
    usage: EMPTY_USAGE(agent.model.id),
    created_at: now,
    updated_at: now,
    archived_at: null,
    mock: { origin: { prefix, headers: originHeaders(request.headers), path: "/v1/messages" }, events: 0, pending: [], selfHosted: env.config.type === "self_hosted", budgetable: budget !== null },
  };
  const log = new EventLog();
  if (b.initial_events !== undefined && b.initial_events !== null) {
    const events = checkedEvents(b.initial_events, session, [], "initial_events", ["user.message"]);
    if (isApiError(events)) return ctx.refuse(events);
    await applyEvents(harnessOf(request, ctx), session, [], events, log);
  }
  await saveTurn(ctx.rt, session, log);
  return jsonResponse(shown(session));
}

async function serveSessions(request: Request, path: string, id: string | undefined, action: string | undefined, rest: string | undefined, ctx: SideRouteContext): Promise<Response> {
  const home = agentsHome(ctx.rt);
  const method = request.method;
  const query = new URL(request.url).searchParams;
  if (id === undefined) {
    if (method === "POST") return createSession(request, path, ctx);
    if (method !== "GET") return notAllowed(ctx, "GET or POST", path);
    const order = query.get("order") ?? "desc";
    if (order !== "asc" && order !== "desc") return ctx.refuse(invalid("order: Input should be 'asc' or 'desc'"));
    const statuses = [...query.getAll("statuses[]"), ...query.getAll("statuses")];
    const agentId = query.get("agent_id");
    const agentVersion = query.get("agent_version");
    const within = createdWithin<StoredSession>(query, (s) => s.created_at);
    if (isApiError(within)) return ctx.refuse(within);
    // mockllm makes no deployments and mounts no memory stores: a filter by either matches no session.
    const none = query.get("deployment_id") !== null || query.get("memory_store_id") !== null;
    const all = (none ? [] : await loadAll<StoredSession>(home, SESSION_KIND)).filter(
      (s) =>
        within(s) &&
        (includeArchived(query) || s.archived_at === null) &&
        (statuses.length === 0 || statuses.includes(s.status)) &&
        (agentId === null || s.agent.id === agentId) &&
        (agentVersion === null || String(s.agent.version) === agentVersion),
    );
    return listed((order === "desc" ? all.reverse() : all).map(shown), query, ctx, true);
  }
  const session = await loadOne<StoredSession>(home, SESSION_KIND, id);
  if (session === undefined) return ctx.refuse(sessionNotFound(id));
  if (action === "events") {
    if (rest !== undefined && rest !== "stream") return unknownUrl(ctx, request, path);
    return serveEvents(request, path, session, rest === "stream", ctx);
  }
  if (action === "resources") return method === "GET" ? serveResources(request, path, session, rest, ctx) : changeSession(ctx, id, (s) => serveResources(request, path, s, rest, ctx));
  if (action === "archive") {
    if (method !== "POST") return notAllowed(ctx, "POST", path);
    return changeSession(ctx, id, async (s) => {
      if (s.archived_at === null) {
        s.archived_at = timestamp();
        await saveOne(home, SESSION_KIND, s);
      }
      return jsonResponse(shown(s));
    });
  }
  if (action !== undefined) return unknownUrl(ctx, request, path);
  if (method === "GET") return jsonResponse(shown(session));
  if (method === "DELETE") {
    await home.deleteObject(SESSION_KIND, id);
    await deleteHead(home, id);
    return jsonResponse({ id, type: "session_deleted" });
  }
  if (method !== "POST") return notAllowed(ctx, "GET, POST or DELETE", path);
  const b = await body(request);
  if (isApiError(b)) return ctx.refuse(b);
  return changeSession(ctx, id, (s) => updateSession(s, b, ctx));
}

/** `POST /v1/sessions/{id}`: title, metadata (a patch) and budget, and a `session.updated` event naming what changed. */
async function updateSession(session: StoredSession, b: Json, ctx: SideRouteContext): Promise<Response> {
  const id = session.id;
  if (session.archived_at !== null) return ctx.refuse(conflict(`Session ${id} is archived and cannot be modified.`));
  if (b.vault_ids !== undefined) return ctx.refuse(invalid("vault_ids: a session's vaults cannot be changed."));
  if (b.agent !== undefined) return ctx.refuse(invalid("agent: mockllm does not change a session's agent yet."));
  const changed: Json = {};
  if (b.title !== undefined) {
    const title = b.title === null ? null : stringField(b.title, "title", 512, false);
    if (isApiError(title)) return ctx.refuse(title);
    session.title = title ?? null;
    changed.title = session.title;
  }
  if (b.metadata !== undefined) {
    const metadata = metadataOf(b.metadata, session.metadata, true);
    if (isApiError(metadata)) return ctx.refuse(metadata);
    session.metadata = metadata;
    changed.metadata = metadata;
  }
  if (b.budget !== undefined) {
    const budget = budgetOf(b.budget, session.agent.model.id);
    if (isApiError(budget)) return ctx.refuse(budget);
    const refusal = budgetUpdateError(session, budget);
    if (refusal !== undefined) return ctx.refuse(refusal);
    session.budget = budget;
    if (budget === null) session.mock.budgetable = false;
    changed.budget = budget;
  }
  const log = new EventLog();
  if (Object.keys(changed).length > 0) log.emit("session.updated", changed);
  await saveTurn(ctx.rt, session, log);
  return jsonResponse(shown(session));
}

/**
 * Serves a managed-agents route, or undefined when the request is not one (another path, or not Anthropic's client).
 * @example await serveManagedAgents(request, "/v1/sessions", ctx)
 */
export async function serveManagedAgents(request: Request, path: string, ctx: SideRouteContext): Promise<Response | undefined> {
  const m = ROUTE.exec(path);
  if (m === null || !(request.headers.has("anthropic-version") || request.headers.has("x-api-key"))) return undefined;
  const headerError = checkAnthropicHeaders(request.headers);
  if (headerError) return ctx.refuse(headerError);
  const betas = (request.headers.get("anthropic-beta") ?? "").split(",").map((b) => b.trim());
  if (!betas.includes(MANAGED_AGENTS_BETA)) {
    return ctx.refuse(
      apiError(
        "not_found",
        `Unknown request URL: ${request.method} ${echoed(path)}. (mockllm: Claude Managed Agents' routes need the header anthropic-beta: ${MANAGED_AGENTS_BETA}, as the API's do.)`,
      ),
    );
  }
  const [, kind, rawId, action, rest] = m;
  const id = rawId === undefined ? undefined : safeDecode(rawId);
  const more = rest === undefined ? undefined : safeDecode(rest);
  if (kind === "agents") return more !== undefined ? unknownUrl(ctx, request, path) : serveAgents(request, path, id, action, ctx);
  if (kind === "environments") return more !== undefined ? unknownUrl(ctx, request, path) : serveEnvironments(request, path, id, action, ctx);
  return serveSessions(request, path, id, action, more, ctx);
}
