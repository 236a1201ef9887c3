import { describe, expect, it } from "vitest";
import { parseMessagesRequest } from "../../src/providers/anthropic/parse";
import { replyBlocks, wireBlock } from "../../src/providers/anthropic/blocks";
import { scriptedSignatures, scriptedToolIds, thinkingSignature, validateThinking } from "../../src/providers/anthropic/thinking";
import { mintedWithThinking, toolUseId } from "../../src/providers/anthropic/tool-use-ids";
import { resolveReply } from "../../src/scenario/engine";
import { anthropicMessages } from "../../src/providers/anthropic";
import { resolveSurface } from "../../src/providers/surface";
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
  // `strict: false` (and recording) skip the surface's whole `validate` (src/providers/surface.ts), as a turn does.
  return sc?.strict === false ? resolveSurface(anthropicMessages).validate(r.wire, r.request, sc) : validateThinking(r.wire, r.request, sc);
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

describe("validateThinking: transcripts mockllm wrote itself (issue 10)", () => {
  const bash = { name: "Bash", arguments: { command: "echo hello", description: "Print hello" } };
  const loop: Scenario = { name: "cc", steps: [{ respond: { toolCalls: [bash] } }, { respond: { text: "It printed hello." } }] };
  const thoughtful: Scenario = {
    name: "cc",
    steps: [{ respond: { reasoning: "I should run it.", toolCalls: [bash] } }, { respond: { text: "It printed hello." } }],
  };

  /** The assistant message mockllm answers step 1 of `sc` with, as the client receives it. */
  function answered(sc: Scenario): Record<string, unknown>[] {
    const req = parseMessagesRequest({ model: "m", max_tokens: 10, messages: [user] }, headers);
    if (!req.ok) throw new Error(req.error.message);
    return replyBlocks(resolveReply(sc, sc.steps[0], req.request, "cc/default/1")).map(wireBlock);
  }

  /** Claude Code 2.1.112's second request: the first answer echoed unchanged, then the Bash result. */
  function claudeCodeRequest(assistantContent: unknown[], thinkingConfig: unknown = { type: "adaptive" }) {
    const toolUseId = (assistantContent.find((b) => (b as { type: string }).type === "tool_use") as { id: string }).id;
    return {
      model: "claude-sonnet-4-6",
      max_tokens: 32000,
      thinking: thinkingConfig,
      stream: true,
      metadata: { user_id: "user_0123456789abcdef_account__session_4b1c" },
      system: [{ type: "text", text: "You are Claude Code, Anthropic's official CLI for Claude.", cache_control: { type: "ephemeral" } }],
      tools: [
        {
          name: "Bash",
          description: "Executes a given bash command and returns its output.",
          input_schema: {
            $schema: "http://json-schema.org/draft-07/schema#",
            type: "object",
            properties: { command: { type: "string" }, description: { type: "string" } },
            required: ["command"],
            additionalProperties: false,
          },
        },
      ],
      messages: [
        { role: "user", content: [{ type: "text", text: "Run echo hello and tell me what it printed." }] },
        { role: "assistant", content: assistantContent },
        { role: "user", content: [{ type: "tool_result", tool_use_id: toolUseId, content: "hello", is_error: false }] },
      ],
    };
  }

  function validate(body: Record<string, unknown>, sc: Scenario | undefined) {
    const r = parseMessagesRequest(body, headers);
    if (!r.ok) throw new Error(r.error.message);
    return validateThinking(r.wire, r.request, sc);
  }

  it("accepts Claude Code's echoed tool_use answered without reasoning, adaptive or enabled", () => {
    const content = answered(loop);
    expect(content).toEqual([{ type: "tool_use", id: expect.stringMatching(/^toolu_01[0-9A-Za-z]{22}$/), name: "Bash", input: bash.arguments }]);
    expect(validate(claudeCodeRequest(content), loop)).toBeUndefined();
    expect(validate(claudeCodeRequest(content, { type: "enabled", budget_tokens: 1024 }), loop)).toBeUndefined();
  });

  it.each([{ type: "adaptive" }, { type: "enabled", budget_tokens: 1024 }])("with %j accepts the thinking echoed back and rejects it dropped", (t) => {
    const content = answered(thoughtful);
    expect(content[0]).toEqual({ type: "thinking", thinking: "I should run it.", signature: thinkingSignature("I should run it.") });
    expect(validate(claudeCodeRequest(content, t), thoughtful)).toBeUndefined();
    const dropped = validate(claudeCodeRequest(content.slice(1), t), thoughtful);
    expect(dropped?.code).toBe("invalid_request");
    expect(dropped?.message).toMatch(
      /^messages\.1\.content\.0\.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`\. .*\(mockllm: mockllm sent messages\.1 starting with a thinking block, which the client dropped or moved/,
    );
    const moved = validate(claudeCodeRequest([...content.slice(1), content[0]], t), thoughtful);
    expect(moved?.message).toMatch(/^messages\.1\.content\.0\.type: .* found `tool_use`/);
    const edited = [{ ...content[0], thinking: "I should not run it." }, ...content.slice(1)];
    expect(validate(claudeCodeRequest(edited, t), thoughtful)?.message).toMatch(/^messages\.1\.content\.0: Invalid `signature`/);
  });

  it("reads a scripted tool call id from its step: no reasoning → valid, reasoning → a drop", () => {
    const scripted = (reasoning?: string): Scenario => ({
      name: "cc",
      steps: [{ respond: { ...(reasoning !== undefined ? { reasoning } : {}), toolCalls: [{ ...bash, id: "call_bash_1" }] } }],
    });
    const echoed = [{ type: "tool_use", id: "call_bash_1", name: "Bash", input: bash.arguments }];
    const enabled = { type: "enabled", budget_tokens: 1024 };
    expect(validate(claudeCodeRequest(echoed, enabled), scripted())).toBeUndefined();
    expect(validate(claudeCodeRequest(echoed), scripted("Think."))?.message).toMatch(/mockllm sent messages\.1 starting with a thinking block/);
  });

  it("checks every message of the turn in progress that mockllm sent with thinking, not earlier turns", () => {
    const first = answered(loop);
    const second = answered(thoughtful);
    const result = (id: string) => ({ role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "ok" }] });
    const idOf = (c: Record<string, unknown>[]) => c.find((b) => b.type === "tool_use")!.id as string;
    const inTurn = [user, assistant(...first), result(idOf(first)), assistant(...second.slice(1)), result(idOf(second))];
    expect(check({ messages: inTurn, thinking: { type: "adaptive" } }, thoughtful)?.message).toMatch(/^messages\.3\.content\.0\.type/);
    const earlier = [user, assistant(...second.slice(1)), result(idOf(second)), assistant({ type: "text", text: "Done." }), user, assistant(...first), result(idOf(first))];
    expect(check({ messages: earlier, thinking: { type: "adaptive" } }, thoughtful)).toBeUndefined();
  });

  it("a turn mockllm did not write: enabled keeps the real API's rule, adaptive may skip thinking", () => {
    const handMade = [user, assistant(toolUse), toolResult];
    expect(check({ messages: handMade })?.message).toMatch(/\(mockllm: messages\.1 is the assistant message that called tools/);
    expect(check({ messages: handMade, thinking: { type: "adaptive" } })).toBeUndefined();
  });

  it("minted ids carry whether the message started with thinking; other ids say nothing", () => {
    expect(mintedWithThinking(toolUseId("s#tool0", true))).toBe(true);
    expect(mintedWithThinking(toolUseId("s#tool0", false))).toBe(false);
    expect(toolUseId("s#tool0", true)).not.toBe(toolUseId("s#tool0", false));
    expect(mintedWithThinking("toolu_01A09q90qw90lq917835lq9")).toBeUndefined();
    expect(mintedWithThinking("call_1")).toBeUndefined();
    expect(scriptedToolIds({ name: "x", steps: [{ respond: { reasoning: [], toolCalls: [{ id: "a", name: "t" }] } }] })).toEqual(new Map([["a", false]]));
  });
});
