/**
 * The request's output-token limit (`max_tokens`, `max_output_tokens`, `maxOutputTokens`, `num_predict`) applied
 * to a reply, in one place for every surface. Tokens are counted as words, as every usage figure mockllm reports is.
 */
import { replyChoices, type Reply, type ReplyReasoning, type ReplyToolCall } from "./outcome";
import { firstWords, wordCount } from "../util/text";

/** Output tokens one tool call costs: the words of its arguments, at least 1. */
export function toolCallTokens(call: ReplyToolCall): number {
  return Math.max(1, wordCount(call.arguments));
}

interface Budget {
  left: number;
  reasoning: number;
  cut: boolean;
}

/** Cuts one choice's reasoning, then text, then tool calls at what is left of the budget. */
function limitChoice(choice: Reply, budget: Budget): Reply {
  const reasoning: ReplyReasoning[] = [];
  for (const block of choice.reasoning) {
    if (budget.cut) break;
    if (block.type === "redacted") {
      reasoning.push(block);
      continue;
    }
    const words = wordCount(block.text);
    const sent = Math.min(words, budget.left);
    if (sent < words) budget.cut = true;
    if (sent > 0 || words === 0) reasoning.push(sent < words ? { ...block, text: firstWords(block.text, sent) } : block);
    budget.left -= sent;
    budget.reasoning += sent;
  }
  let text = choice.text;
  if (text !== undefined) {
    const words = budget.cut ? 0 : wordCount(text);
    const sent = Math.min(words, budget.left);
    if (budget.cut || sent < words) {
      budget.cut = true;
      text = firstWords(text, sent);
    }
    budget.left -= sent;
  }
  const toolCalls: ReplyToolCall[] = [];
  for (const call of choice.toolCalls) {
    const cost = toolCallTokens(call);
    if (budget.cut || cost > budget.left) {
      budget.cut = true;
      break;
    }
    toolCalls.push(call);
    budget.left -= cost;
  }
  const { extraChoices: _extra, ...rest } = choice;
  return {
    ...rest,
    ...(text !== undefined ? { text } : {}),
    reasoning,
    toolCalls,
    ...(budget.cut ? { finishReason: "length" as const } : {}),
  };
}

/**
 * `reply` as a model stopped at `maxTokens` output tokens would send it: reasoning, then text, then tool calls
 * (then the next choice's) until the limit; a tool call that does not fit whole is not sent, nor is anything after
 * the cut. A cut reply ends with `finishReason: "length"` and its usage counts exactly the words sent.
 * A reply within the limit, or a limit that is absent or negative, leaves the reply as it is; a limit of 0 (the legacy
 * completions' `max_tokens: 0`, which scores an echoed prompt) sends nothing of it.
 * @example limitReply(reply, 100) // at most 100 words of reasoning + text
 */
export function limitReply(reply: Reply, maxTokens: number | undefined): Reply {
  if (maxTokens === undefined || !(maxTokens >= 0)) return reply;
  const budget: Budget = { left: Math.floor(maxTokens), reasoning: 0, cut: false };
  const kept: Reply[] = [];
  for (const choice of replyChoices(reply)) {
    if (budget.cut) break;
    const limited = limitChoice(choice, budget);
    const empty = limited.reasoning.length === 0 && !limited.text && limited.toolCalls.length === 0 && limited.refusal === undefined;
    // A further message with nothing left in it is not sent at all.
    if (!(budget.cut && empty && kept.length > 0)) kept.push(limited);
  }
  if (!budget.cut) return reply;
  // A reply the token limit cut did not reach its stop sequence (src/canonical/stop.ts).
  const [{ stopSequence: _stop, ...first }, ...rest] = kept as [Reply, ...Reply[]];
  return {
    ...first,
    finishReason: "length",
    usage: { ...reply.usage, outputTokens: Math.floor(maxTokens) - budget.left, reasoningTokens: budget.reasoning },
    ...(rest.length > 0 ? { extraChoices: rest } : {}),
  };
}
