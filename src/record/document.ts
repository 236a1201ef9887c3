/**
 * A recording as an editable scenario document: the matcher each recorded step gets from its request, and the
 * document `GET /admin/sessions/{scenario}/{session}/recording` answers with.
 */
import { lastUserMessage, pendingToolResults, turnOf, type CanonicalRequest } from "../canonical/request";
import type { Matcher, Step } from "../scenario/schema";
import type { RecordedStep } from "../session/recording";
import { decodeFrames } from "./decode";
import { frameFormatOf } from "./splitter";

/**
 * The matcher a recorded step answers by: endpoint, stream, turn, and the last tool result (when the request sends
 * tool results) or else the last user message.
 * @example recordedMatch(req) // { endpoint: "chat.completions", stream: true, turn: 1, lastUserMessage: "Hi" }
 */
export function recordedMatch(req: CanonicalRequest): Matcher {
  const match: Matcher = { endpoint: req.endpoint, stream: req.stream, turn: turnOf(req) };
  const result = pendingToolResults(req).at(-1);
  if (result) {
    match.toolResult = { ...(result.name !== undefined ? { name: result.name } : { toolCallId: result.toolCallId }), content: result.content };
    return match;
  }
  const last = lastUserMessage(req);
  if (last !== undefined) match.lastUserMessage = last;
  return match;
}

/** A recorded step as a scenario step: its matcher, the fields its frames decode into, and the frames. */
export function recordedScenarioStep(recorded: RecordedStep): Step {
  const endpoint = recorded.match.endpoint;
  const format = frameFormatOf(recorded.frames.headers["content-type"] ?? null);
  const decoded = typeof endpoint === "string" ? decodeFrames(endpoint, format, recorded.frames) : {};
  return { id: recorded.id, match: recorded.match, respond: { ...decoded, frames: recorded.frames } };
}

/**
 * The scenario document a session's recording makes; its steps replay the recorded answers byte for byte.
 * @example recordingDocument("my-run", "default", steps) // { name: "my-run", description: "…", steps: […] }
 */
export function recordingDocument(name: string, from: { scenario: string; session: string }, steps: RecordedStep[]): Record<string, unknown> {
  return {
    $schema: "https://mockllm.dev/scenario.schema.json",
    name,
    description: `Recorded by mockllm from scenario "${from.scenario}" session "${from.session}" (${steps.length} step${steps.length === 1 ? "" : "s"}).`,
    steps: steps.map(recordedScenarioStep),
  };
}
