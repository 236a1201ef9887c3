/**
 * Anthropic's context editing through the official `@anthropic-ai/sdk` (`context-management-2025-06-27`): which tool
 * uses and thinking turns `clear_tool_uses_20250919` and `clear_thinking_20251015` clear, as the message's
 * `context_management.applied_edits` (JSON and stream) and `count_tokens`' count after clearing; their triggers,
 * `keep`, `exclude_tools`, `clear_tool_inputs` and `clear_at_least`; malformed edits refused in the API's wording.
 */
import Anthropic from "@anthropic-ai/sdk";
import type { BetaMessageParam } from "@anthropic-ai/sdk/resources/beta/messages/messages";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;
let client: Anthropic;

const betas = ["context-management-2025-06-27"];
const RESULT = "x".repeat(400); // 100 tokens as count_tokens counts (characters / 4)

/** A conversation of `names.length` tool uses, each answered with RESULT, ending on the user's turn. */
function toolConversation(names: string[], thinking = false): BetaMessageParam[] {
  const messages: BetaMessageParam[] = [{ role: "user", content: "Start." }];
  names.forEach((name, i) => {
    messages.push({
      role: "assistant",
      content: [...(thinking ? [{ type: "thinking" as const, thinking: "t".repeat(80), signature: `sig${i}` }] : []), { type: "tool_use" as const, id: `toolu_${i}`, name, input: { n: i } }],
    });
    messages.push({ role: "user", content: [{ type: "tool_result", tool_use_id: `toolu_${i}`, content: RESULT }] });
  });
  return messages;
}

const tools = ["search", "memory", "fetch"].map((name) => ({ name, description: name, input_schema: { type: "object" as const, properties: {} } }));

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: InstanceType<typeof Anthropic.APIError>) => [e.status, (e.error as { error: { message: string } }).error.message],
  );

beforeAll(async () => {
  h = await startHarness();
  const step = { consume: false, respond: { text: "Done.", usage: { inputTokens: 120_000, outputTokens: 2 } } };
  // Made-up thinking blocks carry signatures mockllm did not issue: the second scenario skips that check.
  await h.upload({ name: "ctx-edit", steps: [step] }, { name: "ctx-edit-thinking", strict: false, steps: [step] });
  client = new Anthropic({ apiKey: "sk-ant-test", baseURL: `${h.url}/s/ctx-edit/run`, maxRetries: 0 });
});
afterAll(() => h?.stop());

describe("anthropic context editing", () => {
  it("clear_tool_uses clears the oldest tool uses past `keep`, sparing excluded tools, once the input reaches its trigger", async () => {
    const messages = toolConversation(["search", "memory", "search", "fetch", "search", "search"]);
    const ask = (edits: unknown[]) => client.beta.messages.create({ model: "claude-sonnet-4-6", max_tokens: 50, betas, tools, messages, context_management: { edits } as never });
    // The default trigger (100,000 input tokens) is reached by the step's 120,000; 3 kept, the oldest 3 cleared.
    expect((await ask([{ type: "clear_tool_uses_20250919" }])).context_management).toEqual({
      applied_edits: [{ type: "clear_tool_uses_20250919", cleared_tool_uses: 3, cleared_input_tokens: 300 }],
    });
    // `memory` is never cleared; tool inputs ({"n":0} is 7 characters: 2 tokens) cleared too with clear_tool_inputs.
    const spared = await ask([{ type: "clear_tool_uses_20250919", keep: { type: "tool_uses", value: 1 }, exclude_tools: ["memory"], clear_tool_inputs: true }]);
    expect(spared.context_management?.applied_edits).toEqual([{ type: "clear_tool_uses_20250919", cleared_tool_uses: 4, cleared_input_tokens: 4 * 102 }]);
    // Not triggered (input under the trigger, or fewer tool uses), or less than clear_at_least: nothing applies.
    expect((await ask([{ type: "clear_tool_uses_20250919", trigger: { type: "input_tokens", value: 150_000 } }])).context_management).toEqual({ applied_edits: [] });
    expect((await ask([{ type: "clear_tool_uses_20250919", trigger: { type: "tool_uses", value: 7 } }])).context_management).toEqual({ applied_edits: [] });
    expect((await ask([{ type: "clear_tool_uses_20250919", clear_at_least: { type: "input_tokens", value: 301 } }])).context_management).toEqual({ applied_edits: [] });
    expect((await ask([{ type: "clear_tool_uses_20250919", trigger: { type: "tool_uses", value: 6 }, clear_at_least: { type: "input_tokens", value: 300 } }])).context_management).toEqual({
      applied_edits: [{ type: "clear_tool_uses_20250919", cleared_tool_uses: 3, cleared_input_tokens: 300 }],
    });

    // Streamed: in message_delta, which the SDK copies onto the final message.
    const streamed = await client.beta.messages
      .stream({ model: "claude-sonnet-4-6", max_tokens: 50, betas, tools, messages, context_management: { edits: [{ type: "clear_tool_uses_20250919", keep: { type: "tool_uses", value: 4 } }] } })
      .finalMessage();
    expect([streamed.content, streamed.context_management]).toEqual([
      [{ type: "text", text: "Done." }],
      { applied_edits: [{ type: "clear_tool_uses_20250919", cleared_tool_uses: 2, cleared_input_tokens: 200 }] },
    ]);
  });

  it("clear_thinking keeps the thinking of the latest turns (one by default, or all), listed before clear_tool_uses", async () => {
    const messages = toolConversation(["search", "search", "search", "search"], true);
    const thinking = new Anthropic({ apiKey: "sk-ant-test", baseURL: `${h.url}/s/ctx-edit-thinking/run`, maxRetries: 0 });
    const ask = (edits: unknown[]) =>
      thinking.beta.messages.create({
        model: "claude-sonnet-4-6",
        max_tokens: 2048,
        betas,
        tools,
        messages,
        thinking: { type: "enabled", budget_tokens: 1024 },
        context_management: { edits } as never,
      });
    expect((await ask([{ type: "clear_thinking_20251015" }, { type: "clear_tool_uses_20250919" }])).context_management?.applied_edits).toEqual([
      { type: "clear_thinking_20251015", cleared_thinking_turns: 3, cleared_input_tokens: 60 },
      { type: "clear_tool_uses_20250919", cleared_tool_uses: 1, cleared_input_tokens: 100 },
    ]);
    expect((await ask([{ type: "clear_thinking_20251015", keep: { type: "thinking_turns", value: 3 } }])).context_management?.applied_edits).toEqual([
      { type: "clear_thinking_20251015", cleared_thinking_turns: 1, cleared_input_tokens: 20 },
    ]);
    expect((await ask([{ type: "clear_thinking_20251015", keep: "all" }])).context_management?.applied_edits).toEqual([]);
    expect(await refusal(ask([{ type: "clear_tool_uses_20250919" }, { type: "clear_thinking_20251015" }]))).toEqual([
      400,
      "context_management.edits: 'clear_thinking_20251015' must come before 'clear_tool_uses_20250919' when both are given",
    ]);
  });

  it("count_tokens counts the input after clearing, beside the count before it", async () => {
    const messages = toolConversation(["search", "search", "search", "search", "search"]);
    const plain = await client.beta.messages.countTokens({ model: "claude-sonnet-4-6", betas, tools, messages });
    expect(plain.context_management).toBeUndefined();
    const edited = await client.beta.messages.countTokens({
      model: "claude-sonnet-4-6",
      betas,
      tools,
      messages,
      context_management: { edits: [{ type: "clear_tool_uses_20250919", trigger: { type: "input_tokens", value: 100 }, keep: { type: "tool_uses", value: 2 } }] },
    });
    expect(edited).toEqual({ input_tokens: plain.input_tokens - 300, context_management: { original_input_tokens: plain.input_tokens } });
  });

  it("malformed clearing edits are refused in the API's wording", async () => {
    const ask = (edit: Record<string, unknown>) =>
      refusal(client.beta.messages.create({ model: "claude-sonnet-4-6", max_tokens: 50, betas, messages: [{ role: "user", content: "hi" }], context_management: { edits: [edit] } as never }));
    expect(await ask({ type: "clear_tool_uses_20250919", trigger: { type: "turns", value: 3 } })).toEqual([
      400,
      "context_management.edits.0.trigger.type: Input should be 'input_tokens' or 'tool_uses'",
    ]);
    expect(await ask({ type: "clear_tool_uses_20250919", keep: { type: "tool_uses", value: -1 } })).toEqual([400, "context_management.edits.0.keep.value: Input should be greater than or equal to 0"]);
    expect(await ask({ type: "clear_tool_uses_20250919", exclude_tools: "memory" })).toEqual([400, "context_management.edits.0.exclude_tools: Input should be a valid list of strings"]);
    expect(await ask({ type: "clear_thinking_20251015", keep: { type: "thinking_turns", value: 0 } })).toEqual([
      400,
      "context_management.edits.0.keep.value: Input should be greater than or equal to 1",
    ]);
  });
});
