/**
 * Thinking signatures and the real API's rules about echoed thinking blocks.
 *
 * mockllm signs a thinking block it did not get a scripted signature for with a token derived from the
 * thinking text alone, so a block sent back unchanged verifies in any session, and an edited one does not.
 * Whether mockllm sent a thinking block with a `tool_use` at all is read from the tool_use id (tool-use-ids.ts),
 * or for a scripted id from the step that scripts it, so a transcript mockllm produced is never rejected.
 */
import type { CanonicalRequest } from "../../canonical/request";
import { apiError, type ApiError } from "../../http/errors";
import { stableToken } from "../../util/hash";
import type { Scenario } from "../../scenario/schema";
import { mintedWithThinking } from "./tool-use-ids";
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

/**
 * Scripted tool call ids → whether the step's answer starts with thinking (any reasoning scripted). An id scripted
 * in several steps counts as thinking only if every such step has reasoning.
 */
export function scriptedToolIds(scenario: Scenario | undefined): Map<string, boolean> {
  const out = new Map<string, boolean>();
  for (const step of scenario?.steps ?? []) {
    const r = step.respond?.reasoning;
    const thought = typeof r === "string" || (Array.isArray(r) && r.length > 0);
    for (const c of step.respond?.toolCalls ?? []) {
      if (c.id !== undefined) out.set(c.id, (out.get(c.id) ?? true) && thought);
    }
  }
  return out;
}

type Message = MessagesRequest["messages"][number];

/**
 * Whether mockllm sent `m` starting with a thinking block, read from its first tool_use whose id tells:
 * `undefined` when none does (the client wrote the turn, or it holds no tool_use).
 */
function sentWithThinking(m: Message, scripted: Map<string, boolean>): boolean | undefined {
  if (typeof m.content === "string") return undefined;
  for (const b of m.content) {
    if (b.type !== "tool_use" || typeof b.id !== "string") continue;
    const known = mintedWithThinking(b.id) ?? scripted.get(b.id);
    if (known !== undefined) return known;
  }
  return undefined;
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
 * issued (derived or scripted); and in the assistant turn still in progress (the request ends with its tool
 * results) every message mockllm sent starting with a thinking block still starts with it. A message mockllm sent
 * without thinking is valid as echoed, with `enabled` or `adaptive`. A tool-using turn mockllm did not write gets
 * the real API's rule: with `enabled`, its first message starts with thinking; `adaptive` may skip thinking.
 * Skipped, with the surface's whole `validate`, when the scenario says `strict: false` and in a recording scenario
 * (the upstream signs its own): src/providers/surface.ts.
 */
export function validateThinking(w: MessagesRequest, request: CanonicalRequest, scenario: Scenario | undefined): ApiError | undefined {
  const budget = budgetError(w);
  if (budget) return budget;
  const enabled = request.reasoning === "enabled";
  const scripted = scriptedSignatures(scenario);

  for (const [i, m] of w.messages.entries()) {
    if (m.role !== "assistant" || typeof m.content === "string") continue;
    for (const [j, b] of m.content.entries()) {
      if (b.type !== "thinking") continue;
      if (b.signature === undefined) {
        return apiError("invalid_request", `messages.${i}.content.${j}.thinking.signature: Field required (mockllm: send the thinking block back with the signature it came with; ${STRICT_HINT})`);
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
  const usedTools = turn.some((i) => {
    const c = w.messages[i]!.content;
    return typeof c !== "string" && c.some((b) => b.type === "tool_use");
  });
  if (!usedTools) return undefined;
  const toolIds = scriptedToolIds(scenario);
  for (const i of turn) {
    const m = w.messages[i]!;
    // A compaction block the answer started with comes before its thinking.
    const head = typeof m.content === "string" ? undefined : m.content.find((b) => b.type !== "compaction");
    if (isThinkingBlock(head)) continue;
    const sent = sentWithThinking(m, toolIds);
    // mockllm answered this message without thinking: it is valid as echoed (adaptive thinking may skip it too).
    if (sent === false) continue;
    // A turn mockllm did not write: the real API's rule, which adaptive thinking does not impose.
    if (sent === undefined && (i !== turn[0] || w.thinking?.type !== "enabled")) continue;
    const found = typeof m.content === "string" ? "a string" : head === undefined ? "nothing" : `\`${head.type === "other" ? head.sent : head.type}\``;
    const why =
      sent === true
        ? `mockllm sent messages.${i} starting with a thinking block, which the client dropped or moved; send the assistant message back unchanged`
        : `messages.${i} is the assistant message that called tools; send it back starting with the thinking block it came with`;
    return apiError(
      "invalid_request",
      `messages.${i}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found ${found}. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at ${DOCS} (mockllm: ${why}, or ${STRICT_HINT})`,
    );
  }
  return undefined;
}
