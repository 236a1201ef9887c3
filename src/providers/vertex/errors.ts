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
