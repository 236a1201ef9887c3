/**
 * Cohere Chat v2: `POST /v2/chat` (`CohereClientV2.chat` and `chatStream`, `@ai-sdk/cohere`, LangChain's `ChatCohere`),
 * JSON or, with `stream: true`, server-sent events. Provider name `cohere`, endpoint `chat` in matchers.
 */
import type { ProviderSurface } from "../types";
import { COHERE_FAILURE_MESSAGES, checkCohereAuth, cohereFailureHeaders, cohereTraceId, renderCohereError } from "./errors";
import { parseCohereChat } from "./chat-parse";
import { renderCohereChatEvents, renderCohereChatJson, renderCohereChatStreamError } from "./chat-render";
import type { CohereChatRequest } from "./chat-wire";

export const cohereChat: ProviderSurface<CohereChatRequest> = {
  provider: "cohere",
  endpoint: "chat",
  paths: ["/v2/chat"],
  requestIdHeader: "x-debug-trace-id",
  requestId: cohereTraceId,
  checkHeaders: checkCohereAuth,
  parse: parseCohereChat,
  renderError: renderCohereError,
  failureHeaders: cohereFailureHeaders,
  failureMessages: COHERE_FAILURE_MESSAGES,
  renderJson: renderCohereChatJson,
  renderEvents: renderCohereChatEvents,
  renderStreamError: renderCohereChatStreamError,
};
