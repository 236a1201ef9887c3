import { renderMessageJson } from "../anthropic/render-json";
import { validateThinking } from "../anthropic/thinking";
import type { MessagesRequest } from "../anthropic/wire";
import type { ProviderSurface } from "../types";
import { BEDROCK_FAILURE_MESSAGES, bedrockFailureHeaders, bedrockRequestId, checkBedrockAuth, renderBedrockError } from "./errors";
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
  renderStreamError: renderBedrockStreamError,
};

/** Bedrock Runtime Converse: `POST /model/{modelId}/converse` and `/converse-stream` (AWS event stream). */
export const bedrockConverse: ProviderSurface<ConverseWire> = {
  ...common,
  endpoint: "converse",
  matchPath: (path) => bedrockTarget(path)?.operation.startsWith("converse") === true,
  parse: parseConverse,
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
  validate: validateThinking,
  renderJson: renderMessageJson,
  renderEvents: renderInvokeEvents,
};
