/**
 * `mockllm serve` (the Node runtime) reads the OpenTelemetry settings at start-up: a protocol it cannot honour (grpc)
 * is told once in its log then, not at the first call; an OTLP span still goes out, as http/protobuf (issue 58).
 */
import OpenAI from "openai";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { RunningServer } from "../../src/hosts/node/server";
import { startOtlpReceiver, type OtlpReceiver } from "../support/otlp-receiver";
import { startQuietServer } from "../support/server";

let receiver: OtlpReceiver;
let server: RunningServer;
const log: string[] = [];

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  server = await startQuietServer({ adminToken: "t", log: (line) => log.push(line), vars: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" } });
});
afterAll(async () => {
  await server?.close();
  await receiver?.close();
});

it("grpc: one warning at start-up, then spans as OTLP/HTTP protobuf", async () => {
  expect(log.filter((l) => l.includes("OTEL_EXPORTER_OTLP_PROTOCOL"))).toEqual([
    `mockllm: OTEL_EXPORTER_OTLP_PROTOCOL=grpc is not supported; spans go to ${receiver.url}/v1/traces as OTLP/HTTP protobuf instead (a Collector's OTLP receiver takes it on port 4318)`,
  ]);
  const client = new OpenAI({ apiKey: "sk-test", baseURL: `${server.url}/v1`, maxRetries: 0 });
  await client.chat.completions.create({ model: "gpt-4o", messages: [{ role: "user", content: "hi" }] });
  const [span] = await receiver.spans(1);
  expect(receiver.exports[0]!.contentType).toBe("application/x-protobuf");
  expect(span!.attributes).toMatchObject({ "gen_ai.provider.name": "openai", "mockllm.outcome": "default" });
  expect(log.filter((l) => l.includes("OTEL_EXPORTER_OTLP_PROTOCOL"))).toHaveLength(1);
});
