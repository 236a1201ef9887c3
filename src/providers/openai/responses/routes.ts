/**
 * `GET /v1/responses/{id}` and `DELETE /v1/responses/{id}` over stored responses, as plain handlers the router
 * mounts. The id alone finds the response (KV → session object), whatever scenario prefix the URL has.
 */
import type { Env } from "../../../env";
import { apiError, type ApiError } from "../../../http/errors";
import { makeRequestId } from "../../../http/ids";
import { checkOpenAIAuth, OPENAI_HEADERS, renderOpenAIError } from "../errors";
import { checkId } from "./parse";
import { forgetResponse, locateResponse } from "./state";

const STORED_PATH = /^\/(?:v1\/)?responses\/([^/]+)$/;

/** The response id in `/v1/responses/{id}` (or `/responses/{id}`), if `path` is one. */
export function storedResponseId(path: string): string | undefined {
  const m = STORED_PATH.exec(path);
  if (!m) return undefined;
  try {
    return decodeURIComponent(m[1]!);
  } catch {
    return m[1];
  }
}

function reply(body: string, status: number, requestId: string, headers: Record<string, string> = {}): Response {
  return new Response(body, {
    status,
    headers: { "content-type": "application/json", "x-request-id": requestId, ...OPENAI_HEADERS, ...headers },
  });
}

function fail(error: ApiError, requestId: string): Response {
  const r = renderOpenAIError(error, requestId);
  return reply(JSON.stringify(r.body), r.status, requestId, r.headers);
}

function notFound(id: string): ApiError {
  return apiError("not_found", `Response with id '${id}' not found.`);
}

/**
 * Answers `GET` (the stored response object) or `DELETE` (`{ id, object: "response.deleted", deleted: true }`).
 * @example await handleStoredResponse(request, env, "resp_…")
 */
export async function handleStoredResponse(request: Request, env: Env, id: string): Promise<Response> {
  const requestId = makeRequestId(`${request.method} ${request.url}`);
  const auth = checkOpenAIAuth(request.headers);
  if (auth) return fail(auth, requestId);
  if (request.method !== "GET" && request.method !== "DELETE") {
    return fail(apiError("method_not_allowed", `Use GET or DELETE for /v1/responses/${id}.`), requestId);
  }
  const bad = checkId(id, "response_id", "resp");
  if (bad) return fail(bad, requestId);
  if (request.method === "GET" && new URL(request.url).searchParams.get("stream") === "true") {
    return fail(apiError("invalid_request", "mockllm: replaying a stored response as a stream is not supported."), requestId);
  }
  const stub = await locateResponse(env, id);
  if (request.method === "GET") {
    const body = stub ? await stub.responseById(id) : null;
    return body === null ? fail(notFound(id), requestId) : reply(body, 200, requestId);
  }
  const deleted = stub ? await stub.deleteResponse(id) : false;
  if (!deleted) return fail(notFound(id), requestId);
  await forgetResponse(env, id);
  return reply(JSON.stringify({ id, object: "response.deleted", deleted: true }), 200, requestId);
}
