/**
 * Ollama's native API: `POST /api/chat` and `POST /api/generate` (NDJSON streams, on by default). The side
 * routes (`/api/tags`, `/api/show`, `/api/version`) are in ./routes.
 */
import type { ProviderSurface } from "../types";
import { checkOllamaHeaders, ollamaFailureHeaders, renderOllamaError } from "./errors";
import { parseChatRequest, parseGenerateRequest } from "./parse";
import { renderChatJson, renderGenerateJson } from "./render-json";
import { renderChatEvents, renderGenerateEvents, renderOllamaStreamError, STREAM_ERROR_MESSAGE } from "./render-stream";
import type { ChatRequest, GenerateRequest } from "./wire";

const shared = {
  provider: "ollama",
  streamFormat: "ndjson",
  /** Ollama's server reads the body as JSON whatever the content type (`curl -d` sends a form type). */
  anyContentType: true,
  requestIdHeader: "x-request-id",
  checkHeaders: checkOllamaHeaders,
  failureMessages: { rate_limit: "rate limit exceeded", overloaded: "server busy, please try again.  maximum pending requests exceeded", model_error: STREAM_ERROR_MESSAGE },
  renderError: renderOllamaError,
  failureHeaders: ollamaFailureHeaders,
  renderStreamError: renderOllamaStreamError,
} as const;

/** `POST /api/chat`. */
export const ollamaChat: ProviderSurface<ChatRequest> = {
  ...shared,
  endpoint: "chat",
  paths: ["/api/chat"],
  parse: parseChatRequest,
  renderJson: renderChatJson,
  renderEvents: renderChatEvents,
};

/** `POST /api/generate`. */
export const ollamaGenerate: ProviderSurface<GenerateRequest> = {
  ...shared,
  endpoint: "generate",
  paths: ["/api/generate"],
  parse: parseGenerateRequest,
  renderJson: renderGenerateJson,
  renderEvents: renderGenerateEvents,
};
