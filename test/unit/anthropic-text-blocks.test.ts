/**
 * The Messages API's text rules (src/providers/anthropic/text-blocks.ts), each sentence as the API answers it
 * (sources in docs/providers/fidelity.md, "Anthropic: empty and whitespace text").
 */
import { describe, expect, it } from "vitest";
import { parseMessagesRequest } from "../../src/providers/anthropic/parse";
import { textBlocksError } from "../../src/providers/anthropic/text-blocks";

function check(messages: unknown[]) {
  const r = parseMessagesRequest({ model: "claude-sonnet-4-5", max_tokens: 64, messages }, new Headers({ "x-api-key": "k" }));
  if (!r.ok) throw new Error(r.error.message);
  return textBlocksError(r.wire)?.message;
}

const user = { role: "user", content: "Hi" };

describe("textBlocksError", () => {
  it("an empty text, as a string or a block (anthropics/claude-code#59812, 2026-05)", () => {
    expect(check([{ role: "user", content: "" }])).toBe("messages: text content blocks must be non-empty");
    expect(
      check([
        user,
        {
          role: "assistant",
          content: [
            { type: "text", text: "" },
            { type: "tool_use", id: "toolu_a", name: "f", input: {} },
          ],
        },
      ]),
    ).toBe("messages: text content blocks must be non-empty");
  });

  it("whitespace only, anywhere in the history (anthropics/claude-code#23440; home-assistant/core#175637, 2026-07)", () => {
    expect(check([user, { role: "assistant", content: "\n\n" }, user])).toBe("messages: text content blocks must contain non-whitespace text");
    expect(check([{ role: "user", content: [{ type: "text", text: " " }] }])).toBe("messages: text content blocks must contain non-whitespace text");
  });

  it("a final assistant message (a prefill) ending in whitespace (tailcallhq/forgecode#1872)", () => {
    expect(check([user, { role: "assistant", content: "Sure, " }])).toBe("messages: final assistant content cannot end with trailing whitespace");
    expect(check([user, { role: "assistant", content: [{ type: "text", text: "Here:\n" }] }])).toBe("messages: final assistant content cannot end with trailing whitespace");
  });

  it("text with whitespace around it inside the history, a prefill without it, tool blocks only: taken", () => {
    expect(check([user, { role: "assistant", content: "  Hello.\n" }, user, { role: "assistant", content: "Sure," }])).toBeUndefined();
    expect(check([user, { role: "assistant", content: [{ type: "tool_use", id: "toolu_a", name: "f", input: {} }] }])).toBeUndefined();
  });
});
