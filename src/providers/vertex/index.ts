import { anthropicFailureHeaders } from "../anthropic/errors";
import { anthropicMessages } from "../anthropic";
import { parseAnthropicOnCloud } from "../anthropic/on-cloud";
import { geminiGenerateContent } from "../gemini";
import { parseGemini } from "../gemini/parse";
import type { MessagesRequest } from "../anthropic/wire";
import type { GeminiWire } from "../gemini/wire";
import type { ProviderSurface, RequestTarget } from "../types";
import { checkVertexAuth, renderVertexClaudeError, vertexLimited } from "./errors";
import { vertexTarget } from "./paths";

/** The Gemini Developer API path the Gemini surface parses, for a Vertex path (same model, method and query). */
function geminiPath(target: RequestTarget): RequestTarget {
  const t = vertexTarget(target.path);
  return { path: `/v1beta/models/${encodeURIComponent(t?.model ?? "")}:${t?.method ?? "generateContent"}`, query: target.query };
}

/**
 * Gemini on Vertex AI: `POST /{v1|v1beta1}/projects/{p}/locations/{l}/publishers/google/models/{m}:generateContent`
 * and `:streamGenerateContent` (`?alt=sse`), and express mode's `/{v1|v1beta1}/publishers/google/models/{m}:…`.
 * The Gemini surface's parse and renderers, Google's error shape.
 */
export const vertexGemini: ProviderSurface<GeminiWire> = {
  ...geminiGenerateContent,
  provider: "vertex",
  matchPath: (path) => vertexTarget(path)?.publisher === "google",
  checkHeaders: checkVertexAuth,
  renderLimited: (limit, _retryAfterMs, ctx) => vertexLimited("google", ctx.request.model, limit),
  parse: (body, headers, target) => {
    const parsed = parseGemini(body, headers, geminiPath(target), `google.cloud.aiplatform.${/^\/v1beta1\//i.test(target.path) ? "v1beta1" : "v1"}`);
    return parsed.ok ? { ...parsed, request: { ...parsed.request, provider: "vertex" } } : parsed;
  },
  // The Gemini API's Files API and context caches are not Vertex's (its files are `gs://` objects, its caches
  // `projects/…/cachedContents/…`, neither served): nothing to look up.
  prepare: (wire, request) => ({ ok: true, wire, request }),
};

/**
 * Claude on Vertex AI: `POST …/publishers/anthropic/models/{m}:rawPredict` and `:streamRawPredict`, an Anthropic
 * Messages body with `anthropic_version: "vertex-2023-10-16"` and the model in the path. The Anthropic surface's
 * renderers and error shape.
 */
export const vertexClaude: ProviderSurface<MessagesRequest> = {
  ...anthropicMessages,
  provider: "vertex",
  paths: [],
  matchPath: (path) => {
    const t = vertexTarget(path);
    return t?.publisher === "anthropic" && t.model !== "count-tokens";
  },
  prepare: undefined,
  remember: undefined,
  stores: undefined,
  checkHeaders: checkVertexAuth,
  parse: (body, headers, target) => {
    const t = vertexTarget(target.path);
    const streamed = typeof body === "object" && body !== null && (body as { stream?: unknown }).stream === true;
    return parseAnthropicOnCloud(body, headers, {
      provider: "vertex",
      model: t?.model ?? "",
      stream: t?.method === "streamRawPredict" || streamed,
      version: "vertex-2023-10-16",
    });
  },
  renderError: renderVertexClaudeError,
  failureHeaders: anthropicFailureHeaders,
  // The Anthropic surface's buckets are the Anthropic API's: Vertex sends none, and its own quota 429.
  rateLimitHeaders: undefined,
  renderLimited: (limit, _retryAfterMs, ctx) => vertexLimited("anthropic", ctx.request.model, limit),
};
