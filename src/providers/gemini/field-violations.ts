/**
 * What Google's proto JSON parser answers for a body it cannot read into the API's messages: one
 * `google.rpc.BadRequest` field violation per fault, in the order the parser meets them, each sentence on its own
 * line of `error.message` and again, with the field it names, in `error.details` (docs/providers/fidelity.md,
 * "Gemini: a body the proto parser refuses"). Paths name the proto fields (`tools[0].function_declarations[0]
 * .parameters.properties[2].value.any_of[0]`), whichever spelling the client used.
 */
import { apiError, type ApiError } from "../../http/errors";
import { echoed, echoedValue } from "../../util/text";

/** One refused field: `google.rpc.BadRequest.FieldViolation`. */
export interface FieldViolation {
  field: string;
  description: string;
}

/**
 * At most this many violations are reported (the API lists every one; a catalogue of a thousand MCP tools each with
 * an `additionalProperties` would make an answer many times its request). The message then says more were found.
 */
export const MAX_VIOLATIONS = 100;

/** `Unknown name "x" at 'path': Cannot find field.`: a key the message at `at` does not have. */
export function unknownName(name: string, at: string): FieldViolation {
  return { field: at, description: `Invalid JSON payload received. Unknown name "${echoed(name)}" at '${at}': Cannot find field.` };
}

/** A list where the message at `at` has a single field `name` (`"type": ["string", "null"]`). */
export function notRepeating(name: string, at: string): FieldViolation {
  return { field: at, description: `Invalid JSON payload received. Unknown name "${echoed(name)}" at '${at}': Proto field is not repeating, cannot start list.` };
}

/**
 * A value the field at `at` cannot hold: `type` is a scalar's proto type (`TYPE_STRING`, `TYPE_INT32`) or a
 * message's or enum's full name (`type.googleapis.com/google.ai.generativelanguage.v1beta.Type`); the value as JSON.
 */
export function invalidValue(at: string, type: string, value: unknown): FieldViolation {
  const quoted = typeof value === "string" ? JSON.stringify(echoed(value)) : echoedValue(value);
  return { field: at, description: `Invalid value at '${at}' (${type}), ${quoted}` };
}

/** The 400 for `violations` (INVALID_ARGUMENT, with the BadRequest detail), or undefined when there are none. */
export function violationsError(violations: readonly FieldViolation[]): ApiError | undefined {
  if (violations.length === 0) return undefined;
  const shown = violations.slice(0, MAX_VIOLATIONS);
  const more = violations.length > shown.length ? `\n(mockllm: only the first ${MAX_VIOLATIONS} violations are listed)` : "";
  return apiError("invalid_request", shown.map((v) => v.description).join("\n") + more, { violations: shown });
}

/** Collects violations up to one past the cap: enough to know there were more without walking a huge body to its end. */
export class Violations {
  readonly list: FieldViolation[] = [];
  get full(): boolean {
    return this.list.length > MAX_VIOLATIONS;
  }
  add(v: FieldViolation): void {
    if (!this.full) this.list.push(v);
  }
}
