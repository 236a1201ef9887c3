/**
 * The Gemini API's rule for function calling turns: a function response turn comes right after the function call turn
 * it answers, with one response part for each call part, and a function call turn comes after a user turn or a
 * function response turn. The 400s agent loops meet most on Gemini (a history trimmed between a call and its
 * response, a compression that dropped one of parallel responses), in the API's words (docs/providers/fidelity.md,
 * "Gemini: function turns out of order"). A run of contents of one role is one turn: a chat keeps each streamed chunk
 * as a content of its own.
 */
import { apiError, type ApiError } from "../../http/errors";
import type { CanonicalRequest } from "../../canonical/request";
import type { Content } from "./wire";

const invalid = (message: string) => apiError("invalid_request", message);

/**
 * The API's refusal of the request's function turns, else undefined. Not over the Live API (the server keeps that
 * conversation itself). One pass: a turn's calls and responses are counted as its contents go by.
 * @example functionTurnsError([{ role: "user", parts: [{ functionResponse: { name: "f", response: {} } }] }], req)?.message // "Please ensure that function response turn comes immediately after a function call turn."
 */
export function functionTurnsError(contents: readonly Content[], request: CanonicalRequest): ApiError | undefined {
  if (request.endpoint !== "generateContent") return undefined;
  // The turn being read (its side, calls, responses) and the calls of the model turn before it.
  let model: boolean | undefined;
  let calls = 0;
  let responses = 0;
  let before = -1;
  for (let i = 0; i <= contents.length; i++) {
    const c = contents[i];
    const side = c === undefined ? undefined : c.role === "model";
    if (side !== model && model !== undefined) {
      // The turn ends: judge it.
      if (model) {
        if (calls > 0 && before === -1) return invalid("Please ensure that function call turn comes immediately after a user turn or after a function response turn.");
        before = calls;
      } else {
        if (responses > 0 && before <= 0) return invalid("Please ensure that function response turn comes immediately after a function call turn.");
        if (responses > 0 && responses !== before) return invalid("Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.");
        before = 0;
      }
      calls = 0;
      responses = 0;
    }
    if (c === undefined) break;
    model = side;
    for (const p of c.parts ?? []) {
      if (p.functionCall !== undefined) calls++;
      if (p.functionResponse !== undefined) responses++;
    }
  }
  return undefined;
}
