import type { ProviderSurface } from "../../types";
import { checkOpenAIAuth, openAIFailureHeaders, renderOpenAIError } from "../errors";
import { parseChatRequest } from "./parse";
import { renderChatJson } from "./render-json";
import { renderChatEvents, renderChatStreamError } from "./render-stream";
import type { ChatRequest } from "./wire";
import { jsonWordError, strictSchemaError, strictTools } from "../structured";

/** OpenAI Chat Completions: `POST /v1/chat/completions`. */
export const openaiChat: ProviderSurface<ChatRequest> = {
  provider: "openai",
  endpoint: "chat.completions",
  paths: ["/v1/chat/completions", "/chat/completions"],
  requestIdHeader: "x-request-id",
  checkHeaders: checkOpenAIAuth,
  parse: parseChatRequest,
  // A strict schema the real API refuses gets its 400; a scenario's `strict: false` lets it through.
  validate: (wire, request, scenario) => (scenario?.strict === false ? undefined : (strictSchemaError(request.outputSchema, strictTools(wire.tools), "chat") ?? jsonWordError(request, "chat"))),
  renderError: renderOpenAIError,
  failureHeaders: openAIFailureHeaders,
  renderJson: renderChatJson,
  renderEvents: renderChatEvents,
  renderStreamError: renderChatStreamError,
};
