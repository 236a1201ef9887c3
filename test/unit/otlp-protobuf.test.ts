/**
 * The hand-written OTLP protobuf encoder (src/turn/otlp-protobuf.ts) against the official definitions
 * (test/fixtures/opentelemetry-proto, read by protobufjs): a fixed test vector, the same bytes as protobufjs's own
 * encoding of the same message, and every field the mock sends decoded back — 64-bit times beyond 2^53, multi-byte
 * and long strings, negative and large ints, booleans, doubles, arrays, an empty string value.
 */
import { describe, expect, it } from "vitest";
import { encodeTraceRequest, hexBytes, type OtlpTraceRequest } from "../../src/turn/otlp-protobuf";
import { decodeExport, exportTraceServiceRequest } from "../support/otlp-receiver";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");

const SMALL: OtlpTraceRequest = {
  resourceSpans: [
    {
      resource: { attributes: [{ key: "service.name", value: { stringValue: "m" } }] },
      scopeSpans: [
        {
          scope: { name: "mockllm" },
          spans: [
            {
              traceId: "0102030405060708090a0b0c0d0e0f10",
              spanId: "a1a2a3a4a5a6a7a8",
              parentSpanId: "b1b2b3b4b5b6b7b8",
              name: "chat m",
              kind: 2,
              startTimeUnixNano: "1700000000000000000",
              endTimeUnixNano: "1700000000005000000",
              attributes: [
                { key: "n", value: { intValue: "7" } },
                { key: "f", value: { arrayValue: { values: [{ stringValue: "stop" }] } } },
              ],
              status: { code: 2, message: "x" },
            },
          ],
        },
      ],
    },
  ],
};

/** The same message encoded by protobufjs from the official .proto files (ids given as bytes). */
function officialEncoding(request: OtlpTraceRequest): Uint8Array {
  const type = exportTraceServiceRequest();
  const obj = JSON.parse(JSON.stringify(request)) as OtlpTraceRequest;
  for (const rs of obj.resourceSpans)
    for (const ss of rs.scopeSpans)
      for (const s of ss.spans as unknown as Record<string, unknown>[]) {
        for (const k of ["traceId", "spanId", "parentSpanId"]) if (typeof s[k] === "string") s[k] = Buffer.from(s[k] as string, "hex");
        // proto3 leaves a default out; protobufjs writes any field present in the object it is given.
        const status = s.status as { code?: number };
        if (status.code === 0) delete status.code;
      }
  return type.encode(type.fromObject(obj)).finish();
}

describe("OTLP protobuf encoding", () => {
  it("a test vector: one span with ids, fixed64 times, an int, a string array and an ERROR status", () => {
    const bytes = encodeTraceRequest(SMALL);
    // ExportTraceServiceRequest{1: ResourceSpans{1: Resource{1: KeyValue}, 2: ScopeSpans{1: scope, 2: Span{…}}}}
    expect(hex(bytes)).toBe(
      "0a89010a150a130a0c736572766963652e6e616d6512030a016d12700a090a076d6f636b6c6c6d12630a100102030405060708090a0b0c0d0e0f10" +
        "1208a1a2a3a4a5a6a7a82208b1b2b3b4b5b6b7b82a0663686174206d30023900002a36fe9c971741404b7636fe9c97174a070a016e120218074a0f" +
        "0a0166120a2a080a060a0473746f707a051201781802",
    );
    expect(hex(bytes)).toBe(hex(officialEncoding(SMALL)));
  });

  it("every value kind and size decodes back through the official definitions, byte for byte as protobufjs writes it", () => {
    const long = "é🙂x".repeat(3000); // multi-byte, over 16 KiB of UTF-8: a three-byte length
    const request: OtlpTraceRequest = {
      resourceSpans: [
        {
          resource: { attributes: [{ key: "service.name", value: { stringValue: "mock-under-test" } }] },
          scopeSpans: [
            {
              scope: { name: "mockllm", version: "1.2.3" },
              spans: Array.from({ length: 3 }, (_, i) => ({
                traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
                spanId: `00f067aa0ba902b${i}`,
                name: `chat gpt-4o ${"ü".repeat(100 * i)}`,
                kind: 2,
                startTimeUnixNano: "18446744073709551615", // 2^64 - 1
                endTimeUnixNano: "1733100000123000000",
                attributes: [
                  { key: "s", value: { stringValue: long } },
                  { key: "empty", value: { stringValue: "" } },
                  { key: "neg", value: { intValue: "-5" } },
                  { key: "big", value: { intValue: "9007199254740993" } },
                  { key: "b", value: { boolValue: true } },
                  { key: "d", value: { doubleValue: 0.25 } },
                  { key: "arr", value: { arrayValue: { values: [{ stringValue: "stop" }, { stringValue: "length" }] } } },
                ],
                status: { code: 0 },
              })),
            },
          ],
        },
      ],
    };
    const bytes = encodeTraceRequest(request);
    const official = officialEncoding(request);
    // Compared as a flag and a length, not as text: the body is 36 KiB.
    expect([bytes.length, Buffer.compare(bytes, official)]).toEqual([official.length, 0]);
    const [decoded] = decodeExport(bytes, true);
    expect(decoded!.resource).toEqual({ "service.name": "mock-under-test" });
    expect(decoded!.scope).toEqual({ name: "mockllm", version: "1.2.3" });
    expect(decoded!.spans).toHaveLength(3);
    expect(decoded!.spans[2]).toEqual({
      traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
      spanId: "00f067aa0ba902b2",
      parentSpanId: "",
      name: `chat gpt-4o ${"ü".repeat(200)}`,
      kind: 2,
      startTimeUnixNano: "18446744073709551615",
      endTimeUnixNano: "1733100000123000000",
      attributes: { s: long, empty: "", neg: "-5", big: "9007199254740993", b: true, d: 0.25, arr: ["stop", "length"] },
      status: { code: 0, message: "" },
    });
  });

  it("fixed64 times at every magnitude, exact beyond 2^53", () => {
    const times = ["1", "999999999", "1000000000", "4294967295", "4294967296", "9007199254740993", "1733100000123456789", "18446744073709551615"];
    const request: OtlpTraceRequest = {
      resourceSpans: [
        {
          resource: { attributes: [] },
          scopeSpans: [{ scope: { name: "m" }, spans: times.map((t) => ({ ...SMALL.resourceSpans[0]!.scopeSpans[0]!.spans[0]!, startTimeUnixNano: t, endTimeUnixNano: t })) }],
        },
      ],
    };
    const bytes = encodeTraceRequest(request);
    expect(Buffer.compare(bytes, officialEncoding(request))).toBe(0);
    expect(decodeExport(bytes, true)[0]!.spans.map((s) => [s.startTimeUnixNano, s.endTimeUnixNano])).toEqual(times.map((t) => [t, t]));
  });

  it("ids: hex to bytes; a malformed id is left out rather than sent wrong", () => {
    expect([...hexBytes("00ff10")]).toEqual([0, 255, 16]);
    expect(hexBytes("abc")).toHaveLength(0);
    expect(hexBytes("zz")).toHaveLength(0);
  });
});
