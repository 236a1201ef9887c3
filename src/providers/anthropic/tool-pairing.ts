/**
 * The Messages API's rule for tool results: every `tool_use` of an assistant message is answered by a `tool_result`
 * at the start of the next message, and every `tool_result` answers a `tool_use` of the message before it. The two
 * 400s an agent loop meets most on Claude — a result dropped when a history is trimmed or a run crashes between two
 * appends, a result for a call the history no longer holds — in the API's words (docs/providers/fidelity.md,
 * "Anthropic: tool results that do not answer tool uses"). For Claude on Vertex and on Bedrock's InvokeModel too.
 */
import { apiError, type ApiError } from "../../http/errors";
import { echoed } from "../../util/text";
import type { MessagesRequest } from "./wire";

type Message = MessagesRequest["messages"][number];

/** The ids of a message's `tool_use` blocks, in order. */
function toolUseIds(m: Message | undefined): string[] {
  if (m === undefined || m.role !== "assistant" || typeof m.content === "string") return [];
  const ids: string[] = [];
  for (const b of m.content) if (b.type === "tool_use") ids.push(b.id);
  return ids;
}

/** The ids the `tool_result` blocks at the start of a user message answer. */
function leadingResults(m: Message | undefined): Set<string> {
  const ids = new Set<string>();
  if (m === undefined || m.role !== "user" || typeof m.content === "string") return ids;
  for (const b of m.content) {
    if (b.type !== "tool_result") break;
    ids.add(b.tool_use_id);
  }
  return ids;
}

/** `tool_use` ids of message `i` no result at the start of message `i + 1` answers. */
function unanswered(messages: readonly Message[], i: number): ApiError | undefined {
  const uses = toolUseIds(messages[i]);
  if (uses.length === 0) return undefined;
  const answered = leadingResults(messages[i + 1]);
  const missing = uses.filter((id) => !answered.has(id));
  if (missing.length === 0) return undefined;
  return apiError(
    "invalid_request",
    `messages.${i}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.map(echoed).join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
  );
}

/**
 * The first tool result of the request that answers no tool use, or tool use that is not answered, else undefined.
 * Message by message: a user message's results first (each must name a `tool_use` of the message before), then the
 * calls of the assistant message before it. An assistant message that ends the request (a prefill) needs no results.
 * @example toolPairingError({ model: "m", max_tokens: 9, messages: [user, { role: "assistant", content: [toolUse("toolu_a")] }, { role: "user", content: "and?" }] })?.message // "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_a. …"
 */
export function toolPairingError(w: MessagesRequest): ApiError | undefined {
  const messages = w.messages;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role !== "user") {
      // An assistant message answered by another assistant message (no user turn between).
      if (i > 0 && messages[i - 1]!.role === "assistant") {
        const error = unanswered(messages, i - 1);
        if (error) return error;
      }
      continue;
    }
    if (typeof m.content !== "string") {
      const uses = new Set(toolUseIds(messages[i - 1]));
      for (let j = 0; j < m.content.length; j++) {
        const b = m.content[j]!;
        if (b.type === "tool_result" && !uses.has(b.tool_use_id)) {
          return apiError(
            "invalid_request",
            `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${echoed(b.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
          );
        }
      }
    }
    if (i > 0) {
      const error = unanswered(messages, i - 1);
      if (error) return error;
    }
  }
  return undefined;
}
