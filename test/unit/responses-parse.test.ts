/**
 * Pure parsing of `POST /v1/responses` bodies into the canonical request, and of embeddings bodies.
 */
import { describe, expect, it } from "vitest";
import { parseEmbeddingsRequest } from "../../src/providers/openai/embeddings/parse";
import { canonicalResponsesRequest, conversationOf, parseItems, parseResponsesRequest } from "../../src/providers/openai/responses/parse";

const H = new Headers({ authorization: "Bearer sk", "X-Trace": "t1" });

function ok(body: unknown) {
  const r = parseResponsesRequest(body, H);
  if (!r.ok) throw new Error(r.error.message);
  return r;
}

describe("parseResponsesRequest", () => {
  it("reads a string input as one user message, instructions as the system prompt", () => {
    const { request } = ok({ model: "gpt-4.1", input: "Hi", instructions: "Be brief." });
    expect(request).toEqual({
      provider: "openai",
      endpoint: "responses",
      model: "gpt-4.1",
      stream: false,
      system: "Be brief.",
      messages: [{ role: "user", text: "Hi" }],
      tools: [],
      reasoning: "disabled",
      headers: { authorization: "Bearer sk", "x-trace": "t1" },
    });
  });

  it("reads items: parts, system/developer entries, calls, outputs and reasoning, one assistant turn per run", () => {
    const { request } = ok({
      model: "gpt-4.1",
      instructions: "Rules.",
      stream: true,
      temperature: 0.2,
      top_p: 0.9,
      max_output_tokens: 100,
      tools: [{ type: "function", name: "get_weather", parameters: {} }, { type: "web_search_preview" }],
      input: [
        { role: "developer", content: "Dev note." },
        {
          type: "message",
          role: "user",
          content: [
            { type: "input_text", text: "Weather?" },
            { type: "input_image", image_url: "x" },
          ],
        },
        { type: "reasoning", id: "rs_1", summary: [{ type: "summary_text", text: "Think." }] },
        { role: "assistant", content: [{ type: "output_text", text: "Checking." }] },
        { type: "function_call", call_id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}' },
        { type: "function_call_output", call_id: "call_1", output: [{ type: "input_text", text: "sunny" }] },
        { type: "web_search_call", id: "ws_1", status: "completed" },
      ],
    });
    expect(request.system).toBe("Rules.\n\nDev note.");
    expect(request.stream).toBe(true);
    expect(request.tools).toEqual(["get_weather", "web_search_preview"]);
    expect([request.temperature, request.topP, request.maxTokens]).toEqual([0.2, 0.9, 100]);
    expect(request.messages).toEqual([
      { role: "user", text: "Weather?" },
      {
        role: "assistant",
        text: "Checking.",
        toolCalls: [{ id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}' }],
        reasoning: [{ text: "Think." }],
      },
      { role: "tool", toolCallId: "call_1", content: "sunny", isError: false },
    ]);
  });

  it.each([
    [{ effort: "low" }, "enabled"],
    [{ effort: "none" }, "disabled"],
    [{ summary: "auto" }, "enabled"],
    [{ effort: null }, "disabled"],
    [null, "disabled"],
  ])("reasoning %j is %s", (reasoning, want) => {
    expect(ok({ model: "o4-mini", input: "x", reasoning }).request.reasoning).toBe(want);
  });

  it("accepts previous_response_id without input, and unknown fields", () => {
    const r = ok({ model: "gpt-4.1", previous_response_id: "resp_abc", brand_new: 1 });
    expect(r.wire.items).toEqual([]);
    expect(r.request.messages).toEqual([]);
  });

  it.each([
    [{ input: "x" }, "Missing required parameter: 'model'.", "model"],
    [{ model: "m" }, "Missing required parameter: 'input'.", "input"],
    [{ model: "m", input: [{ type: "function_call", call_id: "c", arguments: "{}" }] }, "Missing required parameter: 'input[0].name'.", "input[0].name"],
    [{ model: "m", input: [{ role: "robot", content: "x" }] }, undefined, "input[0].role"],
    [{ model: "m", input: ["hello"] }, "Invalid type for 'input[0]': expected an input item, but got a string instead.", "input[0]"],
    [{ model: "m", input: "x", previous_response_id: "msg_1" }, "Invalid 'previous_response_id': 'msg_1'. Expected an ID that begins with 'resp'.", "previous_response_id"],
  ])("rejects %j", (body, message, param) => {
    const r = parseResponsesRequest(body, H);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe("invalid_request");
    expect(r.error.param).toBe(param);
    if (message) expect(r.error.message).toBe(message);
  });
});

describe("conversationOf", () => {
  it("starts a new assistant turn after a user message or tool output", () => {
    const items = parseItems([
      { role: "user", content: "a" },
      { role: "assistant", content: "b" },
      { role: "user", content: "c" },
      { role: "assistant", content: "d" },
      { role: "assistant", content: "e" },
    ]);
    if (!items.ok) throw new Error("parse");
    const { messages } = conversationOf(items.items);
    expect(messages.map((m) => [m.role, "text" in m ? m.text : ""])).toEqual([
      ["user", "a"],
      ["assistant", "b"],
      ["user", "c"],
      ["assistant", "de"],
    ]);
  });

  it("puts history (previous_response_id) before the request's own items", () => {
    const own = parseItems([{ type: "function_call_output", call_id: "call_1", output: "sunny" }]);
    const history = parseItems([
      { role: "user", content: "Weather?" },
      { type: "function_call", call_id: "call_1", name: "get_weather", arguments: "{}" },
    ]);
    if (!own.ok || !history.ok) throw new Error("parse");
    const req = canonicalResponsesRequest({ body: { model: "m" }, items: own.items, history: history.items }, new Headers());
    expect(req.messages.map((m) => m.role)).toEqual(["user", "assistant", "tool"]);
  });
});

describe("parseEmbeddingsRequest", () => {
  it("reads strings and token arrays as user messages", () => {
    const r = parseEmbeddingsRequest({ model: "text-embedding-3-small", input: ["a", "b"] }, H);
    expect(r.ok && r.request).toMatchObject({
      endpoint: "embeddings",
      stream: false,
      messages: [
        { role: "user", text: "a" },
        { role: "user", text: "b" },
      ],
    });
    const t = parseEmbeddingsRequest({ model: "m", input: [1, 2] }, H);
    expect(t.ok && t.wire.inputs).toEqual([{ kind: "tokens", tokens: [1, 2] }]);
    expect(t.ok && t.request.messages).toEqual([{ role: "user", text: "1 2" }]);
  });

  it.each([
    [{ model: "m", input: "" }, null],
    [{ model: "m", input: [[]] }, null],
    [{ model: "m", input: "x", encoding_format: "hex" }, "encoding_format"],
    [{ model: "m", input: "x", dimensions: 4000 }, "dimensions"],
  ])("rejects %j", (body, param) => {
    const r = parseEmbeddingsRequest(body, H);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.param ?? null).toBe(param);
  });
});
