/**
 * Gemini's error shape, `{ error: { code, message, status } }` with HTTP status = `code` and a google.rpc status
 * name, the `RetryInfo` detail on 429, and the presence-only API-key check.
 */
import type { ApiError, ErrorCode } from "../../http/errors";
import type { Failure } from "../../scenario/schema";
import type { RenderedError } from "../types";
import { header } from "../../http/headers";

const ERRORS: Record<ErrorCode, { code: number; status: string }> = {
  invalid_request: { code: 400, status: "INVALID_ARGUMENT" },
  invalid_json: { code: 400, status: "INVALID_ARGUMENT" },
  mismatch: { code: 400, status: "INVALID_ARGUMENT" },
  authentication: { code: 401, status: "UNAUTHENTICATED" },
  permission: { code: 403, status: "PERMISSION_DENIED" },
  not_found: { code: 404, status: "NOT_FOUND" },
  // Google answers a wrong method with 404 "Method not found"; 405 is kept so clients see what went wrong.
  method_not_allowed: { code: 405, status: "NOT_FOUND" },
  // The real API answers an oversized payload with 400; 413 is kept, as on every surface.
  payload_too_large: { code: 413, status: "INVALID_ARGUMENT" },
  unsupported_media_type: { code: 415, status: "INVALID_ARGUMENT" },
  rate_limit: { code: 429, status: "RESOURCE_EXHAUSTED" },
  model_error: { code: 500, status: "INTERNAL" },
  internal: { code: 500, status: "INTERNAL" },
  overloaded: { code: 503, status: "UNAVAILABLE" },
  upstream_unavailable: { code: 502, status: "UNAVAILABLE" },
};

/** google.rpc status names and their HTTP codes, for `stream_error.errorType`. */
export const STATUS_CODES: Record<string, number> = {
  INVALID_ARGUMENT: 400,
  FAILED_PRECONDITION: 400,
  OUT_OF_RANGE: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  ABORTED: 409,
  ALREADY_EXISTS: 409,
  RESOURCE_EXHAUSTED: 429,
  CANCELLED: 499,
  UNKNOWN: 500,
  INTERNAL: 500,
  DATA_LOSS: 500,
  UNIMPLEMENTED: 501,
  UNAVAILABLE: 503,
  DEADLINE_EXCEEDED: 504,
};

/** The real API's wording for scripted failures that carry no `message`. */
export const GEMINI_FAILURE_MESSAGES = {
  rate_limit: "You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.",
  overloaded: "The model is overloaded. Please try again later.",
  model_error: "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting",
} as const;

/** A protobuf Duration in JSON: `"5s"`, `"0.250s"`. */
export function protoDuration(ms: number): string {
  const s = Math.max(0, ms) / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(3)}s`;
}

/**
 * `{ error: { code, message, status } }`; a 429 adds the `QuotaFailure`, `Help` and `RetryInfo` details the real
 * API sends (`retryDelay` from the failure's `retryAfterMs`).
 * @example renderGeminiError({ code: "overloaded", message: "The model is overloaded." }, "req_1") // { status: 503, body: { error: { code: 503, … status: "UNAVAILABLE" } } }
 */
export function renderGeminiError(error: ApiError, _requestId: string): RenderedError {
  const e = ERRORS[error.code];
  const code = error.status ?? e.code;
  const body: Record<string, unknown> = { code, message: error.message, status: error.type ?? e.status };
  if (error.code === "rate_limit") {
    body.details = [
      {
        "@type": "type.googleapis.com/google.rpc.QuotaFailure",
        violations: [
          {
            quotaMetric: "generativelanguage.googleapis.com/generate_content_free_tier_requests",
            quotaId: "GenerateRequestsPerMinutePerProjectPerModel-FreeTier",
          },
        ],
      },
      {
        "@type": "type.googleapis.com/google.rpc.Help",
        links: [{ description: "Learn more about Gemini API quotas", url: "https://ai.google.dev/gemini-api/docs/rate-limits" }],
      },
      { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: protoDuration(error.retryAfterMs ?? 0) },
    ];
  }
  if (error.violations !== undefined && error.violations.length > 0) {
    body.details = [{ "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations: error.violations.map((v) => ({ field: v.field, description: v.description })) }];
  }
  return { status: code, body: { error: body }, headers: error.headers ?? {} };
}

/** Scripted failures add nothing beyond the generic `retry-after` / `retry-after-ms` / `x-should-retry`. */
export function geminiFailureHeaders(_failure: Failure): Record<string, string> {
  return {};
}

/**
 * The API key may come as `x-goog-api-key`, `?key=` or an OAuth `Authorization: Bearer` token; any non-empty
 * value passes. Without one the real API answers 403 PERMISSION_DENIED.
 */
export function checkGeminiAuth(headers: Headers, target: { query: URLSearchParams }): ApiError | undefined {
  const key = header(headers, "x-goog-api-key")?.trim() ?? "";
  const query = target.query.get("key")?.trim() ?? "";
  const bearer = /^Bearer\s+\S/i.test(header(headers, "authorization")?.trim() ?? "");
  if (key !== "" || query !== "" || bearer) return undefined;
  return {
    code: "permission",
    message: "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.",
  };
}

/**
 * A `limits` 429 on the Gemini API: `RESOURCE_EXHAUSTED` with `QuotaFailure` naming the per-minute quota that ran out
 * (requests, or input tokens) and `RetryInfo`; no rate-limit or `retry-after` headers (the API sends none).
 */
export function renderGeminiLimited(limit: "requestsPerMinute" | "tokensPerMinute", retryAfterMs: number): RenderedError {
  const r = renderGeminiError({ code: "rate_limit", message: GEMINI_FAILURE_MESSAGES.rate_limit, retryAfterMs }, "");
  if (limit === "tokensPerMinute") {
    const details = (r.body as { error: { details: { violations?: { quotaMetric: string; quotaId: string }[] }[] } }).error.details;
    details[0]!.violations = [{ quotaMetric: "generativelanguage.googleapis.com/generate_content_free_tier_input_token_count", quotaId: "GenerateContentInputTokensPerModelPerMinute-FreeTier" }];
  }
  return r;
}
