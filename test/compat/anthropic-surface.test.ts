/**
 * The official `@anthropic-ai/sdk` against the Worker: mismatches, the default responder, count_tokens, models,
 * and the header and body checks every Anthropic route makes.
 */
import Anthropic, { BadRequestError } from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const MODEL = "claude-sonnet-4-5-20250929";

const SCENARIOS = [
  { name: "a-hello", steps: [{ respond: { text: "Hello.", model: MODEL } }] },
  {
    name: "a-strict",
    steps: [{ id: "weather-only", match: { lastUserMessage: { contains: "weather" } }, respond: { text: "sunny" } }],
  },
];

function client(scenario: string, session: string) {
  return new Anthropic({ apiKey: "sk-ant-test", baseURL: `${h.url}/s/${scenario}/${session}`, maxRetries: 0 });
}

const user = (content: string) => [{ role: "user" as const, content }];
const thinking = { type: "enabled" as const, budget_tokens: 1024 };

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

describe("anthropic SDK: mismatch and the default responder", () => {
  it("a mismatch is a 400 invalid_request_error naming scenario, session and the failed condition", async () => {
    const err = await client("a-strict", "t1")
      .messages.create({ model: MODEL, max_tokens: 64, messages: user("hello") })
      .catch((e) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err.type).toBe("invalid_request_error");
    expect(err.apiMessage).toMatch(/^mockllm: scenario "a-strict" session "t1" turn 1: /);
    expect(err.apiMessage).toContain("weather-only");
  });

  it("no scenario: an instruction block's messages become one message's blocks, tool calls last in each", async () => {
    const c = new Anthropic({ apiKey: "k", baseURL: h.url, maxRetries: 0 });
    const plan = { messages: [{ text_message: { length: 3 } }, { tool_call: [{ name: "lookup", args: { q: "mock" } }] }] };
    const msg = await c.messages.create({
      model: MODEL,
      max_tokens: 256,
      messages: user(`<|instruction_start|>${JSON.stringify(plan)}<|instruction_end|>`),
    });
    expect(msg.content.map((b) => b.type)).toEqual(["text", "tool_use"]);
    expect(msg.content[0]?.type === "text" && msg.content[0].text.split(" ")).toHaveLength(3);
    expect(msg.content[1]).toMatchObject({ type: "tool_use", name: "lookup", input: { q: "mock" }, id: expect.stringMatching(/^toolu_01/) });
    expect(msg.stop_reason).toBe("tool_use");
  });

  it("no scenario: the default answer echoes the last user message, streamed or not, with a verifiable thinking block", async () => {
    const c = new Anthropic({ apiKey: "k", baseURL: h.url, maxRetries: 0 });
    const prompt = "anthropic default responder probe 7f3a\nReason: why";
    const params = { model: MODEL, max_tokens: 4096, thinking, messages: user(prompt) };
    const json = await c.messages.create(params);
    const streamed = await c.messages.stream(params).finalMessage();
    expect(streamed.content).toEqual(json.content);
    const [reasoning, text] = json.content;
    expect(reasoning).toMatchObject({ type: "thinking", signature: expect.stringMatching(/^EqMB/) });
    expect(text?.type === "text" && text.text.endsWith(`\n\n${prompt}`)).toBe(true);
    const again = await c.messages.create({
      ...params,
      messages: [...params.messages, { role: "assistant", content: json.content }, ...user("and now?")],
    });
    expect(again.stop_reason).toBe("end_turn");
  });
});

describe("anthropic SDK: side endpoints and header checks", () => {
  it("messages.countTokens", async () => {
    const res = await client("a-hello", "count").messages.countTokens({
      model: MODEL,
      system: "abcd",
      messages: user("Hello, world"),
    });
    expect(res).toEqual({ input_tokens: 4 });
  });

  it("count_tokens under a scenario prefix without a session, at /messages/count_tokens (AI SDK-style base URL)", async () => {
    const res = await fetch(`${h.url}/s/a-hello/messages/count_tokens`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "k", "anthropic-version": "2023-06-01" },
      body: JSON.stringify({ model: MODEL, messages: user("12345678") }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ input_tokens: 2 });
  });

  it("models.list and models.retrieve in Anthropic's shape", async () => {
    const c = new Anthropic({ apiKey: "k", baseURL: h.url, maxRetries: 0 });
    const ids: string[] = [];
    for await (const m of c.models.list()) {
      expect(m).toMatchObject({ type: "model", display_name: expect.any(String), created_at: expect.stringMatching(/Z$/) });
      ids.push(m.id);
    }
    expect(ids).toContain(MODEL);
    expect(await c.models.retrieve(MODEL)).toEqual({
      type: "model",
      id: MODEL,
      display_name: "Claude Sonnet 4.5",
      created_at: "2025-09-29T00:00:00Z",
    });
  });

  it.each([
    [{ "x-api-key": "k" }, 400, "invalid_request_error", "anthropic-version: header is required"],
    [{ "anthropic-version": "2023-06-01" }, 401, "authentication_error", expect.stringMatching(/^x-api-key header is required/)],
  ])("headers %j → %i %s", async (headers, status, type, message) => {
    const res = await fetch(`${h.url}/s/a-hello/hdr/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ model: MODEL, max_tokens: 10, messages: user("hi") }),
    });
    expect(res.status).toBe(status);
    expect(res.headers.get("request-id")).toMatch(/^req_/);
    expect(await res.json()).toEqual({ type: "error", error: { type, message }, request_id: res.headers.get("request-id") });
  });

  it("missing max_tokens and malformed JSON get Anthropic's 400, never a 500", async () => {
    const post = (body: string) =>
      fetch(`${h.url}/v1/messages`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": "k", "anthropic-version": "2023-06-01" },
        body,
      });
    const missing = await post(JSON.stringify({ model: MODEL, messages: user("hi") }));
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ type: "error", error: { type: "invalid_request_error", message: "max_tokens: Field required" } });
    const broken = await post("{not json");
    expect(broken.status).toBe(400);
    expect(await broken.json()).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
  });
});
