/**
 * `GET /v1/responses/{id}` (JSON, or `?stream=true[&starting_after=N]` replayed as SSE) and
 * `DELETE /v1/responses/{id}` over stored responses, as plain handlers the router mounts. The id alone finds the
 * response (KV → session object), whatever scenario prefix the URL has.
 */
import type { Runtime } from "../../../runtime/types";
import { apiError, type ApiError } from "../../../http/errors";
import { makeRequestId } from "../../../http/ids";
import { encodeEvent } from "../../../http/sse";
import type { RenderedError } from "../../types";
import { checkOpenAIAuth, OPENAI_HEADERS, renderOpenAIError } from "../errors";
import { checkId, parseItems } from "./parse";
import { withBilling } from "./render-json";
import { replayEvents } from "./replay";
import { forgetResponse, locateResponse } from "./state";
import { BACKGROUND_KIND, backgroundView, isBackground, loadRun, pendingView, responseEventKey, runStatus, saveRun } from "./background";
import { raiseEvent } from "../../../webhooks/hub";
import { conversationItemsOf } from "../conversations/store";
import { page, pageQuery, platformAnswer } from "../platform";
import { echoed } from "../../../util/text";
import { Response } from "../../../http/web";

const STORED_PATH = /^\/(?:v1\/)?responses\/([^/]+)$/;

/** `/v1/responses/compact` and `/v1/responses/input_tokens` are routes of their own, not response ids. */
const NOT_IDS = new Set(["compact", "input_tokens"]);

/** The response id in `/v1/responses/{id}` (or `/responses/{id}`), if `path` is one. */
export function storedResponseId(path: string): string | undefined {
  const m = STORED_PATH.exec(path);
  if (!m || NOT_IDS.has(m[1]!)) return undefined;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return m[1];
  }
}

/**
 * Whose API serves the stored responses: OpenAI's (`/v1/responses/{id}`), or another that relays the same service
 * behind its own gateway (Azure's `/openai/responses/{id}`): its checks, request ids, error shape and headers.
 */
export interface StoredResponsesGateway {
  requestId(seed: string): string;
  /** Auth and the route's own checks, rendered, before anything else. */
  check(request: Request, requestId: string): RenderedError | undefined;
  /** The service's errors (a bad id, an unknown one, a wrong method). */
  renderError(error: ApiError, requestId: string): RenderedError;
  /** Headers every answer carries besides `x-request-id`. */
  headers(requestId: string): Record<string, string>;
  /** The stored response's path on this service, as an error message names it. */
  path(id: string): string;
}

const OPENAI_GATEWAY: StoredResponsesGateway = {
  requestId: makeRequestId,
  check: (request, requestId) => {
    const auth = checkOpenAIAuth(request.headers);
    return auth ? renderOpenAIError(auth, requestId) : undefined;
  },
  renderError: renderOpenAIError,
  headers: () => OPENAI_HEADERS,
  path: (id) => `/v1/responses/${id}`,
};

type Answer = (body: string, status: number, headers?: Record<string, string>) => Response;

function replay(stored: string, after: string | null, answer: Answer, fail: (error: ApiError) => Response): Response {
  const startingAfter = after === null ? undefined : Number(after);
  if (startingAfter !== undefined && !(Number.isInteger(startingAfter) && startingAfter >= 0)) {
    return fail(apiError("invalid_request", `Invalid 'starting_after': '${echoed(after ?? "")}'. Expected a non-negative integer.`, { param: "starting_after" }));
  }
  const events = replayEvents(stored, startingAfter);
  if (!events) return fail(apiError("internal", "mockllm: the stored response could not be replayed."));
  return answer(events.map(encodeEvent).join(""), 200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" });
}

/** A stored response as the JSON body `GET` answers: with `billing`, as every JSON body carries it. */
function storedBody(stored: string): string {
  try {
    const value: unknown = JSON.parse(stored);
    if (typeof value === "object" && value !== null && !Array.isArray(value)) return JSON.stringify(withBilling({ ...value }));
  } catch {
    // fall through: answer what was stored
  }
  return stored;
}

function notFound(id: string): ApiError {
  return apiError("not_found", `Response with id '${echoed(id)}' not found.`);
}

/**
 * Answers `GET` (the stored response object) or `DELETE` (`{ id, object: "response.deleted", deleted: true }`).
 * @example await handleStoredResponse(request, rt, "resp_…")
 */
export async function handleStoredResponse(request: Request, rt: Runtime, id: string, gateway: StoredResponsesGateway = OPENAI_GATEWAY): Promise<Response> {
  const requestId = gateway.requestId(`${request.method} ${request.url}`);
  const answer: Answer = (body, status, headers = {}) =>
    new Response(body, { status, headers: { "content-type": "application/json", "x-request-id": requestId, ...gateway.headers(requestId), ...headers } });
  const rendered = (r: RenderedError) => answer(JSON.stringify(r.body), r.status, r.headers);
  const fail = (error: ApiError) => rendered(gateway.renderError(error, requestId));
  const refused = gateway.check(request, requestId);
  if (refused) return rendered(refused);
  if (request.method !== "GET" && request.method !== "DELETE") {
    return fail(apiError("method_not_allowed", `Use GET or DELETE for ${gateway.path(echoed(id))}.`));
  }
  const bad = checkId(id, "response_id", "resp");
  if (bad) return fail(bad);
  const stub = await locateResponse(rt, id);
  if (request.method === "GET") {
    const stored = stub ? await stub.responseById(id) : null;
    if (stored === null || !stub) return fail(notFound(id));
    // A background response shows where its run stands now (background.ts); a replayed stream plays it whole.
    const run = isBackground(parsedObject(stored)) ? await loadRun(stub, id) : undefined;
    const body = run && new URL(request.url).searchParams.get("stream") !== "true" ? backgroundView(stored, run, Date.now()) : stored;
    const query = new URL(request.url).searchParams;
    return query.get("stream") === "true" ? replay(body, query.get("starting_after"), answer, fail) : answer(storedBody(body), 200);
  }
  const deleted = stub ? await stub.deleteResponse(id) : false;
  if (!deleted || !stub) return fail(notFound(id));
  await stub.deleteObject(BACKGROUND_KIND, id);
  await forgetResponse(rt, id);
  return answer(JSON.stringify({ id, object: "response.deleted", deleted: true }), 200);
}

function parsedObject(json: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(json);
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const ACTION_PATH = /^\/(?:v1\/)?responses\/([^/]+)\/(cancel|input_items)\/?$/;

/** `/v1/responses/{id}/cancel` or `/v1/responses/{id}/input_items`, if `path` is one. */
export function responseAction(path: string): { id: string; action: "cancel" | "input_items" } | undefined {
  const m = ACTION_PATH.exec(path);
  if (!m) return undefined;
  let id = m[1]!;
  try {
    id = decodeURIComponent(id);
  } catch {
    // the id as written
  }
  return { id, action: m[2] as "cancel" | "input_items" };
}

/**
 * `POST /v1/responses/{id}/cancel` (a background response not yet done becomes `cancelled`; one done, or cancelled
 * before, is answered as it is; any other the real 400) and `GET /v1/responses/{id}/input_items` (the request's own
 * input items, with ids, newest first unless `order=asc`, paginated).
 */
export async function handleResponseAction(request: Request, rt: Runtime, id: string, action: "cancel" | "input_items"): Promise<Response> {
  const started = platformAnswer(request);
  if (!started.ok) return started.response;
  const a = started.answer;
  const method = action === "cancel" ? "POST" : "GET";
  if (request.method !== method) return a.fail(apiError("method_not_allowed", `Use ${method} for /v1/responses/${echoed(id)}/${action}.`));
  const bad = checkId(id, "response_id", "resp");
  if (bad) return a.fail(bad);
  const stub = await locateResponse(rt, id);
  const stored = stub ? await stub.responseById(id) : null;
  if (stored === null || !stub) return a.fail(notFound(id));
  if (action === "input_items") {
    const q = pageQuery(new URL(request.url).searchParams, "desc");
    if (!q.ok) return a.fail(q.error);
    const history = await stub.responseHistory(id);
    const own = history.segments.at(-1)?.input;
    let raw: unknown = [];
    try {
      raw = JSON.parse(own ?? "[]");
    } catch {
      raw = [];
    }
    const parsed = parseItems(Array.isArray(raw) ? raw : []);
    const items = parsed.ok ? conversationItemsOf(parsed.items, `input-item|${id}`) : [];
    return a.json(page(items, q.page));
  }
  const response = parsedObject(stored);
  if (!isBackground(response)) return a.fail(apiError("invalid_request", "Cannot cancel a synchronous response."));
  const run = await loadRun(stub, id);
  if (!run) return a.json(withBilling(response));
  const now = Date.now();
  const status = runStatus(run, now);
  if (status === "done") return a.json(withBilling(response));
  if (status === "in_progress") {
    await saveRun(stub, id, { ...run, cancelledMs: now });
    await raiseEvent(rt, responseEventKey(id), now, "response.cancelled", id);
  }
  return a.json(pendingView(withBilling(response), "cancelled"));
}
