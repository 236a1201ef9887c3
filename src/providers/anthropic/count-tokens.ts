/**
 * Anthropic's `POST /v1/messages/count_tokens`: the `count_tokens` body → `{ input_tokens }`, a deterministic estimate
 * (also Claude's count on Vertex, providers/vertex/count-tokens.ts). Same header checks and error shape as `/v1/messages`.
 */
import type { CanonicalRequest } from "../../canonical/request";
import type { Runtime } from "../../runtime/types";
import { readJsonBody } from "../../http/body";
import { apiError, type ApiError } from "../../http/errors";
import { anthropicRequestId } from "../../http/ids";
import { checkAnthropicHeaders, renderAnthropicError } from "./errors";
import { parseCountTokensRequest } from "./parse";
import { appliedClearing } from "./context-editing";
import { jsonResponse } from "../../http/json";

function json(body: unknown, requestId: string, status = 200, headers: Record<string, string> = {}): Response {
  return jsonResponse(body, status, { "request-id": requestId, ...headers });
}

function errorResponse(error: ApiError, requestId: string): Response {
  const r = renderAnthropicError(error, requestId);
  return json(r.body, requestId, r.status, r.headers);
}

/**
 * A deterministic input-token estimate: ⌈characters / 4⌉ over the system prompt, every message's text, tool
 * calls, thinking and tool results, and the tool definitions; at least 1.
 * @example estimateInputTokens(request, []) // 3 for a system-less "Hello, world" (12 characters)
 */
export function estimateInputTokens(request: CanonicalRequest, tools: unknown[]): number {
  let chars = request.system.length + (tools.length > 0 ? JSON.stringify(tools).length : 0);
  for (const m of request.messages) {
    if (m.role === "user") chars += m.text.length;
    else if (m.role === "tool") chars += m.content.length;
    else {
      chars += m.text.length;
      for (const c of m.toolCalls) chars += c.name.length + c.arguments.length;
      for (const r of m.reasoning) chars += r.text.length + (r.redacted?.length ?? 0);
    }
  }
  return Math.max(1, Math.ceil(chars / 4));
}

/** `POST /v1/messages/count_tokens` → `{ input_tokens }`. */
export async function countTokens(request: Request, _rt: Runtime, _models: string[]): Promise<Response> {
  if (request.method !== "POST") {
    const error = apiError("method_not_allowed", `Use POST for ${new URL(request.url).pathname}.`);
    return errorResponse(error, anthropicRequestId(`count_tokens|${request.url}`));
  }
  const headerError = checkAnthropicHeaders(request.headers);
  if (headerError) return errorResponse(headerError, anthropicRequestId(`count_tokens|${request.url}`));
  const body = await readJsonBody(request);
  if (!body.ok) return errorResponse(body.error, anthropicRequestId(`count_tokens|${request.url}`));
  const requestId = anthropicRequestId(`count_tokens|${body.text}`);
  const parsed = parseCountTokensRequest(body.value, request.headers);
  if (!parsed.ok) return errorResponse(parsed.error, requestId);
  const original = estimateInputTokens(parsed.request, parsed.wire.tools ?? []);
  if (!parsed.wire.context_management) return json({ input_tokens: original }, requestId);
  // With context editing: the count after the edits that apply, beside the count before them.
  const cleared = appliedClearing(parsed.wire, parsed.request, original).reduce((n, e) => n + e.cleared_input_tokens, 0);
  return json({ input_tokens: Math.max(1, original - cleared), context_management: { original_input_tokens: original } }, requestId);
}
