/**
 * The OTLP exporter (issue 58), pure parts and its bounds: settings and protocols, traceparent, when a span ends
 * (a body written later, a client that goes away), batches, and a collector that is down, refuses or never answers.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PlannedResponse } from "../../src/http/planned";
import { BODY_ABORTED, type PacedPlan } from "../../src/http/sse";
import type { Exec } from "../../src/runtime/types";
import { dropped, exportCall, exporterOf, parseTraceparent, resetExporter, spanOf, traceCall } from "../../src/turn/otel";
import { decodeExport } from "../support/otlp-receiver";
import { req } from "./fixtures";

beforeEach(() => resetExporter());
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const MISMATCH = { kind: "mismatch", message: "x" } as const;

/** A fetch stub recording each POST's decoded spans; `answer` decides the reply. */
function collector(answer: () => Promise<Response>) {
  const posts: { contentType: string; spans: ReturnType<typeof decodeExport>[number]["spans"] }[] = [];
  const fetch = vi.fn(async (_url: string, init: RequestInit) => {
    const contentType = (init.headers as Record<string, string>)["content-type"]!;
    const body = init.body as string | Uint8Array;
    const protobuf = contentType === "application/x-protobuf";
    posts.push({ contentType, spans: decodeExport(protobuf ? (body as Uint8Array) : (JSON.parse(body as string) as object), protobuf).flatMap((d) => d.spans) });
    return answer();
  });
  vi.stubGlobal("fetch", fetch);
  return { fetch, posts };
}

describe("settings and parsing", () => {
  it("reads the standard variables; the protocol defaults to http/protobuf, as the specification says", () => {
    expect(exporterOf({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318/", OTEL_EXPORTER_OTLP_HEADERS: "a=1, b=x%3Dy" })).toEqual({
      url: "http://c:4318/v1/traces",
      headers: { "content-type": "application/x-protobuf", a: "1", b: "x=y" },
      service: "mockllm",
      protocol: "http/protobuf",
      timeoutMs: 10_000,
      maxQueue: 2048,
      maxBatch: 512,
    });
    expect(
      exporterOf({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318",
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_EXPORTER_OTLP_TIMEOUT: "250",
        OTEL_BSP_MAX_QUEUE_SIZE: "3",
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "2",
      }),
    ).toMatchObject({
      headers: { "content-type": "application/json" },
      protocol: "http/json",
      timeoutMs: 250,
      maxQueue: 3,
      maxBatch: 2,
    });
    expect(exporterOf({})).toBeUndefined();
  });

  it("the OTEL_EXPORTER_OTLP_TRACES_* forms override the general ones; the traces endpoint is used as it is", () => {
    expect(
      exporterOf({
        OTEL_EXPORTER_OTLP_ENDPOINT: "http://general:4318",
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example/otlp/spans",
        OTEL_EXPORTER_OTLP_HEADERS: "a=1,b=2",
        OTEL_EXPORTER_OTLP_TRACES_HEADERS: "b=3",
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/protobuf",
        OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "http/json",
        OTEL_EXPORTER_OTLP_TIMEOUT: "100",
        OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: "200",
      }),
    ).toMatchObject({ url: "https://traces.example/otlp/spans", headers: { "content-type": "application/json", a: "1", b: "3" }, protocol: "http/json", timeoutMs: 200 });
    expect(exporterOf({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://c:4318/v1/traces" })).toMatchObject({ url: "http://c:4318/v1/traces", protocol: "http/protobuf" });
  });

  it("grpc (and an unknown protocol): one warning per isolate, then OTLP/HTTP protobuf to the same endpoint", () => {
    const warn = vi.fn();
    const vars = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4317", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" };
    expect(exporterOf(vars, warn)).toMatchObject({ url: "http://c:4317/v1/traces", protocol: "http/protobuf" });
    exporterOf(vars, warn);
    exporterOf({ ...vars }, warn); // the same settings from another vars object: not told twice
    expect(warn.mock.calls).toEqual([
      ["mockllm: OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported; spans go to http://c:4317/v1/traces as OTLP/HTTP protobuf instead (a Collector's OTLP receiver takes it on port 4318)"],
    ]);
    exporterOf({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_EXPORTER_OTLP_PROTOCOL: "thrift" }, warn);
    expect(warn.mock.calls[1]).toEqual(["mockllm: OTEL_EXPORTER_OTLP_PROTOCOL=thrift is not one of grpc, http/protobuf, http/json; spans go to http://c:4318/v1/traces as http/protobuf"]);
  });

  it("takes the trace and parent ids of a valid traceparent only", () => {
    expect(parseTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")).toEqual({ traceId: "4bf92f3577b34da6a3ce929d0e0e4736", parentSpanId: "00f067aa0ba902b7" });
    expect(parseTraceparent("00-00000000000000000000000000000000-00f067aa0ba902b7-01")).toBeUndefined();
    expect(parseTraceparent("garbage")).toBeUndefined();
    expect(parseTraceparent(null)).toBeUndefined();
  });

  it("a mismatch is a span with error.type mismatch and status ERROR; a body cut short, client_disconnected", () => {
    const span = spanOf(req(), MISMATCH, "mismatch", null, 1000, 1005);
    expect(span.status).toEqual({ code: 2, message: "mismatch" });
    expect([span.startTimeUnixNano, span.endTimeUnixNano]).toEqual(["1000000000", "1005000000"]);
    expect(span.attributes.find((a) => a.key === "error.type")).toEqual({ key: "error.type", value: { stringValue: "mismatch" } });
    const reply = { kind: "reply", reply: { model: "m", usage: { inputTokens: 1, outputTokens: 2 }, finishReason: "stop" } } as never;
    expect(spanOf(req(), reply, "response", null, 1000, 1005, true).status).toEqual({ code: 2, message: "client_disconnected" });
    expect(spanOf(req(), reply, "response", null, 1000, 1005, false).status).toEqual({ code: 0 });
  });

  it("gen_ai.operation.name by endpoint: chat, embeddings, generate_content, and text_completion for the legacy completions", () => {
    const reply = { kind: "reply", reply: { model: "m", usage: { inputTokens: 1, outputTokens: 2 }, finishReason: "stop" } } as never;
    const operation = (endpoint: "chat.completions" | "embeddings" | "generateContent" | "completions") =>
      spanOf(req({ endpoint }), reply, "response", null, 1000, 1005).attributes.find((a) => a.key === "gen_ai.operation.name")?.value;
    expect(["chat.completions", "embeddings", "generateContent", "completions"].map((e) => operation(e as never))).toEqual(
      ["chat", "embeddings", "generate_content", "text_completion"].map((stringValue) => ({ stringValue })),
    );
  });
});

describe("when a span ends", () => {
  const vars = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" };
  const reply = { kind: "reply", reply: { model: "m", usage: { inputTokens: 1, outputTokens: 2 }, finishReason: "stop" } } as never;

  function execFor(pending: Promise<unknown>[], playsPlans = false): Exec {
    const exec: Exec = { waitUntil: (p) => pending.push(p), arrivedAt: Date.now() - 40 };
    if (playsPlans) exec.playsPlans = true;
    return exec;
  }

  it("a body given whole: at once, from arrival", async () => {
    const { posts } = collector(async () => new Response(null, { status: 200 }));
    const pending: Promise<unknown>[] = [];
    const exec = execFor(pending);
    const call = traceCall(vars, exec, req(), null)!;
    call.answered(new Response("{}"), reply, "response");
    await Promise.all(pending);
    const [span] = posts[0]!.spans;
    expect(posts[0]!.contentType).toBe("application/x-protobuf");
    expect(BigInt(span!.endTimeUnixNano) - BigInt(span!.startTimeUnixNano)).toBeGreaterThanOrEqual(40_000_000n);
  });

  it("a body written later: when its writer is done; cut short by the client, an ERROR span", async () => {
    const { posts } = collector(async () => new Response(null, { status: 200 }));
    const pending: Promise<unknown>[] = [];
    let finishBody!: (v: unknown) => void;
    const call = traceCall(vars, execFor(pending), req(), null)!;
    call.exec.waitUntil(new Promise((resolve) => (finishBody = resolve)));
    call.answered(new Response("{}"), reply, "response");
    await new Promise((r) => setTimeout(r, 30));
    expect(posts).toHaveLength(0); // the body is not done: no span yet
    const before = Date.now();
    finishBody(BODY_ABORTED);
    await Promise.all(pending);
    const [span] = posts[0]!.spans;
    expect(span!.status).toEqual({ code: 2, message: "client_disconnected" });
    expect(span!.attributes["error.type"]).toBe("client_disconnected");
    expect(BigInt(span!.endTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(before) * 1_000_000n);
  });

  it("a paced stream the runtime plays itself (Node): when the runtime says it ended", async () => {
    const { posts } = collector(async () => new Response(null, { status: 200 }));
    const pending: Promise<unknown>[] = [];
    const call = traceCall(vars, execFor(pending, true), req(), null)!;
    expect(call.exec.playsPlans).toBe(true);
    const plan: PacedPlan = { events: [], encode: () => "", due: [], startAt: 0, end: { kind: "close" } };
    call.answered(new PlannedResponse(plan, { status: 200 }), reply, "response");
    await new Promise((r) => setTimeout(r, 10));
    expect(posts).toHaveLength(0);
    plan.ended!(false);
    await Promise.all(pending);
    expect(posts[0]!.spans[0]!.status).toEqual({ code: 0, message: "" });
  });
});

describe("batches and bounds", () => {
  it("spans ending together go in one POST each OTEL_BSP_MAX_EXPORT_BATCH_SIZE", async () => {
    const { posts } = collector(async () => new Response(null, { status: 200 }));
    const vars = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "2", OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" };
    const pending: Promise<unknown>[] = [];
    for (let i = 0; i < 5; i++) exportCall(vars, (p) => pending.push(p), req(), MISMATCH, "mismatch", null, Date.now());
    await Promise.all(pending);
    expect(posts.map((p) => [p.contentType, p.spans.length])).toEqual([
      ["application/json", 2],
      ["application/json", 2],
      ["application/json", 1],
    ]);
  });

  it("a collector that refuses: one failed POST, then spans dropped without a request until the backoff ends; one warning", async () => {
    const { fetch } = collector(async () => new Response('{"code":14}', { status: 503 }));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const vars = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" };
    const pending: Promise<unknown>[] = [];
    exportCall(vars, (p) => pending.push(p), req(), MISMATCH, "mismatch", null, Date.now());
    exportCall(vars, (p) => pending.push(p), req(), MISMATCH, "mismatch", null, Date.now());
    expect(pending).toHaveLength(1);
    await Promise.all(pending);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(dropped.count).toBe(2);
    for (let i = 0; i < 10; i++) exportCall(vars, (p) => pending.push(p), req(), MISMATCH, "mismatch", null, Date.now());
    expect(pending).toHaveLength(1);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(dropped.count).toBe(12);
    expect(warn.mock.calls).toEqual([
      ["mockllm: OpenTelemetry spans dropped (the collector at http://127.0.0.1:9/v1/traces: answered 503; retried in 30 s); more are dropped silently until an export succeeds"],
    ]);
  });

  it("a collector that never answers: the POST gives up at OTEL_EXPORTER_OTLP_TIMEOUT; the queue stays within OTEL_BSP_MAX_QUEUE_SIZE", async () => {
    // Never answers: settles only when the exporter's timeout aborts it.
    const fetch = vi.fn((_url: string, init: RequestInit) => new Promise<Response>((_, reject) => init.signal!.addEventListener("abort", () => reject(init.signal!.reason as Error))));
    vi.stubGlobal("fetch", fetch);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const vars = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318", OTEL_EXPORTER_OTLP_TIMEOUT: "100", OTEL_BSP_MAX_QUEUE_SIZE: "3" };
    const pending: Promise<unknown>[] = [];
    exportCall(vars, (p) => pending.push(p), req(), MISMATCH, "mismatch", null, Date.now());
    await new Promise((r) => setTimeout(r, 10)); // the first POST is in flight, its span out of the queue
    const started = Date.now();
    for (let i = 0; i < 10; i++) exportCall(vars, (p) => pending.push(p), req(), MISMATCH, "mismatch", null, Date.now());
    expect(Date.now() - started).toBeLessThan(50); // queuing never waits for the collector
    expect(dropped.count).toBe(7); // 3 wait, 7 dropped
    await Promise.all(pending);
    expect(fetch).toHaveBeenCalledTimes(1); // the 3 waiting spans were dropped by the backoff, not sent
    expect(dropped.count).toBe(11);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toContain("3 spans already wait to be sent to http://c:4318/v1/traces (OTEL_BSP_MAX_QUEUE_SIZE)");
  });
});
