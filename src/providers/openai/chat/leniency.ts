/**
 * Requests the real Chat Completions API refuses that mockllm used to answer, each as the real
 * API's 400 with its own wording (sources in docs/providers/fidelity.md). Skipped for a scenario with
 * `"strict": false` (and for a recording scenario, whose upstream decides), as Anthropic's thinking checks are.
 */
import { apiError, type ApiError } from "../../../http/errors";
import type { CanonicalRequest } from "../../../canonical/request";
import type { ChatRequest } from "./wire";
import { arrayLengthError, firstBoundError, type NumberBound } from "../request-error";

/**
 * The models that take `max_completion_tokens` only: the o-series reasoning models and GPT-5 and later, by their
 * name or a fine-tune of one (`ft:o4-mini:…`).
 */
const COMPLETION_TOKENS_ONLY = /^(ft:)?(o\d|gpt-[5-9])/;

/** The sampling parameters' bounds, the same on Chat and the legacy completions, checked first and in this order. */
export const SAMPLING_BOUNDS: readonly NumberBound[] = [
  { param: "temperature", min: 0, max: 2, kind: "decimal" },
  { param: "top_p", min: 0, max: 1, kind: "decimal" },
  { param: "presence_penalty", min: -2, max: 2, kind: "decimal" },
  { param: "frequency_penalty", min: -2, max: 2, kind: "decimal" },
];

/** The real API's bounds on Chat's numeric parameters, checked in this order. */
const BOUNDS: readonly NumberBound[] = [...SAMPLING_BOUNDS, { param: "max_completion_tokens", min: 1, kind: "integer" }, { param: "max_tokens", min: 1, kind: "integer" }];

/** Most stop sequences a request may carry, and most tools. */
const MAX_STOP_SEQUENCES = 4;
const MAX_TOOLS = 128;

/** The API's refusal of more than four stop sequences (Chat's and the legacy completions' `stop`), else undefined. */
export function stopCountError(stop: string | readonly string[] | null | undefined): ApiError | undefined {
  return arrayLengthError("stop", Array.isArray(stop) ? stop : undefined, MAX_STOP_SEQUENCES);
}

/** The API's refusal of `stream_options` on a request that does not stream (Chat's and the legacy completions'), else undefined. */
export function streamOptionsError(w: { stream?: boolean | null; stream_options?: unknown }): ApiError | undefined {
  if (w.stream_options === undefined || w.stream_options === null || w.stream === true) return undefined;
  return apiError("invalid_request", "The 'stream_options' parameter is only allowed when 'stream' is enabled.", { param: "stream_options" });
}

/** The first value out of the real API's bounds or over its list limits, else undefined. */
function boundsError(w: ChatRequest): ApiError | undefined {
  return firstBoundError(w, BOUNDS) ?? stopCountError(w.stop) ?? arrayLengthError("tools", w.tools, MAX_TOOLS);
}

/**
 * The first refusal `w` earns, else undefined.
 * @example validateChatRequest({ model: "o3", max_tokens: 10, messages }, req)?.param // "max_tokens"
 */
export function validateChatRequest(w: ChatRequest, request: CanonicalRequest): ApiError | undefined {
  const bound = boundsError(w) ?? streamOptionsError(w);
  if (bound) return bound;
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
