/**
 * The stop-sequence cut (src/canonical/stop.ts): where the text ends, what else is dropped, the finish and usage,
 * and its order with the output-token limit.
 */
import { describe, expect, it } from "vitest";
import { limitReply } from "../../src/canonical/limit";
import type { Reply } from "../../src/canonical/outcome";
import { firstStop, stopReply, stopSequencesOf } from "../../src/canonical/stop";

function reply(over: Partial<Reply> = {}): Reply {
  return {
    text: "lorem ipsum dolor sit amet",
    reasoning: [],
    reasoningField: "reasoning",
    toolCalls: [],
    finishReason: "stop",
    usage: { inputTokens: 3, outputTokens: 5, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
    model: "m",
    latencyMs: 0,
    pacing: { ttftMs: 0, tokensPerSecond: 0, chunkDelayMs: 0, chunkWords: 1, jitterMs: 0, seed: 0 },
    headers: {},
    idSeed: "s",
    ...over,
  };
}

describe("firstStop", () => {
  it("the sequence complete first as the text is written; ties go to the earlier start", () => {
    expect(firstStop("abcd", ["bcd", "c"])).toEqual({ at: 2, sequence: "c" });
    expect(firstStop("abcd", ["cd", "bcd"])).toEqual({ at: 1, sequence: "bcd" });
    expect(firstStop("abcd", ["x", ""])).toBeUndefined();
  });
});

describe("stopSequencesOf", () => {
  it("a string or an array of strings, empty ones dropped", () => {
    expect([stopSequencesOf("\n"), stopSequencesOf(["a", "", 3]), stopSequencesOf([""]), stopSequencesOf(null)]).toEqual([["\n"], ["a"], undefined, undefined]);
  });
});

describe("stopReply", () => {
  it("cuts the text before the sequence, names it, and counts the words sent", () => {
    const cut = stopReply(reply(), ["dolor"]);
    expect([cut.text, cut.finishReason, cut.stopSequence, cut.usage.outputTokens]).toEqual(["lorem ipsum ", "stop", "dolor", 2]);
  });

  it("drops the tool calls and further messages after the cut; keeps reasoning", () => {
    const r = reply({
      reasoning: [{ type: "thinking", text: "think dolor" }],
      toolCalls: [{ name: "f", arguments: "{}" }],
      finishReason: "tool_calls",
      extraChoices: [reply({ text: "more" })],
    });
    const cut = stopReply(r, ["ipsum"]);
    expect([cut.text, cut.toolCalls, cut.extraChoices, cut.reasoning, cut.finishReason]).toEqual(["lorem ", [], undefined, r.reasoning, "stop"]);
  });

  it("a cut in a further message keeps the messages before it", () => {
    const r = reply({ text: "first", extraChoices: [reply({ text: "second STOP third" })] });
    const cut = stopReply(r, ["STOP"]);
    expect([cut.text, cut.extraChoices?.map((c) => c.text), cut.stopSequence]).toEqual(["first", ["second "], "STOP"]);
  });

  it("leaves a reply without the sequence, a recorded one and no sequences as they are", () => {
    const r = reply();
    expect(stopReply(r, ["nowhere"])).toBe(r);
    expect(stopReply(r, undefined)).toBe(r);
    const framed = reply({ frames: { status: 200, headers: {}, frames: [] } as never });
    expect(stopReply(framed, ["dolor"])).toBe(framed);
  });

  it("then the token limit: a limit shorter than the cut ends with length and no stop sequence", () => {
    const limited = limitReply(stopReply(reply(), ["amet"]), 2);
    expect([limited.text, limited.finishReason, limited.stopSequence]).toEqual(["lorem ipsum", "length", undefined]);
    const within = limitReply(stopReply(reply(), ["sit"]), 3);
    expect([within.text, within.finishReason, within.stopSequence]).toEqual(["lorem ipsum dolor ", "stop", "sit"]);
  });
});
