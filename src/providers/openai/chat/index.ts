import { toolMessagesError } from "./tool-messages";
import type { ProviderSurface } from "../../types";
import { checkOpenAIAuth, openAIFailureHeaders, renderOpenAIError } from "../errors";
import { openAIRateLimitHeaders } from "../rate-limits";
import { parseChatRequest } from "./parse";
import { completionModelError } from "../completions/parse";
import { validateChatRequest } from "./leniency";
import { renderChatJson } from "./render-json";
import { renderChatEvents, renderChatStreamError } from "./render-stream";
import { rememberChat, storesChat } from "./stored";
import type { ChatRequest } from "./wire";
import { jsonWordError, strictSchemaError, strictTools } from "../structured";
import { chatReplyCounter, countChatUsage } from "../usage/surfaces";

/** OpenAI Chat Completions: `POST /v1/chat/completions`. */
export const openaiChat: ProviderSurface<ChatRequest> = {
  provider: "openai",
  endpoint: "chat.completions",
  paths: ["/v1/chat/completions", "/chat/completions"],
  requestIdHeader: "x-request-id",
  checkHeaders: checkOpenAIAuth,
  parse: parseChatRequest,
  // A completion model's 404 (OpenAI's own route), the real API's refusals (leniency.ts), tool messages that answer no call (tool-messages.ts), then a strict schema it refuses.
  validate: (wire, request) =>
    (request.provider === "openai" ? completionModelError(wire.model) : undefined) ??
    validateChatRequest(wire, request) ??
    toolMessagesError(wire) ??
    strictSchemaError(request.outputSchema, strictTools(wire.tools), "chat") ??
    jsonWordError(request, "chat"),
  remember: rememberChat,
  stores: storesChat,
  renderError: renderOpenAIError,
  failureHeaders: openAIFailureHeaders,
  rateLimitHeaders: openAIRateLimitHeaders,
  countUsage: countChatUsage,
  replyCounter: chatReplyCounter,
  renderJson: renderChatJson,
  renderEvents: renderChatEvents,
  renderStreamError: renderChatStreamError,
};
