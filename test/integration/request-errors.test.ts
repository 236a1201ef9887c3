/**
 * Requests the real APIs refuse for a missing required field, and client values echoed in error messages (issue 34),
 * on both runtimes: a chat message without `content` where the provider requires it names the field as the real API
 * does; a long value quoted in an error message is cut to 64 characters, a short one quoted whole.
 */
import { describe, expect, it } from "vitest";
import { call } from "./helpers";

const OPENAI = { authorization: "Bearer sk", "content-type": "application/json" };
const ANTHROPIC = { "x-api-key": "k", "anthropic-version": "2023-06-01", "content-type": "application/json" };
const GOOGLE = { "x-goog-api-key": "k", "content-type": "application/json" };
const hi = { role: "user", content: "hi" };
const call1 = { id: "call_1", type: "function", function: { name: "f", arguments: "{}" } };

async function post(path: string, headers: Record<string, string>, body: unknown): Promise<{ status: number; json: any }> {
  const res = await call(path, { method: "POST", headers, body: JSON.stringify(body) });
  return { status: res.status, json: await res.json() };
}

describe("a message without its required content", () => {
  it("Chat Completions (and Azure's): a system, developer, user or tool message without content is 400 naming messages[i].content", async () => {
    const missing = (i: number) => ({
      status: 400,
      json: { error: { message: `Missing required parameter: 'messages[${i}].content'.`, type: "invalid_request_error", param: `messages[${i}].content`, code: "missing_required_parameter" } },
    });
    for (const [path, headers] of [
      ["/v1/chat/completions", OPENAI],
      ["/openai/v1/chat/completions", { "api-key": "k", "content-type": "application/json" }],
    ] as const) {
      expect(await post(path, headers, { model: "m", messages: [{ role: "user" }] })).toEqual(missing(0));
      expect(await post(path, headers, { model: "m", messages: [{ role: "system" }, hi] })).toEqual(missing(0));
      expect(await post(path, headers, { model: "m", messages: [hi, { role: "developer", name: "d" }] })).toEqual(missing(1));
      expect(await post(path, headers, { model: "m", messages: [hi, { role: "assistant", tool_calls: [call1] }, { role: "tool", tool_call_id: "call_1" }] })).toEqual(missing(2));
    }
  });

  // Confirmed from public captures of the real API's answer (a tool message's null content, a user prompt left null):
  // status 400, type invalid_request_error, this exact message, the dotted-bracket param `messages.[i].content` and
  // code null. That system and developer messages answer alike is inferred (the same content check), not captured.
  it("Chat Completions (and Azure's): a system, developer, user or tool message with content null is 400 in the real API's words", async () => {
    const nulled = (i: number) => ({
      status: 400,
      json: { error: { message: "Invalid value for 'content': expected a string, got null.", type: "invalid_request_error", param: `messages.[${i}].content`, code: null } },
    });
    for (const [path, headers] of [
      ["/v1/chat/completions", OPENAI],
      ["/openai/v1/chat/completions", { "api-key": "k", "content-type": "application/json" }],
      ["/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21", { "api-key": "k", "content-type": "application/json" }],
    ] as const) {
      expect(await post(path, headers, { model: "m", messages: [{ role: "user", content: null }] })).toEqual(nulled(0));
      expect(await post(path, headers, { model: "m", messages: [{ role: "system", content: null }, hi] })).toEqual(nulled(0));
      expect(await post(path, headers, { model: "m", messages: [hi, { role: "developer", content: null }] })).toEqual(nulled(1));
      expect(await post(path, headers, { model: "m", messages: [hi, { role: "assistant", tool_calls: [call1] }, { role: "tool", tool_call_id: "call_1", content: null }] })).toEqual(nulled(2));
    }
    // The first message at fault answers, whichever way it is at fault.
    expect(await post("/v1/chat/completions", OPENAI, { model: "m", messages: [{ role: "user" }, { role: "user", content: null }] })).toEqual({
      status: 400,
      json: { error: { message: "Missing required parameter: 'messages[0].content'.", type: "invalid_request_error", param: "messages[0].content", code: "missing_required_parameter" } },
    });
    expect(await post("/v1/chat/completions", OPENAI, { model: "m", messages: [{ role: "user", content: null }, { role: "user" }] })).toEqual(nulled(0));
  });

  it("Chat Completions: an assistant message with content null and no tool calls is accepted", async () => {
    const res = await post("/v1/chat/completions", OPENAI, { model: "m", messages: [hi, { role: "assistant", content: null }, hi] });
    expect([res.status, res.json.object, res.json.choices[0].message.role]).toEqual([200, "chat.completion", "assistant"]);
  });

  it("Chat Completions: an assistant message with only tool calls, or content null, is accepted", async () => {
    const res = await post("/v1/chat/completions", OPENAI, {
      model: "m",
      messages: [hi, { role: "assistant", tool_calls: [call1] }, { role: "tool", tool_call_id: "call_1", content: "ok" }, { role: "assistant", content: null, tool_calls: [] }, hi],
    });
    expect([res.status, res.json.object]).toEqual([200, "chat.completion"]);
  });

  it("Responses: an input message without content names input[i].content as missing", async () => {
    for (const item of [{ role: "user" }, { type: "message", role: "user" }]) {
      expect(await post("/v1/responses", OPENAI, { model: "m", input: [item] })).toEqual({
        status: 400,
        json: { error: { message: "Missing required parameter: 'input[0].content'.", type: "invalid_request_error", param: "input[0].content", code: "missing_required_parameter" } },
      });
    }
  });

  it("Anthropic and Gemini refuse it in their words; Ollama takes an absent content as empty, as its server does", async () => {
    const anthropic = await post("/v1/messages", ANTHROPIC, { model: "m", max_tokens: 5, messages: [{ role: "user" }] });
    expect([anthropic.status, anthropic.json.error]).toEqual([400, { type: "invalid_request_error", message: "messages.0.content: Field required" }]);
    const gemini = await post("/v1beta/models/gemini-2.5-flash:generateContent", GOOGLE, { contents: [{ role: "user" }] });
    expect([gemini.status, gemini.json]).toEqual([
      400,
      { error: { code: 400, message: "* GenerateContentRequest.contents[0].parts: contents.parts must not be empty.\n", status: "INVALID_ARGUMENT" } },
    ]);
    const ollama = await post("/api/chat", {}, { model: "m", messages: [{ role: "user" }], stream: false });
    expect([ollama.status, ollama.json.done]).toEqual([200, true]);
  });
});

describe("client values quoted in HTTP error messages", () => {
  const long = "y".repeat(5000);

  it("a model id no surface would take: short whole, long cut to 64 characters", async () => {
    const ask = async (id: string) => ((await (await call(`/v1/models/${id}`, { headers: OPENAI })).json()) as any).error.message;
    expect(await ask("gpt%20nope")).toBe("The model 'gpt nope' does not exist");
    expect(await ask(long)).toBe(`The model '${"y".repeat(64)}...' does not exist`);
  });

  it("Gemini: a value of the wrong type is quoted as JSON, cut to 64 characters", async () => {
    const ask = async (text: unknown) => (await post("/v1beta/models/gemini-2.5-flash:generateContent", GOOGLE, { contents: [{ parts: [{ text }] }] })).json.error.message;
    expect(await ask(42)).toBe("Invalid value at 'contents[0].parts[0].text' (TYPE_STRING), 42");
    const list = Array.from({ length: 2000 }, (_, i) => i);
    expect(await ask(list)).toBe(`Invalid value at 'contents[0].parts[0].text' (TYPE_STRING), ${JSON.stringify(list).slice(0, 64)}...`);
  });

  it("an unknown URL: the path quoted whole when short, its first 64 characters when long, in each surface's shape", async () => {
    const ask = async (path: string, method = "POST") => {
      const res = await call(path, { method, headers: OPENAI, ...(method === "POST" ? { body: "{}" } : {}) });
      const json = (await res.json()) as { message?: string; error?: { message: string } };
      return [res.status, json.message ?? json.error?.message];
    };
    expect(await ask(`/model/${long}/nope`)).toEqual([404, `Unknown request URL: POST /model/${"y".repeat(57)}....`]);
    expect(await ask(`/v1/${long}`)).toEqual([404, `Unknown request URL: POST /v1/${"y".repeat(60)}....`]);
    expect(await ask(`/s/sc/run/v1/${long}`)).toEqual([404, `Unknown request URL: POST /s/sc/run/v1/${"y".repeat(51)}....`]);
    expect(await ask("/model/m/nope")).toEqual([404, "Unknown request URL: POST /model/m/nope."]);
    expect(await ask(`/${long}`, "GET")).toEqual([404, `not found: GET /${"y".repeat(63)}...`]);
  });

  it("an unknown previous_response_id: short whole, long cut to 64 characters", async () => {
    const ask = async (id: string) => (await post("/v1/responses", OPENAI, { model: "m", input: "hi", previous_response_id: id })).json.error.message;
    expect(await ask("resp_nope")).toBe("Previous response with id 'resp_nope' not found.");
    expect(await ask(`resp_${long}`)).toBe(`Previous response with id 'resp_${"y".repeat(59)}...' not found.`);
  });
});
