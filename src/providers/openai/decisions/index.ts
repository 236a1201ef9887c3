import type { ProviderSurface } from "../../types";
import { checkOpenAIAuth, openAIFailureHeaders, renderOpenAIError } from "../errors";
import { openAIRateLimitHeaders } from "../rate-limits";
import { parseDecisionsRequest, type DecisionsRequest } from "./parse";
import { renderDecisionEvents, renderDecisionJson, renderDecisionStreamError } from "./render";

/** OpenAI Decisions: `POST /v1/decisions` (and `/decisions`), what `client.decisions.create` calls. */
export const openaiDecisions: ProviderSurface<DecisionsRequest> = {
  provider: "openai",
  endpoint: "decisions",
  paths: ["/v1/decisions", "/decisions"],
  requestIdHeader: "x-request-id",
  checkHeaders: checkOpenAIAuth,
  parse: parseDecisionsRequest,
  renderError: renderOpenAIError,
  failureHeaders: openAIFailureHeaders,
  rateLimitHeaders: openAIRateLimitHeaders,
  renderJson: renderDecisionJson,
  renderEvents: renderDecisionEvents,
  renderStreamError: renderDecisionStreamError,
};
