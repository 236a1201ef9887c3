/**
 * The Responses WebSocket mode through the official `openai` SDK's `ResponsesWS`, on both runtimes: the SSE
 * surface's event sequence as WebSocket messages, chains across messages and sockets, `generate: false`, one
 * response in flight, scripted failures as error events, pacing, and the journal.
 */
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { startHarness, type Harness } from "./harness";
import { openResponsesWS, responsesTurn as turn, type WsEvent as Event } from "../support/responses-ws";

let h: Harness;

const SCENARIOS = [
  {
    name: "ws-chat",
    steps: [
      { id: "one", match: { turn: 1, lastUserMessage: "My name is Ada." }, respond: { text: "Hello Ada." } },
      { id: "two", match: { turn: 2, firstUserMessage: "My name is Ada.", lastUserMessage: "What is my name?" }, respond: { text: "Your name is Ada." } },
    ],
  },
  {
    name: "ws-tools",
    steps: [
      { id: "call", match: { turn: 1 }, respond: { toolCalls: [{ id: "call_w1", name: "get_weather", arguments: { city: "Paris" } }] } },
      { id: "answer", match: { turn: 2, toolResult: { name: "get_weather" } }, respond: { text: "It is 18C in Paris." } },
    ],
  },
  { name: "ws-rate", steps: [{ failures: [{ kind: "rate_limit", message: "Slow down." }], respond: { text: "after" } }] },
  { name: "ws-paced", steps: [{ consume: false, respond: { text: "one two three four", stream: { tokensPerSecond: 20, chunkWords: 1 } } }] },
  { name: "ws-mid", steps: [{ failures: [{ kind: "stream_error", afterChunks: 4, message: "cut" }], respond: { text: "a b c d e f" } }] },
];

const client = (path = "") => new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}${path}/v1`, maxRetries: 0 });

const open = (path = "") => openResponsesWS(client(path));

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

describe("Responses WebSocket mode (ResponsesWS)", () => {
  it("answers response.create with the SSE surface's events, in order, and chains previous_response_id on one socket", async () => {
    const ws = await open("/s/ws-chat/one");
    const first = await turn(ws, { model: "gpt-4.1", input: "My name is Ada." });
    expect(first.map((e) => e.type)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(first.map((e) => e.sequence_number)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const done = first.at(-1)!.response;
    expect(done.output[0].content[0].text).toBe("Hello Ada.");
    expect(done.id).toMatch(/^resp_[0-9a-f]{50}$/);
    const second = await turn(ws, { model: "gpt-4.1", previous_response_id: done.id, input: "What is my name?" });
    expect(second.at(-1)!.response.output[0].content[0].text).toBe("Your name is Ada.");
    ws.close();
    const journal = await h.journal("ws-chat", "one");
    expect(journal.map((e) => [e.step, e.outcome, e.request.method, e.request.path, e.stream])).toEqual([
      ["one", "response", "WS", "/v1/responses", true],
      ["two", "response", "WS", "/v1/responses", true],
    ]);
    expect(journal[1]!.request.body).toMatchObject({ type: "response.create", previous_response_id: done.id });
  });

  it("sends exactly the events the SSE stream sends for the same turn (ids included)", async () => {
    const ws = await open("/s/ws-chat/same");
    const overSocket = await turn(ws, { model: "gpt-4.1", input: "My name is Ada." });
    ws.close();
    await h.admin("/sessions/ws-chat/same/reset", { method: "POST" });
    const res = await fetch(`${h.url}/s/ws-chat/same/v1/responses`, {
      method: "POST",
      headers: { authorization: "Bearer sk-test", "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-4.1", input: "My name is Ada.", stream: true }),
    });
    const overSse = (await res.text())
      .split("\n")
      .filter((l) => l.startsWith("data: "))
      .map((l) => JSON.parse(l.slice(6)));
    const timeless = (events: Event[]) => JSON.parse(JSON.stringify(events).replace(/"(created_at|completed_at)":\d+/g, '"$1":0'));
    expect(timeless(overSocket)).toEqual(timeless(overSse));
  });

  it("chains across sockets and with HTTP, and a generate: false warm-up stores state without a turn", async () => {
    const a = await open("/s/ws-chat/two");
    const warm = await turn(a, { model: "gpt-4.1", input: "My name is Ada.", generate: false });
    expect(warm.map((e) => e.type)).toEqual(["response.created", "response.completed"]);
    expect(warm[1]!.response.output).toEqual([]);
    a.close();
    expect(await h.journal("ws-chat", "two")).toEqual([]);
    const b = await open("/s/ws-chat/two");
    // The warm-up's input counts as the conversation so far: this is turn 1 with "My name is Ada." before it.
    const events = await turn(b, { model: "gpt-4.1", previous_response_id: warm[1]!.response.id, input: [] });
    expect(events.at(-1)!.response.output[0].content[0].text).toBe("Hello Ada.");
    b.close();
    const http = await client("/s/ws-chat/two").responses.create({ model: "gpt-4.1", previous_response_id: events.at(-1)!.response.id, input: "What is my name?" });
    expect(http.output_text).toBe("Your name is Ada.");
  });

  it("streams function calls, and the tool output sent back is the next turn", async () => {
    const ws = await open("/s/ws-tools/t");
    const first = await turn(ws, { model: "gpt-4.1", input: "Weather in Paris?", tools: [{ type: "function", name: "get_weather", parameters: { type: "object" } }] });
    expect(first.map((e) => e.type)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.completed",
    ]);
    const call = first.at(-1)!.response.output[0];
    expect(call).toMatchObject({ type: "function_call", name: "get_weather", call_id: "call_w1", arguments: '{"city":"Paris"}' });
    const second = await turn(ws, {
      model: "gpt-4.1",
      previous_response_id: first.at(-1)!.response.id,
      input: [{ type: "function_call_output", call_id: "call_w1", output: "18C" }],
    });
    expect(second.at(-1)!.response.output[0].content[0].text).toBe("It is 18C in Paris.");
    ws.close();
    expect((await h.journal("ws-tools", "t")).map((e) => e.step)).toEqual(["call", "answer"]);
  });

  it("refuses a second response.create while one is in flight, and reports errors as error events", async () => {
    const ws = await open("/s/ws-paced/busy");
    const events: Event[] = [];
    ws.on("event", (e: Event) => events.push(e));
    ws.on("error", () => {});
    ws.send({ type: "response.create", model: "gpt-4.1", input: "go" } as never);
    ws.send({ type: "response.create", model: "gpt-4.1", input: "again" } as never);
    await new Promise<void>((resolve) => ws.on("response.completed", () => resolve()));
    const error = events.find((e) => e.type === "error")!;
    expect(error).toMatchObject({ type: "error", status: 400, error: { type: "invalid_request_error", code: "response_already_in_flight" } });
    expect(events.filter((e) => e.type === "response.completed")).toHaveLength(1);
    const unknown = await turn(ws, { model: "gpt-4.1", previous_response_id: "resp_0123", input: "x" });
    expect(unknown).toEqual([
      {
        type: "error",
        status: 404,
        error: { type: "invalid_request_error", code: "previous_response_not_found", message: "Previous response with id 'resp_0123' not found.", param: "previous_response_id" },
      },
    ]);
    ws.close();
    expect((await h.journal("ws-paced", "busy")).length).toBe(1);
  });

  it("paces deltas at tokensPerSecond", async () => {
    const ws = await open("/s/ws-paced/pace");
    const at: number[] = [];
    ws.on("response.output_text.delta", () => at.push(Date.now()));
    const started = Date.now();
    await turn(ws, { model: "gpt-4.1", input: "go" });
    ws.close();
    expect(at).toHaveLength(4);
    // 4 one-word deltas at 20 words/s: the last is due 200 ms after the message.
    expect(at[3]! - started).toBeGreaterThanOrEqual(180);
  });

  it("a scripted rate limit is an error event; a stream_error sends the events before it, then error and response.failed", async () => {
    const ws = await open("/s/ws-rate/r");
    expect(await turn(ws, { model: "gpt-4.1", input: "x" })).toEqual([{ type: "error", status: 429, error: { type: "requests", code: "rate_limit_exceeded", message: "Slow down.", param: null } }]);
    ws.close();
    const mid = await open("/s/ws-mid/m");
    const events: Event[] = [];
    mid.on("event", (e: Event) => events.push(e));
    mid.on("error", () => {});
    mid.send({ type: "response.create", model: "gpt-4.1", input: "x" } as never);
    await new Promise<void>((resolve) => mid.on("response.failed", () => resolve()));
    expect(events.map((e) => e.type)).toEqual(["response.created", "response.in_progress", "response.output_item.added", "response.content_part.added", "error", "response.failed"]);
    expect(events[4]).toMatchObject({ error: { code: "server_error", message: "cut" } });
    mid.close();
  });

  it("refuses an upgrade without an API key with a 401 before the handshake", async () => {
    const status = await new Promise<number>((resolve) => {
      const raw = new WebSocket(`${h.url.replace("http", "ws")}/v1/responses`);
      raw.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
      raw.on("error", () => {});
    });
    expect(status).toBe(401);
  });
});
