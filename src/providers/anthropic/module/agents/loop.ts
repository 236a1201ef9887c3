/**
 * A managed-agents session's harness, played by the script: each model request the agent makes is a Messages turn
 * (`/v1/messages`, through `runBatchLine`: scenario selection, `Session.next()`, the journal) under the prefix and
 * `x-mock-*` headers the session was created with, its body the agent's model, system prompt and tools and the
 * session's history as messages. The reply becomes the session's events:
 *
 * - thinking → `agent.thinking` (a progress signal: no content), text → `agent.message`;
 * - a call of a custom tool → `agent.custom_tool_use`, and the turn stops `requires_action` until the client answers
 *   it (`user.custom_tool_result`);
 * - a call of a built-in tool (`agent_toolset_20260401`) → `agent.tool_use`; in a cloud environment mockllm runs
 *   nothing, so the call's `agent.tool_result` carries no content (after a `user.tool_confirmation` when the tool's
 *   policy is `always_ask`); in a `self_hosted` one the turn waits for the client's `user.tool_result`;
 * - a failed model request (a scripted 429, 529, 5xx or broken answer) → `session.error` `retrying` and the next
 *   attempt (the next step), up to MAX_ATTEMPTS; a refusal that retrying cannot help (a mismatch, a 4xx) at once
 *   `exhausted`, and the turn stops `retries_exhausted`.
 *
 * Each request is framed by `span.model_request_start` / `span.model_request_end` (its usage), the turn by
 * `session.status_running` and `session.status_idle`.
 */
import { isRecord } from "../../../../http/json";
import type { Runtime } from "../../../../runtime/types";
import { pacedDue, runBatchLine, type LineAnswer } from "../../../../turn/batch";
import { wordCount } from "../../../../util/text";
import { callMcp, type McpClientOptions } from "../../../../turn/mcp-client";
import type { McpServerRef } from "../../../types";
import { anthropicMessages } from "../../index";
import { addCost, budgetReached } from "./budget";
import { AGENT_TOOLSET, newEventId, timestamp, type Policy, type StoredSession } from "./objects";

type Json = Record<string, unknown>;
export type SessionEvent = Json & { id: string; type: string; processed_at: string | null };

/** Model requests one turn makes at most (a built-in tool loop that never ends stops here). */
export const MAX_MODEL_REQUESTS = 25;
/** Attempts at one model request: the first and up to three retries, without waiting between them. */
export const MAX_ATTEMPTS = 4;
/** `max_tokens` of the harness's model requests. */
const MAX_TOKENS = 16_000;

/** What a turn runs with: the runtime, and how to reach an agent's MCP servers (mockllm's own through the router). */
export interface Harness {
  rt: Runtime;
  mcp: () => McpClientOptions;
}

/** Appends events to a turn's output, each with a fresh id and `processed_at` now. */
export class EventLog {
  readonly out: SessionEvent[] = [];
  /** When each event is due on a stream (epoch ms): the script's latency and pacing, played by the stream. */
  readonly due: number[] = [];
  /** When the next event is due: now, then past each paced reply. */
  clock = Date.now();
  emit(type: string, fields: Json = {}): SessionEvent {
    const e = { id: newEventId(), type, ...fields, processed_at: timestamp() } as SessionEvent;
    this.out.push(e);
    this.due.push(this.clock);
    return e;
  }
  /** Paces the events from index `from` on as the reply's stream would be: after its latency, a message's words at its rate. */
  pace(from: number, paced: LineAnswer["paced"]): void {
    if (paced === undefined) return;
    const words = this.out
      .slice(from)
      .map((e) => (e.type === "agent.message" && Array.isArray(e.content) ? (e.content as Json[]).reduce((n, b) => n + (typeof b.text === "string" ? wordCount(b.text) : 0), 0) : 0));
    for (const [i, at] of pacedDue(this.clock, words, paced).entries()) this.due[from + i] = at;
    this.clock = this.due.at(-1) ?? this.clock;
  }
}

/** How the agent runs one tool: the event its use makes, and whether the client must act before the turn goes on. */
interface ToolRoute {
  kind: "custom" | "built_in" | "mcp";
  policy: Policy["type"];
  mcpServer?: string;
}

/** Every tool the agent offers the model, by name, and what a call of it does. */
export function toolRoutes(session: StoredSession): Map<string, ToolRoute> {
  const routes = new Map<string, ToolRoute>();
  for (const t of session.agent.tools) {
    if (t.type === "custom" && typeof t.name === "string") routes.set(t.name, { kind: "custom", policy: "always_allow" });
    if (t.type === AGENT_TOOLSET && Array.isArray(t.configs)) {
      for (const c of t.configs as Json[]) {
        if (c.enabled === true && typeof c.name === "string") routes.set(c.name, { kind: "built_in", policy: (c.permission_policy as Policy).type });
      }
    }
    if (t.type === "mcp_toolset" && Array.isArray(t.configs)) {
      for (const c of t.configs as Json[]) {
        if (c.enabled === true && typeof c.name === "string") routes.set(c.name, { kind: "mcp", policy: (c.permission_policy as Policy).type, mcpServer: String(t.mcp_server_name) });
      }
    }
  }
  return routes;
}

/**
 * How a call of `name` runs: a tool the agent names, else a tool of one of its MCP toolsets (their tools are the
 * servers' own: with one toolset that one, with several the first whose server lists the tool); undefined when none.
 */
/** The agent's MCP server named `name`, as the MCP client reaches it (the agent's servers carry no headers). */
function mcpServer(session: StoredSession, name: unknown): McpServerRef | undefined {
  const server = session.agent.mcp_servers.find((s) => s.name === name);
  return server === undefined ? undefined : { label: String(server.name), url: String(server.url), headers: {} };
}

async function routeOf(routes: Map<string, ToolRoute>, session: StoredSession, name: string, h: Harness): Promise<ToolRoute | undefined> {
  const known = routes.get(name);
  if (known !== undefined) return known;
  const sets = session.agent.tools.filter((t) => t.type === "mcp_toolset" && isRecord(t.default_config) && t.default_config.enabled === true);
  const routeIn = (set: Json): ToolRoute => ({ kind: "mcp", policy: ((set.default_config as Json).permission_policy as Policy).type, mcpServer: String(set.mcp_server_name) });
  if (sets.length === 1) return routeIn(sets[0]!);
  for (const set of sets) {
    const server = mcpServer(session, set.mcp_server_name);
    if (server === undefined) continue;
    const listed = await callMcp(server, name, {}, h.mcp(), true);
    if (listed.tools?.some((t) => t.name === name) === true) return routeIn(set);
  }
  return undefined;
}

/**
 * The result event of a built-in or MCP call the session answers itself: a built-in tool's carries no content
 * (mockllm runs none); an MCP tool's is what the agent's server answered (`tools/call`, as a remote MCP server tool's
 * is: src/turn/mcp-client.ts), or the reason it could not be reached as an error.
 */
export async function answeredUse(h: Harness, session: StoredSession, use: SessionEvent): Promise<[string, Json]> {
  if (use.type !== "agent.mcp_tool_use") return toolResult(use, false);
  const server = mcpServer(session, use.mcp_server_name);
  const failed = (text: string): [string, Json] => ["agent.mcp_tool_result", { mcp_tool_use_id: use.id, content: [{ type: "text", text }], is_error: true }];
  if (server === undefined) return failed(`mockllm: the agent has no MCP server named '${String(use.mcp_server_name)}'.`);
  const answer = await callMcp(server, String(use.name), isRecord(use.input) ? use.input : {}, h.mcp());
  if ("failed" in answer) return failed(answer.failed);
  return ["agent.mcp_tool_result", { mcp_tool_use_id: use.id, content: answer.result !== undefined ? [{ type: "text", text: answer.result }] : [], is_error: answer.isError }];
}

const BUILT_IN_SCHEMA = { type: "object", additionalProperties: true };

/** The tools of the harness's model request: custom tools as defined, built-in and MCP ones by name. */
function requestTools(session: StoredSession, routes: ReadonlyMap<string, ToolRoute>): Json[] {
  const tools: Json[] = [];
  for (const [name, route] of routes) {
    const custom = route.kind === "custom" ? session.agent.tools.find((t) => t.type === "custom" && t.name === name) : undefined;
    tools.push(
      custom !== undefined
        ? { name, description: custom.description, input_schema: custom.input_schema }
        : { name, description: `${route.kind === "mcp" ? `MCP tool of ${route.mcpServer}` : "Built-in tool"} ${name}`, input_schema: BUILT_IN_SCHEMA },
    );
  }
  return tools;
}

/** A tool result's content as a Messages `tool_result` carries it (omitted when empty). */
function resultBlock(toolUseId: string, content: unknown, isError: unknown): Json {
  return { type: "tool_result", tool_use_id: toolUseId, ...(Array.isArray(content) && content.length > 0 ? { content } : {}), ...(isError === true ? { is_error: true } : {}) };
}

/** What the model is told of a tool call the user interrupted before it had a result. */
export const INTERRUPTED = "The user interrupted this tool call.";
/** What it is told of a call its turn's failure left without a result. */
export const UNANSWERED = "This tool call was not run: the turn that made it failed.";

/**
 * The session's history as Messages: user and agent events in order, a tool use's id its event's id. A tool use an
 * interrupt (or a failed turn) left without a result gets one (an error saying so), as the Messages API wants every
 * use answered.
 */
export function historyMessages(events: readonly SessionEvent[]): { role: "user" | "assistant"; content: Json[] }[] {
  const messages: { role: "user" | "assistant"; content: Json[] }[] = [];
  const open = new Set<string>();
  const push = (role: "user" | "assistant", block: Json) => {
    if (block.type === "tool_use") open.add(String(block.id));
    if (block.type === "tool_result") open.delete(String(block.tool_use_id));
    const last = messages.at(-1);
    if (last?.role === role) last.content.push(block);
    else messages.push({ role, content: [block] });
  };
  for (const e of events) {
    switch (e.type) {
      case "user.interrupt":
        for (const id of [...open]) push("user", resultBlock(id, [{ type: "text", text: INTERRUPTED }], true));
        break;
      case "user.message":
        // A use a failed turn left open (its reply also named a tool the agent lacks) is answered before the message.
        for (const id of [...open]) push("user", resultBlock(id, [{ type: "text", text: UNANSWERED }], true));
        for (const b of Array.isArray(e.content) ? (e.content as Json[]) : []) push("user", b);
        break;
      case "agent.message":
        for (const b of Array.isArray(e.content) ? (e.content as Json[]) : []) push("assistant", b);
        break;
      case "agent.custom_tool_use":
      case "agent.tool_use":
      case "agent.mcp_tool_use":
        push("assistant", { type: "tool_use", id: e.id, name: e.name, input: isRecord(e.input) ? e.input : {} });
        break;
      case "user.custom_tool_result":
        push("user", resultBlock(String(e.custom_tool_use_id), e.content, e.is_error));
        break;
      case "user.tool_result":
      case "agent.tool_result":
        push("user", resultBlock(String(e.tool_use_id), e.content, e.is_error));
        break;
      case "agent.mcp_tool_result":
        push("user", resultBlock(String(e.mcp_tool_use_id), e.content, e.is_error));
        break;
    }
  }
  return messages;
}

/** The Messages body of the harness's next model request. */
export function modelRequest(session: StoredSession, history: readonly SessionEvent[], routes: ReadonlyMap<string, ToolRoute>): Json {
  const tools = requestTools(session, routes);
  return {
    model: session.agent.model.id,
    max_tokens: MAX_TOKENS,
    ...(session.agent.system !== null ? { system: session.agent.system } : {}),
    messages: historyMessages(history),
    ...(tools.length > 0 ? { tools } : {}),
  };
}

/** The `session.error` type of a failed model request, and whether the harness tries again. */
function failureOf(answer: LineAnswer): { type: string; message: string; retry: boolean } {
  const error = isRecord(answer.body) && isRecord(answer.body.error) ? answer.body.error : {};
  const message = typeof error.message === "string" ? error.message : typeof answer.body === "string" ? answer.body : `model request failed with status ${answer.status}`;
  if (answer.status === 429) return { type: "model_rate_limited_error", message, retry: true };
  if (answer.status === 529 || answer.status === 503) return { type: "model_overloaded_error", message, retry: true };
  return { type: "model_request_failed_error", message, retry: answer.status >= 500 };
}

function addUsage(session: StoredSession, usage: Json): Json {
  const n = (k: string) => (typeof usage[k] === "number" ? (usage[k] as number) : 0);
  const model = {
    input_tokens: n("input_tokens"),
    output_tokens: n("output_tokens"),
    cache_creation_input_tokens: n("cache_creation_input_tokens"),
    cache_read_input_tokens: n("cache_read_input_tokens"),
  };
  const u = session.usage;
  u.input_tokens += model.input_tokens;
  u.output_tokens += model.output_tokens;
  u.cache_read_input_tokens += model.cache_read_input_tokens;
  u.cache_creation.ephemeral_5m_input_tokens += model.cache_creation_input_tokens;
  addCost(session, model);
  return model;
}

/** Ends the turn at the session's budget: its usage as it stands, then `budget_reached`. */
function stopAtBudget(session: StoredSession, log: EventLog, seen: (e: SessionEvent) => SessionEvent): void {
  seen(log.emit("session.usage", { usage: structuredClone(session.usage), budget: session.budget }));
  seen(log.emit("session.status_idle", { stop_reason: { type: "budget_reached" }, stop_details: null }));
}

const NO_USAGE = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };

/**
 * Runs the agent from `history` (every event so far, the client's newest included) until it ends its turn or waits
 * for the client; the events go to `log`, the session's `usage` and `mock.pending` change in place.
 */
export async function runAgentTurn(h: Harness, session: StoredSession, history: SessionEvent[], log: EventLog): Promise<void> {
  const seen = (e: SessionEvent) => {
    history.push(e);
    return e;
  };
  const routes = toolRoutes(session);
  seen(log.emit("session.status_running"));
  for (let request = 0; request < MAX_MODEL_REQUESTS; request++) {
    if (budgetReached(session)) return stopAtBudget(session, log, seen);
    let answer: LineAnswer | undefined;
    let start: SessionEvent | undefined;
    for (let attempt = 1; ; attempt++) {
      start = seen(log.emit("span.model_request_start"));
      answer = await runBatchLine(anthropicMessages, h.rt, modelRequest(session, history, routes), session.mock.origin);
      if (answer.status === 200 && isRecord(answer.body)) break;
      seen(log.emit("span.model_request_end", { model_request_start_id: start.id, is_error: true, model_usage: NO_USAGE }));
      const failure = failureOf(answer);
      const retry = failure.retry && attempt < MAX_ATTEMPTS;
      seen(log.emit("session.error", { error: { type: failure.type, message: failure.message, retry_status: { type: retry ? "retrying" : "exhausted" } } }));
      if (!retry) {
        seen(log.emit("session.status_idle", { stop_reason: { type: "retries_exhausted" }, stop_details: null }));
        return;
      }
    }
    const message = answer.body as Json;
    const replyFrom = log.out.length;
    const blocks = Array.isArray(message.content) ? (message.content as Json[]) : [];
    const waiting: string[] = [];
    const ranHere: SessionEvent[] = [];
    let text: Json[] = [];
    const flushText = () => {
      if (text.length > 0) seen(log.emit("agent.message", { content: text }));
      text = [];
    };
    for (const b of blocks) {
      if (b.type === "text") {
        text.push({ type: "text", text: b.text });
        continue;
      }
      flushText();
      if (b.type === "thinking" || b.type === "redacted_thinking") {
        seen(log.emit("agent.thinking"));
      } else if (b.type === "tool_use") {
        const name = String(b.name);
        const input = isRecord(b.input) ? b.input : {};
        const route = await routeOf(routes, session, name, h);
        if (route === undefined) {
          seen(log.emit("span.model_request_end", { model_request_start_id: start.id, is_error: true, model_usage: addUsage(session, isRecord(message.usage) ? message.usage : {}) }));
          const offered = [...routes.keys()];
          const known = offered.length > 0 ? offered.map((n) => `'${n}'`).join(", ") : "none";
          seen(
            log.emit("session.error", {
              error: {
                type: "model_request_failed_error",
                message: `mockllm: the scripted tool call '${name}' names no tool of this agent (its tools: ${known}).`,
                retry_status: { type: "exhausted" },
              },
            }),
          );
          seen(log.emit("session.status_idle", { stop_reason: { type: "retries_exhausted" }, stop_details: null }));
          return;
        }
        if (route.kind === "custom") {
          waiting.push(seen(log.emit("agent.custom_tool_use", { name, input })).id);
          continue;
        }
        const ask = route.policy === "always_ask";
        const fields = {
          name,
          input,
          evaluated_permission: ask ? "ask" : "allow",
          evaluation: { type: route.policy === "auto" ? "auto" : route.policy, ...(route.policy === "auto" ? { evaluated_permission: { type: "allow" } } : {}) },
        };
        const use = seen(log.emit(route.kind === "mcp" ? "agent.mcp_tool_use" : "agent.tool_use", route.kind === "mcp" ? { mcp_server_name: route.mcpServer, ...fields } : fields));
        if (ask || (route.kind === "built_in" && session.mock.selfHosted)) waiting.push(use.id);
        else ranHere.push(use);
      }
    }
    flushText();
    seen(log.emit("span.model_request_end", { model_request_start_id: start.id, is_error: false, model_usage: addUsage(session, isRecord(message.usage) ? message.usage : {}) }));
    log.pace(replyFrom, answer.paced);
    // What the session answers itself: an allowed built-in call in a cloud environment, an allowed MCP call.
    for (const use of ranHere) seen(log.emit(...(await answeredUse(h, session, use))));
    if (waiting.length > 0) {
      session.mock.pending = waiting;
      seen(log.emit("session.status_idle", { stop_reason: { type: "requires_action", event_ids: waiting }, stop_details: null }));
      return;
    }
    if (ranHere.length > 0) continue;
    const refused = message.stop_reason === "refusal";
    seen(log.emit("session.status_idle", { stop_reason: { type: "end_turn" }, stop_details: refused ? { type: "refusal", category: null, explanation: null } : null }));
    return;
  }
  seen(
    log.emit("session.error", { error: { type: "tool_use_limit_reached_error", message: `mockllm: a turn makes at most ${MAX_MODEL_REQUESTS} model requests.`, retry_status: { type: "exhausted" } } }),
  );
  seen(log.emit("session.status_idle", { stop_reason: { type: "retries_exhausted" }, stop_details: null }));
}

/** The result event of a built-in or MCP call mockllm answers itself: no content, or the user's denial. */
export function toolResult(use: SessionEvent, denied: boolean, denyMessage?: string): [string, Json] {
  const content = denied ? [{ type: "text", text: denyMessage ?? "The user denied this tool call." }] : [];
  const fields = { content, is_error: denied };
  return use.type === "agent.mcp_tool_use" ? ["agent.mcp_tool_result", { mcp_tool_use_id: use.id, ...fields }] : ["agent.tool_result", { tool_use_id: use.id, ...fields }];
}
