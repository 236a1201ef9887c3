import { responsesMcpServers } from "./server-tools";
import type { ProviderSurface } from "../../types";
import { checkOpenAIAuth, openAIFailureHeaders, renderOpenAIError } from "../errors";
import { openAIRateLimitHeaders } from "../rate-limits";
import { parseResponsesRequest, unansweredCallError } from "./parse";
import { validateResponsesRequest } from "./leniency";
import { renderResponseJson, renderResponseRaw } from "./render-json";
import { renderResponseEvents, renderResponseStreamError } from "./render-stream";
import { prepareResponsesRequest, rememberBackgroundFailure, rememberResponse } from "./state";
import type { ResponsesRequest } from "./wire";
import { jsonWordError, strictSchemaError, strictTools } from "../structured";
import { countResponsesUsage, responsesReplyCounter } from "../usage/surfaces";

export { handleResponseAction, handleStoredResponse, responseAction, storedResponseId, type StoredResponsesGateway } from "./routes";
export { openaiResponsesCompact } from "./compact";
export { countInputTokens, isInputTokensPath } from "./input-tokens";

/** OpenAI Responses: `POST /v1/responses` (and `/responses`), with stored conversation state. */
export const openaiResponses: ProviderSurface<ResponsesRequest> = {
  provider: "openai",
  endpoint: "responses",
  paths: ["/v1/responses", "/responses"],
  requestIdHeader: "x-request-id",
  checkHeaders: checkOpenAIAuth,
  parse: parseResponsesRequest,
  // The real API's refusals (leniency.ts), a call no output answers, then a strict schema it refuses.
  validate: (wire, request) =>
    validateResponsesRequest(wire, request) ??
    unansweredCallError(wire.history, wire.items) ??
    strictSchemaError(request.outputSchema, strictTools(wire.body.tools), "responses") ??
    jsonWordError(request, "responses", wire.body.instructions ?? ""),
  prepare: prepareResponsesRequest,
  remember: rememberResponse,
  mcpServers: (wire) => responsesMcpServers(wire.body.tools, [...wire.history, ...wire.items]),
  rememberFailure: rememberBackgroundFailure,
  stores: (wire) => wire.body.store !== false,
  renderError: renderOpenAIError,
  failureHeaders: openAIFailureHeaders,
  rateLimitHeaders: openAIRateLimitHeaders,
  countUsage: countResponsesUsage,
  replyCounter: responsesReplyCounter,
  renderJson: renderResponseJson,
  // The body `remember` already made for a stored answer (render-json.ts, `bodyOnce`).
  renderRaw: renderResponseRaw,
  renderEvents: renderResponseEvents,
  renderStreamError: renderResponseStreamError,
};
