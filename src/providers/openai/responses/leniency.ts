/**
 * A Responses request the real API refuses that mockllm used to answer: a number out of its bounds (`max_output_tokens`
 * below 16 first of all), a `code_interpreter` tool without its `container`, a `tool_choice` naming a function the
 * request does not offer; the real API's 400 (sources
 * in docs/providers/fidelity.md). Skipped for a scenario with `"strict": false` and for a recording scenario.
 */
import { apiError, type ApiError } from "../../../http/errors";
import type { CanonicalRequest } from "../../../canonical/request";
import type { ResponsesRequest } from "./wire";
import { firstBoundError, missingParameter, type NumberBound } from "../request-error";

/** The real API's bounds on Responses' numeric parameters, checked in this order (`max_output_tokens` from 16). */
const BOUNDS: readonly NumberBound[] = [
  { param: "temperature", min: 0, max: 2, kind: "decimal" },
  { param: "top_p", min: 0, max: 1, kind: "decimal" },
  { param: "max_output_tokens", min: 16, kind: "integer" },
];

/**
 * @example validateResponsesRequest(wire, { ...req, tools: [], toolChoice: { kind: "tool", name: "f" } })?.param // "tool_choice"
 */
export function validateResponsesRequest(w: ResponsesRequest, request: CanonicalRequest): ApiError | undefined {
  const bound = firstBoundError(w.body, BOUNDS);
  if (bound) return bound;
  const tools = w.body.tools;
  if (tools !== undefined && tools !== null) {
    // Code Interpreter runs in a container the tool must name (an id, or `{ type: "auto" }`).
    for (let i = 0; i < tools.length; i++) {
      const t = tools[i] as { type?: unknown; container?: unknown };
      if (t.type === "code_interpreter" && (t.container === undefined || t.container === null)) return missingParameter(`tools[${i}].container`);
    }
  }
  const choice = request.toolChoice;
  if (choice?.kind === "tool" && choice.name !== undefined && !request.tools.includes(choice.name)) {
    return apiError("invalid_request", "Tool choice 'function' not found in 'tools' parameter.", { param: "tool_choice" });
  }
  return undefined;
}
