/**
 * Azure OpenAI's gateway: auth (`api-key` or `Authorization: Bearer`, presence only), `api-version`, its error
 * shapes, its response headers and its 429 (protocols.md part 10.3; shapes cited in test/shapes/azure.ts).
 * Errors the gateway answers itself (auth, unknown route or version, rate limit) are `{ error: { code, message } }`
 * with the status as a string code; errors the model service answers (request validation, mismatch, server errors)
 * pass through in OpenAI's shape, as Azure relays them.
 */
import { ERROR_CODES, type ApiError, type ErrorCode } from "../../http/errors";
import { stableHex } from "../../util/hash";
import { header } from "../../http/headers";
import type { Failure } from "../../scenario/schema";
import { renderOpenAIError } from "../openai/errors";
import type { RenderedError, RequestTarget } from "../types";
import { azureRoute, type AzureApi, type AzureOperation } from "./paths";

/** Error codes the Azure gateway answers in its own shape; the rest are the OpenAI service's. */
const GATEWAY_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>(["authentication", "permission", "not_found", "method_not_allowed", "rate_limit"]);

export const RESOURCE_NOT_FOUND = "Resource not found";
export const API_VERSION_NOT_SUPPORTED = "API version not supported";
export const ACCESS_DENIED =
  "Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.";

/** What a deployment may be named (letters, digits, `-`, `_`, `.`; at most 64): any other name was never deployed. */
export const DEPLOYMENT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
export const DEPLOYMENT_NOT_FOUND = "The API deployment for this resource does not exist. If you created the deployment within the last 5 minutes, please wait a moment and try again.";

/** Marks an `invalid_request` the gateway answers in its own shape (the v1 API's refusal of a dated version). */
const GATEWAY_TYPE = "azure_gateway";

/** A dated version, `YYYY-MM-DD` or `YYYY-MM-DD-preview` (e.g. `2024-10-21`, `2025-04-01-preview`). */
const DATED = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])(-preview)?$/;

/**
 * The date of Azure OpenAI's first API version (`2022-03-01-preview`; the first GA one is `2022-12-01`): a
 * well-formed version dated before it (`1999-01-01`) names no API the service has, and its gateway answers such a
 * version as it answers a malformed one, 404 `Resource not found`.
 */
const FIRST_VERSION = "2022-03-01";
/** What the v1 API takes besides no `api-version` at all. */
const V1_VERSIONS: ReadonlySet<string> = new Set(["v1", "preview", "latest"]);

/**
 * An Azure request id: a UUID, as `apim-request-id` and `x-request-id` carry them.
 * @example azureRequestId("weather/run-1/0") // "3f2a…-…"
 */
export function azureRequestId(seed: string): string {
  const h = stableHex(`azure|${seed}`, 32);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20)}`;
}

/**
 * The headers every Azure answer carries besides `x-request-id` (a recorded 2024 answer and protocols.md 10.3.3):
 * `apim-request-id` (the gateway's id, which Azure echoes as `x-ms-client-request-id` when the client sent none),
 * the region, the content-safety marker, the model session.
 */
export function azureHeaders(requestId: string): Record<string, string> {
  const apim = azureRequestId(`apim|${requestId}`);
  return {
    "apim-request-id": apim,
    "x-ms-client-request-id": apim,
    "x-ms-region": "East US",
    "x-content-type-options": "nosniff",
    "x-accel-buffering": "no",
    "x-ms-rai-invoked": "true",
    "azureml-model-session": "d20260101000000-6d6f636b",
  };
}

/**
 * An error in Azure's shape: the gateway's own (`{ error: { code: "401", message } }`, the status as a string code
 * unless the error names one) for auth, unknown routes and versions, rate limits; OpenAI's for the rest.
 */
export function renderAzureError(error: ApiError, requestId: string): RenderedError {
  const status = error.status ?? ERROR_CODES[error.code];
  if (!GATEWAY_CODES.has(error.code) && error.type !== GATEWAY_TYPE) return renderAzureServiceError(error, requestId);
  return {
    status,
    body: { error: { code: error.providerCode ?? String(status), message: error.message } },
    headers: { ...azureHeaders(requestId), ...error.headers },
  };
}

/** An error the model service answers (Azure relays it in OpenAI's shape, with its own headers). */
export function renderAzureServiceError(error: ApiError, requestId: string): RenderedError {
  const openai = renderOpenAIError(error, requestId);
  return { ...openai, headers: { ...azureHeaders(requestId), ...openai.headers } };
}

/**
 * The gateway's checks, in its order: the route's `api-version` (a classic route without a dated one is not found; a
 * v1 route refuses a dated one), then a credential (`api-key`, or `Authorization: Bearer`; presence only).
 */
export function checkAzureRequest(headers: Headers, target: RequestTarget): ApiError | undefined {
  const route = azureRoute(target.path);
  return checkAzureGateway(headers, target.query, route?.api, route?.deployment);
}

/** The same checks for a route `azureRoute` does not list (the stored-response routes): its API and deployment. */
export function checkAzureGateway(headers: Headers, query: URLSearchParams, api: AzureApi | undefined, deployment?: string): ApiError | undefined {
  const version = query.get("api-version");
  if (api === "classic" && (version === null || !DATED.test(version) || version.slice(0, 10) < FIRST_VERSION)) {
    return { code: "not_found", message: RESOURCE_NOT_FOUND };
  }
  if (api === "v1" && version !== null && !V1_VERSIONS.has(version)) {
    return { code: "invalid_request", status: 400, message: API_VERSION_NOT_SUPPORTED, providerCode: "BadRequest", type: GATEWAY_TYPE };
  }
  const key = header(headers, "api-key")?.trim() ?? "";
  const bearer = /^Bearer\s+\S/i.test((header(headers, "authorization") ?? "").trim());
  if (key === "" && !bearer) return { code: "authentication", message: ACCESS_DENIED };
  if (deployment !== undefined && !DEPLOYMENT_NAME.test(deployment)) {
    return { code: "not_found", message: DEPLOYMENT_NOT_FOUND, providerCode: "DeploymentNotFound" };
  }
  return undefined;
}

/**
 * Azure's operation names, as its 429 message says them (recorded for chat; the others follow the operation ids of
 * Azure's REST specification, not seen in a recorded 429).
 */
const OPERATION_NAMES: Record<AzureOperation, string> = {
  "chat/completions": "ChatCompletions_Create",
  completions: "Completions_Create",
  responses: "Responses_Create",
  embeddings: "Embeddings_Create",
  "images/generations": "ImageGenerations_Create",
  "images/edits": "ImageEdits_Create",
  "audio/speech": "Speech_Create",
  "audio/transcriptions": "Transcriptions_Create",
  "audio/translations": "Translations_Create",
};

/**
 * Azure's 429 wording (recorded): the operation, the request's `api-version` (the v1 API's `v1` when it sends none),
 * and the wait `retry-after` also says.
 * @example rateLimitMessage("chat/completions", "2024-10-21", 6) // "Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2024-10-21 have exceeded …"
 */
export function rateLimitMessage(operation: AzureOperation, apiVersion: string, seconds: number): string {
  return `Requests to the ${OPERATION_NAMES[operation]} Operation under Azure OpenAI API version ${apiVersion} have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after ${seconds} second${seconds === 1 ? "" : "s"}. Please go here: https://aka.ms/oai/quotaincrease if you would like to further increase the default rate limit.`;
}

/** `x-ratelimit-remaining-*` (and the limits, as newer deployments send them); a rate-limit failure reports none left. */
export function azureFailureHeaders(failure: Failure): Record<string, string> {
  if (failure.kind !== "rate_limit") return {};
  return {
    "x-ratelimit-limit-requests": "100",
    "x-ratelimit-remaining-requests": "0",
    "x-ratelimit-limit-tokens": "100000",
    "x-ratelimit-remaining-tokens": "0",
  };
}
