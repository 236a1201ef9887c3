/**
 * The Messages API's tool-result rule (src/providers/anthropic/tool-pairing.ts): each sentence as the API answers it
 * (sources in docs/providers/fidelity.md, "Anthropic: tool results that do not answer tool uses").
 */
import { describe, expect, it } from "vitest";
import { parseMessagesRequest } from "../../src/providers/anthropic/parse";
import { toolPairingError } from "../../src/providers/anthropic/tool-pairing";

const user = { role: "user", content: "weather?" };
const use = (id: string) => ({ type: "tool_use", id, name: "get_weather", input: {} });
const result = (id: string) => ({ type: "tool_result", tool_use_id: id, content: "18C" });
const assistant = (...content: unknown[]) => ({ role: "assistant", content });
const results = (...content: unknown[]) => ({ role: "user", content });

function check(messages: unknown[]) {
  const r = parseMessagesRequest({ model: "claude-sonnet-4-5", max_tokens: 64, messages }, new Headers({ "x-api-key": "k" }));
  if (!r.ok) throw new Error(r.error.message);
  return toolPairingError(r.wire)?.message;
}

const MISSING = "Each `tool_use` block must have a corresponding `tool_result` block in the next message.";
const UNEXPECTED = "Each `tool_result` block must have a corresponding `tool_use` block in the previous message.";

describe("toolPairingError", () => {
  it("a call without its result, named by the assistant message's index (anthropics/claude-code#1237, #5989: every id, comma-separated)", () => {
    expect(check([user, assistant(use("toolu_a")), { role: "user", content: "and?" }])).toBe(
      `messages.1: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: toolu_a. ${MISSING}`,
    );
    expect(check([user, assistant({ type: "text", text: "Two." }, use("toolu_a"), use("toolu_b")), results(result("toolu_a"))])).toBe(
      `messages.1: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: toolu_b. ${MISSING}`,
    );
    expect(check([user, assistant(use("toolu_a"), use("toolu_b")), results({ type: "text", text: "first" }, result("toolu_a"), result("toolu_b"))])).toBe(
      `messages.1: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: toolu_a, toolu_b. ${MISSING}`,
    );
    expect(check([user, assistant(use("toolu_a")), assistant({ type: "text", text: "skipped" }), user])).toBe(
      `messages.1: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: toolu_a. ${MISSING}`,
    );
  });

  it("a result for a call the message before does not hold, by its block (decocms/studio#1803, router-for-me/CLIProxyAPI#497)", () => {
    expect(check([results(result("toolu_015cqXRmSf7tsfMgJ9ibV1z3"))])).toBe(
      `messages.0.content.0: unexpected \`tool_use_id\` found in \`tool_result\` blocks: toolu_015cqXRmSf7tsfMgJ9ibV1z3. ${UNEXPECTED}`,
    );
    expect(check([user, assistant(use("toolu_a")), results(result("toolu_a"), result("toolu_wrong"))])).toBe(
      `messages.2.content.1: unexpected \`tool_use_id\` found in \`tool_result\` blocks: toolu_wrong. ${UNEXPECTED}`,
    );
  });

  it("a well-formed loop, parallel results in any order with text after them, and a prefill ending in a call: taken", () => {
    const loop = [user, assistant({ type: "text", text: "Looking." }, use("toolu_a"), use("toolu_b")), results(result("toolu_b"), result("toolu_a"), { type: "text", text: "go on" })];
    expect(check([...loop, assistant({ type: "text", text: "18C" }), user])).toBeUndefined();
    expect(check([user, assistant(use("toolu_a"))])).toBeUndefined();
    expect(check([user])).toBeUndefined();
  });
});
