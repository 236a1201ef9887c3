/**
 * The closed set of error codes mockllm answers with. Each provider renders them in its own shape.
 */

export const ERROR_CODES = {
  invalid_request: 400,
  invalid_json: 400,
  mismatch: 400,
  authentication: 401,
  permission: 403,
  not_found: 404,
  method_not_allowed: 405,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limit: 429,
  model_error: 500,
  internal: 500,
  overloaded: 503,
  /** A recording proxy's upstream could not be reached. */
  upstream_unavailable: 502,
} as const;
export type ErrorCode = keyof typeof ERROR_CODES;

/** A provider-neutral error: a code from the closed set plus what to tell the client. */
export interface ApiError {
  code: ErrorCode;
  message: string;
  /** The request field at fault, when there is one (OpenAI `param`). */
  param?: string;
  /** Overrides the code's default status (e.g. Anthropic's 529). */
  status?: number;
  /** Provider error type override (Anthropic `errorType`, OpenAI `error.type`). */
  type?: string;
  /** Provider error code override (OpenAI `error.code`, e.g. `previous_response_not_found`). */
  providerCode?: string;
  headers?: Record<string, string>;
  /** A scripted failure's `retryAfterMs`, for providers that put it in the body (Gemini's `RetryInfo`). */
  retryAfterMs?: number;
  /** Anthropic's `error.details`: the `error_code` its SDK maps to an error class (`thread_not_found`), and its fields. */
  details?: { error_code: string } & Record<string, unknown>;
  /** The fields a body was refused for, for providers that list them (Google's `BadRequest.fieldViolations`). */
  violations?: readonly { field: string; description: string }[];
}

export function apiError(code: ErrorCode, message: string, extra: Omit<ApiError, "code" | "message"> = {}): ApiError {
  return { code, message, ...extra };
}

/** Whether a step's answer is its refusal (`ApiError`: a string `code` and `message`) rather than its value. */
export function isApiError(v: unknown): v is ApiError {
  return typeof v === "object" && v !== null && typeof (v as ApiError).code === "string" && typeof (v as ApiError).message === "string";
}
