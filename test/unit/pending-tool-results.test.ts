import { describe, expect, it } from "vitest";
import { type CanonicalMessage, type CanonicalRequest, pendingToolResults } from "../../src/canonical/request";

const call = (id: string, name: string) => ({ id, name, arguments: "{}" });
const assistant = (...toolCalls: ReturnType<typeof call>[]): CanonicalMessage => ({ role: "assistant", text: "", toolCalls, reasoning: [] });
const result = (toolCallId: string, content: string, name?: string): CanonicalMessage =>
  name === undefined ? { role: "tool", toolCallId, content, isError: false } : { role: "tool", toolCallId, name, content, isError: false };
const request = (messages: CanonicalMessage[]): CanonicalRequest =>
  ({ provider: "openai", endpoint: "chat.completions", model: "m", stream: false, system: "", messages, tools: [], reasoning: "disabled", headers: {} }) as CanonicalRequest;

describe("pendingToolResults: the results after the last assistant turn, each with its call's name", () => {
  it("names a result by the call it answers in the last assistant turn; results before that turn are not pending", () => {
    const req = request([
      { role: "user", text: "go" },
      assistant(call("c1", "read_file")),
      result("c1", "old"),
      assistant(call("c2", "get_weather"), call("c3", "get_time")),
      result("c3", "noon"),
      { role: "user", text: "and?" },
      result("c2", "sunny"),
    ]);
    expect(pendingToolResults(req)).toEqual([
      { name: "get_time", toolCallId: "c3", content: "noon", isError: false },
      { name: "get_weather", toolCallId: "c2", content: "sunny", isError: false },
    ]);
  });

  it("a call id from an earlier turn takes that turn's name, the newest turn's when an id was used twice; an unknown id has none; a result's own name wins", () => {
    const req = request([
      assistant(call("a", "first"), call("a", "second")),
      assistant(call("b", "other")),
      assistant(call("a", "newest")),
      assistant(call("x", "last")),
      result("a", "1"),
      result("b", "2"),
      result("zzz", "3"),
      result("x", "4", "given"),
    ]);
    expect(pendingToolResults(req).map((r) => r.name)).toEqual(["newest", "other", undefined, "given"]);
  });

  it("no assistant turn: every tool result is pending, unnamed unless it says", () => {
    expect(pendingToolResults(request([result("a", "1"), result("b", "2", "n")])).map((r) => r.name)).toEqual([undefined, "n"]);
  });
});
