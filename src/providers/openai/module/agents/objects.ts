/**
 * OpenAI's Agents API objects as the API answers them (`client.beta.agents`, header `OpenAI-Beta: agents=v1`): a
 * reusable agent with every setting resolved, a session (its agent resolved from a saved agent and the session's
 * overrides, its environment, status, required actions and usage), a turn — and the bodies that make them, refused
 * as the platform refuses a body (`openaiRequestError`: "Missing required parameter: 'model'.").
 */
import { z } from "zod";
import { apiError, isApiError, type ApiError } from "../../../../http/errors";
import { randomHex } from "../../../../objects/ids";
import { lazily } from "../../../../util/memo";
import { echoed } from "../../../../util/text";
import type { LineOrigin } from "../../../../turn/batch";
import { checkMetadata, invalid, nowSeconds } from "../../platform";

type Json = Record<string, unknown>;

const EFFORTS = ["none", "minimal", "low", "medium", "high", "xhigh", "max"] as const;
const TIERS = ["auto", "default", "flex", "priority", "fast", "ultrafast"] as const;
/** The tool types of the API's agents; mockllm plays functions and MCP servers (the others' calls are the hosted harness's own). */
const TOOL_TYPES = ["function", "tool_search", "programmatic_tool_calling", "mcp", "web_search", "computer_use", "automations"];
/** The resolved tool list's bound (the API's: 3 MiB of compact JSON). */
const MAX_TOOLS_BYTES = 3_145_728;

/** The hosted configuration's fields, as every body that carries one takes them. */
export const hostedWire = lazily(() => {
  const obj = z.strictObject;
  const strings = z.array(z.string()).nullish();
  const fields = {
    capability_directories: strings,
    desktop: obj({ enabled: z.boolean() }).nullish(),
    env: z.record(z.string(), z.string()).nullish(),
    files: z
      .array(
        z.discriminatedUnion("type", [
          obj({ type: z.literal("file_id"), file_id: z.string().min(1), path: z.string().min(1) }),
          obj({ type: z.literal("inline"), data: z.string(), path: z.string().min(1) }),
        ]),
      )
      .nullish(),
    network: obj({ access: z.enum(["enabled", "disabled", "restricted"]), allowed_domains: strings, blocked_domains: strings }).nullish(),
    packages: obj({ npm: strings, python: strings, system: strings }).nullish(),
    plugins: z.array(z.unknown()).nullish(),
    setup_commands: z.array(z.unknown()).nullish(),
    skills: z.array(z.unknown()).nullish(),
  };
  const Template = z.object({ name: z.string().max(256).nullish(), ...fields });
  const EnvironmentCreate = z.object({
    environment: obj({ type: z.literal("openai_hosted"), environment_template_id: z.string().min(1).optional(), ...fields }),
    vault_ids: z.array(z.string()).nullish(),
  });
  return { fields, Template, EnvironmentCreate };
});

/** The request schemas, built on the first Agents request (util/memo.ts `lazily`). */
export const agentsWire = lazily(() => {
  // Strict objects: a field the API does not know is refused ("Unknown parameter: 'agent.colour'."), never dropped.
  const obj = z.strictObject;
  const FunctionTool = obj({
    type: z.literal("function"),
    name: z.string().min(1).max(128),
    description: z.string(),
    parameters: z.record(z.string(), z.unknown()),
    async: z.boolean().optional(),
    defer_loading: z.boolean().optional(),
  });
  // An MCP server the agent calls over HTTP (a saved agent's are credential-free; a session's may carry `authorization`).
  const mcpFields = (authorization: boolean) => ({
    type: z.literal("mcp"),
    server_label: z.string().min(1).max(64),
    transport: z.discriminatedUnion("type", [
      obj({
        type: z.literal("http"),
        server_url: z.string().min(1),
        headers: z.record(z.string(), z.string()).nullish(),
        ...(authorization ? { authorization: z.string().nullish() } : {}),
      }),
      z.looseObject({ type: z.literal("stdio") }),
    ]),
    allowed_tools: z.array(z.string()).nullish(),
    connection_origin: z.enum(["service", "environment"]).nullish(),
    credential_id: z.string().nullish(),
    request_metadata: z.record(z.string(), z.unknown()).nullish(),
    required: z.boolean().optional(),
  });
  const SavedTool = z.discriminatedUnion("type", [FunctionTool, obj(mcpFields(false))]);
  const SessionTool = z.discriminatedUnion("type", [FunctionTool, obj(mcpFields(true))]);
  const Format = z.discriminatedUnion("type", [obj({ type: z.literal("text") }), obj({ type: z.literal("json_schema"), schema: z.record(z.string(), z.unknown()) })]);
  const settings = {
    instructions: z.string().nullish(),
    reasoning: obj({ effort: z.enum(EFFORTS).nullish(), summary: z.enum(["concise", "detailed", "auto"]).nullish() }).nullish(),
    service_tier: z.enum(TIERS).nullish(),
    text: obj({ format: Format.nullish(), verbosity: z.enum(["low", "medium", "high"]).nullish() }).nullish(),
    tools: z.array(SavedTool).nullish(),
    compaction: obj({ async: z.boolean().nullish() }).nullish(),
    experimental: obj({ time_awareness: z.boolean().optional() }).optional(),
    multi_agent: obj({ enabled: z.boolean(), max_concurrent_subagents: z.number().int().min(1).optional() }).nullish(),
  };
  // `metadata` is checked as the platform checks it (metadataOf), after the schema.
  const AgentCreate = z.object({ model: z.string().min(1), name: z.string().max(256).nullish(), metadata: z.unknown().optional(), ...settings });
  const AgentUpdate = z.object({ model: z.string().min(1).optional(), name: z.string().max(256).nullish(), metadata: z.unknown().optional(), ...settings });
  const InputContent = z.discriminatedUnion("type", [obj({ type: z.literal("input_text"), text: z.string() }), obj({ type: z.literal("input_image"), image_url: z.string() })]);
  const InputMessage = obj({ role: z.literal("user"), content: z.array(InputContent).min(1), type: z.literal("message").optional() });
  const Input = z.union([z.string().min(1), z.array(InputMessage).min(1)]);
  const strings = z.array(z.string()).nullish();
  const Environment = z.discriminatedUnion("type", [
    obj({ type: z.literal("none") }),
    obj({ type: z.literal("self_hosted"), workspace_directory: z.string().min(1), capability_directories: strings }),
    obj({
      type: z.literal("openai_hosted"),
      environment_id: z.string().min(1).optional(),
      environment_template_id: z.string().min(1).optional(),
      container_size: z.enum(["small", "medium", "large"]).optional(),
      ...hostedWire().fields,
    }),
  ]);
  const CacheOptions = obj({ ttl: z.enum(["30m", "12h"]).optional() }).nullish();
  const SessionCreate = z.object({
    environment: Environment,
    agent: obj({ model: z.string().min(1).optional(), ...settings, tools: z.array(SessionTool).nullish() }).optional(),
    agent_id: z.string().min(1).optional(),
    input: Input.nullish(),
    metadata: z.unknown().optional(),
    prompt_cache_options: CacheOptions,
    review: z.enum(["none", "auto_review"]).optional(),
    stream: z.boolean().optional(),
    stream_options: obj({ include_obfuscation: z.boolean().optional() }).optional(),
    vault_ids: z.array(z.string()).nullish(),
  });
  const SessionUpdate = z.object({
    agent: obj({
      model: z.string().min(1).optional(),
      reasoning: obj({ effort: z.enum(EFFORTS).nullish() }).optional(),
      service_tier: z.enum(TIERS).nullish(),
      tools: z.array(SessionTool).nullish(),
    }).optional(),
    metadata: z.unknown().optional(),
    prompt_cache_options: CacheOptions,
    review: z.enum(["none", "auto_review"]).optional(),
  });
  return { AgentCreate, AgentUpdate, SessionCreate, SessionUpdate, InputMessage, SessionTool };
});

type Wire = ReturnType<typeof agentsWire>;
export type AgentSettings = z.infer<Wire["AgentUpdate"]>;
export type SessionCreateBody = z.infer<Wire["SessionCreate"]>;
export type SessionUpdateBody = z.infer<Wire["SessionUpdate"]>;
export type InputMessage = z.infer<Wire["InputMessage"]>;

/** An MCP server the agent calls, as kept (`authorization`, a session's only, is never answered back). */
export interface McpTool {
  type: "mcp";
  server_label: string;
  transport: { type: "http"; server_url: string; headers: Record<string, string>; authorization?: string };
  allowed_tools: string[] | null;
  connection_origin: "service" | "environment";
  credential_id: string | null;
  request_metadata: Record<string, unknown>;
  required: boolean;
}

export type AgentTool = FunctionTool | McpTool;

export interface FunctionTool {
  type: "function";
  name: string;
  description: string;
  parameters: Json;
  defer_loading: boolean;
  async?: boolean;
}

/** What an agent and a session's agent share: every setting resolved. */
export interface AgentConfig {
  instructions: string | null;
  model: string;
  multi_agent: { enabled: boolean; max_concurrent_subagents: number | null };
  reasoning: { effort: (typeof EFFORTS)[number] | null; summary: "concise" | "detailed" | "auto" | null };
  service_tier: (typeof TIERS)[number];
  text: { format: { type: "text" } | { type: "json_schema"; schema: Json }; verbosity: "low" | "medium" | "high" };
  tools: AgentTool[];
  compaction: { async: boolean };
  experimental: { time_awareness: boolean };
}

export interface Agent extends AgentConfig {
  id: string;
  object: "agent";
  created_at: number;
  updated_at: number;
  name: string | null;
  metadata: Record<string, string>;
}

export interface TokenUsage {
  input_tokens: number;
  input_tokens_details: { cached_tokens: number };
  output_tokens: number;
  output_tokens_details: { reasoning_tokens: number };
  total_tokens: number;
}

export interface RequiredAction {
  type: "function_call";
  arguments: unknown;
  call_id: string;
  name: string;
  turn_id: string;
}

export interface AgentSession {
  id: string;
  object: "agent.session";
  agent: AgentConfig & { id: string; name: string | null };
  created_at: number;
  environment: Json;
  error: string | null;
  last_active_at: number;
  metadata: Record<string, string>;
  required_actions: RequiredAction[];
  status: "idle" | "in_progress" | "requires_action" | "failed";
  usage: TokenUsage | null;
  vault_ids: string[];
  prompt_cache_options: { ttl: "30m" | "12h" } | null;
  review?: "none" | "auto_review";
}

/** A session as mockllm keeps it: the API's object and where its model requests run. */
export interface StoredSession extends AgentSession {
  mock: {
    origin: LineOrigin;
    /** Changes that appended events so far (a stream's place: store.ts `HEAD_KIND`). */
    events: number;
    /** The turn that runs or waits, if any. */
    turn: string | null;
    /** The `Idempotency-Key`s of the latest sends, hashed (a retried send is answered, not applied again). */
    keys: string[];
  };
}

export interface Turn {
  id: string;
  agent_id: string;
  completed_at: number | null;
  created_at: number;
  error: { code: string; message: string } | null;
  object: "agent.session.turn";
  session_id: string;
  started_at: number | null;
  status: "queued" | "in_progress" | "waiting" | "completed" | "failed" | "cancelled";
  subagent_id: null;
  usage: TokenUsage | null;
  prompt_cache_options: { ttl: "30m" | "12h" } | null;
}

/** Ids as the API's look: a prefix and 32 hex digits. */
export const newId = (prefix: string): string => `${prefix}${randomHex(32)}`;

/** A tool list as kept: defaults filled, function names and server labels unique, within the API's size bound. */
function toolsOf(tools: readonly z.infer<Wire["SessionTool"]>[], at: string): AgentTool[] | ApiError {
  const seen = new Set<string>();
  const out: AgentTool[] = [];
  for (const [i, t] of tools.entries()) {
    const key = t.type === "function" ? `function:${t.name}` : `mcp:${t.server_label}`;
    if (seen.has(key)) {
      const field = t.type === "function" ? "name" : "server_label";
      return invalid(
        `Invalid '${at}[${i}].${field}': duplicate ${t.type === "function" ? "tool name" : "MCP server label"} '${echoed(t.type === "function" ? t.name : t.server_label)}'.`,
        `${at}[${i}].${field}`,
      );
    }
    seen.add(key);
    if (t.type === "function") {
      out.push({ type: "function", name: t.name, description: t.description, parameters: t.parameters, defer_loading: t.defer_loading ?? false, ...(t.async !== undefined ? { async: t.async } : {}) });
      continue;
    }
    const transport = t.transport as { type: string; server_url?: string; headers?: Record<string, string> | null; authorization?: string | null };
    if (transport.type !== "http" || transport.server_url === undefined)
      return invalid(`mockllm starts no MCP server process: '${at}[${i}].transport' must be an 'http' transport (docs/guide/openai-agents.md).`, `${at}[${i}].transport.type`);
    out.push({
      type: "mcp",
      server_label: t.server_label,
      transport: {
        type: "http",
        server_url: transport.server_url,
        headers: transport.headers ?? {},
        ...(typeof transport.authorization === "string" ? { authorization: transport.authorization } : {}),
      },
      allowed_tools: t.allowed_tools ?? null,
      connection_origin: t.connection_origin ?? "service",
      credential_id: t.credential_id ?? null,
      request_metadata: t.request_metadata ?? {},
      required: t.required ?? false,
    });
  }
  if (JSON.stringify(out).length > MAX_TOOLS_BYTES) return invalid(`Invalid '${at}': the tool list exceeds ${MAX_TOOLS_BYTES} bytes of compact JSON.`, at);
  return out;
}

/** The first tool of a body mockllm does not play (any but a function or an MCP server), refused with what it does play. */
export function unplayedTool(body: Json, at: string): ApiError | undefined {
  const tools = body.tools;
  if (!Array.isArray(tools)) return undefined;
  for (const [i, t] of tools.entries()) {
    const type = typeof t === "object" && t !== null ? (t as Json).type : undefined;
    if (type === "function" || type === "mcp") continue;
    if (typeof type === "string" && TOOL_TYPES.includes(type))
      return invalid(`mockllm plays an agent's function and MCP tools; '${type}' tools are not served (docs/guide/openai-agents.md).`, `${at}[${i}].type`);
    return invalid(`Invalid value for '${at}[${i}].type': expected one of ${TOOL_TYPES.map((x) => `'${x}'`).join(", ")}.`, `${at}[${i}].type`);
  }
  return undefined;
}

/** `base` with the settings `s` names changed (omitted ones kept; null resets a setting to its default). */
export function configWith(base: AgentConfig, s: AgentSettings, at: string): AgentConfig | ApiError {
  const tools = s.tools === undefined ? base.tools : toolsOf(s.tools ?? [], at === "" ? "tools" : `${at}.tools`);
  if (isApiError(tools)) return tools;
  const r = s.reasoning;
  const t = s.text;
  return {
    instructions: s.instructions === undefined ? base.instructions : s.instructions,
    model: s.model ?? base.model,
    multi_agent:
      s.multi_agent === undefined
        ? base.multi_agent
        : s.multi_agent === null
          ? NO_MULTI_AGENT
          : { enabled: s.multi_agent.enabled, max_concurrent_subagents: s.multi_agent.enabled ? (s.multi_agent.max_concurrent_subagents ?? 6) : null },
    reasoning:
      r === undefined
        ? base.reasoning
        : r === null
          ? { effort: null, summary: null }
          : { effort: r.effort === undefined ? base.reasoning.effort : r.effort, summary: r.summary === undefined ? base.reasoning.summary : r.summary },
    service_tier: s.service_tier === undefined ? base.service_tier : (s.service_tier ?? "auto"),
    text:
      t === undefined
        ? base.text
        : t === null
          ? DEFAULT_TEXT
          : { format: t.format === undefined ? base.text.format : (t.format ?? { type: "text" }), verbosity: t.verbosity === undefined ? base.text.verbosity : (t.verbosity ?? "medium") },
    tools,
    compaction: s.compaction === undefined ? base.compaction : { async: s.compaction?.async ?? false },
    experimental: s.experimental === undefined ? base.experimental : { time_awareness: s.experimental.time_awareness ?? base.experimental.time_awareness },
  };
}

const NO_MULTI_AGENT = { enabled: false, max_concurrent_subagents: null };
const DEFAULT_TEXT: AgentConfig["text"] = { format: { type: "text" }, verbosity: "medium" };

/** An agent with every setting at the API's default (what a body's settings change). */
export function defaultConfig(model: string): AgentConfig {
  return {
    instructions: null,
    model,
    multi_agent: NO_MULTI_AGENT,
    reasoning: { effort: null, summary: null },
    service_tier: "auto",
    text: DEFAULT_TEXT,
    tools: [],
    compaction: { async: false },
    experimental: { time_awareness: false },
  };
}

/** `metadata` of a body: checked as the platform checks it, absent or null an empty map. */
export function metadataOf(value: unknown): Record<string, string> | ApiError {
  const got = checkMetadata(value);
  return got.ok ? (got.value ?? {}) : got.error;
}

/** A new agent from a create body. */
export function newAgent(b: z.infer<Wire["AgentCreate"]>, metadata: Record<string, string>): Agent | ApiError {
  const config = configWith(defaultConfig(b.model), b, "");
  if (isApiError(config)) return config;
  const now = nowSeconds();
  return { id: newId("agent_"), object: "agent", created_at: now, updated_at: now, name: b.name ?? null, metadata, ...config };
}

export const agentNotFound = (id: string): ApiError => apiError("not_found", `No agent found with id '${echoed(id)}'.`, { param: "agent_id" });
export const sessionNotFound = (id: string): ApiError => apiError("not_found", `No session found with id '${echoed(id)}'.`, { param: "session_id" });
export const turnNotFound = (id: string): ApiError => apiError("not_found", `No turn found with id '${echoed(id)}' in this session.`, { param: "turn_id" });

/** An empty usage, what a turn's and a session's start from. */
export function noUsage(): TokenUsage {
  return { input_tokens: 0, input_tokens_details: { cached_tokens: 0 }, output_tokens: 0, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 0 };
}

/** Adds a Responses usage (the same fields) to `into`. */
export function addUsage(into: TokenUsage, u: unknown): void {
  const r = (typeof u === "object" && u !== null ? u : {}) as Json;
  const n = (v: unknown) => (typeof v === "number" ? v : 0);
  const details = (k: string, f: string) => n(typeof r[k] === "object" && r[k] !== null ? (r[k] as Json)[f] : 0);
  into.input_tokens += n(r.input_tokens);
  into.input_tokens_details.cached_tokens += details("input_tokens_details", "cached_tokens");
  into.output_tokens += n(r.output_tokens);
  into.output_tokens_details.reasoning_tokens += details("output_tokens_details", "reasoning_tokens");
  into.total_tokens += n(r.total_tokens);
}

/** A session as the API answers it (what mockllm keeps beside it left out). */
export function shown(s: StoredSession): AgentSession {
  const { mock: _m, ...session } = s;
  const copy = structuredClone(session);
  copy.agent.tools = sessionTools(copy.agent.tools);
  return copy;
}

/** Tools as a session (or an automation's target) answers them: an MCP transport's URL alone (the API's `McpTransportResourceHTTP`), no headers, no credential. */
export function sessionTools(tools: readonly AgentTool[]): AgentTool[] {
  return tools.map((t) => (t.type === "mcp" ? { ...t, transport: { server_url: t.transport.server_url, type: "http" } as McpTool["transport"] } : t));
}
