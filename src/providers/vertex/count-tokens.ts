/**
 * Claude's token counting on Vertex AI: `POST …/publishers/anthropic/models/count-tokens:rawPredict`, the
 * `count_tokens` body (the model in the body, `anthropic_version` in the body instead of a header) → `{ input_tokens }`.
 */
import { readJsonBody } from "../../http/body";
import { apiError, type ApiError } from "../../http/errors";
import { anthropicRequestId } from "../../http/ids";
import { jsonResponse } from "../../http/json";
import { parseCountTokensRequest } from "../anthropic/parse";
import { estimateInputTokens } from "../anthropic/count-tokens";
import { checkVertexAuth, renderVertexClaudeError } from "./errors";

function errorResponse(error: ApiError, requestId: string): Response {
  const r = renderVertexClaudeError(error, requestId);
  return jsonResponse(r.body, r.status, { "request-id": requestId, ...r.headers });
}

/** @example await vertexCountTokens(request) // 200 { input_tokens: 3 } */
export async function vertexCountTokens(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const early = anthropicRequestId(`count_tokens|${request.url}`);
  if (request.method !== "POST") return errorResponse(apiError("method_not_allowed", `Use POST for ${url.pathname}.`), early);
  const auth = checkVertexAuth(request.headers, { query: url.searchParams });
  if (auth) return errorResponse(auth, early);
  const body = await readJsonBody(request);
  if (!body.ok) return errorResponse(body.error, early);
  const requestId = anthropicRequestId(`count_tokens|${body.text}`);
  const parsed = parseCountTokensRequest(body.value, request.headers);
  if (!parsed.ok) return errorResponse(parsed.error, requestId);
  return jsonResponse({ input_tokens: estimateInputTokens(parsed.request, parsed.wire.tools ?? []) }, 200, { "request-id": requestId });
}
