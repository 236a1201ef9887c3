import type { ProviderSurface } from "../../types";
import { checkOpenAIAuth, openAIFailureHeaders, renderOpenAIError } from "../errors";
import { openAIRateLimitHeaders } from "../rate-limits";
import { renderChatStreamError } from "../chat/render-stream";
import { completionsReplyCounter, countCompletionsUsage } from "../usage/surfaces";
import { chatModelError, parseCompletionsRequest } from "./parse";
import { renderCompletionsEvents, renderCompletionsJson, renderCompletionsRaw } from "./render";
import type { CompletionsRequest } from "./wire";

/** OpenAI's legacy Completions: `POST /v1/completions` (and `/completions`). */
export const openaiCompletions: ProviderSurface<CompletionsRequest> = {
  provider: "openai",
  endpoint: "completions",
  paths: ["/v1/completions", "/completions"],
  requestIdHeader: "x-request-id",
  checkHeaders: checkOpenAIAuth,
  parse: parseCompletionsRequest,
  // A chat model's 404 is OpenAI's own route's (Azure's deployments answer whatever model they serve).
  validate: (wire, request) => (request.provider === "openai" ? chatModelError(wire.body.model) : undefined),
  renderError: renderOpenAIError,
  failureHeaders: openAIFailureHeaders,
  rateLimitHeaders: openAIRateLimitHeaders,
  countUsage: countCompletionsUsage,
  replyCounter: completionsReplyCounter,
  renderJson: renderCompletionsJson,
  renderRaw: renderCompletionsRaw,
  renderEvents: renderCompletionsEvents,
  renderStreamError: renderChatStreamError,
};
