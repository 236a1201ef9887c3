/**
 * Whose error shape a request gets when it is refused before any surface handles it (a bad `/s/…` name, an
 * unknown path, a wrong method): the surface its path belongs to, side routes included — Ollama's `/api/…`
 * (`{ "error": "…" }`), Azure's `/openai/…`, Bedrock's `/model/…`, Gemini's model listing, Anthropic's `count_tokens` and models — else what its headers say,
 * else OpenAI's.
 */
import { anthropicMessages } from "./anthropic";
import { azureChat } from "./azure";
import { bedrockConverse } from "./bedrock";
import { geminiGenerateContent } from "./gemini";
import { ollamaChat } from "./ollama";
import { openaiChat } from "./openai/chat";
import { surfaceFor } from "./registry";
import type { ProviderSurface } from "./types";

/**
 * The surface whose error shape answers a refused request to `path` (below any `/s/…` prefix).
 * @example errorSurfaceFor(new Request("http://x/s/;/api/tags"), "/api/tags") // ollamaChat: { "error": "…" }
 */
export function errorSurfaceFor(request: Request, path: string): ProviderSurface<any> {
  const surface = surfaceFor(path);
  if (surface) return surface;
  if (path === "/api" || path.startsWith("/api/")) return ollamaChat;
  if (path.startsWith("/openai/")) return azureChat;
  // `/s/{scenario}/model/…` takes `model` for a session name when the rest is no known route: look at the whole path.
  if (/^(\/s\/[^/]+(\/[^/]+)?)?\/model\//.test(new URL(request.url).pathname)) return bedrockConverse;
  if (/^\/(v1\/)?messages(\/|$)/.test(path)) return anthropicMessages;
  if (/^\/v1(beta|alpha)(\/|$)/.test(path) || request.headers.has("x-goog-api-key")) return geminiGenerateContent;
  const models = path === "/v1/models" || path.startsWith("/v1/models/");
  if (models && new URL(request.url).searchParams.has("key")) return geminiGenerateContent;
  if (request.headers.has("anthropic-version") || (models && request.headers.has("x-api-key"))) return anthropicMessages;
  return openaiChat;
}
