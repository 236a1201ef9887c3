/**
 * Bedrock Runtime's errors (AWS restJson1): the type in the `x-amzn-ErrorType` header, the body `{ "message" }`,
 * the request id in `x-amzn-RequestId`; and the presence-only auth check (SigV4 or a Bedrock API key).
 */
import type { ApiError, ErrorCode } from "../../http/errors";
import { stableHex } from "../../util/hash";
import { header } from "../../http/headers";
import type { Failure } from "../../scenario/schema";
import type { RenderedError } from "../types";

const ERRORS: Record<ErrorCode, { status: number; type: string }> = {
  invalid_request: { status: 400, type: "ValidationException" },
  invalid_json: { status: 400, type: "ValidationException" },
  mismatch: { status: 400, type: "ValidationException" },
  authentication: { status: 403, type: "MissingAuthenticationTokenException" },
  permission: { status: 403, type: "AccessDeniedException" },
  not_found: { status: 404, type: "ResourceNotFoundException" },
  method_not_allowed: { status: 405, type: "UnknownOperationException" },
  payload_too_large: { status: 413, type: "ValidationException" },
  unsupported_media_type: { status: 415, type: "ValidationException" },
  rate_limit: { status: 429, type: "ThrottlingException" },
  model_error: { status: 500, type: "InternalServerException" },
  internal: { status: 500, type: "InternalServerException" },
  overloaded: { status: 503, type: "ServiceUnavailableException" },
  upstream_unavailable: { status: 502, type: "ServiceUnavailableException" },
};

/** The error type Bedrock gives each status, for scripted `http` failures (`ModelNotReadyException` is also 429: set the header). */
export const STATUS_TYPES: Record<number, string> = {
  400: "ValidationException",
  403: "AccessDeniedException",
  404: "ResourceNotFoundException",
  408: "ModelTimeoutException",
  424: "ModelErrorException",
  429: "ThrottlingException",
  500: "InternalServerException",
  503: "ServiceUnavailableException",
};

/** The real service's wording for scripted failures that carry no `message`. */
export const BEDROCK_FAILURE_MESSAGES = {
  rate_limit: "Too many requests, please wait before trying again.",
  overloaded: "Bedrock is unable to process your request.",
  model_error: "The system encountered an unexpected error during processing. Try your request again.",
} as const;

/** `x-amzn-ErrorType` as the service sends it; the SDKs keep what comes before the colon. */
export function errorTypeHeader(type: string): Record<string, string> {
  return { "x-amzn-ErrorType": `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/` };
}

/**
 * @example renderBedrockError({ code: "rate_limit", message: "Too many requests" }, "…") // { status: 429, body: { message: "Too many requests" }, headers: { "x-amzn-ErrorType": "ThrottlingException:…" } }
 */
export function renderBedrockError(error: ApiError, _requestId: string): RenderedError {
  const e = ERRORS[error.code];
  const type = error.type !== undefined && /Exception$/.test(error.type) ? error.type : e.type;
  return { status: error.status ?? e.status, body: { message: error.message }, headers: { ...errorTypeHeader(type), ...error.headers } };
}

/** A scripted `http` failure gets the error type of its status, so the SDKs raise the typed exception. */
export function bedrockFailureHeaders(failure: Failure): Record<string, string> {
  if (failure.kind !== "http") return {};
  const type = STATUS_TYPES[failure.status] ?? (failure.status >= 500 ? "InternalServerException" : "ValidationException");
  return errorTypeHeader(type);
}

/** Bedrock's request ids are UUIDs. */
export function bedrockRequestId(seed: string): string {
  const h = stableHex(`amzn|${seed}`, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * A SigV4 `Authorization: AWS4-HMAC-SHA256 …` (the signature is not checked) or a Bedrock API key
 * (`Authorization: Bearer …`); without either the service answers 403.
 */
export function checkBedrockAuth(headers: Headers): ApiError | undefined {
  const auth = header(headers, "authorization")?.trim() ?? "";
  if (/^AWS4-HMAC-SHA256\s+\S/i.test(auth) || /^Bearer\s+\S/i.test(auth)) return undefined;
  return {
    code: "authentication",
    message: "Missing Authentication Token (mockllm: sign with any AWS credentials, or send Authorization: Bearer <any Bedrock API key>)",
  };
}

/**
 * A `limits` 429 as Bedrock answers a throttled account: `ThrottlingException` saying which quota ran out ("Too many
 * requests" / "Too many tokens, please wait before trying again."), and no `retry-after` or rate-limit headers (the
 * service sends none: the AWS SDKs back off on their own). See docs/providers/fidelity.md.
 */
export function renderBedrockLimited(limit: "requestsPerMinute" | "tokensPerMinute", _retryAfterMs: number, ctx: { requestId: string }): RenderedError {
  const message = limit === "tokensPerMinute" ? "Too many tokens, please wait before trying again." : BEDROCK_FAILURE_MESSAGES.rate_limit;
  return renderBedrockError({ code: "rate_limit", message }, ctx.requestId);
}
