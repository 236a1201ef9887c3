import { describe, expect, it } from "vitest";
import { parseMessagesRequest } from "../../src/providers/anthropic/parse";
import { scriptedSignatures, thinkingSignature, validateThinking } from "../../src/providers/anthropic/thinking";
import type { Scenario } from "../../src/scenario/schema";

const headers = new Headers({ "x-api-key": "k", "anthropic-version": "2023-06-01" });
const thinking = { type: "enabled", budget_tokens: 1024 };
const sig = thinkingSignature("I need the weather.");
const scenario: Scenario = {
  name: "weather",
  steps: [{ respond: { reasoning: [{ text: "Scripted thought", signature: "scripted-sig" }, { redacted: "x" }] } }, {}],
};

function check(body: Record<string, unknown>, sc: Scenario | undefined = scenario) {
  const r = parseMessagesRequest({ model: "claude-sonnet-4-5", max_tokens: 4096, thinking, ...body }, headers);
  if (!r.ok) throw new Error(r.error.message);
  return validateThinking(r.wire, r.request, sc);
}

const user = { role: "user", content: "Weather in Paris?" };
const toolResult = { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_1", content: "sunny" }] };
const toolUse = { type: "tool_use", id: "toolu_1", name: "get_weather", input: { city: "Paris" } };
const assistant = (...content: unknown[]) => ({ role: "assistant", content });

describe("thinking signatures", () => {
  it("are stable, text-bound and look opaque", () => {
    expect(thinkingSignature("a")).toBe(thinkingSignature("a"));
    expect(thinkingSignature("a")).not.toBe(thinkingSignature("b"));
    expect(thinkingSignature("a")).toMatch(/^EqMB[0-9A-Za-z]{80}$/);
  });

  it("collects every scripted signature", () => {
    expect([...scriptedSignatures(scenario)]).toEqual(["scripted-sig"]);
    expect(scriptedSignatures(undefined).size).toBe(0);
  });
});

describe("validateThinking: what the real API rejects", () => {
  it.each([
    { name: "derived signature echoed back", msgs: [user, assistant({ type: "thinking", thinking: "I need the weather.", signature: sig }, toolUse), toolResult] },
    { name: "scripted signature echoed back", msgs: [user, assistant({ type: "thinking", thinking: "Scripted thought", signature: "scripted-sig" }, toolUse), toolResult] },
    { name: "redacted thinking first", msgs: [user, assistant({ type: "redacted_thinking", data: "x" }, toolUse), toolResult] },
    { name: "an earlier turn without thinking", msgs: [user, assistant(toolUse), toolResult, assistant({ type: "text", text: "Sunny." }), user] },
    { name: "a finished turn, no tool results pending", msgs: [user, assistant({ type: "text", text: "Hi" }), user] },
    {
      name: "a tool loop whose first message has thinking",
      msgs: [user, assistant({ type: "thinking", thinking: "I need the weather.", signature: sig }, toolUse), toolResult, assistant(toolUse), toolResult],
    },
  ])("accepts $name", ({ msgs }) => {
    expect(check({ messages: msgs })).toBeUndefined();
  });

  it("rejects an edited thinking block, naming message and block", () => {
    const err = check({ messages: [user, assistant({ type: "thinking", thinking: "I need the weather!", signature: sig }, toolUse), toolResult] });
    expect(err?.code).toBe("invalid_request");
    expect(err?.message).toMatch(/^messages\.1\.content\.0: Invalid `signature` in `thinking` block \(mockllm: /);
  });

  it("rejects a thinking block without its signature", () => {
    const err = check({ messages: [user, assistant({ type: "thinking", thinking: "I need the weather." }, toolUse), toolResult] });
    expect(err?.message).toMatch(/^messages\.1\.content\.0\.thinking\.signature: Field required/);
  });

  it("rejects a tool-using turn that does not start with its thinking", () => {
    const err = check({
      messages: [user, assistant({ type: "text", text: "Let me check." }, toolUse), toolResult, assistant(toolUse), toolResult],
    });
    expect(err?.message).toMatch(
      /^messages\.1\.content\.0\.type: Expected `thinking` or `redacted_thinking`, but found `text`\. When `thinking` is enabled, a final `assistant` message must start with a thinking block/,
    );
  });

  it.each([
    [{ type: "enabled" }, "thinking.enabled.budget_tokens: Field required"],
    [{ type: "enabled", budget_tokens: 100 }, "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024"],
    [{ type: "enabled", budget_tokens: 4096 }, /^`max_tokens` must be greater than `thinking.budget_tokens`/],
  ])("checks the budget of %j", (t, message) => {
    expect(check({ thinking: t, messages: [user] })?.message).toMatch(message);
  });

  it("with thinking disabled, ignores signatures' validity and the turn rule, but not a missing signature", () => {
    const edited = [user, assistant({ type: "thinking", thinking: "edited", signature: sig }, toolUse), toolResult];
    expect(check({ thinking: { type: "disabled" }, messages: edited })).toBeUndefined();
    expect(check({ thinking: undefined, messages: [user, assistant(toolUse), toolResult] })).toBeUndefined();
    const unsigned = [user, assistant({ type: "thinking", thinking: "x" }, toolUse), toolResult];
    expect(check({ thinking: undefined, messages: unsigned })?.message).toMatch(/signature: Field required/);
  });

  it("checks the default responder too, and skips everything when strict is false", () => {
    const bad = [user, assistant(toolUse), toolResult];
    expect(check({ messages: bad }, undefined)?.message).toMatch(/^messages\.1\.content\.0\.type/);
    expect(check({ messages: bad }, { ...scenario, strict: false })).toBeUndefined();
    expect(check({ thinking: { type: "enabled", budget_tokens: 1 }, messages: [user] }, { ...scenario, strict: false })).toBeUndefined();
  });
});
