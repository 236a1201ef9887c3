/**
 * The event stream codec against the AWS SDK's own test vectors (smithy-lang/smithy-typescript,
 * packages/eventstream-codec/src/TestVectors.fixture.ts: whole frames with both CRCs), and round trips through
 * the SDK's decoder (@smithy/eventstream-codec, what @aws-sdk/client-bedrock-runtime reads streams with).
 */
import { EventStreamCodec } from "@smithy/eventstream-codec";
import { fromUtf8, toUtf8 } from "@smithy/util-utf8";
import { describe, expect, it } from "vitest";
import { decodeMessages, encodeMessage, type EventHeaders } from "../../src/http/eventstream";
import { crc32 } from "../../src/util/crc32";
import { encodeAwsEvent } from "../../src/http/sse";
import { renderBedrockStreamError } from "../../src/providers/bedrock/render-converse";

const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
const bytes = (h: string) => Uint8Array.from(Buffer.from(h, "hex"));
const FOO_BAR = "{'foo':'bar'}";

const VECTORS: { name: string; headers: EventHeaders; body: string; encoded: string }[] = [
  { name: "empty_message", headers: {}, body: "", encoded: "000000100000000005c248eb7d98c8ff" },
  {
    name: "payload_no_headers",
    headers: {},
    body: FOO_BAR,
    encoded: "0000001d00000000fd528c5a7b27666f6f273a27626172277dc3653936",
  },
  {
    name: "payload_one_str_header",
    headers: { "content-type": "application/json" },
    body: FOO_BAR,
    encoded: "0000003d0000002007fd83960c636f6e74656e742d747970650700106170706c69636174696f6e2f6a736f6e7b27666f6f273a27626172277d8d9c08b1",
  },
  {
    name: "int32_header",
    headers: { "event-type": { type: "integer", value: 40972 } },
    body: FOO_BAR,
    encoded: "0000002d0000001041c424b80a6576656e742d74797065040000a00c7b27666f6f273a27626172277d36f480a0",
  },
  {
    name: "all_headers",
    headers: {
      "event-type": { type: "integer", value: 40972 },
      "content-type": { type: "string", value: "application/json" },
      "bool false": { type: "boolean", value: false },
      "bool true": { type: "boolean", value: true },
      byte: { type: "byte", value: -49 },
      "byte buf": { type: "binary", value: new TextEncoder().encode("I'm a little teapot!") },
      timestamp: { type: "timestamp", value: 8675309 },
      int16: { type: "short", value: 42 },
      int64: { type: "long", value: 42424242n },
      uuid: { type: "uuid", value: "01020304-0506-0708-090a-0b0c0d0e0f10" },
    },
    body: FOO_BAR,
    encoded:
      "000000cc000000af0fae64ca0a6576656e742d74797065040000a00c0c636f6e74656e742d747970650700106170706c69636174696f6e2f6a736f6e0a626f6f6c2066616c73650109626f6f6c207472756500046279746502cf08627974652062756606001449276d2061206c6974746c6520746561706f74210974696d657374616d70080000000000845fed05696e74313603002a05696e7436340500000000028757b20475756964090102030405060708090a0b0c0d0e0f107b27666f6f273a27626172277daba5f10c",
  },
];

/** The SDK's corrupted vectors: each must be refused. */
const CORRUPTED: { name: string; encoded: string }[] = [
  { name: "corrupted_payload", encoded: "0000001d00000000fd528c5a5b27666f6f273a27626172277dc3653936" },
  {
    name: "corrupted_length",
    encoded: "0000003e0000002007fd83960c636f6e74656e742d747970650700106170706c69636174696f6e2f6a736f6e7b27666f6f273a27626172277d8d9c08b1",
  },
  {
    name: "corrupted_headers",
    encoded: "0000003d0000002007fd83960c636f6e74656e742d747970650700106170706c69636174696f6e2f6a736f6e7b61666f6f273a27626172277d8d9c08b1",
  },
];

/**
 * Captured from the live service: vercel/ai packages/amazon-bedrock/src/__fixtures__/issue-18994-live-converse-stream.json
 * (ConverseStream, eu.anthropic.claude-sonnet-4-6, eu-central-1, 2026-08-18), and the modelStreamErrorException frame of
 * model-stream-error-exception.eventstream.base64.txt. Re-encoded from their headers and payloads, byte for byte.
 */
const LIVE_CONVERSE_STREAM =
  "AAAAtAAAAFIFAEFlCzpldmVudC10eXBlBwAMbWVzc2FnZVN0YXJ0DTpjb250ZW50LXR5cGUHABBhcHBsaWNhdGlvbi9qc29uDTptZXNzYWdlLXR5cGUHAAVldmVudHsicCI6ImFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVowMTIiLCJyb2xlIjoiYXNzaXN0YW50In2fX38tAAAAswAAAFfHSmn6CzpldmVudC10eXBlBwARY29udGVudEJsb2NrRGVsdGENOmNvbnRlbnQtdHlwZQcAEGFwcGxpY2F0aW9uL2pzb24NOm1lc3NhZ2UtdHlwZQcABWV2ZW50eyJjb250ZW50QmxvY2tJbmRleCI6MCwiZGVsdGEiOnsidGV4dCI6Ik9LIn0sInAiOiJhYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3gifXbBTlwAAAC+AAAAVz/arUsLOmV2ZW50LXR5cGUHABFjb250ZW50QmxvY2tEZWx0YQ06Y29udGVudC10eXBlBwAQYXBwbGljYXRpb24vanNvbg06bWVzc2FnZS10eXBlBwAFZXZlbnR7ImNvbnRlbnRCbG9ja0luZGV4IjowLCJkZWx0YSI6eyJ0ZXh0IjoiLiJ9LCJwIjoiYWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXpBQkNERUZHSElKIn2GXR0lAAAAhgAAAFbZjG6aCzpldmVudC10eXBlBwAQY29udGVudEJsb2NrU3RvcA06Y29udGVudC10eXBlBwAQYXBwbGljYXRpb24vanNvbg06bWVzc2FnZS10eXBlBwAFZXZlbnR7ImNvbnRlbnRCbG9ja0luZGV4IjowLCJwIjoiYWIiffM4iiAAAADZAAAAUf2royMLOmV2ZW50LXR5cGUHAAttZXNzYWdlU3RvcA06Y29udGVudC10eXBlBwAQYXBwbGljYXRpb24vanNvbg06bWVzc2FnZS10eXBlBwAFZXZlbnR7ImFkZGl0aW9uYWxNb2RlbFJlc3BvbnNlRmllbGRzIjp7ImRlbHRhIjp7InN0b3Bfc2VxdWVuY2UiOm51bGx9fSwicCI6ImFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3Iiwic3RvcFJlYXNvbiI6ImVuZF90dXJuIn0g4kjQAAABAQAAAE4CeknrCzpldmVudC10eXBlBwAIbWV0YWRhdGENOmNvbnRlbnQtdHlwZQcAEGFwcGxpY2F0aW9uL2pzb24NOm1lc3NhZ2UtdHlwZQcABWV2ZW50eyJtZXRyaWNzIjp7ImxhdGVuY3lNcyI6ODAyfSwicCI6ImFiY2RlZmdoaWprbG1ub3BxcnN0dXZ3eHl6QUJDREVGR0hJSktMTU5PUFFSUyIsInVzYWdlIjp7ImlucHV0VG9rZW5zIjoxMiwib3V0cHV0VG9rZW5zIjo1LCJzZXJ2ZXJUb29sVXNhZ2UiOnt9LCJ0b3RhbFRva2VucyI6MTd9fa0jZVA=";
const MODEL_STREAM_ERROR =
  "AAAA3QAAAGfHkZB6DTptZXNzYWdlLXR5cGUHAAlleGNlcHRpb24POmV4Y2VwdGlvbi10eXBlBwAZbW9kZWxTdHJlYW1FcnJvckV4Y2VwdGlvbg06Y29udGVudC10eXBlBwAQYXBwbGljYXRpb24vanNvbnsibWVzc2FnZSI6Ik1vZGVsIFN0cmVhbSBFcnJvciIsIm9yaWdpbmFsU3RhdHVzQ29kZSI6NTAwLCJvcmlnaW5hbE1lc3NhZ2UiOiJUaGUgbW9kZWwgc3RyZWFtIGZhaWxlZC4ifVczQxM=";

describe("frames captured from Bedrock", () => {
  it.each([
    ["a live ConverseStream (6 events)", LIVE_CONVERSE_STREAM, 6],
    ["a modelStreamErrorException", MODEL_STREAM_ERROR, 1],
  ])("%s: decodes with both CRCs and re-encodes byte for byte", (_name, b64, count) => {
    const wire = Uint8Array.from(Buffer.from(b64, "base64"));
    const messages = decodeMessages(wire);
    expect(messages).toHaveLength(count);
    const again = messages.map((m) => encodeMessage(m.headers, m.body));
    expect(Buffer.concat(again).toString("base64")).toBe(b64);
  });

  it("the mock's own event and exception frames use the service's header order", () => {
    const live = decodeMessages(Uint8Array.from(Buffer.from(LIVE_CONVERSE_STREAM, "base64")));
    const event = encodeAwsEvent({ event: "messageStart", data: new TextDecoder().decode(live[0]!.body) });
    expect(hex(event)).toBe(hex(encodeMessage(live[0]!.headers, live[0]!.body)));
    const error = decodeMessages(Uint8Array.from(Buffer.from(MODEL_STREAM_ERROR, "base64")))[0]!;
    const ours = encodeAwsEvent({ event: "modelStreamErrorException", data: new TextDecoder().decode(error.body), exception: true });
    expect(Buffer.from(ours).toString("base64")).toBe(MODEL_STREAM_ERROR);
    // A scripted stream_error with no errorType or message on Bedrock sends exactly this frame.
    expect(Buffer.from(encodeAwsEvent(renderBedrockStreamError({ kind: "stream_error" }))).toString("base64")).toBe(MODEL_STREAM_ERROR);
  });
});

describe("crc32", () => {
  it("gives the check value of CRC-32/ISO-HDLC and continues from a prior CRC", () => {
    const text = new TextEncoder().encode("123456789");
    expect(crc32(text)).toBe(0xcbf43926);
    expect(crc32(text.subarray(4), crc32(text.subarray(0, 4)))).toBe(0xcbf43926);
    expect(crc32(new Uint8Array(0))).toBe(0);
  });
});

describe("encodeMessage", () => {
  it.each(VECTORS)("$name: encodes byte for byte as the SDK's vector", ({ headers, body, encoded }) => {
    expect(hex(encodeMessage(headers, body))).toBe(encoded);
  });

  it.each(VECTORS)("$name: decodes back to the same headers and body", ({ headers, body, encoded }) => {
    const [message, ...rest] = decodeMessages(bytes(encoded));
    expect(rest).toEqual([]);
    expect(new TextDecoder().decode(message!.body)).toBe(body);
    const expected = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, typeof v === "string" ? { type: "string", value: v } : v]));
    expect(message!.headers).toEqual(expected);
  });

  it.each(CORRUPTED)("$name: is refused", ({ encoded }) => {
    expect(() => decodeMessages(bytes(encoded))).toThrow(/event stream/);
  });

  it("round-trips a Bedrock event through the SDK's decoder, and the SDK's encoding through ours", () => {
    const codec = new EventStreamCodec(toUtf8, fromUtf8);
    const payload = JSON.stringify({ contentBlockIndex: 0, delta: { text: "Hé — 東京" } });
    const ours = encodeMessage({ ":event-type": "contentBlockDelta", ":content-type": "application/json", ":message-type": "event" }, payload);
    const decoded = codec.decode(ours);
    expect(decoded.headers).toEqual({
      ":event-type": { type: "string", value: "contentBlockDelta" },
      ":content-type": { type: "string", value: "application/json" },
      ":message-type": { type: "string", value: "event" },
    });
    expect(toUtf8(decoded.body)).toBe(payload);
    expect(hex(codec.encode(decoded))).toBe(hex(ours));
  });

  it("splits a run of messages and refuses one cut off", () => {
    const a = encodeMessage({ ":event-type": "a" }, "{}");
    const b = encodeMessage({ ":event-type": "b" }, '{"x":1}');
    const both = new Uint8Array([...a, ...b]);
    expect(decodeMessages(both).map((m) => m.headers[":event-type"]?.value)).toEqual(["a", "b"]);
    expect(() => decodeMessages(both.subarray(0, both.length - 3))).toThrow(/length/);
  });
});
