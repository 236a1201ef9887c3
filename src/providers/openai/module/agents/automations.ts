/**
 * The Agents API's automations (`client.beta.agents.automations`, `/v1/agents/automations`): an agent run saved with
 * a schedule — `periodic` (a cron `expression` in a `timezone`) or `once` (`run_at`) — whose target is a new session
 * (an agent, an environment, the input) or a message to an existing one. mockllm keeps no clock that fires them: a
 * test runs one with `invocations.create`, which opens the target's session (played by the script, under the
 * invoking request's prefix and `x-mock-*` headers) or sends the existing session the automation's `instructions`.
 */
import { z } from "zod";
import { apiError, type ApiError, isApiError } from "../../../../http/errors";
import { safeDecode } from "../../../../http/url";
import type { Runtime } from "../../../../runtime/types";
import { childKind } from "../../../../session/responses";
import { lazily } from "../../../../util/memo";
import { echoed } from "../../../../util/text";
import type { SideRouteContext } from "../../../types";
import { bodyOrError, byMethod, invalid, listedPage, nowSeconds, type PlatformAnswer, parsedBody } from "../../platform";
import { applyToSession, mcpReach, messagesOf, textInput } from "./events";
import { hostedFiles, savedEnvironment, templateConfig, templateFile } from "./environments";
import { agentNotFound, agentsWire, configWith, defaultConfig, metadataOf, newId, sessionNotFound, sessionTools, unplayedTool, type Agent, type AgentConfig, type SessionCreateBody } from "./objects";
import { AGENT_KIND, agentsHome, loadAll, loadOne, MAX_OBJECTS, SESSION_KIND, saveAll } from "./store";
import { openSession, type SessionParts } from "./sessions";

type Json = Record<string, unknown>;

const AUTOMATION_KIND = "automation";
const invocationsKind = (id: string): string => childKind(AUTOMATION_KIND, id);
/** Most invocations one automation keeps; one more forgets the oldest. */
const MAX_INVOCATIONS = 1000;

const automationsWire = lazily(() => {
  const { SessionCreate, InputMessage } = agentsWire();
  const NewSession = z.strictObject({
    type: z.literal("new_session"),
    environment: SessionCreate.shape.environment,
    input: z.array(InputMessage).min(1),
    agent: SessionCreate.shape.agent,
    agent_id: z.string().min(1).optional(),
    metadata: z.unknown().optional(),
    vault_ids: z.array(z.string()).nullish(),
  });
  const ExistingSession = z.strictObject({ type: z.literal("existing_session"), session_id: z.string().min(1), instructions: z.string().min(1) });
  const Target = z.discriminatedUnion("type", [NewSession, ExistingSession]);
  const common = { name: z.string().min(1).max(256), target: Target, metadata: z.unknown().optional() };
  const Periodic = z.object({ type: z.literal("periodic"), expression: z.string().min(1), timezone: z.string().min(1), ...common });
  const Once = z.object({ type: z.literal("once"), run_at: z.number().int().min(0), ...common });
  const Update = z.object({
    expression: z.string().min(1).optional(),
    metadata: z.unknown().optional(),
    name: z.string().min(1).max(256).optional(),
    run_at: z.number().int().min(0).optional(),
    target: Target.optional(),
    timezone: z.string().min(1).optional(),
  });
  return { Periodic, Once, Update };
});

type TargetParam = z.infer<ReturnType<typeof automationsWire>["Periodic"]>["target"];

interface StoredAutomation {
  id: string;
  created_at: number;
  created_by: { type: "developer" };
  expression?: string;
  metadata: Record<string, string>;
  name: string;
  object: "agent.automation";
  run_at?: number;
  status: "active" | "paused" | "completed";
  target: Json;
  timezone?: string;
  type: "periodic" | "once";
  pause_reason: null;
  /** The target as given: what an invocation opens or sends. */
  mock: { target: TargetParam };
}

interface Invocation {
  id: string;
  automation_id: string;
  created_at: number;
  error: { code: string; message: string } | null;
  object: "agent.automation.invocation";
  scheduled_at: number | null;
  session_id: string | null;
  skip_reason: null;
  source: { type: "manual" };
  status: "completed" | "failed";
}

const automationNotFound = (id: string): ApiError => apiError("not_found", `No automation found with id '${echoed(id)}'.`, { param: "automation_id" });

/** A cron expression's five fields (minute, hour, day of month, month, day of week), each of the characters cron takes. */
function checkExpression(e: string): ApiError | undefined {
  const fields = e.trim().split(/\s+/);
  if (fields.length === 5 && fields.every((f) => /^[0-9*,\-/A-Za-z?LW#]+$/.test(f))) return undefined;
  return invalid(`Invalid 'expression': '${echoed(e)}' is not a cron expression of five fields (minute hour day-of-month month day-of-week).`, "expression");
}

function checkTimezone(tz: string): ApiError | undefined {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return undefined;
  } catch {
    return invalid(`Invalid 'timezone': '${echoed(tz)}' is not an IANA time zone.`, "timezone");
  }
}

/** The environment as an automation answers it (the API's `AutomationEnvironment`: what was asked, nulls for the rest). */
async function automationEnvironment(env: SessionCreateBody["environment"], rt: Runtime): Promise<Json | ApiError> {
  if (env.type === "none") return { type: "none" };
  if (env.type === "self_hosted") return { capability_directories: env.capability_directories ?? [], environment_id: null, type: "self_hosted", workspace_directory: env.workspace_directory };
  if (env.environment_id !== undefined) {
    const saved = await savedEnvironment(rt, env.environment_id);
    if (isApiError(saved)) return saved;
  }
  if (env.environment_template_id !== undefined) {
    const t = await templateConfig(rt, env.environment_template_id);
    if (isApiError(t)) return t;
  }
  for (const field of ["plugins", "skills"] as const) {
    const v = env[field];
    if (v !== undefined && v !== null && v.length > 0)
      return invalid(`mockllm provisions no hosted environment: 'target.environment.${field}' is not served (docs/guide/openai-agents.md).`, `target.environment.${field}`);
  }
  const files = env.files === undefined || env.files === null ? null : await hostedFiles(env.files, "target.environment.files", rt);
  if (isApiError(files)) return files;
  const p = env.packages;
  return {
    capability_directories: env.capability_directories ?? null,
    container_size: env.container_size ?? null,
    desktop: env.desktop ?? null,
    environment_id: env.environment_id ?? null,
    environment_template_id: env.environment_template_id ?? null,
    files: files === null ? null : files.map(templateFile),
    network: env.network === undefined || env.network === null ? null : { access: env.network.access, allowed_domains: env.network.allowed_domains ?? [] },
    packages: p === undefined || p === null ? null : { npm: p.npm ?? [], python: p.python ?? [], system: p.system ?? [] },
    plugins: null,
    skills: null,
    type: "openai_hosted",
  };
}

/** The target as the API answers it, checked against what it names (the agent, the environment, the session). */
async function targetOf(t: TargetParam, raw: Json, rt: Runtime): Promise<Json | ApiError> {
  if (t.type === "existing_session") {
    if ((await loadOne(agentsHome(rt), SESSION_KIND, t.session_id)) === undefined) return sessionNotFound(t.session_id);
    return { instructions: t.instructions, session_id: t.session_id, type: "existing_session" };
  }
  const unplayed = unplayedTool(typeof raw.agent === "object" && raw.agent !== null ? (raw.agent as Json) : {}, "target.agent.tools");
  if (unplayed !== undefined) return unplayed;
  let agent: AgentConfig | null = null;
  if (t.agent_id !== undefined) {
    const saved = await loadOne<Agent>(agentsHome(rt), AGENT_KIND, t.agent_id);
    if (saved === undefined) return agentNotFound(t.agent_id);
    if (t.agent !== undefined) {
      const config = configWith(saved, t.agent, "target.agent");
      if (isApiError(config)) return config;
      agent = config;
    }
  } else {
    if (t.agent?.model === undefined) return invalid("Missing required parameter: 'target.agent.model' (a target without 'agent_id' names its model).", "target.agent.model");
    const config = configWith(defaultConfig(t.agent.model), t.agent, "target.agent");
    if (isApiError(config)) return config;
    agent = config;
  }
  const environment = await automationEnvironment(t.environment, rt);
  if (isApiError(environment)) return environment;
  const metadata = metadataOf(t.metadata);
  if (isApiError(metadata)) return { ...metadata, message: metadata.message.replace("'metadata", "'target.metadata") };
  return {
    agent: agent === null ? null : { ...agent, tools: sessionTools(agent.tools) },
    agent_id: t.agent_id ?? null,
    environment,
    input: t.input.map((m) => ({ content: m.content, role: "user", type: "message" })),
    metadata,
    type: "new_session",
    vault_ids: t.vault_ids ?? [],
  };
}

/** An automation as the API answers it. */
function shownAutomation(a: StoredAutomation): Json {
  const { mock: _m, ...shown } = a;
  return shown;
}

async function create(request: Request, a: PlatformAnswer, rt: Runtime): Promise<Response> {
  const raw = await bodyOrError(request);
  if (isApiError(raw)) return a.fail(raw);
  const { Periodic, Once } = automationsWire();
  if (raw.type !== "periodic" && raw.type !== "once")
    return a.fail(
      raw.type === undefined
        ? invalid("Missing required parameter: 'type'.", "type")
        : invalid(`Invalid value for 'type': expected 'periodic' or 'once', but got '${echoed(String(raw.type))}' instead.`, "type"),
    );
  const b = raw.type === "periodic" ? parsedBody(Periodic, raw) : parsedBody(Once, raw);
  if (isApiError(b)) return a.fail(b);
  const bad = b.type === "periodic" ? (checkExpression(b.expression) ?? checkTimezone(b.timezone)) : undefined;
  if (bad !== undefined) return a.fail(bad);
  const metadata = metadataOf(b.metadata);
  if (isApiError(metadata)) return a.fail(metadata);
  const target = await targetOf(b.target, (raw.target ?? {}) as Json, rt);
  if (isApiError(target)) return a.fail(target);
  const base = { id: newId("auto_"), created_at: nowSeconds(), created_by: { type: "developer" as const } };
  const automation: StoredAutomation =
    b.type === "periodic"
      ? {
          ...base,
          expression: b.expression,
          metadata,
          name: b.name,
          object: "agent.automation",
          status: "active",
          target,
          timezone: b.timezone,
          type: "periodic",
          pause_reason: null,
          mock: { target: b.target },
        }
      : { ...base, metadata, name: b.name, object: "agent.automation", run_at: b.run_at, status: "active", target, type: "once", pause_reason: null, mock: { target: b.target } };
  await saveAll(agentsHome(rt), AUTOMATION_KIND, [automation], MAX_OBJECTS);
  return a.json(shownAutomation(automation));
}

async function update(request: Request, current: StoredAutomation, a: PlatformAnswer, rt: Runtime): Promise<Response> {
  const raw = await bodyOrError(request);
  if (isApiError(raw)) return a.fail(raw);
  const b = parsedBody(automationsWire().Update, raw);
  if (isApiError(b)) return a.fail(b);
  if (current.type === "once" && (b.expression !== undefined || b.timezone !== undefined))
    return a.fail(invalid(`Invalid '${b.expression !== undefined ? "expression" : "timezone"}': a 'once' automation runs at 'run_at'.`, b.expression !== undefined ? "expression" : "timezone"));
  if (current.type === "periodic" && b.run_at !== undefined) return a.fail(invalid("Invalid 'run_at': a 'periodic' automation runs on its 'expression'.", "run_at"));
  const bad = (b.expression !== undefined ? checkExpression(b.expression) : undefined) ?? (b.timezone !== undefined ? checkTimezone(b.timezone) : undefined);
  if (bad !== undefined) return a.fail(bad);
  const metadata = b.metadata === undefined ? current.metadata : metadataOf(b.metadata);
  if (isApiError(metadata)) return a.fail(metadata);
  const target = b.target === undefined ? current.target : await targetOf(b.target, (raw.target ?? {}) as Json, rt);
  if (isApiError(target)) return a.fail(target);
  const updated: StoredAutomation = {
    ...current,
    ...(b.expression !== undefined ? { expression: b.expression } : {}),
    ...(b.timezone !== undefined ? { timezone: b.timezone } : {}),
    ...(b.run_at !== undefined ? { run_at: b.run_at } : {}),
    name: b.name ?? current.name,
    metadata,
    target,
    mock: { target: b.target ?? current.mock.target },
  };
  await saveAll(agentsHome(rt), AUTOMATION_KIND, [updated], MAX_OBJECTS);
  return a.json(shownAutomation(updated));
}

/** Runs the automation's target now: a new session opened, or the instructions sent; the invocation records how it went. */
async function invoke(request: Request, path: string, automation: StoredAutomation, a: PlatformAnswer, rt: Runtime, local: SideRouteContext["local"]): Promise<Response> {
  const t = automation.mock.target;
  let sessionId: string | null = null;
  let failure: ApiError | undefined;
  if (t.type === "existing_session") {
    sessionId = t.session_id;
    failure = await applyToSession(rt, t.session_id, () => [textInput(t.instructions)], mcpReach(request, rt, local));
  } else {
    const messages = messagesOf(t.input, "target.input");
    const parts: SessionParts = { environment: t.environment, agent: t.agent, agent_id: t.agent_id, metadata: t.metadata, vault_ids: t.vault_ids, ...(isApiError(messages) ? {} : { messages }) };
    const opened = isApiError(messages) ? messages : await openSession(rt, request, path, local, parts, { agent: t.agent ?? {} });
    if (isApiError(opened)) failure = opened;
    else sessionId = opened.session.id;
  }
  const invocation: Invocation = {
    id: newId("ainv_"),
    automation_id: automation.id,
    created_at: nowSeconds(),
    error: failure === undefined ? null : { code: failure.code, message: failure.message },
    object: "agent.automation.invocation",
    scheduled_at: null,
    session_id: sessionId,
    skip_reason: null,
    source: { type: "manual" },
    status: failure === undefined ? "completed" : "failed",
  };
  await saveAll(agentsHome(rt), invocationsKind(automation.id), [invocation], MAX_INVOCATIONS);
  return a.json(invocation);
}

/** `/v1/agents/automations[/{id}[/pause|/resume|/invocations[/{id}]]]`. */
const ROUTE = /^automations(?:\/([^/]+)(?:\/(pause|resume|invocations)(?:\/([^/]+))?)?)?$/;

/** Serves `rest` (the path below `/v1/agents/`) when it is an automations route; undefined otherwise. */
export function serveAutomations(request: Request, path: string, rest: string, a: PlatformAnswer, rt: Runtime, local: SideRouteContext["local"]): Promise<Response> | Response | undefined {
  const m = ROUTE.exec(rest);
  if (m === null) return undefined;
  const home = agentsHome(rt);
  const [, rawId, action, rawInvocation] = m;
  if (rawId === undefined) {
    return byMethod(request, path, a, {
      async GET() {
        const sessionId = new URL(request.url).searchParams.get("session_id");
        const all = await loadAll<StoredAutomation>(home, AUTOMATION_KIND);
        const chosen = sessionId === null ? all : all.filter((x) => x.target.type === "existing_session" && x.target.session_id === sessionId);
        return listedPage(
          request,
          a,
          chosen.map((x) => shownAutomation(x) as Json & { id: string }),
        );
      },
      POST: () => create(request, a, rt),
    });
  }
  const id = safeDecode(rawId);
  return (async () => {
    const automation = await loadOne<StoredAutomation>(home, AUTOMATION_KIND, id);
    if (automation === undefined) return a.fail(automationNotFound(id));
    if (action === undefined) {
      return byMethod(request, path, a, {
        GET: () => a.json(shownAutomation(automation)),
        POST: () => update(request, automation, a, rt),
        async DELETE() {
          await home.deleteObject(AUTOMATION_KIND, id);
          return a.json({ id, deleted: true, object: "agent.automation.deleted" });
        },
      });
    }
    if (action === "pause" || action === "resume") {
      return byMethod(request, path, a, {
        async POST() {
          if (automation.status === "completed") return a.fail(invalid(`Automation ${id} has completed and cannot be ${action}d.`));
          const changed: StoredAutomation = { ...automation, status: action === "pause" ? "paused" : "active" };
          await saveAll(home, AUTOMATION_KIND, [changed], MAX_OBJECTS);
          return a.json(shownAutomation(changed));
        },
      });
    }
    if (rawInvocation === undefined) {
      return byMethod(request, path, a, {
        GET: async () => listedPage(request, a, await loadAll<Invocation>(home, invocationsKind(id))),
        POST: () => invoke(request, path, automation, a, rt, local),
      });
    }
    const invocationId = safeDecode(rawInvocation);
    return byMethod(request, path, a, {
      async GET() {
        const got = await loadOne<Invocation>(home, invocationsKind(id), invocationId);
        return got === undefined ? a.fail(apiError("not_found", `No invocation found with id '${echoed(invocationId)}'.`, { param: "invocation_id" })) : a.json(got);
      },
    });
  })();
}
