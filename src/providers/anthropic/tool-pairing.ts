/**
 * The Messages API's rule for tool results: every `tool_use` of an assistant message is answered by a `tool_result`
 * at the start of the next message, and every `tool_result` answers a `tool_use` of the message before it. The two
 * 400s an agent loop meets most on Claude — a result dropped when a history is trimmed or a run crashes between two
 * appends, a result for a call the history no longer holds — in the API's words (docs/providers/fidelity.md,
 * "Anthropic: tool results that do not answer tool uses"). For Claude on Vertex and on Bedrock's InvokeModel too.
 */
import { apiError, type ApiError } from "../../http/errors";
import { echoed } from "../../util/text";
import { textBlocksError } from "./text-blocks";
import type { MessagesRequest } from "./wire";

type Message = MessagesRequest["messages"][number];
type Blocks = Exclude<Message["content"], string>;

/** The ids of an assistant message's `tool_use` blocks, in order; undefined when it has none (most messages). */
function toolUseIds(m: Message): string[] | undefined {
  if (m.role !== "assistant" || typeof m.content === "string") return undefined;
  let ids: string[] | undefined;
  for (const b of m.content) if (b.type === "tool_use") (ids ??= []).push(b.id);
  return ids;
}

/** The calls of message `at` no `tool_result` among the first `lead` blocks of the next message answers, as the API's 400. */
function unanswered(calls: readonly string[], at: number, blocks: Blocks | undefined, lead: number): ApiError | undefined {
  let missing: string[] | undefined;
  for (const id of calls) {
    let found = false;
    for (let j = 0; j < lead && !found; j++) {
      const b = blocks![j]!;
      found = b.type === "tool_result" && b.tool_use_id === id;
    }
    if (!found) (missing ??= []).push(id);
  }
  if (missing === undefined) return undefined;
  return apiError(
    "invalid_request",
    `messages.${at}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.map(echoed).join(", ")}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
  );
}

/**
 * The first tool result of the request that answers no tool use, or tool use that is not answered, else undefined.
 * Message by message: a user message's results first (each must name a `tool_use` of the message before), then the
 * calls of the assistant message before it, which the results at its start must answer. An assistant message that
 * ends the request (a prefill) needs no results. One pass, allocating only for messages with tool calls.
 * @example toolPairingError({ model: "m", max_tokens: 9, messages: [user, { role: "assistant", content: [toolUse("toolu_a")] }, { role: "user", content: "and?" }] })?.message // "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_a. …"
 */
export function toolPairingError(w: MessagesRequest): ApiError | undefined {
  const messages = w.messages;
  // The tool_use ids of the message before this one, when it is an assistant message that has some.
  let calls: string[] | undefined;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    const blocks = typeof m.content === "string" ? undefined : m.content;
    if (m.role === "user") {
      let lead = 0;
      if (blocks !== undefined) {
        for (let j = 0; j < blocks.length; j++) {
          const b = blocks[j]!;
          if (b.type !== "tool_result") continue;
          if (lead === j) lead++;
          if (calls === undefined || !calls.includes(b.tool_use_id)) {
            return apiError(
              "invalid_request",
              `messages.${i}.content.${j}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${echoed(b.tool_use_id)}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
            );
          }
        }
      }
      const error = calls && unanswered(calls, i - 1, blocks, lead);
      if (error) return error;
      calls = undefined;
      continue;
    }
    const error = calls && unanswered(calls, i - 1, undefined, 0);
    if (error) return error;
    calls = toolUseIds(m);
  }
  return undefined;
}

/**
 * The history's refusals of this module and text-blocks.ts, as every surface that takes a Messages body answers them
 * (the Messages API, Claude on Vertex, Bedrock InvokeModel): blank text first, then tool results.
 */
export function historyError(w: MessagesRequest): ApiError | undefined {
  return textBlocksError(w) ?? toolPairingError(w);
}
