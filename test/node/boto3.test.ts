// boto3 (Python) against the Node runtime's Bedrock surface (issue 22): converse, converse_stream with a
// mid-stream exception, a retried 429, invoke_model_with_response_stream. Skipped where python3 has no boto3.
import { spawn, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningServer } from "../../src/hosts/node/server";
import { startQuietServer } from "../support/server";

const SCRIPT = fileURLToPath(new URL("./python/bedrock_boto3.py", import.meta.url));
const hasBoto3 = spawnSync("python3", ["-c", "import boto3"], { stdio: "ignore" }).status === 0;

let server: RunningServer;
beforeAll(async () => {
  server = await startQuietServer({ adminToken: "boto-token" });
  const steps = [
    { match: { lastUserMessage: "hello" }, respond: { text: "Hello from Bedrock.", usage: { inputTokens: 9, outputTokens: 4 } } },
    { match: { lastUserMessage: "stream please" }, consume: false, respond: { text: "One two three four five.", stream: { chunkWords: 2 } } },
    { match: { lastUserMessage: "flaky" }, failures: [{ kind: "rate_limit" }], respond: { text: "after a retry" } },
    { match: { lastUserMessage: "cut" }, failures: [{ kind: "stream_error", afterChunks: 2, errorType: "throttlingException", message: "Slow down." }], respond: { text: "a b c d" } },
  ];
  const res = await fetch(`${server.url}/admin/scenarios`, {
    method: "POST",
    headers: { authorization: "Bearer boto-token", "content-type": "application/json" },
    body: JSON.stringify([{ name: "boto", steps }]),
  });
  expect(res.status).toBe(200);
});
afterAll(() => server?.close());

describe.skipIf(!hasBoto3)("boto3 bedrock-runtime", () => {
  it("converse, converse_stream, a retried 429, invoke_model_with_response_stream, a mid-stream throttlingException (EventStreamError)", async () => {
    const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn("python3", [SCRIPT, `${server.url}/s/boto/run`]);
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d: Buffer) => (stdout += d));
      child.stderr.on("data", (d: Buffer) => (stderr += d));
      child.on("close", (status) => resolve({ status, stdout, stderr }));
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({
      converse: { content: [{ text: "Hello from Bedrock." }], stopReason: "end_turn", usage: { cacheReadInputTokens: 0, cacheWriteInputTokens: 0, inputTokens: 9, outputTokens: 4, totalTokens: 13 } },
      converse_stream: {
        events: ["messageStart", "contentBlockDelta", "contentBlockDelta", "contentBlockDelta", "contentBlockStop", "messageStop", "metadata"],
        text: "One two three four five.",
      },
      retried: { content: [{ text: "after a retry" }], attempts: 1 },
      invoke_stream: ["message_start", "content_block_start", "content_block_delta", "content_block_delta", "content_block_delta", "content_block_stop", "message_delta", "message_stop"],
      cut: { code: "throttlingException", message: "Slow down." },
    });
  }, 60_000);
});
