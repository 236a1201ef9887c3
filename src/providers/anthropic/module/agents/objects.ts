/**
 * Claude Managed Agents' objects as the API answers them (docs/providers/fidelity.md, "Managed agents"): an agent
 * (its model resolved to `{ id, effort, speed }`, its tools with every field), an environment, a session (with a
 * snapshot of its agent) — and the create and update bodies that make them, refused field by field as the API
 * refuses them (`name: Field required`).
 */
import { apiError, isApiError, type ApiError } from "../../../../http/errors";
import { isRecord } from "../../../../http/json";
import { sortableId } from "../../../../objects/ids";
import type { LineOrigin } from "../../../../turn/batch";

/** The built-in tools of `agent_toolset_20260401`, in the order the API lists their configs. */
export const AGENT_TOOLSET = "agent_toolset_20260401";
export const BUILT_IN_TOOLS = ["bash", "edit", "read", "write", "glob", "grep", "web_fetch", "web_search"] as const;

export type Policy = { type: "always_allow" | "always_ask" | "auto" };
type Json = Record<string, unknown>;

export interface Agent {
  id: string;
  type: "agent";
  name: string;
  description: string | null;
  system: string | null;
  model: { id: string; effort: { type: string }; speed: string };
  tools: Json[];
  mcp_servers: Json[];
  skills: Json[];
  metadata: Record<string, string>;
  execution_identity: Json;
  multiagent: Json | null;
  version: number;
  created_at: string;
  updated_at: string;
  archived_at: string | null;
}

export interface Environment {
  id: string;
  type: "environment";
  name: string;
  description: string | null;
  config: Json;
  metadata: Record<string, string>;
  scope: string;
  created_at: string;
  updated_at: string;
  archived_at: string | null;
}

/** An agent as a session keeps it: the agent's fields but its times and metadata. */
export type AgentSnapshot = Omit<Agent, "metadata" | "created_at" | "updated_at" | "archived_at">;

export interface SessionUsage {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation: { ephemeral_5m_input_tokens: number; ephemeral_1h_input_tokens: number };
  /** Cents at list price, `null` for a model with no list price (budget.ts). */
  list_cost: { amount: string; currency: "USD" } | null;
}

export interface AgentSession {
  id: string;
  type: "session";
  status: "idle" | "running" | "terminated" | "rescheduling";
  title: string | null;
  environment_id: string;
  agent: AgentSnapshot;
  resources: Json[];
  metadata: Record<string, string>;
  vault_ids: string[];
  budget: Json | null;
  outcome_evaluations: Json[];
  stats: { active_seconds: number; duration_seconds: number };
  usage: SessionUsage;
  created_at: string;
  updated_at: string;
  archived_at: string | null;
}

/** What mockllm keeps with a session beyond what the API shows (never rendered). */
export interface SessionState {
  /** The `/s/{scenario}/{session}` prefix and `x-mock-*` headers the session was created under: its model requests run there. */
  origin: LineOrigin;
  /** Events appended so far (a stream's place), however many the session still keeps. */
  events: number;
  /** Tool-use events waiting for the client: their ids, oldest first. */
  pending: string[];
  /** Whether the environment runs built-in tools on the client's side (`self_hosted`). */
  selfHosted: boolean;
  /** The list cost so far, in micro-dollars (budget.ts). */
  costMicros?: number;
  /** The session was created with a budget and has not had it removed: an update may set another. */
  budgetable?: boolean;
}

export type StoredSession = AgentSession & { mock: SessionState };

export const invalid = (message: string): ApiError => apiError("invalid_request", message);
export const conflict = (message: string): ApiError => apiError("invalid_request", message, { status: 409 });
export const agentNotFound = (id: string): ApiError => apiError("not_found", `Agent not found: ${id}`);
export const environmentNotFound = (id: string): ApiError => apiError("not_found", `Environment not found: ${id}`, { details: { error_code: "environment_not_found" } });
export const sessionNotFound = (id: string): ApiError => apiError("not_found", `Session not found: ${id}`);

/** RFC 3339 with milliseconds, as the API writes its times. */
export function timestamp(ms = Date.now()): string {
  return new Date(ms).toISOString();
}

export const newAgentId = (): string => sortableId("agent_011C", 12);
export const newEnvironmentId = (): string => sortableId("env_011C", 12);
export const newSessionId = (): string => sortableId("sesn_011C", 12);
export const newEventId = (): string => sortableId("sevt_011C", 12);

function str(v: unknown, field: string, max: number, required: boolean): string | undefined | ApiError {
  if (v === undefined || (v === null && !required)) return required ? invalid(`${field}: Field required`) : undefined;
  if (typeof v !== "string") return invalid(`${field}: Input should be a valid string`);
  if (required && v.trim() === "") return invalid(`${field}: String should have at least 1 character`);
  if (v.length > max) return invalid(`${field}: String should have at most ${max} characters`);
  return v;
}

/** `metadata` on create: at most 16 string pairs (keys ≤ 64 characters, values ≤ 512). */
function metadataOf(v: unknown, base: Record<string, string> = {}, patch = false): Record<string, string> | ApiError {
  if (v === undefined || v === null) return base;
  if (!isRecord(v)) return invalid("metadata: Input should be a valid dictionary");
  const out = { ...base };
  for (const [k, val] of Object.entries(v)) {
    if (k.length > 64) return invalid(`metadata: keys must be at most 64 characters`);
    if (patch && (val === null || val === "")) {
      delete out[k];
      continue;
    }
    if (typeof val !== "string") return invalid(`metadata.${k}: Input should be a valid string`);
    if (val.length > 512) return invalid(`metadata.${k}: values must be at most 512 characters`);
    out[k] = val;
  }
  if (Object.keys(out).length > 16) return invalid("metadata: at most 16 keys are allowed");
  return out;
}

const POLICIES = new Set(["always_allow", "always_ask", "auto"]);

function policyOf(v: unknown, field: string, fallback: Policy): Policy | ApiError {
  if (v === undefined || v === null) return fallback;
  if (!isRecord(v) || typeof v.type !== "string" || !POLICIES.has(v.type))
    return invalid(`${field}: Input tag '${isRecord(v) ? String(v.type) : ""}' found using 'type' does not match any of the expected tags: 'always_allow', 'always_ask', 'auto'`);
  return { type: v.type as Policy["type"] };
}

function enabledOf(v: unknown, field: string, fallback: boolean): boolean | ApiError {
  if (v === undefined || v === null) return fallback;
  return typeof v === "boolean" ? v : invalid(`${field}: Input should be a valid boolean`);
}

/** A toolset's `default_config` and `configs` resolved: every tool listed, each with `enabled` and its policy. */
function toolsetOf(t: Json, at: string, names: readonly string[] | undefined, defaultPolicy: Policy): Json | ApiError {
  const dc = t.default_config;
  if (dc !== undefined && dc !== null && !isRecord(dc)) return invalid(`${at}.default_config: Input should be a valid dictionary`);
  const enabled = enabledOf(isRecord(dc) ? dc.enabled : undefined, `${at}.default_config.enabled`, true);
  if (isApiError(enabled)) return enabled;
  const policy = policyOf(isRecord(dc) ? dc.permission_policy : undefined, `${at}.default_config.permission_policy`, defaultPolicy);
  if (isApiError(policy)) return policy;
  const given = t.configs ?? [];
  if (!Array.isArray(given)) return invalid(`${at}.configs: Input should be a valid list`);
  const configs = new Map<string, Json>();
  for (const [i, c] of given.entries()) {
    if (!isRecord(c) || typeof c.name !== "string") return invalid(`${at}.configs.${i}.name: Field required`);
    if (names !== undefined && !names.includes(c.name)) return invalid(`${at}.configs.${i}.name: Input should be ${names.map((n) => `'${n}'`).join(", ")}`);
    if (configs.has(c.name)) return invalid(`${at}.configs: duplicate config for tool '${c.name}'`);
    const e = enabledOf(c.enabled, `${at}.configs.${i}.enabled`, enabled);
    if (isApiError(e)) return e;
    const p = policyOf(c.permission_policy, `${at}.configs.${i}.permission_policy`, policy);
    if (isApiError(p)) return p;
    configs.set(c.name, names !== undefined ? { type: c.name, name: c.name, enabled: e, permission_policy: p } : { name: c.name, enabled: e, permission_policy: p });
  }
  const all = names === undefined ? [...configs.values()] : names.map((n) => configs.get(n) ?? { type: n, name: n, enabled, permission_policy: policy });
  return { default_config: { enabled, permission_policy: policy }, configs: all };
}

/** `tools` resolved as the API answers them: toolsets with every config, custom tools with their schema. */
function toolsOf(v: unknown, mcpNames: Set<string>): Json[] | ApiError {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) return invalid("tools: Input should be a valid list");
  if (v.length > 128) return invalid("tools: List should have at most 128 items after validation");
  const out: Json[] = [];
  const names = new Set<string>();
  for (const [i, t] of v.entries()) {
    const at = `tools.${i}`;
    if (!isRecord(t)) return invalid(`${at}: Input should be a valid dictionary`);
    if (t.type === AGENT_TOOLSET) {
      const set = toolsetOf(t, at, BUILT_IN_TOOLS, { type: "always_allow" });
      if (isApiError(set)) return set;
      out.push({ type: AGENT_TOOLSET, ...set });
    } else if (t.type === "mcp_toolset") {
      if (typeof t.mcp_server_name !== "string" || !mcpNames.has(t.mcp_server_name)) return invalid(`${at}.mcp_server_name: must name one of the agent's mcp_servers`);
      const set = toolsetOf(t, at, undefined, { type: "always_ask" });
      if (isApiError(set)) return set;
      out.push({ type: "mcp_toolset", mcp_server_name: t.mcp_server_name, ...set });
    } else if (t.type === "custom") {
      const name = str(t.name, `${at}.name`, 128, true);
      if (isApiError(name) || name === undefined) return isApiError(name) ? name : invalid(`${at}.name: Field required`);
      if (!/^[a-zA-Z0-9_-]{1,128}$/.test(name)) return invalid(`${at}.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`);
      if (names.has(name) || (BUILT_IN_TOOLS as readonly string[]).includes(name)) return invalid(`${at}.name: tool names must be unique: '${name}'`);
      names.add(name);
      if (!isRecord(t.input_schema)) return invalid(`${at}.input_schema: Field required`);
      const description = str(t.description, `${at}.description`, 1024, false);
      if (isApiError(description)) return description;
      out.push({ type: "custom", name, description: description ?? "", input_schema: t.input_schema });
    } else {
      return invalid(`${at}: Input tag '${String(t.type)}' found using 'type' does not match any of the expected tags: '${AGENT_TOOLSET}', 'mcp_toolset', 'custom'`);
    }
  }
  return out;
}

function mcpServersOf(v: unknown): Json[] | ApiError {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) return invalid("mcp_servers: Input should be a valid list");
  if (v.length > 20) return invalid("mcp_servers: List should have at most 20 items after validation");
  const seen = new Set<string>();
  const out: Json[] = [];
  for (const [i, s] of v.entries()) {
    if (!isRecord(s) || typeof s.name !== "string" || s.name === "") return invalid(`mcp_servers.${i}.name: Field required`);
    if (typeof s.url !== "string") return invalid(`mcp_servers.${i}.url: Field required`);
    if (seen.has(s.name)) return invalid(`mcp_servers: duplicate server name '${s.name}'`);
    seen.add(s.name);
    out.push({ type: "url", name: s.name, url: s.url });
  }
  return out;
}

function modelOf(v: unknown, field = "model"): Agent["model"] | ApiError {
  if (typeof v === "string" && v !== "") return { id: v, effort: { type: "high" }, speed: "standard" };
  if (!isRecord(v)) return invalid(`${field}: Field required`);
  if (typeof v.id !== "string" || v.id === "") return invalid(`${field}.id: Field required`);
  const effort = v.effort === undefined || v.effort === null ? "high" : typeof v.effort === "string" ? v.effort : isRecord(v.effort) ? v.effort.type : undefined;
  if (typeof effort !== "string" || !["low", "medium", "high", "xhigh", "max"].includes(effort)) return invalid(`${field}.effort: Input should be 'low', 'medium', 'high', 'xhigh' or 'max'`);
  const speed = v.speed ?? "standard";
  if (speed !== "standard" && speed !== "fast") return invalid(`${field}.speed: Input should be 'standard' or 'fast'`);
  return { id: v.id, effort: { type: effort }, speed };
}

function skillsOf(v: unknown): Json[] | ApiError {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v)) return invalid("skills: Input should be a valid list");
  return v.map((s) => (isRecord(s) ? { type: s.type ?? "custom", skill_id: s.skill_id, version: s.version === undefined || s.version === null ? "latest" : String(s.version) } : s)) as Json[];
}

/** The fields an agent's create or update body sets; `base` is the agent being updated (whose fields stay when omitted). */
export function agentFields(body: Json, base?: Agent): Omit<Agent, "id" | "type" | "version" | "created_at" | "updated_at" | "archived_at"> | ApiError {
  const name = base !== undefined && body.name === undefined ? base.name : str(body.name, "name", 256, true);
  if (isApiError(name) || name === undefined) return isApiError(name) ? name : invalid("name: Field required");
  const model = base !== undefined && body.model === undefined ? base.model : modelOf(body.model);
  if (isApiError(model)) return model;
  const cleared = (v: unknown) => v === null || v === "";
  const system = body.system === undefined ? (base?.system ?? null) : cleared(body.system) ? null : str(body.system, "system", 100_000, false);
  if (isApiError(system)) return system;
  const description = body.description === undefined ? (base?.description ?? null) : cleared(body.description) ? null : str(body.description, "description", 2048, false);
  if (isApiError(description)) return description;
  const mcpServers = body.mcp_servers === undefined && base !== undefined ? base.mcp_servers : mcpServersOf(body.mcp_servers);
  if (isApiError(mcpServers)) return mcpServers;
  const tools = body.tools === undefined && base !== undefined ? base.tools : toolsOf(body.tools, new Set(mcpServers.map((s) => String(s.name))));
  if (isApiError(tools)) return tools;
  const skills = body.skills === undefined && base !== undefined ? base.skills : skillsOf(body.skills);
  if (isApiError(skills)) return skills;
  const metadata = metadataOf(body.metadata, base?.metadata ?? {}, base !== undefined);
  if (isApiError(metadata)) return metadata;
  return {
    name,
    description: description ?? null,
    system: system ?? null,
    model,
    tools,
    mcp_servers: mcpServers,
    skills,
    metadata,
    execution_identity: isRecord(body.execution_identity) ? body.execution_identity : (base?.execution_identity ?? { type: "service_account" }),
    multiagent: isRecord(body.multiagent) ? body.multiagent : (base?.multiagent ?? null),
  };
}

export function snapshot(a: Agent): AgentSnapshot {
  const { metadata: _m, created_at: _c, updated_at: _u, archived_at: _a, ...rest } = a;
  return rest;
}

function configOf(v: unknown, base?: Json): Json | ApiError {
  if (v === undefined || v === null) return base ?? { type: "cloud", networking: { type: "unrestricted" }, packages: { type: "packages", apt: [], cargo: [], gem: [], go: [], npm: [], pip: [] } };
  if (!isRecord(v)) return invalid("config: Input should be a valid dictionary");
  if (v.type === "self_hosted") {
    if (base !== undefined && base.type !== "self_hosted") return apiError("invalid_request", "config.type cannot be changed", { details: { error_code: "invalid_config_type_change" } });
    return { type: "self_hosted" };
  }
  if (v.type !== "cloud") return invalid(`config: Input tag '${String(v.type)}' found using 'type' does not match any of the expected tags: 'cloud', 'self_hosted'`);
  if (base !== undefined && base.type !== "cloud") return apiError("invalid_request", "config.type cannot be changed", { details: { error_code: "invalid_config_type_change" } });
  const networking = v.networking ?? base?.networking ?? { type: "unrestricted" };
  if (!isRecord(networking) || (networking.type !== "unrestricted" && networking.type !== "limited"))
    return invalid("config.networking: Input tag does not match any of the expected tags: 'unrestricted', 'limited'");
  const net =
    networking.type === "limited"
      ? {
          type: "limited",
          allowed_hosts: Array.isArray(networking.allowed_hosts) ? networking.allowed_hosts : [],
          allow_mcp_servers: networking.allow_mcp_servers === true,
          allow_package_managers: networking.allow_package_managers === true,
        }
      : { type: "unrestricted" };
  const given = isRecord(v.packages) ? v.packages : isRecord(base?.packages) ? base.packages : {};
  const list = (k: string) => (Array.isArray(given[k]) ? given[k] : []);
  return { type: "cloud", networking: net, packages: { type: "packages", apt: list("apt"), cargo: list("cargo"), gem: list("gem"), go: list("go"), npm: list("npm"), pip: list("pip") } };
}

/** The fields an environment's create or update body sets. */
export function environmentFields(body: Json, base?: Environment): Pick<Environment, "name" | "description" | "config" | "metadata" | "scope"> | ApiError {
  const name = base !== undefined && body.name === undefined ? base.name : str(body.name, "name", 256, true);
  if (isApiError(name) || name === undefined) return isApiError(name) ? name : invalid("name: Field required");
  const description = body.description === undefined ? (base?.description ?? null) : body.description === null || body.description === "" ? null : str(body.description, "description", 2048, false);
  if (isApiError(description)) return description;
  const config = configOf(body.config, base?.config);
  if (isApiError(config)) return config;
  const metadata = metadataOf(body.metadata, base?.metadata ?? {}, base !== undefined);
  if (isApiError(metadata)) return isApiError(metadata) && base !== undefined ? { ...metadata, details: { error_code: "invalid_metadata" } } : metadata;
  const scope = body.scope ?? base?.scope ?? "organization";
  if (scope !== "organization" && scope !== "account") return invalid("scope: Input should be 'organization' or 'account'");
  return { name, description: description ?? null, config, metadata, scope };
}

export { isApiError, metadataOf, str as stringField };
