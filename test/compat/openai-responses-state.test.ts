/**
 * Stored Responses state through the official `openai` SDK and raw HTTP: `previous_response_id`, `item_reference`,
 * `GET`/`DELETE /v1/responses/{id}`, `store: false`, and the real API's error shapes for unknown ids and bad input.
 */
import OpenAI, { AuthenticationError, BadRequestError, NotFoundError } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const SCENARIOS = [
  {
    name: "s-chat",
    steps: [
      { id: "one", match: { turn: 1, lastUserMessage: "My name is Ada." }, respond: { text: "Hello Ada." } },
      {
        id: "two",
        match: { turn: 2, firstUserMessage: "My name is Ada.", lastUserMessage: "What is my name?" },
        respond: { text: "Your name is Ada." },
      },
    ],
  },
];

const client = (path = "") => new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}${path}/v1`, maxRetries: 0 });

async function post(body: unknown, path = ""): Promise<{ status: number; json: any }> {
  const res = await fetch(`${h.url}${path}/v1/responses`, {
    method: "POST",
    headers: { authorization: "Bearer sk", "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

describe("previous_response_id and item_reference", () => {
  it("reconstructs earlier turns for matchers from previous_response_id", async () => {
    const c = client("/s/s-chat/prev");
    const first = await c.responses.create({ model: "gpt-4.1", input: "My name is Ada." });
    const second = await c.responses.create({ model: "gpt-4.1", previous_response_id: first.id, input: "What is my name?" });
    expect(second.output_text).toBe("Your name is Ada.");
    expect((await h.journal("s-chat", "prev")).map((e) => e.step)).toEqual(["one", "two"]);
  });

  it("resolves item_reference inputs to the stored output items", async () => {
    const c = client("/s/s-chat/refs");
    const first = await c.responses.create({ model: "gpt-4.1", input: "My name is Ada." });
    const second = await c.responses.create({
      model: "gpt-4.1",
      input: [
        { role: "user", content: "My name is Ada." },
        { type: "item_reference", id: first.output[0]!.id! },
        { role: "user", content: "What is my name?" },
      ],
    });
    expect(second.output_text).toBe("Your name is Ada.");
  });

  it("gives the default responder the same conversation whether sent in full, by reference or by previous id", async () => {
    const c = client();
    const first = await c.responses.create({ model: "gpt-4.1", input: "alpha" });
    const chained = await c.responses.create({ model: "gpt-4.1", previous_response_id: first.id, input: "beta" });
    const full = await c.responses.create({
      model: "gpt-4.1",
      input: [{ role: "user", content: "alpha" }, ...(first.output as OpenAI.Responses.ResponseInputItem[]), { role: "user", content: "beta" }],
    });
    const byRef = await c.responses.create({
      model: "gpt-4.1",
      input: [
        { role: "user", content: "alpha" },
        { type: "item_reference", id: first.output[0]!.id! },
        { role: "user", content: "beta" },
      ],
    });
    const fresh = await c.responses.create({ model: "gpt-4.1", input: "beta" });
    // The same conversation (its words count as input tokens); each request its own id (issue 37: ids never collide).
    expect(chained.usage!.input_tokens).toBe(full.usage!.input_tokens);
    expect(byRef.usage!.input_tokens).toBe(full.usage!.input_tokens);
    expect(fresh.usage!.input_tokens).toBeLessThan(full.usage!.input_tokens);
    expect(new Set([first.id, chained.id, full.id, byRef.id, fresh.id]).size).toBe(5);
    expect(chained.output_text.endsWith("beta")).toBe(true);
  });

  it("answers an unknown previous_response_id with 404 previous_response_not_found", async () => {
    const err = await client()
      .responses.create({ model: "gpt-4.1", previous_response_id: "resp_nope", input: "x" })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    const e = err as NotFoundError;
    expect(e.status).toBe(404);
    expect(e.error).toEqual({
      message: "Previous response with id 'resp_nope' not found.",
      type: "invalid_request_error",
      param: "previous_response_id",
      code: "previous_response_not_found",
    });
  });

  it("answers an unknown item_reference with 404 naming the item", async () => {
    const r = await post({ model: "gpt-4.1", input: [{ type: "item_reference", id: "msg_unknown" }] });
    expect(r.status).toBe(404);
    expect(r.json.error).toEqual({ message: "Item with id 'msg_unknown' not found.", type: "invalid_request_error", param: "input", code: "not_found" });
    const unstored = await post({ model: "gpt-4.1", store: false, input: [{ type: "item_reference", id: "rs_abc" }] });
    expect(unstored.json.error.message).toBe(
      "Item with id 'rs_abc' not found. Items are not persisted when `store` is set to false. Try again with `store` set to true, or remove this item from your input.",
    );
  });

  it("does not remember responses created with store: false", async () => {
    const c = client();
    const res = await c.responses.create({ model: "gpt-4.1", input: "forget me", store: false });
    expect((res as unknown as { store: boolean }).store).toBe(false);
    await expect(c.responses.retrieve(res.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(c.responses.create({ model: "gpt-4.1", previous_response_id: res.id, input: "x" })).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("GET and DELETE /v1/responses/{id}", () => {
  it("retrieves a stored response exactly as it was returned, then deletes it", async () => {
    const c = client("/s/s-chat/get");
    const created = await c.responses.create({ model: "gpt-4.1", input: "My name is Ada." });
    const got = await c.responses.retrieve(created.id);
    expect(got).toEqual(created);
    const deleted = await fetch(`${h.url}/v1/responses/${created.id}`, { method: "DELETE", headers: { authorization: "Bearer sk" } });
    expect(deleted.status).toBe(200);
    expect(await deleted.json()).toEqual({ id: created.id, object: "response.deleted", deleted: true });
    const err = await c.responses.retrieve(created.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as NotFoundError).error).toEqual({
      message: `Response with id '${created.id}' not found.`,
      type: "invalid_request_error",
      param: null,
      code: "not_found",
    });
    await expect(c.responses.delete(created.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("replays a stored response as its stream, honouring starting_after", async () => {
    const c = client("/s/s-chat/replay");
    const created = await c.responses.create({ model: "gpt-4.1", input: "My name is Ada." });
    const all: number[] = [];
    const replayed = c.responses.stream({ response_id: created.id });
    replayed.on("event", (e) => all.push(e.sequence_number));
    const final = await replayed.finalResponse();
    expect(final.output_text).toBe("Hello Ada.");
    expect(final.id).toBe(created.id);
    expect(all).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const later: string[] = [];
    const tail = c.responses.stream({ response_id: created.id, starting_after: 7 });
    tail.on("event", (e) => later.push(e.type));
    await tail.finalResponse();
    expect(later).toEqual(["response.output_item.done", "response.completed"]);
    // The SDK filters locally; the server honours starting_after too.
    const raw = await fetch(`${h.url}/v1/responses/${created.id}?stream=true&starting_after=8`, { headers: { authorization: "Bearer sk" } });
    expect(raw.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    const text = await raw.text();
    expect(text.startsWith('event: response.completed\ndata: {"type":"response.completed","sequence_number":9,')).toBe(true);
    expect(text.split("\n\n").filter((b) => b !== "")).toHaveLength(1);
  });

  it("needs a bearer token and a resp_ id", async () => {
    const noAuth = await fetch(`${h.url}/v1/responses/resp_x`);
    expect(noAuth.status).toBe(401);
    const bad = await fetch(`${h.url}/v1/responses/msg_x`, { headers: { authorization: "Bearer sk" } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toBe("Invalid 'response_id': 'msg_x'. Expected an ID that begins with 'resp'.");
  });
});

describe("bad input", () => {
  it.each([
    { body: { model: "gpt-4.1" }, message: "Missing required parameter: 'input'.", param: "input", code: "missing_required_parameter" },
    { body: { input: "hi" }, message: "Missing required parameter: 'model'.", param: "model" },
    {
      body: { model: "gpt-4.1", input: [{ type: "function_call_output", output: "x" }] },
      message: "Missing required parameter: 'input[0].call_id'.",
      param: "input[0].call_id",
    },
    {
      body: { model: "gpt-4.1", input: "hi", previous_response_id: "prev 1" },
      message: "Invalid 'previous_response_id': 'prev 1'. Expected an ID that contains letters, numbers, underscores, or dashes, but this value contained additional characters.",
      param: "previous_response_id",
    },
  ])("$message", async ({ body, message, param, code }) => {
    const r = await post(body);
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ message, type: "invalid_request_error", param, ...(code !== undefined ? { code } : {}) });
  });

  it("never answers malformed requests with a 5xx", async () => {
    const paths = ["/v1/responses", "/responses", "/v1/responses/resp_x", "/v1/responses/%ZZ", "/v1/responses/resp_x/input_items", "/v1/embeddings"];
    const bodies = [
      "{",
      "[]",
      '{"model":"m","input":[{"type":"item_reference"}]}',
      '{"model":"m","input":[{"type":"reasoning","summary":"x"}]}',
      '{"model":"m","input":[{"type":null,"role":"user","content":"x"}]}',
      '{"model":"m","input":"x","previous_response_id":7}',
      '{"model":"m","input":"x","tools":[{"name":"no-type"}]}',
      '{"model":"m","input":[[1,"a"]]}',
      '{"model":"m","input":"x","dimensions":1.5,"encoding_format":"base64"}',
    ];
    const failures: string[] = [];
    for (const path of paths) {
      for (const method of ["GET", "POST", "DELETE"]) {
        for (const body of method === "GET" ? [undefined] : bodies) {
          const res = await fetch(`${h.url}${path}`, {
            method,
            headers: { authorization: "Bearer sk", "content-type": "application/json" },
            ...(body !== undefined ? { body } : {}),
          });
          await res.arrayBuffer();
          if (res.status >= 500) failures.push(`${method} ${path} ${body} → ${res.status}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  it("accepts unknown fields and unknown input item types", async () => {
    const r = await post({
      model: "gpt-4.1",
      input: [
        { type: "web_search_call", id: "ws_1", status: "completed" },
        { role: "user", content: [{ type: "input_text", text: "hi" }] },
      ],
      brand_new_field: { x: 1 },
    });
    expect(r.status).toBe(200);
    expect(r.json.object).toBe("response");
  });

  it("rejects a request without a bearer token with 401, a malformed item with 400", async () => {
    const res = await fetch(`${h.url}/v1/responses`, { method: "POST", body: JSON.stringify({ model: "gpt-4.1", input: "hi" }) });
    expect(res.status).toBe(401);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe("invalid_api_key");
    const err = await new OpenAI({ apiKey: "sk", baseURL: `${h.url}/v1`, maxRetries: 0, defaultHeaders: { authorization: "Basic x" } }).responses
      .create({ model: "gpt-4.1", input: "hi" })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthenticationError);
    const bad = await client()
      .responses.create({ model: "gpt-4.1", input: [{ type: "function_call", name: "x" }] as never })
      .catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(BadRequestError);
  });
});
