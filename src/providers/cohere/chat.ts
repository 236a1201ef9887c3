/**
 * Cohere Chat: v2 (`POST /v2/chat`: `CohereClientV2.chat` and `chatStream`, `@ai-sdk/cohere`), JSON or, with
 * `stream: true`, server-sent events; and v1 (`POST /v1/chat`: `CohereClient.chat` and `chatStream`, LangChain's
 * `ChatCohere`), JSON or `application/stream+json` lines. Provider name `cohere`, endpoint `chat` in matchers.
 */
import type { ProviderSurface } from "../types";
import { COHERE_ERRORS_AND_HEADERS } from "./errors";
import { parseCohereChat } from "./chat-parse";
import { renderCohereChatEvents, renderCohereChatJson, renderCohereChatStreamError } from "./chat-render";
import type { CohereChatRequest } from "./chat-wire";
import { multistepError, parseCohereChatV1, type CohereChatV1Request } from "./chat-v1-parse";
import { renderCohereChatV1Events, renderCohereChatV1Json, renderCohereChatV1StreamError } from "./chat-v1-render";

export const cohereChat: ProviderSurface<CohereChatRequest> = {
  provider: "cohere",
  endpoint: "chat",
  paths: ["/v2/chat"],
  ...COHERE_ERRORS_AND_HEADERS,
  parse: parseCohereChat,
  renderJson: renderCohereChatJson,
  renderEvents: renderCohereChatEvents,
  renderStreamError: renderCohereChatStreamError,
};

export const cohereChatV1: ProviderSurface<CohereChatV1Request> = {
  provider: "cohere",
  endpoint: "chat",
  paths: ["/v1/chat"],
  ...COHERE_ERRORS_AND_HEADERS,
  parse: parseCohereChatV1,
  validate: multistepError,
  streamFormat: "ndjson",
  streamContentType: "application/stream+json",
  renderJson: renderCohereChatV1Json,
  renderEvents: renderCohereChatV1Events,
  renderStreamError: renderCohereChatV1StreamError,
};
