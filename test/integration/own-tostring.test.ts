/**
 * Values a client parsed from JSON that `String()` cannot convert — an object with its own `toString` key
 * (`{"toString":1}`), or an array holding one — at the fields whose error message quotes the value, on both runtimes:
 * each a 400 in the surface's shape quoting the value as JSON, never a 500. Found by mutating valid requests field by
 * field (vector stores, Realtime client secrets, Gemini auth tokens, the `file_search` tool's filters).
 */
import { describe, expect, it } from "vitest";
import { answer } from "../support/garbage";
import { call } from "./helpers";

type Json = Record<string, any>;

const OPENAI = { authorization: "Bearer sk", "content-type": "application/json" };
const ODD = { toString: 1 };
const ODD_TEXT = '{"toString":1}';

async function post(path: string, body: unknown, headers: Record<string, string> = OPENAI): Promise<{ status: number; json: Json }> {
  const a = await answer(await call(path, { method: "POST", headers, body: JSON.stringify(body) }));
  return { status: a.status, json: a.json as Json };
}

describe("a value whose own toString is not a function: a 400 quoting it, never a 500", () => {
  it("vector stores: chunking_strategy.type on a store and on a file, max_num_results and a filter's type in a search", async () => {
    const store = await post("/v1/vector_stores", { name: "s", chunking_strategy: { type: ODD } });
    expect(store).toEqual({
      status: 400,
      json: { error: { message: `Invalid value: '${ODD_TEXT}'. Supported values are: 'auto' and 'static'.`, type: "invalid_request_error", param: "chunking_strategy.type", code: "invalid_value" } },
    });
    const created = await post("/v1/vector_stores", { name: "s" });
    expect(created.status).toBe(200);
    const id = created.json.id as string;
    const file = await post(`/v1/vector_stores/${id}/files`, { file_id: "file-x", chunking_strategy: { type: [ODD] } });
    expect([file.status, file.json.error.message, file.json.error.param]).toEqual([400, `Invalid value: '[${ODD_TEXT}]'. Supported values are: 'auto' and 'static'.`, "chunking_strategy.type"]);
    const max = await post(`/v1/vector_stores/${id}/search`, { query: "q", max_num_results: ODD });
    expect([max.status, max.json.error.message]).toEqual([400, `Invalid 'max_num_results': expected an integer between 1 and 50, but got ${ODD_TEXT} instead.`]);
    const filter = await post(`/v1/vector_stores/${id}/search`, { query: "q", filters: { type: ODD, key: "a", value: "b" } });
    expect([filter.status, filter.json.error.message]).toEqual([400, `Invalid value: '${ODD_TEXT}'. Supported values are: 'eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'and', and 'or'.`]);
  });

  it("the Responses file_search tool's filters", async () => {
    const r = await post("/v1/responses", {
      model: "gpt-5",
      input: "q",
      tools: [{ type: "file_search", vector_store_ids: ["vs_x"], filters: { type: ODD, key: "a", value: 1 } }],
      tool_choice: { type: "file_search" },
    });
    expect(r.status).toBe(400);
    expect(r.json.error.message).toBe(`Invalid value: '${ODD_TEXT}'. Supported values are: 'eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'in', 'nin', 'and', and 'or'.`);
  });

  it("Realtime client secrets: session.type and expires_after.anchor", async () => {
    const type = await post("/v1/realtime/client_secrets", { session: { type: ODD } });
    expect([type.status, type.json.error.message, type.json.error.param]).toEqual([400, `Invalid value: '${ODD_TEXT}'. Supported values are: 'realtime' and 'transcription'.`, "session.type"]);
    const anchor = await post("/v1/realtime/client_secrets", { expires_after: { anchor: ODD, seconds: 60 } });
    expect([anchor.status, anchor.json.error.message, anchor.json.error.param]).toEqual([400, `Invalid value: '${ODD_TEXT}'. Supported values are: 'created_at'.`, "expires_after.anchor"]);
  });

  it("Gemini auth tokens: expireTime", async () => {
    const r = await post("/v1alpha/auth_tokens", { expireTime: ODD }, { "x-goog-api-key": "g", "content-type": "application/json" });
    expect(r.status).toBe(400);
    expect(r.json.error.status).toBe("INVALID_ARGUMENT");
    expect(r.json.error.message).toBe(`Invalid value at 'expireTime' (type.googleapis.com/google.protobuf.Timestamp), "${ODD_TEXT}"`);
  });
});

describe("a model named after a key of Object.prototype is a model name like any other", () => {
  it("is answered as sent on Chat, Responses and Anthropic (it was dropped from the answer, or an object)", async () => {
    for (const model of ["constructor", "__proto__", "toString", "hasOwnProperty"]) {
      const chat = await post("/v1/chat/completions", { model, messages: [{ role: "user", content: "hi" }] });
      expect([chat.status, chat.json.model]).toEqual([200, model]);
      const responses = await post("/v1/responses", { model, input: "hi", store: false });
      expect([responses.status, responses.json.model]).toEqual([200, model]);
      const messages = await post(
        "/v1/messages",
        { model, max_tokens: 8, messages: [{ role: "user", content: "hi" }] },
        { "x-api-key": "k", "anthropic-version": "2023-06-01", "content-type": "application/json" },
      );
      expect([messages.status, messages.json.model]).toEqual([200, model]);
    }
  });
});
