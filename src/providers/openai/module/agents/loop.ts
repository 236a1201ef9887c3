/**
 * An Agents API session's harness, played by the script: each model request the agent makes is a Responses turn
 * (`/v1/responses`, through `runBatchLine`: scenario selection, `Session.next()`, the journal) under the prefix and
 * `x-mock-*` headers the session was created with, its body the agent's model, instructions, function tools and
 * output format and the session's items as input. The reply becomes the turn's items and events:
 *
 * - reasoning → a `reasoning` item (its summary streamed as `reasoning_summary_*` events);
 * - text → an assistant `message` (`content_part.added`, `output_text.delta` a word at a time, `.done`), its phase
 *   `final_answer` when the reply calls no function, else `commentary`;
 * - a function call → a `function_call` item (its arguments parsed) and a required action: the session
 *   `requires_action` and the turn `waiting` until the client sends every call's `agent.session.input.tool_result`;
 * - a failed model request (a scripted 429, 529, 5xx or broken answer) → the next attempt (the next step), up to
 *   MAX_ATTEMPTS; a refusal that retrying cannot help (a mismatch, a 4xx) at once: the turn `failed` with the
 *   API's error code.
 *
 * A turn is framed by `agent.session.turn.created` / `.in_progress` … `.completed`, the session by
 * `agent.session.in_progress` … `agent.session.idle`.
 */
import { isRecord } from "../../../../http/json";
import type { Runtime } from "../../../../runtime/types";
import { pacedDue, runBatchLine, type LineAnswer } from "../../../../turn/batch";
import type { McpClientOptions } from "../../../../turn/mcp-client";
import { wordPieces } from "../../../../util/text";
import { nowSeconds } from "../../platform";
import { openaiResponses } from "../../responses";
import { addUsage, newId, noUsage, shown, type RequiredAction, type StoredSession, type Turn } from "./objects";

type Json = Record<string, unknown>;
export type SessionEvent = Json & { event_id: string; type: string };
export type Item = Json & { id: string; type: string; turn_id: string };

/** Attempts at one model request: the first and up to three retries, without waiting between them. */
export const MAX_ATTEMPTS = 4;

/** What one change to a session appends: events in order, and the items and turns it made or changed. */
export class SessionLog {
  readonly events: SessionEvent[] = [];
  /** When each event is due on a stream (epoch ms): the script's latency and pacing, played by the stream. */
  readonly due: number[] = [];
  readonly items = new Map<string, Item>();
  readonly turns = new Map<string, Turn>();
  /** When the next event is due: now, then past each paced reply. */
  clock = Date.now();
  constructor(readonly session: StoredSession) {}
  emit(type: string, fields: Json = {}): SessionEvent {
    const e = { event_id: newId("event_"), type, ...fields } as SessionEvent;
    this.events.push(e);
    this.due.push(this.clock);
    return e;
  }
  /**
   * Paces the events from index `from` on as a stream of the reply would be: the first after `latencyMs`, each
   * word-carrying delta (one word) by the pacing's rate and delays; the clock then stands at the last.
   */
  pace(from: number, paced: LineAnswer["paced"]): void {
    if (paced === undefined) return;
    const due = pacedDue(
      this.clock,
      this.events.slice(from).map((e) => (typeof e.delta === "string" ? 1 : 0)),
      paced,
    );
    for (const [i, at] of due.entries()) this.due[from + i] = at;
    this.clock = this.due.at(-1) ?? this.clock;
  }
  /** A session-level event: the session as it stands now. */
  sessionEvent(type: string): void {
    this.emit(type, { session: shown(this.session) });
  }
  /** A turn event: the turn as it stands now (and its usage when it ended). */
  turnEvent(type: string, turn: Turn): void {
    this.turns.set(turn.id, turn);
    const ended = turn.status === "completed" || turn.status === "failed" || turn.status === "cancelled";
    this.emit(type, { session_id: this.session.id, turn: structuredClone(turn), turn_id: turn.id, ...(ended ? { usage: structuredClone(turn.usage) } : {}) });
  }
  item(item: Item): Item {
    this.items.set(item.id, item);
    return item;
  }
}

/**
 * What a turn runs with: the runtime, every item of the session so far (oldest first; the run appends), and how to
 * reach the agent's MCP servers (mockllm's own through the router).
 */
export interface Harness {
  rt: Runtime;
  items: Item[];
  mcp?: () => McpClientOptions;
}

/** A user message of the input, as the session keeps it. */
export function userMessage(turnId: string, content: Json[]): Item {
  return { id: newId("msg_"), type: "message", role: "user", content, phase: null, status: "completed", turn_id: turnId };
}

/** The text a function result gives the model: its output (text, or its text parts), or its error. */
function outputText(item: Item): string {
  if (item.error !== null && item.error !== undefined) return `Error: ${String(item.error)}`;
  const out = item.output;
  if (typeof out === "string") return out;
  if (Array.isArray(out)) return (out as Json[]).map((p) => (p.type === "input_text" ? String(p.text) : "")).join("");
  return "";
}

/** The session's items as Responses input: messages, function calls and their outputs (reasoning is the model's own). */
export function responsesInput(items: readonly Item[]): Json[] {
  const input: Json[] = [];
  for (const it of items) {
    if (it.type === "message") input.push({ role: it.role, content: it.content });
    else if (it.type === "function_call")
      input.push({ type: "function_call", call_id: it.call_id, name: it.name, arguments: typeof it.arguments === "string" ? it.arguments : JSON.stringify(it.arguments ?? {}) });
    else if (it.type === "function_call_output") input.push({ type: "function_call_output", call_id: it.call_id, output: outputText(it) });
    else if (it.type === "mcp_call")
      input.push({
        type: "mcp_call",
        id: it.id,
        server_label: it.server_label,
        name: it.name,
        arguments: JSON.stringify(it.arguments ?? {}),
        ...(it.output !== null ? { output: typeof it.output === "string" ? it.output : JSON.stringify(it.output) } : {}),
        ...(it.error !== null ? { error: typeof it.error === "string" ? it.error : JSON.stringify(it.error) } : {}),
      });
  }
  return input;
}

/** The Responses body of the harness's next model request. */
export function modelRequest(session: StoredSession, items: readonly Item[]): Json {
  const a = session.agent;
  const format = a.text.format.type === "json_schema" ? { format: { type: "json_schema", name: "agent_output", schema: a.text.format.schema, strict: true } } : {};
  const reasoning =
    a.reasoning.effort !== null || a.reasoning.summary !== null
      ? { reasoning: { ...(a.reasoning.effort !== null ? { effort: a.reasoning.effort } : {}), ...(a.reasoning.summary !== null ? { summary: a.reasoning.summary } : {}) } }
      : {};
  const tools = a.tools.map((t) =>
    t.type === "function"
      ? { type: "function", name: t.name, description: t.description, parameters: t.parameters, strict: false }
      : {
          type: "mcp",
          server_label: t.server_label,
          server_url: t.transport.server_url,
          ...(Object.keys(t.transport.headers).length > 0 ? { headers: t.transport.headers } : {}),
          ...(t.transport.authorization !== undefined ? { authorization: t.transport.authorization } : {}),
          ...(t.allowed_tools !== null ? { allowed_tools: t.allowed_tools } : {}),
          require_approval: "never",
        },
  );
  return {
    model: a.model,
    ...(a.instructions !== null ? { instructions: a.instructions } : {}),
    input: responsesInput(items),
    ...(tools.length > 0 ? { tools } : {}),
    text: { ...format, verbosity: a.text.verbosity },
    ...reasoning,
  };
}

/** A failed model request's turn error (the API's codes), and whether the harness tries again. */
export function failureOf(answer: LineAnswer): { code: string; message: string; retry: boolean } {
  const error = isRecord(answer.body) && isRecord(answer.body.error) ? answer.body.error : {};
  const message = typeof error.message === "string" ? error.message : typeof answer.body === "string" && answer.body !== "" ? answer.body : `The model request failed with status ${answer.status}.`;
  if (answer.status === 429) return { code: "rate_limit_exceeded", message, retry: true };
  if (answer.status === 529 || answer.status === 503) return { code: "server_overloaded", message, retry: true };
  if (answer.status === 408) return { code: "request_timeout", message, retry: true };
  if (answer.status >= 500) return { code: "server_error", message, retry: true };
  if (answer.status === 401 || answer.status === 403) return { code: "authentication_error", message, retry: false };
  if (answer.status === 404) return { code: "resource_not_found", message, retry: false };
  return { code: "invalid_request", message, retry: false };
}

/** The function arguments as the API gives them: the model's JSON parsed (its text when it is not JSON). */
function argumentsOf(raw: unknown): unknown {
  if (typeof raw !== "string") return raw ?? {};
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}

/** Streams one reply's output items into the turn: their events in order, the items kept; the calls it made. */
function emitOutput(log: SessionLog, turn: Turn, output: readonly Json[], nextIndex: () => number): RequiredAction[] {
  const calls: RequiredAction[] = [];
  const callsAny = output.some((o) => o.type === "function_call");
  const base = { session_id: log.session.id, turn_id: turn.id };
  for (const o of output) {
    if (o.type === "reasoning") {
      const index = nextIndex();
      const id = newId("rs_");
      const summary = (Array.isArray(o.summary) ? (o.summary as Json[]) : []).filter((s) => typeof s.text === "string").map((s) => ({ type: "summary_text", text: String(s.text) }));
      log.emit("agent.session.turn.item.added", { ...base, item: { id, type: "reasoning", status: "in_progress", summary: [], turn_id: turn.id }, output_index: index });
      for (const [si, part] of summary.entries()) {
        const at = { ...base, item_id: id, output_index: index, summary_index: si };
        log.emit("agent.session.turn.reasoning_summary_part.added", { ...at, part: { type: "summary_text", text: "" } });
        for (const piece of wordPieces(part.text, 1)) log.emit("agent.session.turn.reasoning_summary_text.delta", { ...at, delta: piece.text });
        log.emit("agent.session.turn.reasoning_summary_text.done", { ...at, text: part.text });
        log.emit("agent.session.turn.reasoning_summary_part.done", { ...at, part, status: null });
      }
      const item = log.item({ id, type: "reasoning", status: "completed", summary, turn_id: turn.id });
      log.emit("agent.session.turn.item.done", { ...base, item, output_index: index });
    } else if (o.type === "message") {
      const index = nextIndex();
      const id = newId("msg_");
      const texts = (Array.isArray(o.content) ? (o.content as Json[]) : []).filter((c) => c.type === "output_text").map((c) => String(c.text ?? ""));
      const phase = callsAny ? "commentary" : "final_answer";
      log.emit("agent.session.turn.item.added", { ...base, item: { id, type: "message", role: "assistant", content: [], phase, status: "in_progress", turn_id: turn.id }, output_index: index });
      for (const [ci, text] of texts.entries()) {
        const at = { ...base, item_id: id, output_index: index, content_index: ci };
        log.emit("agent.session.turn.content_part.added", { ...at, part: { type: "output_text", text: "" } });
        for (const piece of wordPieces(text, 1)) log.emit("agent.session.turn.output_text.delta", { ...at, delta: piece.text });
        log.emit("agent.session.turn.output_text.done", { ...at, text });
        log.emit("agent.session.turn.content_part.done", { ...at, part: { type: "output_text", text } });
      }
      const item = log.item({ id, type: "message", role: "assistant", content: texts.map((text) => ({ type: "output_text", text })), phase, status: "completed", turn_id: turn.id });
      log.emit("agent.session.turn.item.done", { ...base, item, output_index: index });
    } else if (o.type === "mcp_call") {
      const index = nextIndex();
      const call = { id: newId("mcp_"), type: "mcp_call", arguments: argumentsOf(o.arguments), name: String(o.name), server_label: String(o.server_label), turn_id: turn.id };
      log.emit("agent.session.turn.item.added", { ...base, item: { ...call, error: null, output: null, status: "in_progress" }, output_index: index });
      const failed = o.status === "failed" || (o.error !== null && o.error !== undefined);
      const item = log.item({ ...call, error: failed ? (o.error ?? "The MCP tool call failed.") : null, output: o.output ?? null, status: failed ? "failed" : "completed" });
      log.emit("agent.session.turn.item.done", { ...base, item, output_index: index });
    } else if (o.type === "function_call") {
      const index = nextIndex();
      const call = { id: newId("fc_"), type: "function_call", arguments: argumentsOf(o.arguments), call_id: String(o.call_id), name: String(o.name), turn_id: turn.id };
      log.emit("agent.session.turn.item.added", { ...base, item: { ...call, status: "in_progress" }, output_index: index });
      const item = log.item({ ...call, status: "completed" });
      log.emit("agent.session.turn.item.done", { ...base, item, output_index: index });
      calls.push({ type: "function_call", arguments: call.arguments, call_id: call.call_id, name: call.name, turn_id: turn.id });
    }
  }
  return calls;
}

/** Ends `turn` (its status, time and error) and says so: the turn's event, then the session idle. */
export function endTurn(log: SessionLog, turn: Turn, status: "completed" | "failed" | "cancelled", error: Turn["error"] = null): void {
  const session = log.session;
  Object.assign(turn, { status, completed_at: nowSeconds(), error });
  session.mock.turn = null;
  session.required_actions = [];
  session.status = "idle";
  session.last_active_at = nowSeconds();
  log.turnEvent(`agent.session.turn.${status}`, turn);
  log.sessionEvent("agent.session.idle");
}

/**
 * Runs the agent's next model request on `turn`, from the session's items: the turn ends, or waits for the results of
 * the functions it called (every tool of these agents is the client's: the next request waits for them). The events,
 * items and turn changes go to `log`; the session's status, required actions and usage change in place.
 */
export async function runTurn(h: Harness, log: SessionLog, turn: Turn): Promise<void> {
  const session = log.session;
  const names = new Set(session.agent.tools.flatMap((t) => (t.type === "function" ? [t.name] : [])));
  let outputIndex = h.items.filter((i) => i.turn_id === turn.id && i.type !== "function_call_output" && !(i.type === "message" && i.role === "user")).length;
  let answer: LineAnswer | undefined;
  for (let attempt = 1; ; attempt++) {
    answer = await runBatchLine(openaiResponses, h.rt, modelRequest(session, h.items), session.mock.origin, undefined, h.mcp);
    if (answer.status === 200 && isRecord(answer.body)) break;
    const failure = failureOf(answer);
    if (!failure.retry || attempt >= MAX_ATTEMPTS) return endTurn(log, turn, "failed", { code: failure.code, message: failure.message });
  }
  const reply = answer.body as Json;
  turn.usage ??= noUsage();
  addUsage(turn.usage, reply.usage);
  session.usage ??= noUsage();
  addUsage(session.usage, reply.usage);
  const output = Array.isArray(reply.output) ? (reply.output as Json[]) : [];
  const unknown = output.find((o) => o.type === "function_call" && !names.has(String(o.name)));
  if (unknown !== undefined) {
    const known = [...names].map((n) => `'${n}'`).join(", ") || "none";
    return endTurn(log, turn, "failed", {
      code: "invalid_request",
      message: `mockllm: the scripted function call '${String(unknown.name)}' names no function of this agent (its functions: ${known}).`,
    });
  }
  const before = log.items.size;
  const firstEvent = log.events.length;
  const calls = emitOutput(log, turn, output, () => outputIndex++);
  log.pace(firstEvent, answer.paced);
  h.items.push(...[...log.items.values()].slice(before));
  if (calls.length > 0) {
    turn.status = "waiting";
    session.status = "requires_action";
    session.required_actions = calls;
    session.last_active_at = nowSeconds();
    log.turns.set(turn.id, turn);
    log.sessionEvent("agent.session.requires_action");
    return;
  }
  const incomplete = reply.status === "incomplete" && isRecord(reply.incomplete_details) && reply.incomplete_details.reason === "max_output_tokens";
  if (incomplete) return endTurn(log, turn, "failed", { code: "max_output_tokens", message: "The model reached its output token limit before finishing the turn." });
  endTurn(log, turn, "completed");
}

/** Starts a turn on an idle session for the user's messages (their items added), and runs it. */
export async function startTurn(h: Harness, log: SessionLog, messages: readonly Json[][]): Promise<void> {
  const session = log.session;
  const now = nowSeconds();
  const turn: Turn = {
    id: newId("turn_"),
    agent_id: session.agent.id,
    completed_at: null,
    created_at: now,
    error: null,
    object: "agent.session.turn",
    session_id: session.id,
    started_at: null,
    status: "queued",
    subagent_id: null,
    usage: null,
    prompt_cache_options: session.prompt_cache_options,
  };
  session.mock.turn = turn.id;
  log.turnEvent("agent.session.turn.created", turn);
  addUserMessages(h, log, turn, messages);
  session.status = "in_progress";
  session.last_active_at = now;
  log.sessionEvent("agent.session.in_progress");
  Object.assign(turn, { status: "in_progress", started_at: now });
  log.turnEvent("agent.session.turn.in_progress", turn);
  await runTurn(h, log, turn);
}

/** The user's messages added to `turn` (a new turn's input, or a message steering a waiting one). */
export function addUserMessages(h: Harness, log: SessionLog, turn: Turn, messages: readonly Json[][]): void {
  for (const content of messages) {
    const item = log.item(userMessage(turn.id, content));
    h.items.push(item);
    log.emit("agent.session.turn.item.added", { session_id: log.session.id, item, output_index: null, turn_id: turn.id });
  }
}
