/**
 * A Responses request the real API refuses that mockllm used to answer: a `tool_choice` naming a
 * function the request does not offer, the real API's 400 (sources in docs/providers/fidelity.md). Skipped for a
 * scenario with `"strict": false` and for a recording scenario.
 */
import { apiError, type ApiError } from "../../../http/errors";
import type { CanonicalRequest } from "../../../canonical/request";
import type { Scenario } from "../../../scenario/schema";
import type { ResponsesRequest } from "./wire";

/**
 * @example validateResponsesRequest(wire, { ...req, tools: [], toolChoice: { kind: "tool", name: "f" } }, undefined)?.param // "tool_choice"
 */
export function validateResponsesRequest(_w: ResponsesRequest, request: CanonicalRequest, scenario: Scenario | undefined): ApiError | undefined {
  if (scenario?.strict === false || scenario?.record !== undefined) return undefined;
  const choice = request.toolChoice;
  if (choice?.kind === "tool" && choice.name !== undefined && !request.tools.includes(choice.name)) {
    return apiError("invalid_request", "Tool choice 'function' not found in 'tools' parameter.", { param: "tool_choice" });
  }
  return undefined;
}
