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

interface Turn {
  role: "model" | "user";
  calls: number;
  responses: number;
}

/** The contents as turns: consecutive contents of one side merged, their call and response parts counted. */
function turnsOf(contents: readonly Content[]): Turn[] {
  const turns: Turn[] = [];
  for (const c of contents) {
    const role = c.role === "model" ? "model" : "user";
    let last = turns.at(-1);
    if (last?.role !== role) turns.push((last = { role, calls: 0, responses: 0 }));
    for (const p of c.parts ?? []) {
      if (p.functionCall !== undefined) last.calls++;
      if (p.functionResponse !== undefined) last.responses++;
    }
  }
  return turns;
}

const invalid = (message: string) => apiError("invalid_request", message);

/**
 * The API's refusal of the request's function turns, else undefined. Not over the Live API (the server keeps that
 * conversation itself).
 * @example functionTurnsError([{ role: "user", parts: [{ functionResponse: { name: "f", response: {} } }] }], req)?.message // "Please ensure that function response turn comes immediately after a function call turn."
 */
export function functionTurnsError(contents: readonly Content[], request: CanonicalRequest): ApiError | undefined {
  if (request.endpoint !== "generateContent") return undefined;
  const turns = turnsOf(contents);
  for (let i = 0; i < turns.length; i++) {
    const turn = turns[i]!;
    const before = turns[i - 1];
    if (turn.role === "model") {
      if (turn.calls > 0 && before === undefined) return invalid("Please ensure that function call turn comes immediately after a user turn or after a function response turn.");
      continue;
    }
    if (turn.responses === 0) continue;
    if (before === undefined || before.calls === 0) return invalid("Please ensure that function response turn comes immediately after a function call turn.");
    if (turn.responses !== before.calls) return invalid("Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.");
  }
  return undefined;
}
