/**
 * Opening an Agents API session: its agent (a saved one with overrides, or the body's own), its environment resolved,
 * its vaults' credentials given to its MCP servers, its first turn run. A session create and an automation's
 * invocation both open one here.
 */
import { isApiError, type ApiError } from "../../../../http/errors";
import type { Runtime } from "../../../../runtime/types";
import { originHeaders, requestPrefix } from "../../../../turn/batch";
import type { SideRouteContext } from "../../../types";
import { invalid, nowSeconds } from "../../platform";
import { hostedConfig, savedEnvironment, templateConfig } from "./environments";
import { mcpReach, saveLog } from "./events";
import { SessionLog, startTurn, type Item } from "./loop";
import { agentNotFound, configWith, defaultConfig, metadataOf, newId, unplayedTool, type Agent, type SessionCreateBody, type StoredSession } from "./objects";
import { AGENT_KIND, agentsHome, loadOne } from "./store";
import { withVaultCredentials } from "./vaults";

type Json = Record<string, unknown>;

/**
 * The environment a session runs in, as the API answers it: none, a self-hosted one (its connect URL), or a hosted one
 * — inline (from a template, if named) or a saved environment by id.
 */
export async function environmentOf(env: SessionCreateBody["environment"], rt: Runtime): Promise<Json | ApiError> {
  if (env.type === "none") return { type: "none" };
  if (env.type === "self_hosted") {
    const id = newId("env_");
    return {
      id,
      capability_directories: env.capability_directories ?? [],
      remote_url: `wss://mockllm.invalid/v1/agents/environments/${id}/connect`,
      type: "self_hosted",
      workspace_directory: env.workspace_directory,
    };
  }
  const { type: _t, environment_id: envId, environment_template_id: templateId, container_size, ...fields } = env;
  if (envId !== undefined) {
    const other = Object.keys(env).find((k) => k !== "type" && k !== "environment_id");
    if (other !== undefined) return invalid(`Invalid 'environment.${other}': an existing environment ('environment_id') takes no configuration.`, `environment.${other}`);
    const saved = await savedEnvironment(rt, envId);
    return isApiError(saved) ? saved : { id: saved.id, ...saved.mock.config, type: "openai_hosted", container_size: null };
  }
  const base = templateId === undefined ? undefined : await templateConfig(rt, templateId);
  if (isApiError(base)) return base;
  const config = await hostedConfig(fields, "environment.", rt, base);
  return isApiError(config) ? config : { id: newId("env_"), ...config, type: "openai_hosted", container_size: container_size ?? null };
}

/** The session's agent: the saved agent `agent_id` names with the body's overrides, or the body's own (a model). */
async function sessionAgent(b: Pick<SessionCreateBody, "agent" | "agent_id">, raw: Json, rt: Runtime): Promise<StoredSession["agent"] | ApiError> {
  const overrides = b.agent ?? {};
  const unplayed = unplayedTool(typeof raw.agent === "object" && raw.agent !== null ? (raw.agent as Json) : {}, "agent.tools");
  if (unplayed !== undefined) return unplayed;
  if (b.agent_id !== undefined) {
    const saved = await loadOne<Agent>(agentsHome(rt), AGENT_KIND, b.agent_id);
    if (saved === undefined) return agentNotFound(b.agent_id);
    const config = configWith(saved, overrides, "agent");
    return isApiError(config) ? config : { id: saved.id, name: saved.name, ...config };
  }
  if (overrides.model === undefined) return invalid("Missing required parameter: 'agent.model' (a session without 'agent_id' names its model).", "agent.model");
  const config = configWith(defaultConfig(overrides.model), overrides, "agent");
  return isApiError(config) ? config : { id: newId("agent_"), name: null, ...config };
}

/** What a new session is made of: a create body's parts (also an automation's target), and its first input. */
export type SessionParts = Pick<SessionCreateBody, "environment" | "agent" | "agent_id" | "metadata" | "prompt_cache_options" | "review" | "vault_ids"> & {
  messages?: Json[][];
};

/**
 * A new session from `parts`, under the prefix and `x-mock-*` headers of `request` (its model requests' origin), its
 * first turn run when it has input; saved. `raw` is the body the parts came from (its tools' types checked).
 */
export async function openSession(
  rt: Runtime,
  request: Request,
  path: string,
  local: SideRouteContext["local"],
  parts: SessionParts,
  raw: Json,
): Promise<{ session: StoredSession; log: SessionLog } | ApiError> {
  const metadata = metadataOf(parts.metadata);
  if (isApiError(metadata)) return metadata;
  const resolved = await sessionAgent(parts, raw, rt);
  if (isApiError(resolved)) return resolved;
  // The session's vaults must be the caller's; its MCP tools take their tokens from their credentials.
  const tools = await withVaultCredentials(rt, parts.vault_ids ?? [], resolved.tools);
  if (isApiError(tools)) return tools;
  const environment = await environmentOf(parts.environment, rt);
  if (isApiError(environment)) return environment;
  const now = nowSeconds();
  const session: StoredSession = {
    id: newId("sess_"),
    object: "agent.session",
    agent: { ...resolved, tools },
    created_at: now,
    environment,
    error: null,
    last_active_at: now,
    metadata,
    required_actions: [],
    status: "idle",
    usage: null,
    vault_ids: parts.vault_ids ?? [],
    prompt_cache_options: parts.prompt_cache_options?.ttl !== undefined ? { ttl: parts.prompt_cache_options.ttl } : null,
    ...(parts.review !== undefined ? { review: parts.review } : {}),
    mock: { origin: { prefix: requestPrefix(request, path).prefix, headers: originHeaders(request.headers), path: "/v1/responses" }, events: 0, turn: null, keys: [] },
  };
  const log = new SessionLog(session);
  log.sessionEvent("agent.session.created");
  if (parts.messages !== undefined) await startTurn({ rt, items: [] as Item[], mcp: mcpReach(request, rt, local) }, log, parts.messages);
  await saveLog(rt, log);
  return { session, log };
}
