import { describe, expect, it } from "vitest";
import { pendingToolResults } from "../../src/canonical/request";
import { parseChatRequest, parseGenerateRequest } from "../../src/providers/ollama/parse";

const headers = new Headers({ "User-Agent": "ollama-js/0.6.4" });

function chat(body: unknown) {
  const r = parseChatRequest(body, headers);
  if (!r.ok) throw new Error(r.error.message);
  return r.request;
}

function chatError(body: unknown) {
  const r = parseChatRequest(body, headers);
  if (r.ok) throw new Error("expected an error");
  return r.error;
}

describe("ollama /api/chat parse", () => {
  it("maps a plain chat, streaming by default", () => {
    expect(chat({ model: "llama3.2", messages: [{ role: "user", content: "Hi" }] })).toEqual({
      provider: "ollama",
      endpoint: "chat",
      model: "llama3.2",
      stream: true,
      system: "",
      messages: [{ role: "user", text: "Hi" }],
      tools: [],
      reasoning: "disabled",
      headers: { "user-agent": "ollama-js/0.6.4" },
    });
  });

  it.each([
    [false, false],
    [true, true],
    [null, true],
    [undefined, true],
  ])("stream %s → %s", (stream, expected) => {
    expect(chat({ model: "m", messages: [], stream }).stream).toBe(expected);
  });

  it("reads system messages, tools, options and think", () => {
    const r = chat({
      model: "qwen3",
      messages: [
        { role: "system", content: "You are terse." },
        { role: "system", content: "Answer in French." },
        { role: "user", content: "Hi", images: ["aGVsbG8="] },
      ],
      tools: [
        { type: "function", function: { name: "get_weather", parameters: {} } },
        { type: "function", function: {} },
      ],
      options: { temperature: 0.3, top_p: 0.9, num_predict: 128, num_ctx: 4096, seed: 7 },
      think: "medium",
      format: "json",
      keep_alive: "5m",
    });
    expect(r).toMatchObject({
      system: "You are terse.\n\nAnswer in French.",
      tools: ["get_weather"],
      temperature: 0.3,
      topP: 0.9,
      maxTokens: 128,
      reasoning: "enabled",
    });
  });

  it.each([
    [true, "enabled"],
    ["low", "enabled"],
    [false, "disabled"],
  ] as const)("think %s → reasoning %s", (think, reasoning) => {
    expect(chat({ model: "m", think }).reasoning).toBe(reasoning);
  });

  it("leaves maxTokens unset for num_predict -1 (no limit)", () => {
    expect(chat({ model: "m", options: { num_predict: -1 } }).maxTokens).toBeUndefined();
  });

  it("keeps assistant tool calls and thinking, and pairs tool results by name", () => {
    const r = chat({
      model: "m",
      messages: [
        { role: "user", content: "Weather and time in Paris?" },
        {
          role: "assistant",
          content: "",
          thinking: "Two tools.",
          tool_calls: [{ function: { name: "get_weather", arguments: { city: "Paris" } } }, { function: { name: "get_time", arguments: '{"zone":"CET"}' } }],
        },
        { role: "tool", content: "10:00", tool_name: "get_time" },
        { role: "tool", content: "sunny", tool_name: "get_weather" },
      ],
    });
    expect(r.messages[1]).toEqual({
      role: "assistant",
      text: "",
      toolCalls: [
        { id: "call_1_0", name: "get_weather", arguments: '{"city":"Paris"}' },
        { id: "call_1_1", name: "get_time", arguments: '{"zone":"CET"}' },
      ],
      reasoning: [{ text: "Two tools." }],
    });
    expect(pendingToolResults(r)).toEqual([
      { name: "get_time", toolCallId: "call_1_1", content: "10:00", isError: false },
      { name: "get_weather", toolCallId: "call_1_0", content: "sunny", isError: false },
    ]);
  });

  it("uses the ids newer clients send, and pairs a nameless result with the next open call", () => {
    const r = chat({
      model: "m",
      messages: [
        { role: "user", content: "x" },
        { role: "assistant", content: "", tool_calls: [{ id: "call_ab12cd34", function: { name: "a", arguments: {} } }, { function: { name: "b" } }] },
        { role: "tool", content: "B", tool_call_id: "call_1_1" },
        { role: "tool", content: "A" },
      ],
    });
    expect(pendingToolResults(r)).toEqual([
      { name: "b", toolCallId: "call_1_1", content: "B", isError: false },
      { name: "a", toolCallId: "call_ab12cd34", content: "A", isError: false },
    ]);
  });

  it("ignores roles it does not know, and accepts messages without content", () => {
    expect(chat({ model: "m", messages: [{ role: "critic", content: "x" }, { role: "user" }] }).messages).toEqual([{ role: "user", text: "" }]);
  });

  it.each([
    [{ messages: [] }, "model is required"],
    [{ model: "", messages: [] }, "model is required"],
    [{ model: 3 }, "json: cannot unmarshal number into Go struct field .model of type string"],
    [{ model: "m", messages: "hi" }, "json: cannot unmarshal string into Go struct field .messages of type []api.Message"],
    [{ model: "m", messages: [null] }, "json: cannot unmarshal null into Go struct field .messages of type api.Message"],
    [{ model: "m", messages: [{ role: "user", content: ["a"] }] }, "json: cannot unmarshal array into Go struct field .messages.content of type string"],
    [
      { model: "m", messages: [{ role: "assistant", tool_calls: [{ function: { name: "f", arguments: 1 } }] }] },
      "json: cannot unmarshal number into Go struct field .messages.tool_calls.function.arguments of type api.ToolCallFunctionArguments",
    ],
    [{ model: "m", stream: "yes" }, "json: cannot unmarshal string into Go struct field .stream of type bool"],
    [{ model: "m", options: { temperature: "hot" } }, "json: cannot unmarshal string into Go struct field .options.temperature of type float64"],
    [{ model: "m", think: "max" }, 'invalid think value: "max" (must be "high", "medium", "low", true, or false)'],
  ])("rejects %j: %s", (body, message) => {
    expect(chatError(body)).toEqual({ code: "invalid_request", message });
  });
});

describe("ollama /api/generate parse", () => {
  it("makes the prompt one user message and system the system prompt", () => {
    const r = parseGenerateRequest({ model: "llama3.2", prompt: "Why is the sky blue?", system: "Be brief.", suffix: "", context: [1, 2, 3], raw: false, stream: false }, headers);
    expect(r.ok && r.request).toMatchObject({
      provider: "ollama",
      endpoint: "generate",
      stream: false,
      system: "Be brief.",
      messages: [{ role: "user", text: "Why is the sky blue?" }],
      tools: [],
    });
  });

  it("needs a model, and a number context", () => {
    const a = parseGenerateRequest({ prompt: "x" }, headers);
    const b = parseGenerateRequest({ model: "m", context: ["x"] }, headers);
    expect([!a.ok && a.error.message, !b.ok && b.error.message]).toEqual(["model is required", "json: cannot unmarshal string into Go struct field .context of type int"]);
  });
});
