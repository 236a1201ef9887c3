/**
 * The OpenAI Realtime API (GA event names) through the official `openai` SDK's `OpenAIRealtimeWS`, on both runtimes.
 * The client insists on `wss:`; one `ws` option (`createConnection`) points it at the local mock over plain TCP.
 */
import net from "node:net";
import OpenAI from "openai";
import { OpenAIRealtimeWS } from "openai/realtime/ws";
import type { RealtimeClientEvent } from "openai/resources/realtime/realtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { startHarness, type Harness } from "./harness";
import { until as poll } from "../support/until";

let h: Harness;

const SCENARIOS = [
  {
    name: "rt-chat",
    steps: [
      { id: "hello", match: { turn: 1, endpoint: "realtime", system: "Be brief.", lastUserMessage: "Hello there" }, respond: { text: "Hi, how can I help?" } },
      { id: "weather", match: { turn: 2, lastUserMessage: "Weather in Paris?" }, respond: { toolCalls: [{ id: "call_w1", name: "get_weather", arguments: { city: "Paris" } }] } },
      { id: "answer", match: { turn: 3, toolResult: { name: "get_weather" } }, respond: { text: "It is 18C in Paris." } },
    ],
  },
  { name: "rt-slow", steps: [{ consume: false, respond: { text: "a b c d e f g h", stream: { tokensPerSecond: 10, chunkWords: 1 } } }] },
  { name: "rt-rate", steps: [{ failures: [{ kind: "rate_limit", message: "Slow down." }], respond: { text: "x" } }] },
];

type Event = { type: string; [k: string]: any };

/** Plain TCP for the client's `wss:` URL: the one line a test needs. */
const options = { createConnection: (o: { host?: string | null; port?: number | string | null }) => net.connect({ host: o.host ?? "127.0.0.1", port: Number(o.port) }) };

function connect(path: string): Promise<{ rt: OpenAIRealtimeWS; events: Event[] }> {
  const client = new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}${path}/v1` });
  const rt = new OpenAIRealtimeWS({ model: "gpt-realtime", options: options as never }, client);
  const events: Event[] = [];
  rt.on("event", (e: Event) => events.push(e));
  rt.on("error", () => {});
  return new Promise((resolve, reject) => {
    rt.socket.on("open", () => resolve({ rt, events }));
    rt.socket.on("error", reject);
  });
}

async function until(events: Event[], type: string, count = 1): Promise<void> {
  await poll(
    () => events,
    (es) => es.filter((e) => e.type === type).length >= count,
    { every: 10 },
  );
}

const say = (text: string): RealtimeClientEvent => ({ type: "conversation.item.create", item: { type: "message", role: "user", content: [{ type: "input_text", text }] } });

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

describe("OpenAI Realtime (OpenAIRealtimeWS)", () => {
  it("session.created first, session.update, text and tool turns in the GA order, function_call_output sent back", async () => {
    const { rt, events } = await connect("/s/rt-chat/one");
    await until(events, "session.created");
    expect(events[0]).toMatchObject({ type: "session.created", session: { type: "realtime", object: "realtime.session", model: "gpt-realtime", output_modalities: ["text"] } });
    rt.send({ type: "session.update", session: { type: "realtime", instructions: "Be brief.", tools: [{ type: "function", name: "get_weather", parameters: { type: "object" } }] } });
    await until(events, "session.updated");
    expect(events[1]!.session).toMatchObject({ instructions: "Be brief.", tools: [{ name: "get_weather" }] });

    rt.send(say("Hello there"));
    rt.send({ type: "response.create" });
    await until(events, "response.done");
    const first = events.slice(2);
    expect(first.map((e) => e.type)).toEqual([
      "conversation.item.added",
      "conversation.item.done",
      "response.created",
      "response.output_item.added",
      "conversation.item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "conversation.item.done",
      "response.done",
    ]);
    const userItem = first[0]!.item;
    expect(first[0]).toMatchObject({ previous_item_id: null, item: { type: "message", role: "user", content: [{ type: "input_text", text: "Hello there" }] } });
    expect(first[4]).toMatchObject({ previous_item_id: userItem.id, item: { type: "message", role: "assistant", status: "in_progress", content: [] } });
    expect(
      first
        .filter((e) => e.type === "response.output_text.delta")
        .map((e) => e.delta)
        .join(""),
    ).toBe("Hi, how can I help?");
    const done = first.at(-1)!.response;
    expect(done).toMatchObject({ object: "realtime.response", status: "completed", output: [{ type: "message", content: [{ type: "output_text", text: "Hi, how can I help?" }] }] });
    expect(new Set(first.map((e) => e.event_id)).size).toBe(first.length);

    rt.send(say("Weather in Paris?"));
    rt.send({ type: "response.create" });
    await until(events, "response.done", 2);
    const second = events.slice(2 + first.length);
    expect(second.map((e) => e.type)).toEqual([
      "conversation.item.added",
      "conversation.item.done",
      "response.created",
      "response.output_item.added",
      "conversation.item.added",
      "response.function_call_arguments.delta",
      "response.function_call_arguments.done",
      "response.output_item.done",
      "conversation.item.done",
      "response.done",
    ]);
    expect(second[6]).toMatchObject({ call_id: "call_w1", name: "get_weather", arguments: '{"city":"Paris"}' });

    rt.send({ type: "conversation.item.create", item: { type: "function_call_output", call_id: "call_w1", output: '{"temp":"18C"}' } });
    rt.send({ type: "response.create" });
    await until(events, "response.done", 3);
    expect(events.at(-1)!.response.output[0].content[0].text).toBe("It is 18C in Paris.");
    rt.close();

    const journal = await h.journal("rt-chat", "one");
    expect(journal.map((e) => [e.step, e.outcome, e.endpoint, e.request.method, e.request.path])).toEqual([
      ["hello", "response", "realtime", "WS", "/v1/realtime"],
      ["weather", "response", "realtime", "WS", "/v1/realtime"],
      ["answer", "response", "realtime", "WS", "/v1/realtime"],
    ]);
    expect(journal[0]!.canonical).toMatchObject({ model: "gpt-realtime", stream: true, tools: ["get_weather"], lastUserMessage: "Hello there", answered: { text: "Hi, how can I help?" } });
    expect(journal[1]!.canonical.answered.toolCalls).toEqual([{ id: "call_w1", name: "get_weather", arguments: '{"city":"Paris"}' }]);
  });

  it("response.cancel stops a paced response: response.done with status cancelled; a second response.create in flight is an error", async () => {
    const { rt, events } = await connect("/s/rt-slow/c");
    rt.send(say("go"));
    rt.send({ type: "response.create" });
    await until(events, "response.output_text.delta");
    rt.send({ type: "response.create", event_id: "evt_client_2" });
    await until(events, "error");
    expect(events.find((e) => e.type === "error")!.error).toMatchObject({ type: "invalid_request_error", code: "conversation_already_has_active_response", event_id: "evt_client_2" });
    rt.send({ type: "response.cancel" });
    await until(events, "response.done");
    const done = events.find((e) => e.type === "response.done")!;
    expect(done.response).toMatchObject({ status: "cancelled", status_details: { type: "cancelled", reason: "client_cancelled" } });
    expect(events.filter((e) => e.type === "response.output_text.delta").length).toBeLessThan(8);
    rt.send({ type: "response.cancel" });
    await until(events, "error", 2);
    expect(events.filter((e) => e.type === "error")[1]!.error.code).toBe("response_cancel_not_active");
    rt.close();
  });

  it("audio, unknown events and scripted failures are in-band error events", async () => {
    const { rt, events } = await connect("/s/rt-rate/e");
    rt.send({ type: "input_audio_buffer.append", audio: "AAAA" });
    rt.send({ type: "nonsense.event" } as never);
    rt.send(say("x"));
    rt.send({ type: "response.create" });
    await until(events, "error", 3);
    const errors = events.filter((e) => e.type === "error").map((e) => [e.error.type, e.error.code]);
    expect(errors).toEqual([
      ["invalid_request_error", "mockllm_audio_unsupported"],
      ["invalid_request_error", "invalid_value"],
      ["requests", "rate_limit_exceeded"],
    ]);
    expect(events.filter((e) => e.type === "error")[2]!.error.message).toBe("Slow down.");
    rt.close();
  });

  it("echoes the browser sub-protocol and accepts the key in openai-insecure-api-key.*", async () => {
    const raw = new WebSocket(`${h.url.replace("http", "ws")}/s/rt-chat/browser/v1/realtime?model=gpt-realtime`, ["realtime", "openai-insecure-api-key.sk-test"]);
    const first = await new Promise<Event>((resolve, reject) => {
      raw.on("message", (d) => resolve(JSON.parse(String(d))));
      raw.on("error", reject);
    });
    expect(raw.protocol).toBe("realtime");
    expect(first.type).toBe("session.created");
    raw.close();
  });
});
