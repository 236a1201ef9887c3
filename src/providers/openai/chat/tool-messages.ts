/**
 * Chat Completions' rule for tool messages: an assistant message with `tool_calls` is followed by one `tool` message
 * for each call, and a `tool` message answers a call of the assistant message before its run of tool messages. The
 * three 400s an agent loop meets most on the API — a history trimmed between a call and its answer, a run that
 * crashed between two appends, an answer under another id — in its words (docs/providers/fidelity.md, "OpenAI Chat:
 * tool messages that do not answer tool calls").
 */
import { apiError, type ApiError } from "../../../http/errors";
import { echoed } from "../../../util/text";
import type { ChatRequest } from "./wire";

/** Whether tool message `i` is not the first in its run (`from`…`i`) to answer its call. */
function answeredBefore(messages: ChatRequest["messages"], from: number, i: number, id: string): boolean {
  for (let k = from; k < i; k++) if (messages[k]!.tool_call_id === id) return true;
  return false;
}

/**
 * The first tool message of `w` that answers no call, or call that no tool message answers before the next message of
 * another role, else undefined. Calls still unanswered when the request ends are not refused here. One pass, allocating
 * nothing for a well-formed history.
 * @example toolMessagesError({ model: "m", messages: [{ role: "user", content: "hi" }, { role: "tool", tool_call_id: "call_1", content: "x" }] })?.param // "messages.[1].role"
 */
export function toolMessagesError(w: ChatRequest): ApiError | undefined {
  const messages = w.messages;
  // The calls of the assistant message the current run of tool messages follows, where that run starts, how many answered.
  let calls: NonNullable<ChatRequest["messages"][number]["tool_calls"]> | undefined;
  let from = 0;
  let answered = 0;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === "tool") {
      if (calls === undefined) {
        return apiError("invalid_request", "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", {
          param: `messages.[${i}].role`,
        });
      }
      const id = m.tool_call_id ?? "";
      if (!calls.some((c) => c.id === id)) {
        return apiError("invalid_request", `Invalid parameter: 'tool_call_id' of '${echoed(id)}' not found in 'tool_calls' of previous message.`, {
          param: `messages.[${i}].tool_call_id`,
        });
      }
      if (!answeredBefore(messages, from, i, id)) answered++;
      continue;
    }
    if (calls !== undefined && answered < calls.length) {
      const open = calls.filter((c) => !answeredBefore(messages, from, i, c.id)).map((c) => echoed(c.id));
      return apiError(
        "invalid_request",
        `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${open.join(", ")}`,
        { param: `messages.[${i}].role` },
      );
    }
    calls = m.role === "assistant" && (m.tool_calls?.length ?? 0) > 0 ? m.tool_calls! : undefined;
    from = i + 1;
    answered = 0;
  }
  return undefined;
}
