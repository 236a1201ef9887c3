/**
 * The OTLP exporter when the collector is down or slow (issue 58), on both runtimes: a receiver that refuses every
 * POST (503) and one that never answers. Requests are unaffected (no added latency: each call returns long before the
 * export's timeout), a collector gets at most one POST per backoff, the queue stays within OTEL_BSP_MAX_QUEUE_SIZE
 * (spans past it dropped and counted), and the outage is told once on the console (checked where the runtime runs in
 * this process: the Node runtime).
 */
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { dropped } from "../../src/turn/otel";
import { startOtlpReceiver, type OtlpReceiver } from "../support/otlp-receiver";
import { RUNTIME, startHarness, type Harness } from "./harness";

const TIMEOUT_MS = 3000;
let refusing: OtlpReceiver;
let hanging: OtlpReceiver;
let down: Harness;
let slow: Harness;
const warn = vi.spyOn(console, "warn");

beforeAll(async () => {
  [refusing, hanging] = await Promise.all([startOtlpReceiver("refuse"), startOtlpReceiver("hang")]);
  [down, slow] = await Promise.all([
    startHarness({ OTEL_EXPORTER_OTLP_ENDPOINT: refusing.url }),
    startHarness({ OTEL_EXPORTER_OTLP_ENDPOINT: hanging.url, OTEL_EXPORTER_OTLP_TIMEOUT: String(TIMEOUT_MS), OTEL_BSP_MAX_QUEUE_SIZE: "3" }),
  ]);
  // A Worker's first request loads its module graph (seconds on a busy machine): an admin call, which makes no span.
  await Promise.all([down.admin("/scenarios"), slow.admin("/scenarios")]);
});
afterAll(async () => {
  warn.mockRestore();
  await Promise.all([down?.stop(), slow?.stop()]);
  await Promise.all([refusing?.close(), hanging?.close()]);
});

/** Makes `n` default-responder calls one after another; the slowest call's time in ms. */
async function calls(h: Harness, n: number): Promise<number> {
  const client = new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}/v1`, maxRetries: 0 });
  let slowest = 0;
  for (let i = 0; i < n; i++) {
    const started = Date.now();
    const res = await client.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: `hello ${i}` }] });
    expect(res.choices[0]!.message.content).toBeTypeOf("string");
    slowest = Math.max(slowest, Date.now() - started);
  }
  return slowest;
}

const warnings = (fragment: string) => warn.mock.calls.filter((c) => String(c[0]).includes(fragment));

describe("a collector that refuses", () => {
  it("one POST, then spans dropped for the backoff without a request; calls unaffected; one warning", async () => {
    const before = dropped.count;
    expect(await calls(down, 5)).toBeLessThan(TIMEOUT_MS / 3);
    await vi.waitFor(() => expect(refusing.posts).toBe(1), { timeout: 5000 });
    await calls(down, 5);
    await new Promise((r) => setTimeout(r, 200));
    expect(refusing.posts).toBe(1);
    expect(refusing.exports).toEqual([]);
    if (RUNTIME === "node") {
      expect(dropped.count - before).toBe(10);
      expect(warnings(refusing.url)).toEqual([
        [`mockllm: OpenTelemetry spans dropped (the collector at ${refusing.url}/v1/traces: answered 503; retried in 30 s); more are dropped silently until an export succeeds`],
      ]);
    }
  });
});

describe("a collector that never answers", () => {
  it("calls return at once while the POST waits; the queue is bounded; the POST gives up at the timeout and the backoff drops the rest", async () => {
    const before = dropped.count;
    // The first call's span is in the POST that hangs; the next three wait; the six after them are dropped.
    expect(await calls(slow, 10)).toBeLessThan(TIMEOUT_MS / 3);
    await vi.waitFor(() => expect(hanging.posts).toBe(1), { timeout: 5000 });
    if (RUNTIME === "node") expect(dropped.count - before).toBe(6);
    // Past the timeout: the POST gave up, its span and the three waiting are dropped, and no second POST is made.
    await new Promise((r) => setTimeout(r, TIMEOUT_MS + 300));
    expect(await calls(slow, 2)).toBeLessThan(TIMEOUT_MS / 3);
    await new Promise((r) => setTimeout(r, 200));
    expect(hanging.posts).toBe(1);
    if (RUNTIME === "node") {
      expect(dropped.count - before).toBe(12);
      expect(warnings(hanging.url).map((c) => String(c[0]))).toEqual([
        `mockllm: OpenTelemetry spans dropped (3 spans already wait to be sent to ${hanging.url}/v1/traces (OTEL_BSP_MAX_QUEUE_SIZE)); more are dropped silently until an export succeeds`,
      ]);
    }
  });
});
