/**
 * Requests the real Messages API refuses that mockllm used to answer, as its 400
 * `invalid_request_error` with its own wording (sources in docs/providers/fidelity.md). Skipped for a scenario with
 * `"strict": false` and for a recording scenario, as the thinking checks are. Read from the canonical request, so
 * Claude on Bedrock (InvokeModel and Converse) refuses the same, in Bedrock's words.
 */
import { apiError, type ApiError } from "../../http/errors";
import type { CanonicalRequest } from "../../canonical/request";

/**
 * The Claude models that refuse `temperature` and `top_p` together: Claude 4.5 and later (Sonnet 4.5, Haiku 4.5,
 * Opus 4.5, Sonnet 4.6, …), by any of their names (`claude-sonnet-4-5`, `…-20250929`, Bedrock's
 * `anthropic.claude-sonnet-4-5-…`, Vertex's `claude-sonnet-4-5@…`); not `claude-sonnet-4-20250514`.
 */
const ONE_SAMPLING_PARAMETER = /claude-(opus|sonnet|haiku)-(4-([5-9]|\d\d)(?!\d)|[5-9](?!\d))/;

/**
 * The first refusal a request to a Claude model earns, else undefined.
 * @example claudeRefusal({ ...req, model: "claude-sonnet-4-5", temperature: 1, topP: 0.9 }, undefined)?.message
 */
export function claudeRefusal(request: CanonicalRequest): ApiError | undefined {
  if (request.temperature !== undefined && request.topP !== undefined && ONE_SAMPLING_PARAMETER.test(request.model)) {
    return apiError("invalid_request", "`temperature` and `top_p` cannot both be specified for this model. Please use only one.");
  }
  const forced = request.toolChoice?.kind === "required" || request.toolChoice?.kind === "tool";
  if (forced && request.reasoning === "enabled") return apiError("invalid_request", "Thinking may not be enabled when tool_choice forces tool use.");
  const choice = request.toolChoice;
  if (choice?.kind === "tool" && choice.name !== undefined && !request.tools.includes(choice.name)) {
    return apiError("invalid_request", `Tool '${choice.name}' not found in provided tools`);
  }
  return undefined;
}

/**
 * The Messages API's refusal of a `temperature` outside 0…1 (its range for every Claude model), else undefined: above
 * it `temperature: range: 0..1`, below it `` `temperature` cannot be set to -1 for this model `` (both as answered live;
 * docs/providers/fidelity.md). The direct API's wording: Bedrock checks the number itself, in its own words.
 * @example temperatureRangeError({ ...req, temperature: 1.5 }, undefined)?.message // "temperature: range: 0..1"
 */
export function temperatureRangeError(request: CanonicalRequest): ApiError | undefined {
  const t = request.temperature;
  if (t === undefined || (t >= 0 && t <= 1)) return undefined;
  return apiError("invalid_request", t > 1 ? "temperature: range: 0..1" : `\`temperature\` cannot be set to ${t} for this model`);
}
