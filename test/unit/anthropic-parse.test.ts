import { describe, expect, it } from "vitest";
import { pendingToolResults } from "../../src/canonical/request";
import { parseCountTokensRequest, parseMessagesRequest } from "../../src/providers/anthropic/parse";

const headers = new Headers({ "x-api-key": "k", "anthropic-version": "2023-06-01", "X-Custom": "1" });
const base = { model: "claude-sonnet-4-5", max_tokens: 1024 };

function parse(body: unknown) {
  const r = parseMessagesRequest(body, headers);
  if (!r.ok) throw new Error(`expected ok, got ${r.error.message}`);
  return r.request;
}

describe("anthropic parse: the canonical request", () => {
  it("maps a plain request", () => {
    const req = parse({
      ...base,
      stream: true,
      system: "You are a weather bot",
      temperature: 0.2,
      top_p: 0.9,
      top_k: 5,
      stop_sequences: ["END"],
      metadata: { user_id: "u1" },
      tool_choice: { type: "auto" },
      tools: [
        { name: "get_weather", input_schema: { type: "object" } },
        { type: "web_search_20250305", name: "web_search" },
      ],
      messages: [{ role: "user", content: "Weather in Paris?" }],
      brand_new_field: { anything: true },
    });
    expect(req).toEqual({
      provider: "anthropic",
      endpoint: "messages",
      model: "claude-sonnet-4-5",
      stream: true,
      system: "You are a weather bot",
      messages: [{ role: "user", text: "Weather in Paris?" }],
      tools: ["get_weather", "web_search"],
      temperature: 0.2,
      topP: 0.9,
      maxTokens: 1024,
      stopSequences: ["END"],
      reasoning: "disabled",
      serverTools: ["web_search"],
      headers: { "x-api-key": "k", "anthropic-version": "2023-06-01", "x-custom": "1" },
    });
  });

  it("joins system blocks and system-role entries with a blank line", () => {
    const req = parse({
      ...base,
      system: [
        { type: "text", text: "x-anthropic-billing-header: cc_version=2.1" },
        { type: "text", text: "You are Claude Code.", cache_control: { type: "ephemeral" } },
      ],
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: [{ type: "text", text: "hi" }] },
      ],
    });
    expect(req.system).toBe("x-anthropic-billing-header: cc_version=2.1\n\nYou are Claude Code.\n\nBe brief.");
    expect(req.messages).toEqual([{ role: "user", text: "hi" }]);
  });

  it("maps a tool loop with thinking, tool_use and tool_result blocks", () => {
    const req = parse({
      ...base,
      thinking: { type: "enabled", budget_tokens: 512 },
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "Weather?" },
            { type: "image", source: { type: "url", url: "x" } },
          ],
        },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "I should call the tool.", signature: "sig-1" },
            { type: "redacted_thinking", data: "opaque" },
            { type: "text", text: "Checking." },
            { type: "tool_use", id: "toolu_01A", name: "get_weather", input: { city: "Paris" } },
            { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: {} },
          ],
        },
        {
          role: "user",
          content: [
            {
              type: "tool_result",
              tool_use_id: "toolu_01A",
              content: [
                { type: "text", text: "sunny" },
                { type: "text", text: "22C" },
              ],
            },
            { type: "tool_result", tool_use_id: "toolu_01B", content: "boom", is_error: true },
          ],
        },
      ],
    });
    expect(req.reasoning).toBe("enabled");
    expect(req.messages).toEqual([
      { role: "user", text: "Weather?" },
      {
        role: "assistant",
        text: "Checking.",
        toolCalls: [{ id: "toolu_01A", name: "get_weather", arguments: '{"city":"Paris"}' }],
        reasoning: [
          { text: "I should call the tool.", signature: "sig-1" },
          { text: "", redacted: "opaque" },
        ],
      },
      { role: "tool", toolCallId: "toolu_01A", content: "sunny\n22C", isError: false },
      { role: "tool", toolCallId: "toolu_01B", content: "boom", isError: true },
    ]);
    expect(pendingToolResults(req)[0]).toEqual({ name: "get_weather", toolCallId: "toolu_01A", content: "sunny\n22C", isError: false });
  });

  it("keeps the user text that comes with tool results, after them", () => {
    const req = parse({
      ...base,
      messages: [
        {
          role: "user",
          content: [
            { type: "tool_result", tool_use_id: "t1" },
            { type: "text", text: "also this" },
          ],
        },
      ],
    });
    expect(req.messages).toEqual([
      { role: "tool", toolCallId: "t1", content: "", isError: false },
      { role: "user", text: "also this" },
    ]);
  });

  it.each([
    [{ type: "enabled", budget_tokens: 2048 }, "enabled"],
    [{ type: "adaptive" }, "enabled"],
    [{ type: "disabled" }, "disabled"],
    [{ type: "something-new" }, "disabled"],
    [undefined, "disabled"],
  ])("thinking %j → reasoning %s", (thinking, expected) => {
    expect(parse({ ...base, thinking, messages: [{ role: "user", content: "x" }] }).reasoning).toBe(expected);
  });
});

describe("anthropic parse: what the real API rejects", () => {
  const msgs = [{ role: "user", content: "hi" }];
  it.each([
    { body: { max_tokens: 10, messages: msgs }, message: "model: Field required" },
    { body: { model: "m", messages: msgs }, message: "max_tokens: Field required" },
    { body: { model: "m", max_tokens: "10", messages: msgs }, message: "max_tokens: Input should be a valid integer" },
    { body: { model: "m", max_tokens: 1.5, messages: msgs }, message: "max_tokens: Input should be a valid integer" },
    { body: { model: "m", max_tokens: 0, messages: msgs }, message: "max_tokens: Input should be greater than or equal to 1" },
    { body: { model: "m", max_tokens: 10 }, message: "messages: Field required" },
    { body: { model: "m", max_tokens: 10, messages: [] }, message: "messages: at least one message is required" },
    { body: { model: "m", max_tokens: 10, messages: "hi" }, message: "messages: Input should be a valid list" },
    {
      body: { model: "m", max_tokens: 10, messages: [{ role: "tool", content: "x" }] },
      message: "messages.0.role: Input should be 'user' or 'assistant'",
    },
    { body: { model: "m", max_tokens: 10, messages: [{ role: "user" }] }, message: "messages.0.content: Field required" },
    { body: { model: "m", max_tokens: 10, messages: [{ role: "user", content: 5 }] }, message: "messages.0.content: Input should be a valid list" },
    {
      body: { model: "m", max_tokens: 10, messages: [{ role: "user", content: ["hi"] }] },
      message: "messages.0.content.0: Input should be a valid dictionary or object to extract fields from",
    },
    { body: { model: "m", max_tokens: 10, messages: [null] }, message: "messages.0: Input should be a valid dictionary or object to extract fields from" },
    {
      body: { model: "m", max_tokens: 10, messages: msgs, thinking: "on" },
      message: "thinking: Input should be a valid dictionary or object to extract fields from",
    },
    {
      body: { model: "m", max_tokens: 10, messages: [{ role: "user", content: [{ text: "x" }] }] },
      message: "messages.0.content.0.type: Field required",
    },
    {
      body: { model: "m", max_tokens: 10, messages: [{ role: "user", content: [{ type: "text" }] }] },
      message: "messages.0.content.0.text.text: Field required",
    },
    {
      body: {
        model: "m",
        max_tokens: 10,
        messages: [msgs[0], { role: "assistant", content: [{ type: "tool_use", id: "t", name: "f", input: "{}" }] }],
      },
      message: "messages.1.content.0.tool_use.input: Input should be a valid dictionary",
    },
    {
      body: { model: "m", max_tokens: 10, messages: [{ role: "user", content: [{ type: "tool_result" }] }] },
      message: "messages.0.content.0.tool_result.tool_use_id: Field required",
    },
    { body: { model: "m", max_tokens: 10, messages: msgs, stream: "yes" }, message: "stream: Input should be a valid boolean" },
    { body: { model: "m", max_tokens: 10, messages: msgs, temperature: "hot" }, message: "temperature: Input should be a valid number" },
  ])("$message", ({ body, message }) => {
    const r = parseMessagesRequest(body, headers);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toEqual({ code: "invalid_request", message });
  });

  it("count_tokens does not need max_tokens", () => {
    const r = parseCountTokensRequest({ model: "m", messages: msgs }, headers);
    expect(r.ok && r.request.endpoint).toBe("count_tokens");
    const bad = parseCountTokensRequest({ messages: msgs }, headers);
    expect(!bad.ok && bad.error.message).toBe("model: Field required");
  });
});
