/**
 * OpenAI's error shape, shared by every OpenAI surface: `{ error: { message, type, param, code } }`.
 */
import { ERROR_CODES, type ApiError } from "../../http/errors";
import type { Failure } from "../../scenario/schema";
import type { RenderedError } from "../types";
import { header } from "../../http/headers";

const TYPES: Record<ApiError["code"], { type: string; code: string | null }> = {
  invalid_request: { type: "invalid_request_error", code: null },
  invalid_json: { type: "invalid_request_error", code: null },
  mismatch: { type: "invalid_request_error", code: "mockllm_mismatch" },
  authentication: { type: "invalid_request_error", code: "invalid_api_key" },
  permission: { type: "invalid_request_error", code: null },
  not_found: { type: "invalid_request_error", code: "not_found" },
  method_not_allowed: { type: "invalid_request_error", code: null },
  payload_too_large: { type: "invalid_request_error", code: "request_too_large" },
  unsupported_media_type: { type: "invalid_request_error", code: null },
  rate_limit: { type: "requests", code: "rate_limit_exceeded" },
  model_error: { type: "server_error", code: null },
  internal: { type: "server_error", code: null },
  overloaded: { type: "server_error", code: "server_is_overloaded" },
  upstream_unavailable: { type: "server_error", code: "upstream_unavailable" },
};

export function renderOpenAIError(error: ApiError, _requestId: string): RenderedError {
  const t = TYPES[error.code];
  return {
    status: error.status ?? ERROR_CODES[error.code],
    body: {
      error: { message: error.message, type: error.type ?? t.type, param: error.param ?? null, code: error.providerCode ?? t.code },
    },
    headers: error.headers ?? {},
  };
}

/** `x-ratelimit-*` headers; a rate-limit failure reports the bucket as empty. */
export function openAIFailureHeaders(failure: Failure): Record<string, string> {
  if (failure.kind !== "rate_limit") return {};
  const reset = `${Math.ceil((failure.retryAfterMs ?? 0) / 1000)}s`;
  return {
    "x-ratelimit-limit-requests": "60",
    "x-ratelimit-remaining-requests": "0",
    "x-ratelimit-reset-requests": reset,
    "x-ratelimit-limit-tokens": "150000",
    "x-ratelimit-remaining-tokens": "0",
    "x-ratelimit-reset-tokens": reset,
  };
}

/** Headers every OpenAI response carries besides `x-request-id`. */
export const OPENAI_HEADERS = { "openai-version": "2020-10-01", "openai-processing-ms": "1" } as const;

/** Presence-only bearer auth, as the real API's shape requires. */
export function checkOpenAIAuth(headers: Headers): ApiError | undefined {
  const auth = header(headers, "authorization") ?? "";
  const m = /^Bearer\s+(\S.*)$/i.exec(auth.trim());
  if (m) return undefined;
  return {
    code: "authentication",
    message:
      auth === ""
        ? "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY)."
        : "Incorrect API key provided. Send it as Authorization: Bearer YOUR_KEY.",
  };
}
