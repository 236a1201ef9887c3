/** The OTLP exporter (issue 58), pure parts and its bounds: traceparent, settings, a collector that is down. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { dropped, exportCall, exporterOf, parseTraceparent, spanOf } from "../../src/turn/otel";
import { req } from "./fixtures";

afterEach(() => vi.unstubAllGlobals());

describe("settings and parsing", () => {
  it("reads the standard variables; grpc is not supported; unset, nothing", () => {
    expect(exporterOf({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318/", OTEL_EXPORTER_OTLP_HEADERS: "a=1, b=x%3Dy" })).toEqual({
      url: "http://c:4318/v1/traces",
      headers: { "content-type": "application/json", a: "1", b: "x=y" },
      service: "mockllm",
    });
    expect(exporterOf({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4317", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" })).toBeUndefined();
    expect(exporterOf({})).toBeUndefined();
  });

  it("takes the trace and parent ids of a valid traceparent only", () => {
    expect(parseTraceparent("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")).toEqual({ traceId: "4bf92f3577b34da6a3ce929d0e0e4736", parentSpanId: "00f067aa0ba902b7" });
    expect(parseTraceparent("00-00000000000000000000000000000000-00f067aa0ba902b7-01")).toBeUndefined();
    expect(parseTraceparent("garbage")).toBeUndefined();
    expect(parseTraceparent(null)).toBeUndefined();
  });

  it("a mismatch is a span with error.type mismatch and status ERROR", () => {
    const span = spanOf(req(), { kind: "mismatch", message: "no step" }, "mismatch", null, 1000, 1005);
    expect(span.status).toEqual({ code: 2, message: "mismatch" });
    expect([span.startTimeUnixNano, span.endTimeUnixNano]).toEqual(["1000000000", "1005000000"]);
    expect(span.attributes.find((a) => a.key === "error.type")).toEqual({ key: "error.type", value: { stringValue: "mismatch" } });
  });
});

describe("a collector that is down", () => {
  it("costs one failed POST, then spans are dropped without a request until the backoff ends", async () => {
    const fetch = vi.fn(async () => {
      throw new Error("ECONNREFUSED");
    });
    vi.stubGlobal("fetch", fetch);
    const vars = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" };
    const pending: Promise<unknown>[] = [];
    const before = dropped.count;
    exportCall(vars, (p) => pending.push(p), req(), { kind: "mismatch", message: "x" }, "mismatch", null, Date.now());
    exportCall(vars, (p) => pending.push(p), req(), { kind: "mismatch", message: "x" }, "mismatch", null, Date.now());
    expect(pending).toHaveLength(1);
    await Promise.all(pending);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(dropped.count).toBe(before + 2);
    exportCall(vars, (p) => pending.push(p), req(), { kind: "mismatch", message: "x" }, "mismatch", null, Date.now());
    expect(pending).toHaveLength(1);
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(dropped.count).toBe(before + 3);
  });
});
