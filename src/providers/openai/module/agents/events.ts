/**
 * An Agents API session's events: `POST /v1/agents/sessions/{id}/events` (the client's input events, checked all or
 * none, then what they start — a turn, its next model request — run before the 202), and `GET …/events` (SSE: the
 * events appended after it opens, each one `data:` line of JSON, `obfuscation` padding unless
 * `include_obfuscation=false`, a `: keep-alive` comment every 15 s of quiet, the end when the session is deleted).
 * A session created with `stream: true` answers the same stream, from `agent.session.created` to its first turn's end.
 */
import { isApiError, type ApiError } from "../../../../http/errors";
import { obfuscation } from "../../../../http/ids";
import { DueQueue, polledStream, type PolledRead } from "../../../../http/polled-stream";
import { echoed } from "../../../../util/text";
import { stableHex } from "../../../../util/hash";
import { agentSessionData, type EventType } from "../../../../webhooks/events";
import { raiseEvent } from "../../../../webhooks/hub";
import { Response } from "../../../../http/web";
import type { Runtime } from "../../../../runtime/types";
import { mcpOptions, type McpClientOptions } from "../../../../turn/mcp-client";
import type { SideRouteContext } from "../../../types";
import { invalid, objectBody, parsedBody, type PlatformAnswer } from "../../platform";
import { newId, sessionNotFound, type RequiredAction, type StoredSession, type Turn } from "./objects";
import { addUserMessages, endTurn, runTurn, SessionLog, startTurn, type Harness, type Item, type SessionEvent } from "./loop";
import { agentsHome, changeId, eventsKind, HEAD_KIND, itemsKind, loadAll, loadOne, MAX_OBJECTS, MAX_SESSION_EVENTS, SESSION_KIND, saveAll, turnsKind, withSessionLock } from "./store";
import { agentsWire } from "./objects";

type Json = Record<string, unknown>;

/** Most input events one send carries. */
const MAX_SEND = 50;
/** `Idempotency-Key`s a session remembers. */
const MAX_KEYS = 100;
/** A quiet stream's keep-alive interval, and how long a stream stays open with nothing to send. */
const KEEP_ALIVE_MS = 15_000;
export const STREAM_IDLE_MS = 10 * 60_000;

/** A checked input event. */
export type Input =
  | { type: "agent.session.input.message"; messages: Json[][] }
  | { type: "agent.session.input.cancel" }
  | { type: "agent.session.input.tool_result"; call: RequiredAction; success: boolean; output: unknown; error: string | null };

/** The content of input messages (a string is one user message of one text part). */
export function messagesOf(input: unknown, at: string): Json[][] | ApiError {
  if (typeof input === "string") return [[{ type: "input_text", text: input }]];
  const { InputMessage } = agentsWire();
  if (!Array.isArray(input) || input.length === 0) return invalid(`Invalid '${at}': expected a non-empty array of messages.`, at);
  const out: Json[][] = [];
  for (const [i, m] of input.entries()) {
    const got = parsedBody(InputMessage, typeof m === "object" && m !== null && !Array.isArray(m) ? (m as Json) : { role: m }, `${at}[${i}]`);
    if (isApiError(got)) return got;
    out.push(got.content as Json[]);
  }
  return out;
}

/** The API's refusal of a result for no pending call (the SDK retries on exactly these words: a registration race). */
const unknownCall = (callId: string): ApiError => invalid(`Unknown pending tool call: ${echoed(callId)}`, "call_id");

/** One input event checked against the session as it stands after the ones before it in the send. */
function checkEvent(e: unknown, i: number, session: StoredSession, settled: Set<string>): Input | ApiError {
  const at = `events[${i}]`;
  if (typeof e !== "object" || e === null || Array.isArray(e)) return invalid(`Invalid type for '${at}': expected an object.`, at);
  const ev = e as Json;
  switch (ev.type) {
    case "agent.session.input.message": {
      const messages = messagesOf(ev.input, `${at}.input`);
      return isApiError(messages) ? messages : { type: ev.type, messages };
    }
    case "agent.session.input.cancel":
      return { type: ev.type };
    case "agent.session.input.tool_result": {
      if (typeof ev.call_id !== "string" || ev.call_id === "") return invalid(`Missing required parameter: '${at}.call_id'.`, `${at}.call_id`);
      if (typeof ev.turn_id !== "string" || ev.turn_id === "") return invalid(`Missing required parameter: '${at}.turn_id'.`, `${at}.turn_id`);
      if (typeof ev.success !== "boolean") return invalid(`Missing required parameter: '${at}.success'.`, `${at}.success`);
      const call = session.required_actions.find((a) => a.call_id === ev.call_id && a.turn_id === ev.turn_id);
      if (call === undefined || settled.has(call.call_id)) return unknownCall(ev.call_id);
      const output = ev.output ?? null;
      if (output !== null && typeof output !== "string" && !Array.isArray(output)) return invalid(`Invalid type for '${at}.output': expected a string or an array of content.`, `${at}.output`);
      if (ev.error !== undefined && ev.error !== null && typeof ev.error !== "string") return invalid(`Invalid type for '${at}.error': expected a string.`, `${at}.error`);
      settled.add(call.call_id);
      return { type: ev.type, call, success: ev.success, output: ev.success ? output : null, error: ev.success ? null : ((ev.error as string | undefined) ?? "The function call failed.") };
    }
    case "agent.session.input.mcp_approval_request_result":
    case "agent.session.input.computer_use_approval_request_result":
      return invalid(
        `Invalid '${at}.request_id': the session has no pending approval request '${echoed(String(ev.request_id))}' (mockllm's agents make no MCP or computer-use calls).`,
        `${at}.request_id`,
      );
    default:
      return invalid(
        `Invalid value for '${at}.type': expected one of 'agent.session.input.message', 'agent.session.input.cancel', 'agent.session.input.tool_result', 'agent.session.input.mcp_approval_request_result', 'agent.session.input.computer_use_approval_request_result'.`,
        `${at}.type`,
      );
  }
}

/** A send's events checked all or none. */
function checkedEvents(raw: unknown, session: StoredSession): Input[] | ApiError {
  if (raw === undefined) return invalid("Missing required parameter: 'events'.", "events");
  if (!Array.isArray(raw)) return invalid("Invalid type for 'events': expected an array.", "events");
  if (raw.length === 0) return invalid("Invalid 'events': empty array. Expected an array with minimum length 1, but got an empty array instead.", "events");
  if (raw.length > MAX_SEND) return invalid(`Invalid 'events': array too long. Expected an array with maximum length ${MAX_SEND}, but got an array with length ${raw.length} instead.`, "events");
  const settled = new Set<string>();
  const out: Input[] = [];
  for (const [i, e] of raw.entries()) {
    const checked = checkEvent(e, i, session, settled);
    if (isApiError(checked)) return checked;
    // A cancel ends the turn: a result after it in the same send has no pending call.
    if (checked.type === "agent.session.input.cancel") for (const a of session.required_actions) settled.add(a.call_id);
    out.push(checked);
  }
  return out;
}

/** The turn `id` of the session. */
async function loadTurn(rt: Runtime, sessionId: string, id: string): Promise<Turn | undefined> {
  return loadOne<Turn>(agentsHome(rt), turnsKind(sessionId), id);
}

/**
 * Applies checked input events to the session: a message starts a turn on an idle session or steers the waiting one
 * (added to it); a function result settles its call (the turn goes on when the last is in); a cancel ends the turn.
 */
export async function applyInputs(h: Harness, log: SessionLog, inputs: readonly Input[]): Promise<void> {
  const session = log.session;
  let turn = session.mock.turn === null ? undefined : (log.turns.get(session.mock.turn) ?? (await loadTurn(h.rt, session.id, session.mock.turn)));
  let resume = false;
  for (const input of inputs) {
    if (input.type === "agent.session.input.message") {
      if (turn === undefined) {
        await startTurn(h, log, input.messages);
        turn = session.mock.turn === null ? undefined : log.turns.get(session.mock.turn);
      } else addUserMessages(h, log, turn, input.messages);
    } else if (input.type === "agent.session.input.cancel") {
      if (turn !== undefined) endTurn(log, turn, "cancelled");
      turn = undefined;
      resume = false;
    } else {
      const item = log.item({
        id: newId("fco_"),
        type: "function_call_output",
        call_id: input.call.call_id,
        error: input.error,
        output: input.output,
        status: input.success ? "completed" : "failed",
        turn_id: input.call.turn_id,
      } as Item);
      h.items.push(item);
      log.emit("agent.session.turn.item.added", { session_id: session.id, item, output_index: null, turn_id: input.call.turn_id });
      session.required_actions = session.required_actions.filter((a) => a.call_id !== input.call.call_id);
      if (session.required_actions.length === 0 && turn !== undefined) resume = true;
    }
  }
  if (resume && turn !== undefined && session.mock.turn === turn.id) {
    turn.status = "in_progress";
    session.status = "in_progress";
    log.sessionEvent("agent.session.in_progress");
    log.turnEvent("agent.session.turn.in_progress", turn);
    await runTurn(h, log, turn);
  }
}

/** One change's events as kept: the events, and when each is due on a stream (epoch ms). */
interface StoredChange {
  events: SessionEvent[];
  due: number[];
}

/** Stores what a change appended (its events as one record, items, turns), the session, and its head. */
export async function saveLog(rt: Runtime, log: SessionLog): Promise<void> {
  const home = agentsHome(rt);
  const session = log.session;
  if (log.events.length > 0) {
    session.mock.events += 1;
    const change: StoredChange = { events: log.events, due: log.due };
    await home.putObjects(eventsKind(session.id), [{ id: changeId(session.mock.events), json: JSON.stringify(change) }], MAX_SESSION_EVENTS);
  }
  await saveAll(home, itemsKind(session.id), [...log.items.values()], MAX_SESSION_EVENTS);
  await saveAll(home, turnsKind(session.id), [...log.turns.values()], MAX_SESSION_EVENTS);
  await saveAll(home, SESSION_KIND, [session]);
  await home.putObjects(HEAD_KIND, [{ id: session.id, json: String(session.mock.events) }], MAX_OBJECTS);
  await raiseWebhooks(rt, log);
}

/** The webhook event each session event raises (the API's webhooks guide: created, action required, in progress, idle). */
const WEBHOOK_OF: Readonly<Record<string, EventType>> = {
  "agent.session.created": "agent.session.created",
  "agent.session.in_progress": "agent.session.in_progress",
  "agent.session.requires_action": "agent.session.action_required",
  "agent.session.idle": "agent.session.idle",
};

/** Raises the project's webhook events for the session's changes of state in `log`, in order (none without endpoints). */
async function raiseWebhooks(rt: Runtime, log: SessionLog): Promise<void> {
  const session = log.session;
  const environment = session.environment as { type: string; id?: string };
  for (const e of log.events) {
    const type = WEBHOOK_OF[e.type];
    if (type === undefined) continue;
    const action = (e.session as { required_actions?: { type: string }[] } | undefined)?.required_actions?.[0]?.type;
    await raiseEvent(rt, `agent_session:${session.id}:${e.event_id}`, Date.now(), type, session.id, agentSessionData(type, session.id, environment, action));
  }
}

/** What a request's turns run with: its runtime and the session's items so far. */
export async function harnessOf(rt: Runtime, sessionId: string, mcp?: () => McpClientOptions): Promise<Harness> {
  return { rt, items: await loadAll<Item>(agentsHome(rt), itemsKind(sessionId)), ...(mcp !== undefined ? { mcp } : {}) };
}

/** How a request's turns reach MCP servers: the mock's own host through the router (`local`), others as allowed. */
export function mcpReach(request: Request, rt: Runtime, local: SideRouteContext["local"]): () => McpClientOptions {
  return () => mcpOptions(rt.vars, request.url, local);
}

/**
 * Applies the inputs `check` makes of session `id` as it stands (under its lock: one change at a time) and saves what
 * they caused; a send whose hashed `key` the session has seen is not applied again. The refusal, if any.
 */
export async function applyToSession(rt: Runtime, id: string, check: (session: StoredSession) => Input[] | ApiError, mcp?: () => McpClientOptions, key?: string): Promise<ApiError | undefined> {
  return withSessionLock(rt, id, async () => {
    const session = await loadOne<StoredSession>(agentsHome(rt), SESSION_KIND, id);
    if (session === undefined) return sessionNotFound(id);
    if (key !== undefined && session.mock.keys.includes(key)) return undefined;
    const inputs = check(session);
    if (isApiError(inputs)) return inputs;
    const log = new SessionLog(session);
    await applyInputs(await harnessOf(rt, id, mcp), log, inputs);
    if (key !== undefined) session.mock.keys = [...session.mock.keys, key].slice(-MAX_KEYS);
    await saveLog(rt, log);
    return undefined;
  });
}

/** A user message of one text part, as an input event. */
export function textInput(text: string): Input {
  return { type: "agent.session.input.message", messages: [[{ type: "input_text", text }]] };
}

/** `POST …/events`: the inputs applied (a retried `Idempotency-Key` answered without applying again), then 202. */
export async function sendEvents(request: Request, id: string, a: PlatformAnswer, rt: Runtime, mcp?: () => McpClientOptions): Promise<Response> {
  const body = await objectBody(request);
  if (!body.ok) return a.fail(body.error);
  const header = request.headers.get("idempotency-key");
  // Kept as a 24-digit hash: a key of any length costs the session the same few bytes.
  const key = header === null ? undefined : stableHex(`idempotency|${header}`, 24);
  const refused = await applyToSession(rt, id, (session) => checkedEvents(body.value.events, session), mcp, key);
  return refused === undefined ? accepted(a) : a.fail(refused);
}

/** The API's 202: accepted, no body. */
function accepted(a: PlatformAnswer): Response {
  return new Response(null, { status: 202, headers: { ...a.headers, "content-length": "0" } });
}

/** One event's SSE text, with its `obfuscation` padding when asked (the padding seeded by the event's id). */
function frame(e: SessionEvent, pad: boolean): string {
  const json = pad ? JSON.stringify({ ...e, obfuscation: obfuscation(e.event_id, typeof e.delta === "string" ? e.delta : "", 16) }) : JSON.stringify(e);
  return `data: ${json}\n\n`;
}

/** Whether an event ends the stream a `stream: true` create answers: its first turn's end, then the session idle. */
export type StreamEnd = (e: SessionEvent, ended: { turn: boolean }) => boolean;

/** The first turn's end (completed, failed or cancelled) followed by `agent.session.idle`, or the session failed. */
export const firstTurnEnd: StreamEnd = (e, ended) => {
  if (e.type === "agent.session.turn.completed" || e.type === "agent.session.turn.failed" || e.type === "agent.session.turn.cancelled") ended.turn = true;
  return e.type === "agent.session.failed" || (e.type === "agent.session.idle" && ended.turn);
};

/**
 * The session's event stream from change number `from` on (`first`: a change's events to send first, already
 * counted), each event when it is due (the script's latency and pacing), open until `end` says so, the session is
 * deleted (its head gone), or nothing happens for STREAM_IDLE_MS.
 */
export function eventStream(a: PlatformAnswer, rt: Runtime, id: string, from: number, pad: boolean, first?: StoredChange, end?: StreamEnd): Response {
  const home = agentsHome(rt);
  let cursor = from;
  const ended = { turn: false };
  // Events read but not yet due (the script's latency and pacing).
  const waiting = new DueQueue<SessionEvent>();
  const queue = (c: StoredChange) => {
    for (const [i, event] of c.events.entries()) waiting.push(event, c.due[i] ?? 0);
  };
  if (first !== undefined) queue(first);
  /** The events due now, framed; the stream's end when one of them ends it. */
  const dueNow = (): PolledRead => {
    let text = "";
    for (const event of waiting.takeDue()) {
      text += frame(event, pad);
      if (end?.(event, ended) === true) return { text, last: true };
    }
    return text === "" ? undefined : { text };
  };
  const body = polledStream({
    async read() {
      if (waiting.size > 0) return dueNow();
      const head = await home.objectById(HEAD_KIND, id);
      if (head === null) return { text: "", last: true };
      const last = Number(head);
      if (last <= cursor) return undefined;
      // Only the changes after this stream's place (one forgotten since is skipped).
      for (let n = cursor + 1; n <= last; n++) {
        const json = await home.objectById(eventsKind(id), changeId(n));
        if (json !== null) queue(JSON.parse(json) as StoredChange);
      }
      cursor = last;
      return dueNow();
    },
    keepAlive: ": keep-alive\n\n",
    keepAliveMs: KEEP_ALIVE_MS,
    idleMs: STREAM_IDLE_MS,
  });
  return new Response(body, { status: 200, headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", ...a.headers } });
}

/** `GET …/events`: the live stream of a session that exists. */
export async function streamEvents(request: Request, id: string, a: PlatformAnswer, rt: Runtime): Promise<Response> {
  const head = await agentsHome(rt).objectById(HEAD_KIND, id);
  if (head === null) return a.fail(sessionNotFound(id));
  const pad = new URL(request.url).searchParams.get("include_obfuscation");
  if (pad !== null && pad !== "true" && pad !== "false")
    return a.fail(invalid(`Invalid value for 'include_obfuscation': expected a boolean, but got '${echoed(pad)}' instead.`, "include_obfuscation"));
  return eventStream(a, rt, id, Number(head), pad !== "false");
}
