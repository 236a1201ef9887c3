/**
 * OpenAI's Agents API (beta, `OpenAI-Beta: agents=v1`; `client.beta.agents`): reusable agents, sessions, their
 * events (events.ts), items and turns, kept in the caller's namespace (store.ts). A session's agent is played by the
 * script (loop.ts): its model requests are Responses turns under the prefix and `x-mock-*` headers the session was
 * created with. Hosted environments and their templates are objects (environments.ts), automations run when invoked
 * (automations.ts), vaults are served on `/v1/vaults` (vaults.ts); subagents, artifacts and traces list empty
 * (mockllm's agents make none).
 */
import { apiError, type ApiError, isApiError } from "../../../../http/errors";
import { safeDecode } from "../../../../http/url";
import type { Runtime } from "../../../../runtime/types";
import { echoed } from "../../../../util/text";
import type { SideRouteContext } from "../../../types";
import { bodyOrError, byMethod, invalid, invalidUrl, listedPage, metadataFilters, nowSeconds, objectRoute, type PlatformAnswer, parsedBody } from "../../platform";
import { withVaultCredentials } from "./vaults";
import { serveEnvironments, serveTemplates } from "./environments";
import { openSession } from "./sessions";
import { serveAutomations } from "./automations";
import { eventStream, firstTurnEnd, mcpReach, messagesOf, sendEvents, streamEvents } from "./events";
import type { Item } from "./loop";
import { agentNotFound, agentsWire, configWith, metadataOf, newAgent, sessionNotFound, shown, turnNotFound, unplayedTool, type Agent, type StoredSession, type Turn } from "./objects";
import { AGENT_KIND, agentsHome, HEAD_KIND, itemsKind, loadAll, loadOne, SESSION_KIND, saveAll, turnsKind, withSessionLock } from "./store";

type Json = Record<string, unknown>;

export const AGENTS_BETA = "agents=v1";
/** `/v1/agents[/…]`: every path of the API (and the paths below it mockllm refuses with a reason). */
const ROUTE = /^\/(?:v1\/)?agents(?:\/(.*))?$/;
/**
 * The paths the router takes for this API under a `/s/{scenario}` prefix: only with `/v1`, so a session named
 * `agents` (`/s/x/agents/v1/responses`) stays a session, as it was before this API was served.
 */
const KNOWN = /^\/v1\/agents(?:\/.*)?$/;
const SESSION_ROUTE = /^sessions\/([^/]+)(?:\/(events|items|turns|subagents|artifacts|traces)(?:\/([^/]+)(?:\/(items|content))?)?)?\/?$/;
/** `environments[/templates][/{id}][/files]`. */
const ENVIRONMENTS_ROUTE = /^environments(?:\/(templates))?(?:\/([^/]+)(?:\/(files))?)?$/;

// Agents

async function createAgent(request: Request, a: PlatformAnswer, rt: Runtime): Promise<Response> {
  const b = await bodyOrError(request);
  if (isApiError(b)) return a.fail(b);
  const unplayed = unplayedTool(b, "tools");
  if (unplayed !== undefined) return a.fail(unplayed);
  const parsed = parsedBody(agentsWire().AgentCreate, b);
  if (isApiError(parsed)) return a.fail(parsed);
  const metadata = metadataOf(b.metadata);
  if (isApiError(metadata)) return a.fail(metadata);
  const agent = newAgent(parsed, metadata);
  if (isApiError(agent)) return a.fail(agent);
  await saveAll(agentsHome(rt), AGENT_KIND, [agent]);
  return a.json(agent);
}

async function updateAgent(request: Request, agent: Agent, a: PlatformAnswer, rt: Runtime): Promise<Response> {
  const b = await bodyOrError(request);
  if (isApiError(b)) return a.fail(b);
  const unplayed = unplayedTool(b, "tools");
  if (unplayed !== undefined) return a.fail(unplayed);
  const parsed = parsedBody(agentsWire().AgentUpdate, b);
  if (isApiError(parsed)) return a.fail(parsed);
  const metadata = b.metadata === undefined ? agent.metadata : metadataOf(b.metadata);
  if (isApiError(metadata)) return a.fail(metadata);
  const config = configWith(agent, parsed, "");
  if (isApiError(config)) return a.fail(config);
  const updated: Agent = { ...agent, ...config, name: parsed.name === undefined ? agent.name : parsed.name, metadata, updated_at: nowSeconds() };
  await saveAll(agentsHome(rt), AGENT_KIND, [updated]);
  return a.json(updated);
}

async function serveAgent(request: Request, path: string, id: string, a: PlatformAnswer, rt: Runtime): Promise<Response> {
  const home = agentsHome(rt);
  const agent = await loadOne<Agent>(home, AGENT_KIND, id);
  if (agent === undefined) return a.fail(agentNotFound(id));
  return byMethod(request, path, a, {
    GET: () => a.json(agent),
    POST: () => updateAgent(request, agent, a, rt),
    async DELETE() {
      await home.deleteObject(AGENT_KIND, id);
      return a.json({ id, deleted: true, object: "agent.deleted" });
    },
  });
}

// Sessions

async function createSession(request: Request, path: string, a: PlatformAnswer, rt: Runtime, local: SideRouteContext["local"]): Promise<Response> {
  const raw = await bodyOrError(request);
  if (isApiError(raw)) return a.fail(raw);
  const b = parsedBody(agentsWire().SessionCreate, raw);
  if (isApiError(b)) return a.fail(b);
  const stream = b.stream === true;
  if (b.stream_options !== undefined && !stream) return a.fail(invalid("Invalid 'stream_options': only allowed when 'stream' is true.", "stream_options"));
  const needsInput = b.environment.type === "none" || (stream && b.environment.type !== "self_hosted");
  if ((b.input === undefined || b.input === null) && needsInput)
    return a.fail(invalid(`Missing required parameter: 'input' (a session ${b.environment.type === "none" ? "without an environment" : "created with stream: true"} starts with its input).`, "input"));
  const messages = b.input === undefined || b.input === null ? undefined : messagesOf(b.input, "input");
  if (isApiError(messages)) return a.fail(messages);
  const opened = await openSession(rt, request, path, local, { ...b, ...(messages !== undefined ? { messages } : {}) }, raw);
  if (isApiError(opened)) return a.fail(opened);
  const { session, log } = opened;
  if (!stream) return a.json(shown(session));
  return eventStream(a, rt, session.id, session.mock.events, b.stream_options?.include_obfuscation !== false, { events: log.events, due: log.due }, firstTurnEnd);
}

async function updateSession(request: Request, id: string, a: PlatformAnswer, rt: Runtime): Promise<Response> {
  const raw = await bodyOrError(request);
  if (isApiError(raw)) return a.fail(raw);
  const unplayed = unplayedTool(typeof raw.agent === "object" && raw.agent !== null ? (raw.agent as Json) : {}, "agent.tools");
  if (unplayed !== undefined) return a.fail(unplayed);
  const b = parsedBody(agentsWire().SessionUpdate, raw);
  if (isApiError(b)) return a.fail(b);
  const metadata = b.metadata === undefined ? undefined : metadataOf(b.metadata);
  if (isApiError(metadata)) return a.fail(metadata);
  return withSessionLock(rt, id, async () => {
    const session = await loadOne<StoredSession>(agentsHome(rt), SESSION_KIND, id);
    if (session === undefined) return a.fail(sessionNotFound(id));
    if (b.agent !== undefined) {
      const { reasoning, ...rest } = b.agent;
      const config = configWith(session.agent, { ...rest, ...(reasoning !== undefined ? { reasoning: { effort: reasoning.effort } } : {}) }, "agent");
      if (isApiError(config)) return a.fail(config);
      const tools = await withVaultCredentials(rt, session.vault_ids, config.tools);
      if (isApiError(tools)) return a.fail(tools);
      session.agent = { ...session.agent, ...config, tools };
    }
    if (metadata !== undefined) session.metadata = metadata;
    if (b.prompt_cache_options !== undefined) session.prompt_cache_options = b.prompt_cache_options?.ttl !== undefined ? { ttl: b.prompt_cache_options.ttl } : null;
    if (b.review !== undefined) session.review = b.review;
    await saveAll(agentsHome(rt), SESSION_KIND, [session]);
    return a.json(shown(session));
  });
}

async function listSessions(request: Request, a: PlatformAnswer, rt: Runtime): Promise<Response> {
  const query = new URL(request.url).searchParams;
  const agentId = query.get("agent_id");
  const pairs = metadataFilters(query);
  const all = (await loadAll<StoredSession>(agentsHome(rt), SESSION_KIND)).filter((s) => (agentId === null || s.agent.id === agentId) && pairs.every(([k, v]) => s.metadata[k] === v));
  return listedPage(request, a, all.map(shown));
}

/** The session's turn `turnId`, or its 404. */
async function turnOf(rt: Runtime, sessionId: string, turnId: string): Promise<Turn | ApiError> {
  return (await loadOne<Turn>(agentsHome(rt), turnsKind(sessionId), turnId)) ?? turnNotFound(turnId);
}

async function serveSession(request: Request, path: string, m: RegExpExecArray, a: PlatformAnswer, rt: Runtime, local: SideRouteContext["local"]): Promise<Response> {
  const home = agentsHome(rt);
  const id = safeDecode(m[1]!);
  const [, , part, rawSub, below] = m;
  const sub = rawSub === undefined ? undefined : safeDecode(rawSub);
  if (part === undefined) {
    return byMethod(request, path, a, {
      async GET() {
        const s = await loadOne<StoredSession>(home, SESSION_KIND, id);
        return s === undefined ? a.fail(sessionNotFound(id)) : a.json(shown(s));
      },
      POST: () => updateSession(request, id, a, rt),
      DELETE: () =>
        withSessionLock(rt, id, async () => {
          const deleted = await home.deleteObject(SESSION_KIND, id);
          await home.deleteObject(HEAD_KIND, id);
          return deleted ? a.json({ id, deleted: true, object: "agent.session.deleted" }) : a.fail(sessionNotFound(id));
        }),
    });
  }
  if (part === "events") {
    if (sub !== undefined) return a.fail(invalidUrl(request, path));
    return byMethod(request, path, a, { GET: () => streamEvents(request, id, a, rt), POST: () => sendEvents(request, id, a, rt, mcpReach(request, rt, local)) });
  }
  return byMethod(request, path, a, {
    async GET() {
      if ((await home.objectById(SESSION_KIND, id)) === null) return a.fail(sessionNotFound(id));
      if (part === "items") return sub === undefined ? listedPage(request, a, await loadAll<Item>(home, itemsKind(id))) : a.fail(invalidUrl(request, path));
      if (part === "turns") {
        if (sub === undefined) return listedPage(request, a, await loadAll<Turn>(home, turnsKind(id)));
        const turn = await turnOf(rt, id, sub);
        if (isApiError(turn)) return a.fail(turn);
        if (below === undefined) return a.json(turn);
        if (below !== "items") return a.fail(invalidUrl(request, path));
        return listedPage(
          request,
          a,
          (await loadAll<Item>(home, itemsKind(id))).filter((i) => i.turn_id === sub),
        );
      }
      // Subagents, artifacts and traces: mockllm's agents make none, so the lists are empty and every id unknown.
      if (sub === undefined) return listedPage(request, a, [] as { id: string }[]);
      const what = part === "subagents" ? "subagent" : part === "artifacts" ? "artifact" : "trace";
      return a.fail(apiError("not_found", `No ${what} found with id '${echoed(sub)}' in this session.`, { param: `${what}_id` }));
    },
  });
}

async function serve(request: Request, path: string, rest: string, a: PlatformAnswer, rt: Runtime, local: SideRouteContext["local"]): Promise<Response> {
  if (rest === "") {
    return byMethod(request, path, a, {
      GET: async () => listedPage(request, a, await loadAll<Agent>(agentsHome(rt), AGENT_KIND)),
      POST: () => createAgent(request, a, rt),
    });
  }
  if (rest === "sessions") return byMethod(request, path, a, { GET: () => listSessions(request, a, rt), POST: () => createSession(request, path, a, rt, local) });
  const automations = serveAutomations(request, path, rest, a, rt, local);
  if (automations !== undefined) return automations;
  const env = ENVIRONMENTS_ROUTE.exec(rest);
  if (env !== null) {
    const [, templates, rawId, below] = env;
    const envId = rawId === undefined ? undefined : safeDecode(rawId);
    if (templates !== undefined) return below !== undefined ? a.fail(invalidUrl(request, path)) : serveTemplates(request, path, envId, a, rt);
    // `environments/templates` itself is the templates list, never an environment named "templates".
    return serveEnvironments(request, path, envId, below, a, rt);
  }
  const session = SESSION_ROUTE.exec(rest);
  if (session !== null) return serveSession(request, path, session, a, rt, local);
  if (rest.includes("/")) return a.fail(invalidUrl(request, path));
  return serveAgent(request, path, safeDecode(rest), a, rt);
}

/** Whether the request carries the beta header the API requires (`OpenAI-Beta: agents=v1`, among others). */
function hasBeta(headers: Headers): boolean {
  return (headers.get("openai-beta") ?? "").split(",").some((b) => b.trim() === AGENTS_BETA);
}

/** `/v1/agents/…`, for OpenAI's clients (Anthropic's Managed Agents, same paths, are told apart by their headers first). */
export const openaiAgents = objectRoute(
  ROUTE,
  ([, rest], request, path, a, ctx) =>
    hasBeta(request.headers)
      ? serve(request, path, (rest ?? "").replace(/\/$/, ""), a, ctx.rt, ctx.local)
      : a.fail(invalid(`You must provide the 'OpenAI-Beta' header to access the Agents API. Please try again by setting the header 'OpenAI-Beta: ${AGENTS_BETA}'.`)),
  { knows: KNOWN },
);
