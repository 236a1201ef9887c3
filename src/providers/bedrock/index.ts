import { renderMessageJson } from "../anthropic/render-json";
import { validateThinking } from "../anthropic/thinking";
import { historyError } from "../anthropic/tool-pairing";
import { claudeRefusal } from "../anthropic/leniency";
import type { ApiError } from "../../http/errors";
import type { CanonicalRequest } from "../../canonical/request";
import type { MessagesRequest } from "../anthropic/wire";
import type { ProviderSurface } from "../types";
import { BEDROCK_FAILURE_MESSAGES, bedrockFailureHeaders, renderBedrockLimited, bedrockRequestId, checkBedrockAuth, renderBedrockError } from "./errors";
import { conversationError } from "./conversation";
import { parseConverse, parseInvoke } from "./parse";
import { bedrockTarget } from "./paths";
import { renderBedrockStreamError, renderConverseEvents, renderConverseJson } from "./render-converse";
import { renderInvokeEvents } from "./render-invoke";
import type { ConverseWire } from "./wire";

type Common =
  | "provider"
  | "paths"
  | "streamFormat"
  | "requestIdHeader"
  | "requestId"
  | "checkHeaders"
  | "failureMessages"
  | "malformedEventName"
  | "renderError"
  | "failureHeaders"
  | "renderLimited"
  | "renderStreamError";

const common: Pick<ProviderSurface<unknown>, Common> = {
  provider: "bedrock",
  paths: [],
  streamFormat: "eventstream",
  requestIdHeader: "x-amzn-RequestId",
  requestId: bedrockRequestId,
  checkHeaders: checkBedrockAuth,
  failureMessages: BEDROCK_FAILURE_MESSAGES,
  malformedEventName: "chunk",
  renderError: renderBedrockError,
  failureHeaders: bedrockFailureHeaders,
  renderLimited: renderBedrockLimited,
  renderStreamError: renderBedrockStreamError,
};

/**
 * Claude's refusals (src/providers/anthropic/leniency.ts) for a Claude model on Bedrock, as Bedrock relays a model's
 * 400: a `ValidationException` whose message starts `The model returned the following errors: `.
 */
function bedrockClaudeRefusal(request: CanonicalRequest): ApiError | undefined {
  return request.model.includes("claude") ? relayed(claudeRefusal(request)) : undefined;
}

/** A model's 400 as Bedrock relays it: `The model returned the following errors: …`. */
function relayed(refusal: ApiError | undefined): ApiError | undefined {
  return refusal && { ...refusal, message: `The model returned the following errors: ${refusal.message}` };
}

/** Bedrock Runtime Converse: `POST /model/{modelId}/converse` and `/converse-stream` (AWS event stream). */
export const bedrockConverse: ProviderSurface<ConverseWire> = {
  ...common,
  endpoint: "converse",
  matchPath: (path) => bedrockTarget(path)?.operation.startsWith("converse") === true,
  parse: parseConverse,
  // The service's own refusals (tool names, the conversation's shape: conversation.ts), then a Claude model's.
  validate: (w, request) => conversationError(w.body) ?? bedrockClaudeRefusal(request),
  renderJson: renderConverseJson,
  renderEvents: renderConverseEvents,
};

/**
 * Bedrock Runtime InvokeModel with an Anthropic Messages body: `POST /model/{modelId}/invoke` and
 * `/invoke-with-response-stream` (`chunk` events carrying the Messages events, base64).
 */
export const bedrockInvoke: ProviderSurface<MessagesRequest> = {
  ...common,
  endpoint: "messages",
  matchPath: (path) => bedrockTarget(path)?.operation.startsWith("invoke") === true,
  parse: parseInvoke,
  validate: (w, request, scenario) => bedrockClaudeRefusal(request) ?? relayed(historyError(w)) ?? validateThinking(w, request, scenario),
  renderJson: renderMessageJson,
  renderEvents: renderInvokeEvents,
};
