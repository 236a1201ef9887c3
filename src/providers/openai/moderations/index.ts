import type { ProviderSurface } from "../../types";
import { checkOpenAIAuth, openAIFailureHeaders, renderOpenAIError } from "../errors";
import { openAIRateLimitHeaders } from "../rate-limits";
import { parseModerationsRequest } from "./parse";
import { renderModerationsEvents, renderModerationsJson, renderModerationsStreamError } from "./render";
import type { ModerationsRequest } from "./wire";

/** OpenAI Moderations: `POST /v1/moderations` (and `/moderations`). */
export const openaiModerations: ProviderSurface<ModerationsRequest> = {
  provider: "openai",
  endpoint: "moderations",
  paths: ["/v1/moderations", "/moderations"],
  requestIdHeader: "x-request-id",
  checkHeaders: checkOpenAIAuth,
  parse: parseModerationsRequest,
  renderError: renderOpenAIError,
  failureHeaders: openAIFailureHeaders,
  rateLimitHeaders: openAIRateLimitHeaders,
  renderJson: renderModerationsJson,
  renderEvents: renderModerationsEvents,
  renderStreamError: renderModerationsStreamError,
};
