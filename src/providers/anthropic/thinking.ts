/**
 * Thinking signatures and the real API's rules about echoed thinking blocks.
 *
 * mockllm signs a thinking block it did not get a scripted signature for with a token derived from the
 * thinking text alone, so a block sent back unchanged verifies in any session, and an edited one does not.
 */
import type { CanonicalRequest } from "../../canonical/request";
import { apiError, type ApiError } from "../../http/errors";
import { stableToken } from "../../http/hash";
import type { Scenario } from "../../scenario/schema";
import type { ContentBlock, MessagesRequest } from "./wire";

const DOCS = "https://docs.claude.com/en/docs/build-with-claude/extended-thinking";
const STRICT_HINT = 'set "strict": false in the scenario to skip this check';

/**
 * The signature mockllm issues for a thinking text that has none scripted: opaque, base64-looking, stable.
 * @example thinkingSignature("Let me think.") // "EqMB…" (always the same for the same text)
 */
export function thinkingSignature(text: string): string {
  return `EqMB${stableToken(`mockllm|thinking|${text}`, 40)}${stableToken(`mockllm|thinking|${text.length}|${text}`, 40)}`;
}

/** Every signature the scenario scripts in any step's reasoning. */
export function scriptedSignatures(scenario: Scenario | undefined): Set<string> {
  const out = new Set<string>();
  for (const step of scenario?.steps ?? []) {
    const r = step.respond?.reasoning;
    if (!Array.isArray(r)) continue;
    for (const b of r) if ("signature" in b && b.signature !== undefined) out.add(b.signature);
  }
  return out;
}

function isThinkingBlock(b: ContentBlock | undefined): boolean {
  return b?.type === "thinking" || b?.type === "redacted_thinking";
}

/** A user message that carries tool results continues the assistant turn (a tool loop is one turn). */
function continuesTurn(m: MessagesRequest["messages"][number]): boolean {
  return m.role === "user" && Array.isArray(m.content) && m.content.some((b) => b.type === "tool_result");
}

/**
 * Indexes of the assistant messages of the turn in progress: empty unless the request ends with tool results,
 * else the assistant messages walked back over tool-result messages up to the last other user message.
 */
function turnInProgress(messages: MessagesRequest["messages"]): number[] {
  const last = messages.at(-1);
  if (!last || !continuesTurn(last)) return [];
  const turn: number[] = [];
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === "assistant") turn.unshift(i);
    else if (!continuesTurn(m)) break;
  }
  return turn;
}

function budgetError(w: MessagesRequest): ApiError | undefined {
  if (w.thinking?.type !== "enabled") return undefined;
  const budget = w.thinking.budget_tokens;
  if (budget === undefined) return apiError("invalid_request", "thinking.enabled.budget_tokens: Field required");
  if (typeof budget !== "number" || !Number.isInteger(budget)) {
    return apiError("invalid_request", "thinking.enabled.budget_tokens: Input should be a valid integer");
  }
  if (budget < 1024) {
    return apiError("invalid_request", "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024");
  }
  if (w.max_tokens <= budget) {
    return apiError(
      "invalid_request",
      `\`max_tokens\` must be greater than \`thinking.budget_tokens\`. Please consult our documentation at ${DOCS}#max-tokens-and-context-window-size (mockllm: max_tokens is ${w.max_tokens}, budget_tokens is ${budget})`,
    );
  }
  return undefined;
}

/**
 * The real API's checks on thinking, which a client that drops or edits thinking blocks fails:
 * every echoed `thinking` block carries a signature; with thinking enabled that signature is one mockllm
 * issued (derived or scripted), and an assistant turn still in progress (the request ends with its tool
 * results) starts with its thinking block, as the real API requires only of that turn.
 * Skipped entirely when the scenario says `strict: false`, and in a recording scenario (the upstream signs its own).
 */
export function validateThinking(
  w: MessagesRequest,
  request: CanonicalRequest,
  scenario: Scenario | undefined,
): ApiError | undefined {
  if (scenario?.strict === false || scenario?.record !== undefined) return undefined;
  const budget = budgetError(w);
  if (budget) return budget;
  const enabled = request.reasoning === "enabled";
  const scripted = scriptedSignatures(scenario);

  for (const [i, m] of w.messages.entries()) {
    if (m.role !== "assistant" || typeof m.content === "string") continue;
    for (const [j, b] of m.content.entries()) {
      if (b.type !== "thinking") continue;
      if (b.signature === undefined) {
        return apiError(
          "invalid_request",
          `messages.${i}.content.${j}.thinking.signature: Field required (mockllm: send the thinking block back with the signature it came with; ${STRICT_HINT})`,
        );
      }
      if (enabled && b.signature !== thinkingSignature(b.thinking) && !scripted.has(b.signature)) {
        return apiError(
          "invalid_request",
          `messages.${i}.content.${j}: Invalid \`signature\` in \`thinking\` block (mockllm: this signature was not issued for this thinking text — the block was edited, re-serialized, or came from elsewhere; send it back unchanged, or ${STRICT_HINT})`,
        );
      }
    }
  }

  if (!enabled) return undefined;
  const turn = turnInProgress(w.messages);
  const first = turn[0];
  const usedTools = turn.some((i) => {
    const c = w.messages[i]!.content;
    return typeof c !== "string" && c.some((b) => b.type === "tool_use");
  });
  if (first === undefined || !usedTools) return undefined;
  const content = w.messages[first]!.content;
  const head = typeof content === "string" ? undefined : content[0];
  if (isThinkingBlock(head)) return undefined;
  const found = typeof content === "string" ? "a string" : head === undefined ? "nothing" : `\`${head.type === "other" ? head.sent : head.type}\``;
  return apiError(
    "invalid_request",
    `messages.${first}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found ${found}. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at ${DOCS} (mockllm: messages.${first} is the assistant message that called tools; send it back starting with the thinking block it came with, or ${STRICT_HINT})`,
  );
}
