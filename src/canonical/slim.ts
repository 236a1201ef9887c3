/**
 * The slim canonical request: what a session across a boundary (a Durable Object, reached by RPC) is sent in place of
 * the whole conversation. The session reads a request's messages only through the helpers of request.ts — the turn
 * (assistant messages counted), the first and last user message, the assistants' texts and tool calls, the tool
 * results after the last assistant message — and counts them (`messageCount`, a default compaction's summary), so
 * the messages it keeps answer every one of those exactly as the whole request does.
 */
import type { CanonicalMessage, CanonicalRequest } from "./request";

/**
 * `req` with only the messages a session reads: every assistant message, the first and the last user message, and
 * the tool results after the last assistant message (the pending ones). What it leaves out is counted in `elided`.
 * With `assistants: false` (for a scenario none of whose matchers reads them, scenario/matchers.ts `readsAssistants`) the assistant
 * messages go too: counted (`turnOf`), the pending results carrying the tool names their calls gave them. The
 * messages kept are the request's own objects; a request with nothing to leave out is returned as is.
 * @example slimRequest(agentTurn).messages.length // 43 of 121: 40 assistant turns, the first user message, the last tool result and user message
 */
export function slimRequest(req: CanonicalRequest, assistants = true): CanonicalRequest {
  const all = req.messages;
  let lastAssistant = -1;
  let firstUser = -1;
  let lastUser = -1;
  for (let i = 0; i < all.length; i++) {
    const role = all[i]!.role;
    if (role === "assistant") lastAssistant = i;
    else if (role === "user") {
      if (firstUser < 0) firstUser = i;
      lastUser = i;
    }
  }
  const kept: CanonicalMessage[] = [];
  let users = 0;
  let assistantsLeft = 0;
  let names: Map<string, string> | undefined;
  for (let i = 0; i < all.length; i++) {
    const m = all[i]!;
    if (m.role === "assistant") {
      if (assistants) kept.push(m);
      else assistantsLeft++;
    } else if (m.role === "tool" && i > lastAssistant) {
      if (assistants || m.name !== undefined) kept.push(m);
      else {
        // The name pendingToolResults would resolve from the assistants' calls, which are left out.
        if (names === undefined) {
          names = new Map();
          for (const a of all) if (a.role === "assistant") for (const c of a.toolCalls) names.set(c.id, c.name);
        }
        const name = names.get(m.toolCallId);
        kept.push(name === undefined ? m : { ...m, name });
      }
    } else if (i === firstUser || i === lastUser) kept.push(m);
    else if (m.role === "user") users++;
  }
  if (kept.length === all.length && assistantsLeft === 0) return req;
  const before = req.elided;
  const elided: NonNullable<CanonicalRequest["elided"]> = { messages: all.length - kept.length + (before?.messages ?? 0), users: users + (before?.users ?? 0) };
  if (!assistants) elided.assistants = assistantsLeft + (before?.assistants ?? 0);
  return { ...req, messages: kept, elided };
}
