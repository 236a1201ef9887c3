import { messagesMcpServers } from "./server-tools";
import { anthropicRequestId } from "../../http/ids";
import type { ProviderSurface } from "../types";
import { anthropicFailureHeaders, checkAnthropicHeaders, renderAnthropicError } from "./errors";
import { anthropicRateLimitHeaders } from "./rate-limits";
import { parseMessagesRequest } from "./parse";
import { renderMessageJson } from "./render-json";
import { renderMessageEvents, renderMessageStreamError } from "./render-stream";
import { validateThinking } from "./thinking";
import { historyError } from "./tool-pairing";
import { claudeRefusal, temperatureRangeError } from "./leniency";
import { prepareThread, rememberThread, threadOf } from "./threads";
import { missingFileReference } from "./file-refs";
import type { MessagesRequest } from "./wire";
import { anthropicReplyCounter, countAnthropicUsage } from "./usage";

/** Anthropic Messages: `POST /v1/messages` (and `/messages`, where the AI SDK's base URL ends in `/v1`). */
export const anthropicMessages: ProviderSurface<MessagesRequest> = {
  provider: "anthropic",
  endpoint: "messages",
  paths: ["/v1/messages", "/messages"],
  requestIdHeader: "request-id",
  requestId: anthropicRequestId,
  checkHeaders: checkAnthropicHeaders,
  parse: parseMessagesRequest,
  validate: (w, request, scenario) => temperatureRangeError(request) ?? claudeRefusal(request) ?? historyError(w) ?? validateThinking(w, request, scenario),
  // A `document` / `image` block naming a file of the Files API: the namespace must have it (files.ts).
  prepare: async (wire, request, rt) => {
    const missing = await missingFileReference(wire, rt);
    return missing ? { ok: false, error: missing } : prepareThread(wire, request, rt);
  },
  remember: rememberThread,
  mcpServers: (wire) => messagesMcpServers((wire as { mcp_servers?: unknown }).mcp_servers),
  stores: (wire) => threadOf(wire) !== undefined,
  failureMessages: {
    rate_limit: "Number of request tokens has exceeded your per-minute rate limit",
    overloaded: "Overloaded",
    model_error: "Internal server error",
  },
  malformedEventName: "content_block_delta",
  renderError: renderAnthropicError,
  failureHeaders: anthropicFailureHeaders,
  rateLimitHeaders: anthropicRateLimitHeaders,
  countUsage: countAnthropicUsage,
  replyCounter: anthropicReplyCounter,
  renderJson: renderMessageJson,
  renderEvents: renderMessageEvents,
  renderStreamError: renderMessageStreamError,
};
