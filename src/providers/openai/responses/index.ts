import type { ProviderSurface } from "../../types";
import { checkOpenAIAuth, openAIFailureHeaders, renderOpenAIError } from "../errors";
import { parseResponsesRequest } from "./parse";
import { renderResponseJson } from "./render-json";
import { renderResponseEvents, renderResponseStreamError } from "./render-stream";
import { prepareResponsesRequest, rememberResponse } from "./state";
import type { ResponsesRequest } from "./wire";
import { jsonWordError, strictSchemaError, strictTools } from "../structured";

export { handleStoredResponse, storedResponseId, type StoredResponsesGateway } from "./routes";
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
  // A strict schema the real API refuses gets its 400; a scenario's `strict: false` lets it through.
  validate: (wire, request, scenario) =>
    scenario?.strict === false ? undefined : (strictSchemaError(request.outputSchema, strictTools(wire.body.tools), "responses") ?? jsonWordError(request, "responses", wire.body.instructions ?? "")),
  prepare: prepareResponsesRequest,
  remember: rememberResponse,
  stores: (wire) => wire.body.store !== false,
  renderError: renderOpenAIError,
  failureHeaders: openAIFailureHeaders,
  renderJson: renderResponseJson,
  renderEvents: renderResponseEvents,
  renderStreamError: renderResponseStreamError,
};
