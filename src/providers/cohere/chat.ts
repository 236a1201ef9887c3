/**
 * Cohere Chat v2: `POST /v2/chat` (`CohereClientV2.chat` and `chatStream`, `@ai-sdk/cohere`, LangChain's `ChatCohere`),
 * JSON or, with `stream: true`, server-sent events. Provider name `cohere`, endpoint `chat` in matchers.
 */
import type { ProviderSurface } from "../types";
import { COHERE_ERRORS_AND_HEADERS } from "./errors";
import { parseCohereChat } from "./chat-parse";
import { renderCohereChatEvents, renderCohereChatJson, renderCohereChatStreamError } from "./chat-render";
import type { CohereChatRequest } from "./chat-wire";

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
