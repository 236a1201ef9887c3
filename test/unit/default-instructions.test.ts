import { describe, expect, it } from "vitest";
import { parseInstructions } from "../../src/default/instructions";

const block = (json: string) => `Please do this.\n<|instruction_start|>${json}<|instruction_end|>\nthanks`;

describe("parseInstructions", () => {
  it("reads id_message, reasoning.length and tagged messages; text outside the block is ignored", () => {
    const plan = parseInstructions(
      block(
        JSON.stringify({
          id_message: "M1",
          reasoning: { length: 4 },
          messages: [{ text_message: { length: 7 } }, { tool_call: [{ name: "get_weather", args: { city: "Paris" } }] }],
        }),
      ),
    );
    expect(plan).toEqual({
      id_message: "M1",
      reasoning: { length: 4 },
      messages: [
        { kind: "text", length: 7 },
        { kind: "tool_call", calls: [{ name: "get_weather", args: { city: "Paris" } }] },
      ],
    });
  });

  it("accepts a block spread over lines, and unknown fields", () => {
    const plan = parseInstructions('x\n<|instruction_start|>\n{"extra": 1,\n "messages": [{"text_message": {"length": 2}}]}\n<|instruction_end|>');
    expect(plan?.messages).toEqual([{ kind: "text", length: 2 }]);
  });

  it.each([
    { why: "no block", message: "just text" },
    { why: "no end marker", message: '<|instruction_start|>{"messages":[{"text_message":{"length":2}}]}' },
    { why: "invalid JSON", message: block('{"messages": [{"text_message": {"length": 2}}') },
    { why: "no messages", message: block('{"id_message": "x"}') },
    { why: "empty messages", message: block('{"messages": []}') },
    { why: "negative length", message: block('{"messages": [{"text_message": {"length": -1}}]}') },
    { why: "unknown message kind", message: block('{"messages": [{"image": {}}]}') },
    { why: "tool call without a name", message: block('{"messages": [{"tool_call": [{"args": {}}]}]}') },
    { why: "a JSON array", message: block("[1, 2]") },
  ])("$why → undefined (lorem fallback)", ({ message }) => {
    expect(parseInstructions(message)).toBeUndefined();
  });
});
