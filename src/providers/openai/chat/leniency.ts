/**
 * Requests the real Chat Completions API refuses that mockllm used to answer, each as the real
 * API's 400 with its own wording (sources in docs/providers/fidelity.md). Skipped for a scenario with
 * `"strict": false` (and for a recording scenario, whose upstream decides), as Anthropic's thinking checks are.
 */
import { apiError, type ApiError } from "../../../http/errors";
import type { CanonicalRequest } from "../../../canonical/request";
import type { Scenario } from "../../../scenario/schema";
import type { ChatRequest } from "./wire";

/**
 * The models that take `max_completion_tokens` only: the o-series reasoning models and GPT-5 and later, by their
 * name or a fine-tune of one (`ft:o4-mini:…`).
 */
const COMPLETION_TOKENS_ONLY = /^(ft:)?(o\d|gpt-[5-9])/;

/**
 * The first refusal `w` earns, else undefined.
 * @example validateChatRequest({ model: "o3", max_tokens: 10, messages }, req, undefined)?.param // "max_tokens"
 */
export function validateChatRequest(w: ChatRequest, request: CanonicalRequest, scenario: Scenario | undefined): ApiError | undefined {
  if (scenario?.strict === false || scenario?.record !== undefined) return undefined;
  if (w.stream_options !== undefined && w.stream_options !== null && w.stream !== true) {
    return apiError("invalid_request", "The 'stream_options' parameter is only allowed when 'stream' is enabled.", { param: "stream_options" });
  }
  if (typeof w.max_tokens === "number" && COMPLETION_TOKENS_ONLY.test(w.model)) {
    return apiError("invalid_request", "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", {
      param: "max_tokens",
      providerCode: "unsupported_parameter",
    });
  }
  const forced = request.toolChoice?.kind === "required" || request.toolChoice?.kind === "tool";
  if (forced && (w.tools ?? []).length === 0) {
    return apiError("invalid_request", "Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.", { param: "tool_choice" });
  }
  const choice = request.toolChoice;
  if (choice?.kind === "tool" && choice.name !== undefined && !request.tools.includes(choice.name)) {
    return apiError("invalid_request", `Invalid value for 'tool_choice': function '${choice.name}' not found in 'tools'.`, { param: "tool_choice" });
  }
  return undefined;
}
