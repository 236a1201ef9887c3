import { describe, expect, it } from "vitest";
import type { CanonicalRequest } from "../../src/canonical/request";
import { replyChoices } from "../../src/canonical/outcome";
import { defaultCreated, defaultReply, instructedMessages, loremMessage } from "../../src/default/responder";
import { lorem, loremLength } from "../../src/default/lorem";
import { parseInstructions } from "../../src/default/instructions";
import { wordCount } from "../../src/util/text";
import { stableHash } from "../../src/util/hash";

function request(last: string, extra: Partial<CanonicalRequest> = {}): CanonicalRequest {
  return {
    provider: "openai",
    endpoint: "chat.completions",
    model: "gpt-test",
    stream: false,
    system: "You are terse.",
    messages: [{ role: "user", text: last }],
    tools: [],
    reasoning: "disabled",
    headers: {},
    ...extra,
  };
}

const instruction = (plan: unknown) => `<|instruction_start|>${JSON.stringify(plan)}<|instruction_end|>`;

describe("loremMessage", () => {
  it("is lorem of loremLength words, then the message echoed after a blank line", () => {
    const m = loremMessage("hello");
    expect(m.text).toBe(`${lorem(64)}\n\nhello`);
    expect(m.reasoning).toBeUndefined();
    expect(m.toolCalls).toEqual([]);
  });

  it("streams reasoning first when the message contains \\nReason:, each stream ending with the echo (seed 004)", () => {
    const message = "What is 2+2?\nReason: think hard";
    const m = loremMessage(message);
    expect(m.reasoning).toBe(`${lorem(443)}\n\n${message}`);
    expect(m.text).toBe(`${lorem(169)}\n\n${message}`);
  });

  it("needs the newline: 'Reason:' on the first line is not a trigger", () => {
    expect(loremMessage("Reason: no newline").reasoning).toBeUndefined();
  });

  it("an empty message gets lorem only", () => {
    expect(loremMessage("").text).toBe(lorem(32));
  });
});

describe("instructedMessages", () => {
  it("wraps id_message around reasoning and text, not counted in lengths; tool calls carry JSON args", () => {
    const plan = parseInstructions(
      instruction({
        id_message: "ID-7",
        reasoning: { length: 3 },
        messages: [{ text_message: { length: 4 } }, { tool_call: [{ name: "search", args: { q: "x" } }, { name: "raw", args: "{not json" }, { name: "noargs" }] }],
      }),
    )!;
    expect(instructedMessages(plan)).toEqual([
      { reasoning: "ID-7 lorem ipsum dolor ID-7", text: "ID-7 lorem ipsum dolor sit ID-7", toolCalls: [] },
      {
        toolCalls: [
          { name: "search", arguments: '{"q":"x"}' },
          { name: "raw", arguments: "{not json" },
          { name: "noargs", arguments: "{}" },
        ],
      },
    ]);
  });

  it("without id_message or reasoning: bare lorem of exactly length words", () => {
    const plan = parseInstructions(instruction({ messages: [{ text_message: { length: 12 } }] }))!;
    const [m] = instructedMessages(plan);
    expect(m).toEqual({ text: lorem(12), toolCalls: [] });
    expect(wordCount(m!.text!)).toBe(12);
  });
});

describe("defaultReply", () => {
  it("is the same for the same request, ids and created included", () => {
    const a = defaultReply(request("hello"), { wordsPerSecond: 50 });
    const b = defaultReply(request("hello"), { wordsPerSecond: 50 });
    expect(a).toEqual(b);
    expect(defaultCreated(request("hello"))).toBe(defaultCreated(request("hello")));
    expect(defaultCreated(request("hello"))).not.toBe(defaultCreated(request("other")));
    expect(defaultCreated(request("hello"))).toBeGreaterThanOrEqual(1_704_067_200);
  });

  it("answers the LAST user message, in 5-word chunks paced at wordsPerSecond", () => {
    const req = request("second", {
      messages: [
        { role: "user", text: "first" },
        { role: "assistant", text: "ok", toolCalls: [], reasoning: [] },
        { role: "user", text: "second" },
      ],
    });
    const reply = defaultReply(req, { wordsPerSecond: 50 });
    expect(reply.text).toBe(`${lorem(loremLength("second"))}\n\nsecond`);
    expect(reply.pacing).toEqual({ ttftMs: 0, tokensPerSecond: 50, chunkDelayMs: 0, chunkWords: 5, jitterMs: 0, seed: 0 });
    expect(reply.finishReason).toBe("stop");
    expect(reply.model).toBe("gpt-test");
    expect(reply.extraChoices).toBeUndefined();
  });

  it("reasoning goes out as `reasoning` (not reasoning_content) and counts in usage", () => {
    const reply = defaultReply(request("Hi\nReason: because"), { wordsPerSecond: 0 });
    expect(reply.reasoningField).toBe("reasoning");
    expect(reply.reasoning).toHaveLength(1);
    const reasoningWords = wordCount((reply.reasoning[0] as { text: string }).text);
    expect(reply.usage.reasoningTokens).toBe(reasoningWords);
    expect(reply.usage.outputTokens).toBe(reasoningWords + wordCount(reply.text!));
    // "You are terse." + "Hi\nReason: because"
    expect(reply.usage.inputTokens).toBe(6);
  });

  it("an instruction block with two messages gives two choices, the second a tool call", () => {
    const reply = defaultReply(request(instruction({ messages: [{ text_message: { length: 6 } }, { tool_call: [{ name: "lookup", args: { id: 1 } }] }] })), { wordsPerSecond: 0 });
    const choices = replyChoices(reply);
    expect(choices).toHaveLength(2);
    expect(choices[0]!.text).toBe(lorem(6));
    expect(choices[0]!.finishReason).toBe("stop");
    expect(choices[1]!.text).toBeUndefined();
    expect(choices[1]!.toolCalls).toEqual([{ name: "lookup", arguments: '{"id":1}' }]);
    expect(choices[1]!.finishReason).toBe("tool_calls");
    expect(choices[1]!.idSeed).not.toBe(choices[0]!.idSeed);
    expect(reply.usage.outputTokens).toBe(6 + 1);
  });

  it("max tokens: the lorem answer stops at the limit with finishReason length; usage counts what was sent", () => {
    const message = "What is 2+2?\nReason: think hard"; // 443 reasoning words + echo (6), 169 text words + echo (6)
    const reply = defaultReply(request(message, { maxTokens: 100 }), { wordsPerSecond: 0 });
    expect(reply.reasoning).toEqual([{ type: "thinking", text: lorem(100) }]);
    expect(reply.text).toBe("");
    expect(reply.finishReason).toBe("length");
    expect(reply.usage).toMatchObject({ outputTokens: 100, reasoningTokens: 100 });

    const both = defaultReply(request(message, { maxTokens: 460 }), { wordsPerSecond: 0 });
    expect((both.reasoning[0] as { text: string }).text).toBe(`${lorem(443)}\n\n${message}`);
    expect(both.text).toBe(lorem(11));
    expect(both.usage).toMatchObject({ outputTokens: 460, reasoningTokens: 449 });
    expect(both.finishReason).toBe("length");
  });

  it("max tokens: a cut inside the echo keeps the words sent; a limit the answer fits in changes nothing", () => {
    const cut = defaultReply(request("hello there", { maxTokens: loremLength("hello there") + 1 }), { wordsPerSecond: 0 });
    expect(cut.text).toBe(`${lorem(loremLength("hello there"))}\n\nhello`);
    expect(cut.usage.outputTokens).toBe(loremLength("hello there") + 1);
    const whole = defaultReply(request("hello there", { maxTokens: loremLength("hello there") + 2 }), { wordsPerSecond: 0 });
    expect(whole).toEqual(defaultReply(request("hello there"), { wordsPerSecond: 0 }));
    expect(whole.finishReason).toBe("stop");
  });

  it("max tokens: instruction messages after the cut are not sent; a tool call that does not fit whole is dropped", () => {
    const plan = { messages: [{ text_message: { length: 6 } }, { tool_call: [{ name: "lookup", args: { id: 1 } }] }] };
    const reply = defaultReply(request(instruction(plan), { maxTokens: 6 }), { wordsPerSecond: 0 });
    expect(replyChoices(reply)).toHaveLength(1);
    expect(reply.text).toBe(lorem(6));
    expect(reply.finishReason).toBe("length");
    expect(reply.usage.outputTokens).toBe(6);
    const four = defaultReply(request(instruction(plan), { maxTokens: 4 }), { wordsPerSecond: 0 });
    expect(four.text).toBe(lorem(4));
    expect(replyChoices(four)).toHaveLength(1);
  });

  it("invalid instruction JSON falls back to the lorem answer, echo included", () => {
    const message = '<|instruction_start|>{"messages": [<|instruction_end|>';
    const reply = defaultReply(request(message), { wordsPerSecond: 0 });
    expect(reply.text).toBe(`${lorem(loremLength(message))}\n\n${message}`);
    expect(reply.extraChoices).toBeUndefined();
  });
});

describe("defaultReply with n (issue 19)", () => {
  it("n = 3: three choices — the lorem answer, then two of their own deterministic lorem texts without the echo", () => {
    const reply = defaultReply(request("hello", { choices: 3 }), { wordsPerSecond: 0 });
    const choices = replyChoices(reply);
    expect(choices.map((c) => c.text)).toEqual([`${lorem(64)}\n\nhello`, lorem(loremLength(`choice 1\n${stableHash("hello")}`), 1), lorem(loremLength(`choice 2\n${stableHash("hello")}`), 2)]);
    expect(choices[1]!.text!.startsWith("ipsum dolor")).toBe(true);
    expect(choices.map((c) => c.finishReason)).toEqual(["stop", "stop", "stop"]);
    expect(choices.map((c) => c.idSeed)).toEqual([choices[0]!.idSeed, `${choices[0]!.idSeed}/choice-1`, `${choices[0]!.idSeed}/choice-2`]);
    expect(reply.usage.outputTokens).toBe(choices.reduce((n, c) => n + wordCount(c.text!), 0));
    expect(defaultReply(request("hello", { choices: 3 }), { wordsPerSecond: 0 })).toEqual(reply);
  });

  it("each choice is cut at max_tokens on its own; usage adds the words sent", () => {
    const reply = defaultReply(request("hello", { choices: 2, maxTokens: 4 }), { wordsPerSecond: 0 });
    const choices = replyChoices(reply);
    expect(choices.map((c) => [c.text, c.finishReason])).toEqual([
      [lorem(4), "length"],
      [lorem(4, 1), "length"],
    ]);
    expect(reply.usage.outputTokens).toBe(8);
  });

  it("\\nReason: gives every choice its own reasoning; without n (or n = 1) there is one choice", () => {
    const message = "Why?\nReason: think";
    const choices = replyChoices(defaultReply(request(message, { choices: 2 }), { wordsPerSecond: 0 }));
    expect(choices[1]!.reasoning).toEqual([{ type: "thinking", text: lorem(loremLength(`reasoning\nchoice 1\n${stableHash(message)}`), 1) }]);
    expect(replyChoices(defaultReply(request("hello"), { wordsPerSecond: 0 }))).toHaveLength(1);
    expect(replyChoices(defaultReply(request("hello", { choices: 1 }), { wordsPerSecond: 0 }))).toHaveLength(1);
  });

  it("128 choices of a 1 MB message stay small: only the first echoes the message", () => {
    const big = "x".repeat(1_000_000);
    const choices = replyChoices(defaultReply(request(big, { choices: 128 }), { wordsPerSecond: 0 }));
    expect(choices).toHaveLength(128);
    expect(choices.slice(1).reduce((n, c) => n + c.text!.length, 0)).toBeLessThan(128 * 500 * 15);
  });

  it("an instruction block decides the messages, whatever n says", () => {
    const plan = { messages: [{ text_message: { length: 3 } }] };
    const choices = replyChoices(defaultReply(request(instruction(plan), { choices: 4 }), { wordsPerSecond: 0 }));
    expect(choices.map((c) => c.text)).toEqual([lorem(3)]);
  });
});
