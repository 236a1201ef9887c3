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
import { checkId } from "./parse";
import { withBilling } from "./render-json";
import { replayEvents } from "./replay";
import { forgetResponse, locateResponse } from "./state";
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
    const body = stub ? await stub.responseById(id) : null;
    if (body === null) return fail(notFound(id));
    const query = new URL(request.url).searchParams;
    return query.get("stream") === "true" ? replay(body, query.get("starting_after"), answer, fail) : answer(storedBody(body), 200);
  }
  const deleted = stub ? await stub.deleteResponse(id) : false;
  if (!deleted) return fail(notFound(id));
  await forgetResponse(rt, id);
  return answer(JSON.stringify({ id, object: "response.deleted", deleted: true }), 200);
}
