/**
 * Vertex AI's own checks: an OAuth bearer token (or, for Gemini in express mode, an API key) must be present —
 * any value passes; without one Vertex answers 401 UNAUTHENTICATED in Google's error shape, whatever the publisher.
 */
import type { ApiError } from "../../http/errors";
import { renderAnthropicError } from "../anthropic/errors";
import { renderGeminiError } from "../gemini/errors";
import type { RenderedError } from "../types";
import { header } from "../../http/headers";

export function checkVertexAuth(headers: Headers, target: { query: URLSearchParams }): ApiError | undefined {
  const bearer = /^Bearer\s+\S/i.test(header(headers, "authorization")?.trim() ?? "");
  const key = (header(headers, "x-goog-api-key")?.trim() ?? "") !== "" || (target.query.get("key")?.trim() ?? "") !== "";
  if (bearer || key) return undefined;
  return {
    code: "authentication",
    message:
      "Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. (mockllm: send any Authorization: Bearer <token>, or x-goog-api-key in express mode)",
  };
}

/** Claude on Vertex: Vertex's own 401 in Google's shape, everything else in Anthropic's. */
export function renderVertexClaudeError(error: ApiError, requestId: string): RenderedError {
  return error.code === "authentication" ? renderGeminiError(error, requestId) : renderAnthropicError(error, requestId);
}

/** Vertex AI's quota metrics for a publisher model's per-minute quotas (as its 429 names them). */
const QUOTA_METRICS = {
  anthropic: { requestsPerMinute: "online_prediction_requests_per_base_model", tokensPerMinute: "online_prediction_input_tokens_per_minute_per_base_model" },
  google: { requestsPerMinute: "generate_content_requests_per_minute_per_project_per_base_model", tokensPerMinute: "generate_content_input_tokens_per_minute_per_base_model" },
} as const;

/**
 * A `limits` 429 as Vertex AI answers a publisher model's quota, whatever the publisher: Google's error shape,
 * `RESOURCE_EXHAUSTED`, the quota metric and the base model (`claude-sonnet-4@20250514` → `anthropic-claude-sonnet-4`),
 * no details and no rate-limit or `retry-after` headers. See docs/providers/fidelity.md.
 * @example vertexLimited("anthropic", "claude-sonnet-4@20250514", "requestsPerMinute").body // { error: { code: 429, message: "Quota exceeded for aiplatform.googleapis.com/online_prediction_requests_per_base_model with base model: anthropic-claude-sonnet-4. …", status: "RESOURCE_EXHAUSTED" } }
 */
export function vertexLimited(publisher: "anthropic" | "google", model: string, limit: "requestsPerMinute" | "tokensPerMinute"): RenderedError {
  const base = model.replace(/@.*$/, "").replace(/-\d{8}$/, "");
  const name = publisher === "anthropic" ? `anthropic-${base}` : base;
  const message = `Quota exceeded for aiplatform.googleapis.com/${QUOTA_METRICS[publisher][limit]} with base model: ${name}. Please submit a quota increase request. https://cloud.google.com/vertex-ai/docs/generative-ai/quotas-genai.`;
  return { status: 429, body: { error: { code: 429, message, status: "RESOURCE_EXHAUSTED" } }, headers: {} };
}
