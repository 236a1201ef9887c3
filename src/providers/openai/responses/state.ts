/**
 * Conversation state for the Responses surface. With `store` (default true) each response is remembered in the
 * Durable Object of the (scenario, session) that answered it — `__responses/{session}` for the default responder,
 * a name no scenario can take — and an index object (`__index/responses-{shard}`) maps each response id to that
 * object, so `previous_response_id`, `item_reference` and `GET/DELETE /v1/responses/{id}` find it without knowing
 * the scenario, the moment it is stored. Output item ids embed their response's id root (`msg_{root}{nn}`), so one
 * index entry per response locates its items too.
 */
import type { Reply } from "../../../canonical/outcome";
import type { Failure } from "../../../scenario/schema";
import type { CanonicalRequest } from "../../../canonical/request";
import type { Runtime } from "../../../runtime/types";
import { apiError, type ApiError } from "../../../http/errors";
import { stableHash } from "../../../util/hash";
import type { HistorySegment, ResponseHistory } from "../../../session/responses";
import type { StoredResponses } from "../../../session/types";
import type { ParseResult, RenderContext } from "../../types";
import { canonicalResponsesRequest, checkId, parseItems, unmatchedOutputError } from "./parse";
import { appendConversationItems, conversationHome, conversationItems, conversationItemsOf, conversationNotFound, loadConversation, type ConversationItem } from "../conversations/store";
import { bodyOnce, buildResponse, responseIdOfItem, type ResponseObject } from "./render-json";
import { endEvent, processingMs, responseEventKey, saveRun } from "./background";
import { raiseEvent } from "../../../webhooks/hub";
import type { InputItem, ResponsesRequest } from "./wire";
import { parseJsonOrUndefined } from "../../../http/json";
import { echoed } from "../../../util/text";
import { Headers } from "../../../http/web";

/** Durable Object names for the default responder's state; `_` cannot start a scenario name. */
export const DEFAULT_STATE_PREFIX = "__responses";

/**
 * The index object that knows where response `id` is stored: one of 256 shards by a hash of the id, so the
 * index is never one hot object. `_` cannot start a scenario name, so no session collides with it.
 */
export function indexObject(rt: Runtime, id: string): StoredResponses {
  return rt.sessions.get(`__index/responses-${(stableHash(id) & 0xff).toString(16).padStart(2, "0")}`);
}

/** The Durable Object name holding the responses of a (scenario, session). */
export function stateObjectName(scenario: string | undefined, session: string): string {
  return scenario !== undefined ? `${scenario}/${session}` : `${DEFAULT_STATE_PREFIX}/${session}`;
}

/** The session object that stored response `id`, if the index knows it. */
export async function locateResponse(rt: Runtime, id: string): Promise<StoredResponses | undefined> {
  const object = await indexObject(rt, id).responsePointer(id);
  return object === null ? undefined : rt.sessions.get(object);
}

export async function forgetResponse(rt: Runtime, id: string): Promise<void> {
  await indexObject(rt, id).forgetResponsePointer(id);
}

function previousNotFound(id: string): ApiError {
  return apiError("not_found", `Previous response with id '${echoed(id)}' not found.`, {
    param: "previous_response_id",
    providerCode: "previous_response_not_found",
  });
}

function itemNotFound(id: string, store: boolean): ApiError {
  const hint = store ? "" : " Items are not persisted when `store` is set to false. Try again with `store` set to true, or remove this item from your input.";
  return apiError("not_found", `Item with id '${echoed(id)}' not found.${hint}`, { param: "input" });
}

/** Stored JSON → validated items; anything that no longer validates counts as absent. */
function storedItems(texts: string[]): InputItem[] | undefined {
  const values = texts.map(parseJsonOrUndefined);
  const parsed = parseItems(values);
  return parsed.ok ? parsed.items : undefined;
}

function segmentItems(segment: HistorySegment): InputItem[] | undefined {
  const input = parseJsonOrUndefined(segment.input);
  if (!Array.isArray(input)) return undefined;
  const own = parseItems(input);
  const output = storedItems(segment.output);
  return own.ok && output ? [...own.items, ...output] : undefined;
}

/**
 * The stored chain that ends at `id` (each link's own input and output, oldest first), across the session objects
 * that hold its links; or the id of the first link no object holds. Also Gemini interactions' chains.
 */
export async function chainSegments(rt: Runtime, id: string): Promise<{ segments: HistorySegment[] } | { missing: string }> {
  const segments: HistorySegment[] = [];
  let want: string | null = id;
  for (let hops = 0; want !== null && hops < 100; hops++) {
    const stub = await locateResponse(rt, want);
    const found: ResponseHistory | undefined = stub ? await stub.responseHistory(want) : undefined;
    if (!found || found.segments.length === 0) return { missing: want };
    segments.unshift(...found.segments);
    want = found.missing;
  }
  return { segments };
}

/** Everything `previous_response_id` stands for: the chain's inputs and outputs, oldest first. */
async function loadHistory(rt: Runtime, id: string): Promise<{ ok: true; items: InputItem[] } | { ok: false; error: ApiError }> {
  const chain = await chainSegments(rt, id);
  if ("missing" in chain) return { ok: false, error: previousNotFound(chain.missing) };
  const { segments } = chain;
  const items: InputItem[] = [];
  for (const segment of segments) {
    const its = segmentItems(segment);
    if (!its) return { ok: false, error: previousNotFound(id) };
    items.push(...its);
  }
  return { ok: true, items };
}

/** Replaces every `item_reference` with the stored output item it names. */
async function resolveReferences(rt: Runtime, items: InputItem[], store: boolean): Promise<{ ok: true; items: InputItem[] } | { ok: false; error: ApiError }> {
  const refs = items.flatMap((i) => (i.type === "item_reference" ? [i.id] : []));
  if (refs.length === 0) return { ok: true, items };
  const byResponse = new Map<string, string[]>();
  for (const ref of refs) {
    const owner = responseIdOfItem(ref);
    if (owner === undefined) return { ok: false, error: itemNotFound(ref, store) };
    byResponse.set(owner, [...(byResponse.get(owner) ?? []), ref]);
  }
  const found = new Map<string, InputItem>();
  for (const [owner, ids] of byResponse) {
    const stub = await locateResponse(rt, owner);
    const texts: Record<string, string> = stub ? await stub.responseItems(ids) : {};
    for (const [id, text] of Object.entries(texts)) {
      const item = storedItems([text])?.[0];
      if (item) found.set(id, item);
    }
  }
  const out: InputItem[] = [];
  for (const item of items) {
    if (item.type !== "item_reference") {
      out.push(item);
      continue;
    }
    const stored = found.get(item.id);
    if (!stored) return { ok: false, error: itemNotFound(item.id, store) };
    out.push(stored);
  }
  return { ok: true, items: out };
}

/**
 * What a Responses WebSocket keeps in connection-local memory whatever `store` says (protocols.md 10.1.5): its most
 * recent response's id and the conversation up to and including that response's output.
 */
export interface LocalResponse {
  id: string;
  items: InputItem[];
}

/** The connection-local state after answering `wire` with `response`. */
export function localResponse(response: ResponseObject, wire: ResponsesRequest): LocalResponse {
  const output = parseItems(response.output);
  return { id: response.id, items: [...wire.history, ...wire.items, ...(output.ok ? output.items : [])] };
}

/** The connection-local state as JSON (Workers keeps it across hibernation), and back. */
export function savedLocal(local: LocalResponse | undefined): unknown {
  return local ? { id: local.id, items: storable(local.items) } : null;
}

export function restoredLocal(saved: unknown): LocalResponse | undefined {
  if (typeof saved !== "object" || saved === null || !("id" in saved) || !("items" in saved)) return undefined;
  const { id, items } = saved;
  if (typeof id !== "string" || !Array.isArray(items)) return undefined;
  const parsed = parseItems(items);
  return parsed.ok ? { id, items: parsed.items } : undefined;
}

/**
 * Resolves `previous_response_id` and `item_reference` inputs before scenario selection, so the engine sees the
 * whole conversation as if it had been sent in full. Unknown ids get the real API's 404. `local` is a WebSocket's
 * connection-local response, which answers for its id before any stored state.
 */
export async function prepareResponsesRequest(wire: ResponsesRequest, request: CanonicalRequest, rt: Runtime, local?: LocalResponse): Promise<ParseResult<ResponsesRequest>> {
  const previous = wire.body.previous_response_id;
  const hasRefs = wire.items.some((i) => i.type === "item_reference");
  const conversation = wire.body.conversation;
  if (!previous && !hasRefs && (conversation === undefined || conversation === null)) return { ok: true, wire, request };
  const within = await conversationHistory(wire, rt);
  if (!within.ok) return within;
  if (within.id !== undefined) wire = { ...wire, conversation: within.id };
  const history =
    within.id !== undefined ? within : !previous ? { ok: true as const, items: [] } : previous === local?.id ? { ok: true as const, items: local.items } : await loadHistory(rt, previous);
  if (!history.ok) return history;
  const own = await resolveReferences(rt, wire.items, wire.body.store !== false);
  if (!own.ok) return own;
  const unmatched = unmatchedOutputError([...history.items, ...own.items]);
  if (unmatched) return { ok: false, error: unmatched };
  const next: ResponsesRequest = { ...wire, items: own.items, history: history.items };
  return { ok: true, wire: next, request: { ...canonicalResponsesRequest(next, new Headers()), headers: request.headers } };
}

/**
 * The items of the request's `conversation` (a `conv_…` id, or `{ id }`), as input items: what the real API puts
 * before the request's own input. No `conversation`: no id. Unknown: the real 404; with `previous_response_id`: 400.
 */
async function conversationHistory(wire: ResponsesRequest, rt: Runtime): Promise<{ ok: true; id?: string; items: InputItem[] } | { ok: false; error: ApiError }> {
  const given = wire.body.conversation;
  if (given === undefined || given === null) return { ok: true, items: [] };
  const id = typeof given === "string" ? given : typeof given === "object" && typeof (given as { id?: unknown }).id === "string" ? (given as { id: string }).id : undefined;
  if (id === undefined) return { ok: false, error: apiError("invalid_request", "Invalid type for 'conversation': expected a string or an object with an 'id'.", { param: "conversation" }) };
  if (wire.body.previous_response_id) {
    return {
      ok: false,
      error: apiError("invalid_request", "Mutually exclusive parameters: Ensure you are only providing one of: 'previous_response_id' or 'conversation'.", {
        providerCode: "mutually_exclusive_parameters",
      }),
    };
  }
  const bad = checkId(id, "conversation", "conv");
  if (bad) return { ok: false, error: bad };
  if (!(await loadConversation(rt, id))) return { ok: false, error: conversationNotFound(id, "conversation") };
  const items = parseItems(await conversationItems(rt, id));
  return items.ok ? { ok: true, id, items: items.items } : { ok: false, error: conversationNotFound(id, "conversation") };
}

/** Appends a turn's own input and the response's output to its conversation, as the real API does. */
async function extendConversation(response: ResponseObject, wire: ResponsesRequest, rt: Runtime): Promise<void> {
  if (wire.conversation === undefined) return;
  const home = conversationHome(rt, wire.conversation);
  const seed = `conv-item|${wire.conversation}|${await home.increment(`items:${wire.conversation}`)}`;
  const input = conversationItemsOf(wire.items, seed);
  const output = response.output.map((item) => ({ ...item }) as ConversationItem);
  await appendConversationItems(rt, wire.conversation, [...input, ...output]);
}

/** Items as stored: unknown types as the client sent them. */
function storable(items: InputItem[]): unknown[] {
  return items.map((i) => (i.type === "other" ? i.raw : i));
}

/** Remembers a successful response (unless `store: false`) in its session object, and where it is in the index. */
export async function rememberResponse(reply: Reply, ctx: RenderContext<ResponsesRequest>, rt: Runtime): Promise<void> {
  const keeps = ctx.wire.body.store !== false;
  if (ctx.wire.conversation === undefined && !keeps) return;
  // A JSON answer (not streamed, not in the background) is built and serialised once, for the store and the body
  // alike (render-json.ts, `bodyOnce`).
  const asBody = ctx.request.stream !== true && ctx.wire.body.background !== true;
  const made = asBody ? bodyOnce(reply, ctx) : undefined;
  const response = made?.response ?? buildResponse(reply, ctx);
  if (ctx.wire.conversation !== undefined) await extendConversation(response, ctx.wire, rt);
  if (keeps) await storeFinished(response, ctx, rt, made?.text);
}

/**
 * A scripted failure of a background request (not streamed) becomes the response's end: accepted now, `failed` with
 * the failure's `error` once its run is done (background.ts). Failures of the connection itself stay failures.
 */
export async function rememberBackgroundFailure(failure: Failure, reply: Reply, ctx: RenderContext<ResponsesRequest>, rt: Runtime): Promise<boolean> {
  const body = ctx.wire.body;
  if (body.background !== true || body.stream === true || body.store === false) return false;
  const error = failedError(failure, ctx.requestId);
  if (!error) return false;
  const response = buildResponse(reply, ctx);
  await storeFinished({ ...response, status: "failed", completed_at: null, error, incomplete_details: null, output: [], usage: null }, ctx, rt);
  return true;
}

/** Stores a finished response (`text`: its JSON when already made) and, for a background one, its run. */
async function storeFinished(response: ResponseObject, ctx: RenderContext<ResponsesRequest>, rt: Runtime, text?: string): Promise<void> {
  await storeResponse(response, ctx, rt, text);
  if (ctx.wire.body.background === true) {
    const now = Date.now();
    const run = { createdMs: now, readyMs: now + (await processingMs(rt, ctx.scenario)), cancelledMs: null };
    await saveRun(rt.sessions.get(stateObjectName(ctx.scenario, ctx.session ?? "default")), response.id, run);
    await raiseEvent(rt, responseEventKey(response.id), run.readyMs, endEvent(response.status), response.id);
  }
}

/** Stores `response` (answered to `ctx`'s request; `text`: its JSON when already made) in its session object and points the index at it. */
export async function storeResponse(response: ResponseObject, ctx: RenderContext<ResponsesRequest>, rt: Runtime, text = JSON.stringify(response)): Promise<void> {
  const name = stateObjectName(ctx.scenario, ctx.session ?? "default");
  await rt.sessions.get(name).saveResponse({
    id: response.id,
    previousId: ctx.wire.body.previous_response_id ?? null,
    input: JSON.stringify(storable(ctx.wire.items)),
    response: text,
    items: response.output.map((item) => ({ id: item.id, json: JSON.stringify(item) })),
  });
  await indexObject(rt, response.id).pointResponse(response.id, name);
}

/** The `error` a failed background response carries for a scripted failure; undefined for connection-level ones. */
function failedError(failure: Failure, requestId: string): { code: string; message: string } | undefined {
  const message =
    failure.message ??
    `An error occurred while processing your request. You can retry your request, or contact us through our help center at help.openai.com if the error persists. Please include the request ID ${requestId} in your message.`;
  switch (failure.kind) {
    case "model_error":
      return { code: "server_error", message };
    case "overloaded":
      return { code: "server_is_overloaded", message };
    case "rate_limit":
      return { code: "rate_limit_exceeded", message };
    case "stream_error":
      return { code: failure.errorType ?? "server_error", message };
    default:
      return undefined;
  }
}
