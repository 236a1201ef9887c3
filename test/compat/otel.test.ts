/**
 * OpenTelemetry GenAI spans (issue 58) on both runtimes, received by an OTLP/HTTP receiver built on the official
 * protobuf definitions (test/support/otlp-receiver.ts): with OTEL_EXPORTER_OTLP_ENDPOINT set and no protocol, spans
 * arrive as `application/x-protobuf` (the specification's default) and decode as an ExportTraceServiceRequest; each
 * call the official SDKs make is one span with the GenAI attributes and the mock's outcome (response, failure, chaos,
 * mismatch), parented to the request's traceparent, ending when the answer's body is done (a paced stream's end, or
 * the client's leaving: ERROR). `http/json` is the same spans as OTLP/JSON (here through the OTEL_EXPORTER_OTLP_TRACES_*
 * forms, which override the general ones).
 */
import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "../support/otlp-receiver";
import { startHarness, type Harness } from "./harness";

let h: Harness;
let json: Harness;
let receiver: OtlpReceiver;
let jsonReceiver: OtlpReceiver;

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT = "00f067aa0ba902b7";
const traceparent = (span = PARENT) => ({ traceparent: `00-${TRACE}-${span}-01` });

const SCENARIOS = [
  {
    name: "otel",
    steps: [
      { consume: false, match: { provider: "openai", lastUserMessage: { contains: "slow" } }, respond: { text: "one two three four five", stream: { chunkWords: 1, chunkDelayMs: 80 } } },
      { consume: false, match: { provider: "openai" }, respond: { text: "hi", model: "gpt-4o-2024-08-06", usage: { inputTokens: 11, outputTokens: 7 } } },
      { consume: false, match: { provider: "anthropic" }, failures: [{ kind: "overloaded" }], respond: { text: "x" } },
    ],
  },
  { name: "otel-chaos", chaos: { seed: 1, rate: 1, kinds: ["rate_limit"] }, steps: [{ consume: false, respond: { text: "ok" } }] },
];

beforeAll(async () => {
  [receiver, jsonReceiver] = await Promise.all([startOtlpReceiver(), startOtlpReceiver()]);
  [h, json] = await Promise.all([
    startHarness({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_HEADERS: "x-collector-token=s3cret,x-team=agents%20team", OTEL_SERVICE_NAME: "mock-under-test" }),
    // The signal's own settings: its endpoint used as it is, its protocol over the general one.
    startHarness({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${jsonReceiver.url}/v1/traces`, OTEL_EXPORTER_OTLP_PROTOCOL: "grpc", OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json" }),
  ]);
  await Promise.all([h.upload(...SCENARIOS), json.upload(...SCENARIOS)]);
});
afterAll(async () => {
  await Promise.all([h?.stop(), json?.stop()]);
  await Promise.all([receiver?.close(), jsonReceiver?.close()]);
});

/** The span whose parent is `parent` (each test sends its own), waiting for it. */
async function spanUnder(r: OtlpReceiver, parent: string): Promise<ReceivedSpan> {
  for (const until = Date.now() + 5000; Date.now() < until; await new Promise((res) => setTimeout(res, 20))) {
    const span = r.exports.flatMap((e) => e.spans).find((s) => s.parentSpanId === parent);
    if (span) return span;
  }
  throw new Error(`no span with parent ${parent}`);
}

const openai = (base: string, parent: string) => new OpenAI({ apiKey: "sk-test", baseURL: `${base}/s/otel/s1/v1`, maxRetries: 0, defaultHeaders: traceparent(parent) });
const millis = (s: ReceivedSpan) => Number((BigInt(s.endTimeUnixNano) - BigInt(s.startTimeUnixNano)) / 1_000_000n);

describe("OTLP/HTTP protobuf spans, decoded with the official definitions", () => {
  it("an OpenAI call: one span with the GenAI attributes, in the caller's trace", async () => {
    await openai(h.url, "00000000000000a1").chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] });
    const span = await spanUnder(receiver, "00000000000000a1");
    expect(span).toMatchObject({ traceId: TRACE, name: "chat gpt-4o", kind: 2, status: { code: 0, message: "" } });
    expect(span.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(span.attributes).toEqual({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "openai",
      "gen_ai.request.model": "gpt-4o",
      "gen_ai.response.model": "gpt-4o-2024-08-06",
      "gen_ai.usage.input_tokens": "11",
      "gen_ai.usage.output_tokens": "7",
      "gen_ai.response.finish_reasons": ["stop"],
      "mockllm.outcome": "response",
    });
    const post = receiver.exports.find((e) => e.spans.includes(span))!;
    expect([post.path, post.contentType, post.headers["x-collector-token"], post.headers["x-team"]]).toEqual(["/v1/traces", "application/x-protobuf", "s3cret", "agents team"]);
    expect(post.resource).toEqual({ "service.name": "mock-under-test" });
    expect(post.scope.name).toBe("mockllm");
  });

  it("a scripted failure: outcome failure, error.type and status ERROR; without a traceparent, a trace of its own", async () => {
    const before = receiver.exports.flatMap((e) => e.spans).length;
    const anthropic = new Anthropic({ apiKey: "sk-ant", baseURL: `${h.url}/s/otel/s2`, maxRetries: 0 });
    await expect(anthropic.messages.create({ model: "claude-sonnet-4-5", max_tokens: 16, messages: [{ role: "user", content: "hi" }] })).rejects.toThrow();
    const all = await receiver.spans(before + 1);
    const span = all.find((s) => s.attributes["gen_ai.provider.name"] === "anthropic")!;
    expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(span.traceId).not.toBe(TRACE);
    expect(span.parentSpanId).toBe("");
    expect(span.status).toEqual({ code: 2, message: "overloaded" });
    expect(span.attributes).toEqual({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "anthropic",
      "gen_ai.request.model": "claude-sonnet-4-5",
      "mockllm.outcome": "failure",
      "error.type": "overloaded",
    });
  });

  it("chaos: outcome chaos with the fault drawn as error.type", async () => {
    const client = new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}/s/otel-chaos/c1/v1`, maxRetries: 0, defaultHeaders: traceparent("00000000000000c1") });
    await expect(client.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] })).rejects.toMatchObject({ status: 429 });
    const span = await spanUnder(receiver, "00000000000000c1");
    expect(span.status).toEqual({ code: 2, message: "rate_limit" });
    expect(span.attributes).toMatchObject({ "mockllm.outcome": "chaos", "error.type": "rate_limit", "gen_ai.request.model": "gpt-4o-mini" });
  });

  it("a mismatch (no step matches a Gemini call): outcome mismatch, ERROR", async () => {
    const ai = new GoogleGenAI({ apiKey: "g-key", httpOptions: { baseUrl: `${h.url}/s/otel/s3`, headers: traceparent("00000000000000d1") } });
    await expect(ai.models.generateContent({ model: "gemini-2.5-flash", contents: "hi" })).rejects.toThrow();
    const span = await spanUnder(receiver, "00000000000000d1");
    expect(span.status).toEqual({ code: 2, message: "mismatch" });
    expect(span.attributes).toEqual({
      "gen_ai.operation.name": "generate_content",
      "gen_ai.provider.name": "gcp.gemini",
      "gen_ai.request.model": "gemini-2.5-flash",
      "mockllm.outcome": "mismatch",
      "error.type": "mismatch",
    });
  });

  it("a paced stream: the span ends with the stream's last event, not at its head", async () => {
    const stream = await openai(h.url, "00000000000000e1").chat.completions.create({ model: "gpt-4o", stream: true, messages: [{ role: "user", content: "slow" }] });
    let text = "";
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
    expect(text).toBe("one two three four five");
    const span = await spanUnder(receiver, "00000000000000e1");
    // Five content events 80 ms apart: the body takes 320 ms after its head — less the Node writer's early window (an
    // event due within 1 ms of its timer's tick goes out on it, src/hosts/node/paced.ts) and the span's times read in
    // whole milliseconds here (a CI run read 319). A span that ended at the head would read a few milliseconds.
    expect(millis(span)).toBeGreaterThanOrEqual(318);
    expect(span.status).toEqual({ code: 0, message: "" });
    expect(span.attributes).toMatchObject({ "gen_ai.response.finish_reasons": ["stop"], "mockllm.outcome": "response" });
  });

  it("a client that leaves mid-stream: the span ends then, status ERROR, error.type client_disconnected", async () => {
    const controller = new AbortController();
    const stream = await openai(h.url, "00000000000000f1").chat.completions.create({ model: "gpt-4o", stream: true, messages: [{ role: "user", content: "slow" }] }, { signal: controller.signal });
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();
    controller.abort();
    await iterator.next().catch(() => undefined);
    const span = await spanUnder(receiver, "00000000000000f1");
    expect(span.status).toEqual({ code: 2, message: "client_disconnected" });
    expect(span.attributes).toMatchObject({ "mockllm.outcome": "response", "error.type": "client_disconnected" });
    expect(millis(span)).toBeLessThan(320);
  });
});

describe("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL=http/json, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", () => {
  it("the same span as OTLP/JSON, to the traces endpoint as given", async () => {
    await openai(json.url, "00000000000000b1").chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] });
    const span = await spanUnder(jsonReceiver, "00000000000000b1");
    const post = jsonReceiver.exports.find((e) => e.spans.includes(span))!;
    expect([post.path, post.contentType]).toEqual(["/v1/traces", "application/json"]);
    expect(post.resource).toEqual({ "service.name": "mockllm" });
    expect(span).toMatchObject({ traceId: TRACE, name: "chat gpt-4o", kind: 2 });
    expect(span.attributes).toMatchObject({ "gen_ai.response.model": "gpt-4o-2024-08-06", "gen_ai.usage.input_tokens": "11", "gen_ai.response.finish_reasons": ["stop"] });
  });
});
