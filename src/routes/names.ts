/**
 * Scenario and session names in a `/s/{scenario}[/{session}]` prefix, checked before any route uses them.
 */
import { apiError, type ApiError } from "../http/errors";
import { NAME_PATTERN } from "../scenario/schema";

/** Longest name shown back in an error message; longer ones are cut with a marker. */
const SHOWN = 80;

/** `name` for an error message: at most SHOWN characters. */
export function shownName(name: string): string {
  return name.length <= SHOWN ? name : `${name.slice(0, SHOWN)}… (${name.length} characters)`;
}

/**
 * The error for a prefix whose scenario or session is not a valid name, else undefined.
 * @example prefixNameError({ scenario: "Bad Name" }) // invalid_request: mockllm: invalid scenario name "Bad Name": …
 */
export function prefixNameError(prefix: { scenario?: string; session?: string }): ApiError | undefined {
  const bad = (what: string, name: string) =>
    apiError("invalid_request", `mockllm: invalid ${what} name "${shownName(name)}": names match [a-z0-9][a-z0-9._-]{0,63}`);
  if (prefix.scenario !== undefined && !NAME_PATTERN.test(prefix.scenario)) return bad("scenario", prefix.scenario);
  if (prefix.session !== undefined && !NAME_PATTERN.test(prefix.session)) return bad("session", prefix.session);
  return undefined;
}
