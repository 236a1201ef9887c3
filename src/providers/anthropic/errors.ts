/**
 * Anthropic's error shape, `{ type: "error", error: { type, message }, request_id }`, its statuses (529 for
 * overload) and headers, and the presence-only header checks every Anthropic route makes.
 */
import { ERROR_CODES, type ApiError, type ErrorCode } from "../../http/errors";
import type { Failure } from "../../scenario/schema";
import type { RenderedError } from "../types";
import { header } from "../../http/headers";

const ERRORS: Record<ErrorCode, { status: number; type: string }> = {
  invalid_request: { status: 400, type: "invalid_request_error" },
  invalid_json: { status: 400, type: "invalid_request_error" },
  mismatch: { status: 400, type: "invalid_request_error" },
  authentication: { status: 401, type: "authentication_error" },
  permission: { status: 403, type: "permission_error" },
  not_found: { status: 404, type: "not_found_error" },
  method_not_allowed: { status: ERROR_CODES.method_not_allowed, type: "invalid_request_error" },
  payload_too_large: { status: 413, type: "request_too_large" },
  unsupported_media_type: { status: ERROR_CODES.unsupported_media_type, type: "invalid_request_error" },
  rate_limit: { status: 429, type: "rate_limit_error" },
  model_error: { status: 500, type: "api_error" },
  internal: { status: 500, type: "api_error" },
  overloaded: { status: 529, type: "overloaded_error" },
  upstream_unavailable: { status: 502, type: "api_error" },
};

/**
 * @example renderAnthropicError(apiError("overloaded", "Overloaded"), "req_1") // { status: 529, body: { type: "error", … } }
 */
export function renderAnthropicError(error: ApiError, requestId: string): RenderedError {
  const e = ERRORS[error.code];
  return {
    status: error.status ?? e.status,
    body: { type: "error", error: { type: error.type ?? e.type, message: error.message, ...(error.details ? { details: error.details } : {}) }, request_id: requestId },
    headers: error.headers ?? {},
  };
}

/** Request and token buckets a rate-limit failure reports as empty. */
const REQUESTS_LIMIT = 50;
const TOKENS_LIMIT = 40_000;

/** RFC 3339 in whole seconds, as the real headers are: `2026-01-01T00:00:05Z`. */
function rfc3339(ms: number): string {
  return new Date(Math.ceil(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");
}

/**
 * `retry-after` (whole seconds, rounded up) on 429 and 529, and on 429 the `anthropic-ratelimit-*` buckets,
 * empty, resetting when the client is told to retry (now + retryAfterMs).
 */
export function anthropicFailureHeaders(failure: Failure, now = Date.now()): Record<string, string> {
  if (failure.kind !== "rate_limit" && failure.kind !== "overloaded") return {};
  const afterMs = failure.retryAfterMs ?? 0;
  const headers: Record<string, string> = { "retry-after": String(Math.ceil(afterMs / 1000)) };
  if (failure.kind === "overloaded") return headers;
  const reset = rfc3339(now + afterMs);
  return {
    ...headers,
    "anthropic-ratelimit-requests-limit": String(REQUESTS_LIMIT),
    "anthropic-ratelimit-requests-remaining": "0",
    "anthropic-ratelimit-requests-reset": reset,
    "anthropic-ratelimit-tokens-limit": String(TOKENS_LIMIT),
    "anthropic-ratelimit-tokens-remaining": "0",
    "anthropic-ratelimit-tokens-reset": reset,
  };
}

/**
 * Auth (`x-api-key`, or a non-empty `Authorization: Bearer`) → 401, then `anthropic-version` → 400.
 * Presence only, as in the real API's shape; any value is accepted.
 */
export function checkAnthropicHeaders(headers: Headers): ApiError | undefined {
  const browser = browserRefusal(headers);
  if (browser) return browser;
  const key = header(headers, "x-api-key")?.trim() ?? "";
  const bearer = /^Bearer\s+\S/i.test(header(headers, "authorization")?.trim() ?? "");
  if (key === "" && !bearer) {
    return {
      code: "authentication",
      message: "x-api-key header is required (mockllm: send any non-empty x-api-key, or Authorization: Bearer <token>)",
    };
  }
  if ((header(headers, "anthropic-version")?.trim() ?? "") === "") {
    return { code: "invalid_request", message: "anthropic-version: header is required" };
  }
  return undefined;
}

/**
 * The real API refuses a cross-origin browser request (one with an `Origin` header) that has not opted in with
 * `anthropic-dangerous-direct-browser-access: true` (what the SDK's `dangerouslyAllowBrowser` sends): 401
 * `authentication_error`, before the key is looked at (docs/providers/fidelity.md cites the wording). A same-origin
 * page (the inspector's own) is not a CORS request.
 */
function browserRefusal(headers: Headers): ApiError | undefined {
  const origin = header(headers, "origin");
  if (origin === undefined || origin === null) return undefined;
  if (header(headers, "anthropic-dangerous-direct-browser-access")?.trim().toLowerCase() === "true") return undefined;
  const host = header(headers, "host");
  if (host && origin.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "").toLowerCase() === host.toLowerCase()) return undefined;
  return { code: "authentication", message: "CORS requests must set 'anthropic-dangerous-direct-browser-access' header" };
}
