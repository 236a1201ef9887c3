/**
 * A managed-agents session's events: `POST /v1/sessions/{id}/events` (the client's events, checked all or none, then
 * the harness's turn, loop.ts, before the answer), `GET …/events` (the history, oldest first by default) and
 * `GET …/events/stream` (SSE: only the events appended after it opens, each as `event: {type}`; a ping every 15 s
 * of quiet; `session.deleted` and the end when the session is deleted; with `event_deltas[]=agent.message`, each
 * message's text as `event_start` and one `event_delta` a word before the message itself).
 */
import { readJsonBody } from "../../../../http/body";
import { apiError, type ApiError } from "../../../../http/errors";
import { isRecord, jsonResponse } from "../../../../http/json";
import { Response } from "../../../../http/web";
import { DueQueue, polledStream, type PolledRead } from "../../../../http/polled-stream";
import type { Runtime } from "../../../../runtime/types";
import { wordPieces } from "../../../../util/text";
import type { SideRouteContext } from "../../../types";
import { conflict, invalid, isApiError, newEventId, sessionNotFound, timestamp, type StoredSession } from "./objects";
import { answeredUse, EventLog, runAgentTurn, toolResult, type Harness, type SessionEvent } from "./loop";
import { mcpOptions } from "../../../../turn/mcp-client";
import { agentsHome, dueKind, eventCount, eventsKind, loadAll, loadOne, MAX_DUE_RECORDS, MAX_SESSION_EVENTS, SESSION_KIND, saveHead, saveOne, withSessionLock } from "./store";
import { createdWithin } from "./pages";
import { cursorPage } from "../../pages";
import { budgetReached } from "./budget";

type Json = Record<string, unknown>;

/** Most events one send carries. */
const MAX_SEND = 50;
/** A quiet stream's ping interval, and how long a stream stays open with nothing to send. */
const PING_MS = 15_000;
export const STREAM_IDLE_MS = 10 * 60_000;

const CONTENT_TYPES = new Set(["text", "image", "document", "search_result"]);

function contentOf(v: unknown, at: string, required: boolean): Json[] | ApiError | undefined {
  if (v === undefined || v === null) return required ? invalid(`${at}: Field required`) : undefined;
  if (!Array.isArray(v)) return invalid(`${at}: Input should be a valid list`);
  if (required && v.length === 0) return invalid(`${at}: List should have at least 1 item after validation, not 0`);
  for (const [i, b] of v.entries()) {
    if (!isRecord(b) || typeof b.type !== "string" || !CONTENT_TYPES.has(b.type))
      return invalid(`${at}.${i}: Input tag '${isRecord(b) ? String(b.type) : ""}' found using 'type' does not match any of the expected tags: 'text', 'image', 'document', 'search_result'`);
    if (b.type === "text" && typeof b.text !== "string") return invalid(`${at}.${i}.text: Field required`);
  }
  return v as Json[];
}

/** One event of a send, checked against the session's state: the event as the history keeps it, or why it is refused. */
function checkEvent(e: unknown, i: number, session: StoredSession, history: readonly SessionEvent[], answered: Set<string>): Json | ApiError {
  const at = `events.${i}`;
  if (!isRecord(e)) return invalid(`${at}: Input should be a valid dictionary`);
  const pending = new Set(session.mock.pending);
  const useOf = (id: unknown) => history.find((h) => h.id === id);
  switch (e.type) {
    case "user.message": {
      const content = contentOf(e.content, `${at}.content`, true);
      if (isApiError(content) || content === undefined) return content ?? invalid(`${at}.content: Field required`);
      if (pending.size > answered.size)
        return invalid(`${at}: the session is waiting for the results of ${[...pending].filter((id) => !answered.has(id)).join(", ")}; send them (or a user.interrupt) first.`);
      if (budgetReached(session)) {
        const max = session.budget?.max_list_cost;
        return invalid(
          `${at}: the session has reached its budget (list cost ${session.usage.list_cost?.amount ?? "0"} of ${isRecord(max) ? String(max.amount) : "?"} cents): raise or remove the budget to go on.`,
        );
      }
      return { type: "user.message", content };
    }
    case "user.interrupt":
      return { type: "user.interrupt" };
    case "user.custom_tool_result":
    case "user.tool_result":
    case "user.tool_confirmation": {
      const field = e.type === "user.custom_tool_result" ? "custom_tool_use_id" : "tool_use_id";
      const id = e[field];
      if (typeof id !== "string" || id === "") return invalid(`${at}.${field}: Field required`);
      const use = useOf(id);
      const wanted = e.type === "user.custom_tool_result" ? "agent.custom_tool_use" : e.type === "user.tool_result" ? "agent.tool_use" : undefined;
      if (use === undefined || (wanted !== undefined && use.type !== wanted) || (wanted === undefined && use.type === "agent.custom_tool_use")) {
        return invalid(`${at}.${field}: no ${wanted ?? "agent.tool_use or agent.mcp_tool_use"} event ${id} in this session`);
      }
      if (!pending.has(id) || answered.has(id)) return invalid(`${at}.${field}: tool use ${id} is not waiting for ${e.type === "user.tool_confirmation" ? "a confirmation" : "a result"}`);
      if (e.type === "user.tool_confirmation") {
        if (use.evaluated_permission !== "ask") return invalid(`${at}.${field}: tool use ${id} needs no confirmation`);
        if (e.result !== "allow" && e.result !== "deny") return invalid(`${at}.result: Input should be 'allow' or 'deny'`);
        if (e.deny_message !== undefined && e.deny_message !== null && (e.result !== "deny" || typeof e.deny_message !== "string"))
          return invalid(`${at}.deny_message: only a denial carries a deny_message`);
        return { type: e.type, tool_use_id: id, result: e.result, ...(typeof e.deny_message === "string" ? { deny_message: e.deny_message } : {}) };
      }
      if (e.type === "user.tool_result" && use.evaluated_permission === "ask" && !history.some((h) => h.type === "user.tool_confirmation" && h.tool_use_id === id)) {
        return invalid(`${at}.tool_use_id: tool use ${id} waits for a user.tool_confirmation first`);
      }
      const content = contentOf(e.content, `${at}.content`, false);
      if (isApiError(content)) return content;
      if (e.is_error !== undefined && e.is_error !== null && typeof e.is_error !== "boolean") return invalid(`${at}.is_error: Input should be a valid boolean`);
      return { type: e.type, [field]: id, ...(content !== undefined ? { content } : {}), ...(typeof e.is_error === "boolean" ? { is_error: e.is_error } : {}) };
    }
    case "system.message":
    case "user.define_outcome":
      return invalid(`${at}.type: mockllm does not serve '${e.type}' events (docs/providers/anthropic.md, "Managed agents").`);
    default:
      return invalid(
        `${at}: Input tag '${String(e.type)}' found using 'type' does not match any of the expected tags: 'user.message', 'user.interrupt', 'user.tool_confirmation', 'user.custom_tool_result', 'user.define_outcome', 'user.tool_result', 'system.message'`,
      );
  }
}

/** Whether an event resolves a waiting tool use, and which. */
function resolves(e: Json): string | undefined {
  if (e.type === "user.custom_tool_result") return String(e.custom_tool_use_id);
  if (e.type === "user.tool_result") return String(e.tool_use_id);
  return undefined;
}

/**
 * Applies the client's events to `session` (their echoes and what they cause go to `log`): results and confirmations
 * settle waiting tool uses, an interrupt ends a waiting turn, and a message — or the last waiting use settled —
 * runs the agent's next turn.
 */
export async function applyEvents(h: Harness, session: StoredSession, history: SessionEvent[], events: Json[], log: EventLog): Promise<SessionEvent[]> {
  let run = false;
  const echoes: SessionEvent[] = [];
  for (const e of events) {
    const echo = log.emit(String(e.type), Object.fromEntries(Object.entries(e).filter(([k]) => k !== "type")));
    history.push(echo);
    echoes.push(echo);
    if (e.type === "user.message") run = true;
    if (e.type === "user.interrupt" && session.mock.pending.length > 0) {
      session.mock.pending = [];
      run = false;
      history.push(log.emit("session.status_idle", { stop_reason: { type: "end_turn" }, stop_details: null }));
    }
    const settled = resolves(e);
    if (settled !== undefined) session.mock.pending = session.mock.pending.filter((id) => id !== settled);
    if (e.type === "user.tool_confirmation") {
      const use = history.find((h) => h.id === e.tool_use_id)!;
      const deny = e.result === "deny";
      // A cloud environment's confirmed call is answered here (mockllm runs no tool); a self-hosted one's waits for
      // the client's result, unless denied.
      if (deny || !(session.mock.selfHosted && use.type === "agent.tool_use")) {
        const result = deny ? toolResult(use, true, typeof e.deny_message === "string" ? e.deny_message : undefined) : await answeredUse(h, session, use);
        history.push(log.emit(...result));
        session.mock.pending = session.mock.pending.filter((id) => id !== use.id);
      }
    }
    if (settled !== undefined || e.type === "user.tool_confirmation") run = session.mock.pending.length === 0;
  }
  if (run) await runAgentTurn(h, session, history, log);
  else if (session.mock.pending.length > 0 && events.some((e) => resolves(e) !== undefined || e.type === "user.tool_confirmation")) {
    // Some but not all of the waiting uses settled: the session says again what it still waits for.
    history.push(log.emit("session.status_idle", { stop_reason: { type: "requires_action", event_ids: session.mock.pending }, stop_details: null }));
  }
  return echoes;
}

/**
 * Runs a change to session `id` (a send, an update, an archive, a resource's) on the session as the changes before it
 * left it — read, changed and written back one at a time (withSessionLock) — or answers its 404.
 */
export function changeSession(ctx: SideRouteContext, id: string, change: (session: StoredSession) => Promise<Response>): Promise<Response> {
  return withSessionLock(ctx.rt, id, async () => {
    const session = await loadOne<StoredSession>(agentsHome(ctx.rt), SESSION_KIND, id);
    return session === undefined ? ctx.refuse(sessionNotFound(id)) : change(session);
  });
}

/** What a request's turns run with: its runtime, and MCP calls to the request's own host through the router. */
export function harnessOf(request: Request, ctx: SideRouteContext): Harness {
  return { rt: ctx.rt, mcp: () => mcpOptions(ctx.rt.vars, request.url, ctx.local) };
}

/** Stores what a send or a create appended, and the session as it now stands. */
export async function saveTurn(rt: Runtime, session: StoredSession, log: EventLog): Promise<void> {
  const home = agentsHome(rt);
  const from = session.mock.events;
  // The script's latency and pacing, played by the stream: kept only when some event is still to come.
  if (log.due.some((d) => d > Date.now())) await home.putObjects(dueKind(session.id), [{ id: String(from).padStart(10, "0"), json: JSON.stringify({ from, due: log.due }) }], MAX_DUE_RECORDS);
  session.mock.events += log.out.length;
  session.status = "idle";
  session.updated_at = timestamp();
  if (log.out.length > 0)
    await home.putObjects(
      eventsKind(session.id),
      log.out.map((e) => ({ id: e.id, json: JSON.stringify(e) })),
      MAX_SESSION_EVENTS,
    );
  await saveOne(home, SESSION_KIND, session);
  await saveHead(home, session.id, session.mock.events);
}

/** Checks a send's (or `initial_events`') events, all or none: the events as kept, or the refusal. */
export function checkedEvents(raw: unknown, session: StoredSession, history: readonly SessionEvent[], field = "events", only?: readonly string[]): Json[] | ApiError {
  if (!Array.isArray(raw)) return invalid(`${field}: Field required`);
  if (raw.length === 0) return invalid(`${field}: List should have at least 1 item after validation, not 0`);
  if (raw.length > MAX_SEND) return invalid(`${field}: List should have at most ${MAX_SEND} items after validation, not ${raw.length}`);
  const answered = new Set<string>();
  const out: Json[] = [];
  for (const [i, e] of raw.entries()) {
    if (only !== undefined && isRecord(e) && !only.includes(String(e.type))) return invalid(`${field}.${i}.type: only ${only.join(" and ")} events may start a session`);
    const checked = checkEvent(e, i, session, history, answered);
    if (isApiError(checked)) return field === "events" ? checked : { ...checked, message: checked.message.replace(/^events\./, `${field}.`) };
    const settled = resolves(checked) ?? (checked.type === "user.tool_confirmation" && checked.result === "deny" ? String(checked.tool_use_id) : undefined);
    if (settled !== undefined) answered.add(settled);
    // An interrupt ends the waiting turn: what follows it in the same send needs no results.
    if (checked.type === "user.interrupt") for (const id of session.mock.pending) answered.add(id);
    out.push(checked);
  }
  return out;
}

async function send(request: Request, id: string, ctx: SideRouteContext): Promise<Response> {
  const body = await readJsonBody(request);
  if (!body.ok) return ctx.refuse(body.error);
  return changeSession(ctx, id, async (session) => {
    const home = agentsHome(ctx.rt);
    if (session.archived_at !== null) return ctx.refuse(conflict(`Session ${id} is archived and accepts no events.`));
    if (session.status === "terminated") return ctx.refuse(conflict(`Session ${id} is terminated and accepts no events.`));
    const history = await loadAll<SessionEvent>(home, eventsKind(id));
    const events = checkedEvents(body.value.events, session, history);
    if (isApiError(events)) return ctx.refuse(events);
    const log = new EventLog();
    const echoes = await applyEvents(harnessOf(request, ctx), session, history, events, log);
    await saveTurn(ctx.rt, session, log);
    return jsonResponse({ data: echoes });
  });
}

function list(request: Request, all: SessionEvent[], ctx: SideRouteContext): Response {
  const query = new URL(request.url).searchParams;
  const order = query.get("order") ?? "asc";
  if (order !== "asc" && order !== "desc") return ctx.refuse(invalid("order: Input should be 'asc' or 'desc'"));
  const types = [...query.getAll("types[]"), ...query.getAll("types")];
  const within = createdWithin<SessionEvent>(query, (e) => e.processed_at);
  if (isApiError(within)) return ctx.refuse(within);
  const chosen = all.filter((e) => (types.length === 0 || types.includes(e.type)) && within(e));
  const got = cursorPage(order === "desc" ? [...chosen].reverse() : chosen, query, { defaultLimit: 1000, max: 1000 });
  if (isApiError(got)) return ctx.refuse(got);
  return jsonResponse({ data: got.data, next_page: got.next_page });
}

const sse = (name: string, data: unknown): string => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;

/** The SSE text of appended events, each `agent.message` (and `agent.thinking`) preceded by its deltas when asked. */
function streamed(events: readonly SessionEvent[], deltas: ReadonlySet<string>): string {
  let out = "";
  for (const e of events) {
    if (deltas.has(e.type)) {
      out += sse("event_start", { type: "event_start", event: { type: e.type, id: e.id } });
      if (e.type === "agent.message" && Array.isArray(e.content)) {
        for (const [index, block] of (e.content as Json[]).entries()) {
          if (block.type !== "text" || typeof block.text !== "string") continue;
          for (const piece of wordPieces(block.text, 1)) {
            out += sse("event_delta", { type: "event_delta", event_id: e.id, delta: { type: "content_delta", index, content: { type: "text", text: piece.text } } });
          }
        }
      }
    }
    out += sse(e.type, e);
  }
  return out;
}

function stream(request: Request, session: StoredSession, ctx: SideRouteContext): Response {
  const query = new URL(request.url).searchParams;
  const asked = [...query.getAll("event_deltas[]"), ...query.getAll("event_deltas")];
  if (asked.length > 100) return ctx.refuse(invalid("event_deltas: List should have at most 100 items after validation"));
  const bad = asked.find((t) => t !== "agent.message" && t !== "agent.thinking");
  if (bad !== undefined) return ctx.refuse(invalid(`event_deltas: Input should be 'agent.message' or 'agent.thinking', not '${bad}'`));
  const deltas = new Set(asked);
  const home = agentsHome(ctx.rt);
  const id = session.id;
  let cursor = session.mock.events;
  // Events read but not yet due (the script's latency and pacing), oldest first.
  const waiting = new DueQueue<string>();
  const dueNow = (): PolledRead => {
    const text = waiting.takeDue().join("");
    return text === "" ? undefined : { text };
  };
  const body = polledStream({
    async read() {
      if (waiting.size > 0) return dueNow();
      const count = await eventCount(home, id);
      if (count === undefined) return { text: sse("session.deleted", { id: newEventId(), type: "session.deleted", processed_at: timestamp() }), last: true };
      if (count <= cursor) return undefined;
      const all = await loadAll<SessionEvent>(home, eventsKind(id));
      const fresh = all.slice(Math.max(0, all.length - (count - cursor)));
      const due = new Map<number, number>();
      for (const r of await loadAll<{ from: number; due: number[] }>(home, dueKind(id))) {
        if (r.from + r.due.length <= cursor || r.from >= count) continue;
        for (const [i, at] of r.due.entries()) due.set(r.from + i, at);
      }
      const first = count - fresh.length;
      for (const [k, e] of fresh.entries()) waiting.push(streamed([e], deltas), due.get(first + k) ?? 0);
      cursor = count;
      return dueNow();
    },
    keepAlive: sse("ping", { type: "ping" }),
    keepAliveMs: PING_MS,
    idleMs: STREAM_IDLE_MS,
  });
  return new Response(body, { status: 200, headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" } });
}

/** Serves `/v1/sessions/{id}/events[/stream]` for a session that exists. */
export async function serveEvents(request: Request, path: string, session: StoredSession, streamPath: boolean, ctx: SideRouteContext): Promise<Response> {
  const method = request.method;
  if (streamPath) {
    if (method !== "GET") return ctx.refuse(apiError("method_not_allowed", `Use GET for ${path}.`));
    return stream(request, session, ctx);
  }
  if (method === "POST") return send(request, session.id, ctx);
  if (method !== "GET") return ctx.refuse(apiError("method_not_allowed", `Use GET or POST for ${path}.`));
  return list(request, await loadAll<SessionEvent>(agentsHome(ctx.rt), eventsKind(session.id)), ctx);
}
