/**
 * Gemini's Interactions API (`POST /v1beta/interactions`, also `/v1alpha` and `/v1`, where `@google/genai` 3.3 sends it): model interactions with text, thoughts
 * and function calls, JSON or streamed as steps, kept for `previous_interaction_id` and `GET` unless `store: false`.
 * What `@google/genai`'s `ai.interactions` and `@ai-sdk/google`'s `google.interactions()` call.
 */
import type { ProviderSurface } from "../../types";
import { checkGeminiAuth, GEMINI_FAILURE_MESSAGES, geminiFailureHeaders, renderGeminiError, renderGeminiLimited } from "../errors";
import { parseInteraction } from "./parse";
import { renderInteractionEvents, renderInteractionJson, renderInteractionStreamError } from "./render";
import { prepareInteraction, rememberInteraction } from "./state";
import type { InteractionsWire } from "./wire";

export { geminiStoredInteractions } from "./state";

export const INTERACTIONS_PATHS = ["/v1beta/interactions", "/v1alpha/interactions", "/v1/interactions"];

export const geminiInteractions: ProviderSurface<InteractionsWire> = {
  provider: "gemini",
  endpoint: "interactions",
  paths: INTERACTIONS_PATHS,
  requestIdHeader: "x-request-id",
  checkHeaders: checkGeminiAuth,
  parse: (body, headers) => parseInteraction(body, headers),
  prepare: prepareInteraction,
  remember: rememberInteraction,
  stores: (wire) => wire.body.store !== false,
  failureMessages: GEMINI_FAILURE_MESSAGES,
  renderError: renderGeminiError,
  failureHeaders: geminiFailureHeaders,
  renderLimited: (limit, retryAfterMs) => renderGeminiLimited(limit, retryAfterMs),
  renderJson: renderInteractionJson,
  renderEvents: renderInteractionEvents,
  renderStreamError: renderInteractionStreamError,
};
