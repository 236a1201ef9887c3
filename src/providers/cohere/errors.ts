/**
 * Cohere's error shape, `{ "message": "…" }` with the status (docs.cohere.com/reference/errors), and its bearer auth.
 */
import { ERROR_CODES, type ApiError } from "../../http/errors";
import { header } from "../../http/headers";
import { stableHex } from "../../util/hash";
import type { Failure } from "../../scenario/schema";
import type { RenderedError } from "../types";

export function renderCohereError(error: ApiError, _requestId: string): RenderedError {
  return { status: error.status ?? ERROR_CODES[error.code], body: { message: error.message }, headers: error.headers ?? {} };
}

/** Cohere sends no rate-limit headers of its own; `Retry-After` (which its client reads) comes with every failure. */
export function cohereFailureHeaders(_failure: Failure): Record<string, string> {
  return {};
}

/** The wording of Cohere's own 429 and 5xx answers. */
export const COHERE_FAILURE_MESSAGES = {
  rate_limit: "You are past the per minute request limit, please wait and try again later.",
  overloaded: "service unavailable, please try again later",
  model_error: "internal server error, this has been reported to our developers",
} as const;

/** Cohere's trace id (`x-debug-trace-id`): 32 hex characters. */
export function cohereTraceId(seed: string): string {
  return stableHex(`trace|${seed}`, 32);
}

/** `Authorization: Bearer …` must be there (any value: the mock checks presence, not keys). */
export function checkCohereAuth(headers: Headers): ApiError | undefined {
  const auth = (header(headers, "authorization") ?? "").trim();
  if (/^Bearer\s+\S/i.test(auth)) return undefined;
  return { code: "authentication", message: auth === "" ? "no api key supplied" : "invalid api token" };
}

/**
 * What every Cohere surface shares of the surface interface's third part (errors and headers): the error shape, the
 * trace id header, the failure wordings, the bearer check.
 */
export const COHERE_ERRORS_AND_HEADERS = {
  requestIdHeader: "x-debug-trace-id",
  requestId: cohereTraceId,
  checkHeaders: checkCohereAuth,
  renderError: renderCohereError,
  failureHeaders: cohereFailureHeaders,
  failureMessages: COHERE_FAILURE_MESSAGES,
} as const;
