/**
 * Anthropic's model listing: `GET /v1/models` and `GET /v1/models/{id}` (Anthropic's shape; the registry tries these
 * before OpenAI's listing, for requests carrying `anthropic-version` or `x-api-key`). Same header checks and error
 * shape as `/v1/messages`.
 */
import type { Runtime } from "../../runtime/types";
import { apiError, type ApiError } from "../../http/errors";
import { anthropicRequestId } from "../../http/ids";
import { checkAnthropicHeaders, renderAnthropicError } from "./errors";
import { jsonResponse } from "../../http/json";
import { echoed } from "../../util/text";
import { acceptedModelId } from "../../canonical/model-id";
import { safeDecode } from "../../http/url";
import { idWindow } from "./pages";

function json(body: unknown, requestId: string, status = 200, headers: Record<string, string> = {}): Response {
  return jsonResponse(body, status, { "request-id": requestId, ...headers });
}

function errorResponse(error: ApiError, requestId: string): Response {
  const r = renderAnthropicError(error, requestId);
  return json(r.body, requestId, r.status, r.headers);
}

/** "claude-sonnet-4-5-20250929" → "Claude Sonnet 4.5"; "claude-3-5-haiku-latest" → "Claude 3.5 Haiku". */
export function displayName(id: string): string {
  const words = id
    .replace(/-(\d{8}|latest)$/, "")
    .split(/[-_]/)
    .filter((w) => w !== "");
  const out: string[] = [];
  for (const w of words) {
    const prev = out.at(-1);
    if (/^\d+$/.test(w) && prev !== undefined && /^\d+(\.\d+)*$/.test(prev)) out[out.length - 1] = `${prev}.${w}`;
    else out.push(w.charAt(0).toUpperCase() + w.slice(1));
  }
  return out.join(" ");
}

/** The release date in a dated id (`…-20250929`), else a fixed date: RFC 3339, as the real API sends it. */
export function createdAt(id: string): string {
  const m = /-(\d{4})(\d{2})(\d{2})$/.exec(id);
  return m ? `${m[1]}-${m[2]}-${m[3]}T00:00:00Z` : "2025-01-01T00:00:00Z";
}

export function modelInfo(id: string) {
  return { type: "model", id, display_name: displayName(id), created_at: createdAt(id) };
}

function pageLimit(raw: string | null): number | ApiError {
  if (raw === null) return 20;
  const n = Number(raw);
  if (!Number.isInteger(n)) return apiError("invalid_request", "limit: Input should be a valid integer");
  if (n < 1) return apiError("invalid_request", "limit: Input should be greater than or equal to 1");
  if (n > 1000) return apiError("invalid_request", "limit: Input should be less than or equal to 1000");
  return n;
}

/** `GET /v1/models?limit=&after_id=&before_id=` → `{ data, has_more, first_id, last_id }`. */
export function listModels(request: Request, _rt: Runtime, models: string[]): Response {
  const requestId = anthropicRequestId(`models|${request.url}`);
  const headerError = checkAnthropicHeaders(request.headers);
  if (headerError) return errorResponse(headerError, requestId);
  const query = new URL(request.url).searchParams;
  const limit = pageLimit(query.get("limit"));
  if (typeof limit !== "number") return errorResponse(limit, requestId);
  const { from, to, hasMore } = idWindow(models, query, limit);
  const page = models.slice(from, to);
  return json({ data: page.map(modelInfo), has_more: hasMore, first_id: page[0] ?? null, last_id: page.at(-1) ?? null }, requestId);
}

/** `GET /v1/models/{id}` → one model, or 404 `not_found_error` for an id no surface would take as a model. */
export function getModel(request: Request, _rt: Runtime, models: string[]): Response {
  const requestId = anthropicRequestId(`model|${request.url}`);
  const headerError = checkAnthropicHeaders(request.headers);
  if (headerError) return errorResponse(headerError, requestId);
  const path = new URL(request.url).pathname;
  const id = safeDecode(path.slice(path.lastIndexOf("/models/") + "/models/".length));
  // Every model the surfaces answer (src/canonical/model-id.ts); the rest as the real API's 404.
  if (!models.includes(id) && !acceptedModelId(id)) return errorResponse(apiError("not_found", `model: ${echoed(id)}`), requestId);
  return json(modelInfo(id), requestId);
}
