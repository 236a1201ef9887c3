/**
 * Scenario and session names in a `/s/{scenario}[/{session}]` prefix, checked before any route uses them.
 */
import { apiError, type ApiError } from "../http/errors";
import { shownName } from "../scenario/hints";
import { NAME_PATTERN, NAMES_MATCH } from "../scenario/schema";

/**
 * The error for a prefix whose scenario or session is not a valid name, else undefined.
 * @example prefixNameError({ scenario: "Bad Name" }) // invalid_request: mockllm: invalid scenario name "Bad Name": …
 */
export function prefixNameError(prefix: { scenario?: string; session?: string }): ApiError | undefined {
  const bad = (what: string, name: string) => apiError("invalid_request", `mockllm: invalid ${what} name "${shownName(name)}": ${NAMES_MATCH}`);
  if (prefix.scenario !== undefined && !NAME_PATTERN.test(prefix.scenario)) return bad("scenario", prefix.scenario);
  if (prefix.session !== undefined && !NAME_PATTERN.test(prefix.session)) return bad("session", prefix.session);
  return undefined;
}
