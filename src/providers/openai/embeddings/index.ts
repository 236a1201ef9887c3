import type { ProviderSurface } from "../../types";
import { checkOpenAIAuth, openAIFailureHeaders, renderOpenAIError } from "../errors";
import { openAIRateLimitHeaders } from "../rate-limits";
import { parseEmbeddingsRequest } from "./parse";
import { renderEmbeddingsEvents, renderEmbeddingsJson, renderEmbeddingsRaw, renderEmbeddingsStreamError } from "./render";
import type { EmbeddingsRequest } from "./wire";
import { countEmbeddingsUsage, embeddingsReplyCounter } from "../usage/surfaces";

/** OpenAI Embeddings: `POST /v1/embeddings` (and `/embeddings`). */
export const openaiEmbeddings: ProviderSurface<EmbeddingsRequest> = {
  provider: "openai",
  endpoint: "embeddings",
  paths: ["/v1/embeddings", "/embeddings"],
  requestIdHeader: "x-request-id",
  checkHeaders: checkOpenAIAuth,
  parse: parseEmbeddingsRequest,
  renderError: renderOpenAIError,
  failureHeaders: openAIFailureHeaders,
  rateLimitHeaders: openAIRateLimitHeaders,
  countUsage: countEmbeddingsUsage,
  replyCounter: embeddingsReplyCounter,
  renderJson: renderEmbeddingsJson,
  renderRaw: renderEmbeddingsRaw,
  renderEvents: renderEmbeddingsEvents,
  renderStreamError: renderEmbeddingsStreamError,
};
