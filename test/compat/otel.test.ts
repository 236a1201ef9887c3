/**
 * OpenTelemetry GenAI spans (issue 58) on both runtimes: with OTEL_EXPORTER_OTLP_ENDPOINT pointing at a local OTLP/HTTP
 * receiver, each call the official SDKs make arrives as a span with the GenAI attributes, parented to the request's
 * traceparent, with the headers of OTEL_EXPORTER_OTLP_HEADERS and the service name of OTEL_SERVICE_NAME.
 */
import Anthropic from "@anthropic-ai/sdk";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

interface Received {
  headers: Record<string, string | string[] | undefined>;
  path: string;
  body: {
    resourceSpans: {
      resource: { attributes: { key: string; value: { stringValue?: string } }[] };
      scopeSpans: {
        spans: { traceId: string; spanId: string; parentSpanId?: string; name: string; kind: number; attributes: { key: string; value: Record<string, unknown> }[]; status: { code: number } }[];
      }[];
    }[];
  };
}

let h: Harness;
let receiver: Server;
const received: Received[] = [];

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ headers: req.headers, path: req.url ?? "", body: JSON.parse(Buffer.concat(chunks).toString("utf8")) });
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const port = (receiver.address() as AddressInfo).port;
  h = await startHarness({
    OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
    OTEL_EXPORTER_OTLP_HEADERS: "x-collector-token=s3cret,x-team=agents%20team",
    OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
    OTEL_SERVICE_NAME: "mock-under-test",
  });
  await h.upload({
    name: "otel",
    steps: [
      { consume: false, match: { provider: "openai" }, respond: { text: "hi", model: "gpt-4o-2024-08-06", usage: { inputTokens: 11, outputTokens: 7 } } },
      { consume: false, match: { provider: "anthropic" }, failures: [{ kind: "overloaded" }], respond: { text: "x" } },
    ],
  });
});
afterAll(async () => {
  await h?.stop();
  await new Promise((resolve) => receiver?.close(resolve));
});

/** The spans received so far, waiting up to 5 s for `n` of them. */
async function spans(n: number) {
  for (let i = 0; i < 100 && received.flatMap((r) => r.body.resourceSpans.flatMap((s) => s.scopeSpans.flatMap((x) => x.spans))).length < n; i++) await new Promise((r) => setTimeout(r, 50));
  return received.flatMap((r) => r.body.resourceSpans.flatMap((s) => s.scopeSpans.flatMap((x) => x.spans)));
}

const attrs = (span: { attributes: { key: string; value: Record<string, unknown> }[] }) => Object.fromEntries(span.attributes.map((a) => [a.key, Object.values(a.value)[0]]));

const TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT = "00f067aa0ba902b7";

describe("OTLP/HTTP spans", () => {
  it("an OpenAI call: one span with the GenAI attributes, in the caller's trace", async () => {
    const openai = new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}/s/otel/s1/v1`, maxRetries: 0, defaultHeaders: { traceparent: `00-${TRACE}-${PARENT}-01` } });
    await openai.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] });
    const [span] = await spans(1);
    expect(span).toMatchObject({ traceId: TRACE, parentSpanId: PARENT, name: "chat gpt-4o", kind: 2, status: { code: 0 } });
    expect(span!.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(attrs(span!)).toEqual({
      "gen_ai.operation.name": "chat",
      "gen_ai.provider.name": "openai",
      "gen_ai.request.model": "gpt-4o",
      "gen_ai.response.model": "gpt-4o-2024-08-06",
      "gen_ai.usage.input_tokens": "11",
      "gen_ai.usage.output_tokens": "7",
      "gen_ai.response.finish_reasons": { values: [{ stringValue: "stop" }] },
      "mockllm.outcome": "response",
    });
    const first = received[0]!;
    expect(first.path).toBe("/v1/traces");
    expect([first.headers["content-type"], first.headers["x-collector-token"], first.headers["x-team"]]).toEqual(["application/json", "s3cret", "agents team"]);
    expect(first.body.resourceSpans[0]!.resource.attributes).toEqual([{ key: "service.name", value: { stringValue: "mock-under-test" } }]);
  });

  it("a scripted failure: the span says the outcome and the error type; no traceparent, a trace of its own", async () => {
    const anthropic = new Anthropic({ apiKey: "sk-ant", baseURL: `${h.url}/s/otel/s2`, maxRetries: 0 });
    await anthropic.messages.create({ model: "claude-sonnet-4-5", max_tokens: 16, messages: [{ role: "user", content: "hi" }] }).catch(() => undefined);
    const all = await spans(2);
    const span = all.find((s) => attrs(s)["gen_ai.provider.name"] === "anthropic")!;
    expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
    expect(span.traceId).not.toBe(TRACE);
    expect(span.parentSpanId).toBeUndefined();
    expect(span.status.code).toBe(2);
    expect(attrs(span)).toMatchObject({ "gen_ai.operation.name": "chat", "gen_ai.request.model": "claude-sonnet-4-5", "mockllm.outcome": "failure", "error.type": "overloaded" });
  });
});
