/**
 * Golden wire text for the clouds' streams, from the running server on both runtimes, compared with
 * test/golden/{bedrock,vertex}/*. Bedrock's binary event stream is written one frame a line, after its CRCs were
 * checked: the message type, the event (or exception) type, then the payload as sent (InvokeModel's `chunk` bytes
 * decoded below it). Vertex streams are SSE text. Regenerate after an intended change with UPDATE_GOLDEN=1.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeMessages } from "../../src/http/eventstream";
import { expectGolden } from "../support/golden";
import { BROKEN_TEXT, GREETING, GREETING_USAGE, WEATHER_CALL } from "../support/golden-scenarios";
import { startHarness, type Harness } from "./harness";

let h: Harness;
const SIGV4 = "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260101/us-east-1/bedrock/aws4_request, SignedHeaders=host, Signature=0";
const BEDROCK_MODEL = encodeURIComponent("anthropic.claude-3-5-haiku-20241022-v1:0");

const SCENARIOS = [
  { name: "cg-text", steps: [{ respond: { text: GREETING, usage: GREETING_USAGE } }] },
  {
    name: "cg-tool",
    steps: [{ respond: { text: "Checking.", toolCalls: [WEATHER_CALL], stream: { chunkWords: 2 } } }],
  },
  {
    name: "cg-thinking",
    steps: [{ respond: { reasoning: [{ text: "The user greets me.", signature: "c2NyaXB0ZWQ=" }], text: "Hi!", stream: { chunkWords: 3 } } }],
  },
  { name: "cg-stream-error", steps: [{ failures: [{ kind: "stream_error", afterChunks: 2 }], respond: { text: BROKEN_TEXT } }] },
];

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

async function frames(res: Response, inner: boolean): Promise<string> {
  const lines: string[] = [];
  for (const m of decodeMessages(new Uint8Array(await res.arrayBuffer()))) {
    const kind = m.headers[":message-type"]?.value;
    const name = (m.headers[":event-type"] ?? m.headers[":exception-type"])?.value;
    const payload = new TextDecoder().decode(m.body);
    lines.push(`${String(kind)} ${String(name)} ${payload}`);
    if (inner && name === "chunk") lines.push(`  = ${atob((JSON.parse(payload) as { bytes: string }).bytes)}`);
  }
  return `${lines.join("\n")}\n`;
}

const CASES = [
  ["text", "cg-text"],
  ["tool-call", "cg-tool"],
  ["thinking", "cg-thinking"],
  ["stream-error", "cg-stream-error"],
] as const;

function post(path: string, body: unknown, headers: Record<string, string>): Promise<Response> {
  return fetch(`${h.url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
}

describe("bedrock golden event streams", () => {
  it.each(CASES)("converse-stream %s", async (name, scenario) => {
    const res = await post(`/s/${scenario}/converse/model/${BEDROCK_MODEL}/converse-stream`, { messages: [{ role: "user", content: [{ text: "Hello" }] }] }, { authorization: SIGV4 });
    expect([res.status, res.headers.get("content-type")]).toEqual([200, "application/vnd.amazon.eventstream"]);
    expectGolden(`bedrock/converse-stream-${name}.txt`, await frames(res, false));
  });

  it.each(CASES)("invoke-with-response-stream %s", async (name, scenario) => {
    const body = { anthropic_version: "bedrock-2023-05-31", max_tokens: 2048, thinking: { type: "enabled", budget_tokens: 1024 }, messages: [{ role: "user", content: "Hello" }] };
    const res = await post(`/s/${scenario}/invoke/model/${BEDROCK_MODEL}/invoke-with-response-stream`, body, { authorization: SIGV4 });
    expect(res.status).toBe(200);
    expectGolden(`bedrock/invoke-stream-${name}.txt`, await frames(res, true));
  });
});

describe("vertex golden SSE transcripts", () => {
  it.each(CASES)("gemini streamGenerateContent %s", async (name, scenario) => {
    const res = await post(
      `/s/${scenario}/gemini/v1/projects/p/locations/us-central1/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse`,
      { contents: [{ role: "user", parts: [{ text: "Hello" }] }], generationConfig: { thinkingConfig: { includeThoughts: true } } },
      { authorization: "Bearer ya29.fake" },
    );
    expect(res.status).toBe(200);
    expectGolden(`vertex/gemini-${name}.sse`, await res.text());
  });

  it.each(CASES)("claude streamRawPredict %s", async (name, scenario) => {
    const res = await post(
      `/s/${scenario}/claude/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-sonnet-4@20250514:streamRawPredict`,
      { anthropic_version: "vertex-2023-10-16", max_tokens: 2048, stream: true, thinking: { type: "enabled", budget_tokens: 1024 }, messages: [{ role: "user", content: "Hello" }] },
      { authorization: "Bearer ya29.fake" },
    );
    expect(res.status).toBe(200);
    expectGolden(`vertex/claude-${name}.sse`, await res.text());
  });
});
