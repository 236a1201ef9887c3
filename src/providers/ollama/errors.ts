/**
 * Ollama's error shape, `{ "error": "…" }`, with the closed set's statuses (503 for overload, 429 for rate
 * limits; the generic renderer adds `retry-after`, `retry-after-ms` and `x-should-retry`). Ollama has no auth,
 * so every header set is accepted.
 */
import { ERROR_CODES, type ApiError } from "../../http/errors";
import type { Failure } from "../../scenario/schema";
import type { RenderedError } from "../types";

/** Ollama's own words where its server has them (Go's server answers an empty body with "missing request body"). */
function message(error: ApiError): string {
  if (error.code === "invalid_json" && error.message.startsWith("The request body is empty")) return "missing request body";
  return error.message;
}

/**
 * @example renderOllamaError({ code: "not_found", message: 'mockllm: scenario "x" not found' }, "req_1") // { status: 404, body: { error: … } }
 */
export function renderOllamaError(error: ApiError, _requestId: string): RenderedError {
  return { status: error.status ?? ERROR_CODES[error.code], body: { error: message(error) }, headers: error.headers ?? {} };
}

/** No provider-specific failure headers: the retry headers every surface gets are enough. */
export function ollamaFailureHeaders(_failure: Failure): Record<string, string> {
  return {};
}

/** Ollama has no authentication and no required headers. */
export function checkOllamaHeaders(_headers: Headers): ApiError | undefined {
  return undefined;
}
