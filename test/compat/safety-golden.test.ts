/**
 * Golden wire text of the `content_filter` failure (contract section 10, "Safety outcomes") on every surface, JSON
 * and stream, from the running server on both runtimes, compared with test/golden/safety/*. One scenario blocks the
 * prompt, one stops the answer after two chunks; each request runs in its own session, so each is attempt 1.
 * Bedrock's binary event streams are written one frame a line (as in clouds-golden). Regenerate after an intended
 * change with UPDATE_GOLDEN=1 and review the diff.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeMessages } from "../../src/http/eventstream";
import { expectGolden, normalize, OLLAMA_CLOCK, OLLAMA_DURATIONS } from "../support/golden";
import { startHarness, type Harness } from "./harness";

let h: Harness;
const SIGV4 = "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260101/us-east-1/bedrock/aws4_request, SignedHeaders=host, Signature=0";
const CLAUDE = encodeURIComponent("anthropic.claude-3-5-haiku-20241022-v1:0");
const NOVA = encodeURIComponent("amazon.nova-lite-v1:0");
const TEXT = "Here is how you would do that, step by step.";

const SCENARIOS = [
  {
    name: "safety-prompt",
    steps: [{ failures: [{ kind: "content_filter", on: "prompt", categories: ["violence"] }], respond: { text: TEXT, usage: { inputTokens: 12, outputTokens: 9 } } }],
  },
  {
    name: "safety-completion",
    steps: [
      {
        failures: [{ kind: "content_filter", on: "completion", afterChunks: 2, categories: ["sexual", "harassment"], message: "The answer was stopped." }],
        respond: { text: TEXT, usage: { inputTokens: 12, outputTokens: 9 }, stream: { chunkWords: 2 } },
      },
    ],
  },
];

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

let sessions = 0;
function post(scenario: string, path: string, body: unknown, headers: Record<string, string>): Promise<Response> {
  return fetch(`${h.url}/s/${scenario}/g${++sessions}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

async function frames(res: Response): Promise<string> {
  const lines: string[] = [];
  for (const m of decodeMessages(new Uint8Array(await res.arrayBuffer()))) {
    const name = (m.headers[":event-type"] ?? m.headers[":exception-type"])?.value;
    const payload = new TextDecoder().decode(m.body);
    lines.push(`${String(m.headers[":message-type"]?.value)} ${String(name)} ${payload}`);
    if (name === "chunk") lines.push(`  = ${atob((JSON.parse(payload) as { bytes: string }).bytes)}`);
  }
  return `${lines.join("\n")}\n`;
}

const BEARER = { authorization: "Bearer sk-test" };
const ANTHROPIC = { "x-api-key": "k", "anthropic-version": "2023-06-01" };
const GOOGLE = { "x-goog-api-key": "k" };
const VERTEX = { authorization: "Bearer ya29.fake" };
const USER = [{ role: "user", content: "Hello" }];
const GEMINI_BODY = { contents: [{ role: "user", parts: [{ text: "Hello" }] }] };
const CLAUDE_BODY = { anthropic_version: "bedrock-2023-05-31", max_tokens: 1024, messages: USER };
const VERTEX_CLAUDE = { anthropic_version: "vertex-2023-10-16", max_tokens: 1024, messages: USER };
const VERTEX_PATH = "/v1/projects/p/locations/us-central1/publishers";

/** [golden name, path, body, headers, how the body is written]. */
const CASES: [string, string, unknown, Record<string, string>, "text" | "ollama" | "frames"][] = [
  ["openai-chat.json", "/v1/chat/completions", { model: "gpt-4o", messages: USER }, BEARER, "text"],
  ["openai-chat.sse", "/v1/chat/completions", { model: "gpt-4o", messages: USER, stream: true }, BEARER, "text"],
  ["openai-responses.json", "/v1/responses", { model: "gpt-4o", input: "Hello" }, BEARER, "text"],
  ["openai-responses.sse", "/v1/responses", { model: "gpt-4o", input: "Hello", stream: true }, BEARER, "text"],
  ["anthropic.json", "/v1/messages", { model: "claude-sonnet-4-5", max_tokens: 1024, messages: USER }, ANTHROPIC, "text"],
  ["anthropic.sse", "/v1/messages", { model: "claude-sonnet-4-5", max_tokens: 1024, messages: USER, stream: true }, ANTHROPIC, "text"],
  ["gemini.json", "/v1beta/models/gemini-2.5-flash:generateContent", GEMINI_BODY, GOOGLE, "text"],
  ["gemini.sse", "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse", GEMINI_BODY, GOOGLE, "text"],
  ["vertex-gemini.json", `${VERTEX_PATH}/google/models/gemini-2.5-flash:generateContent`, GEMINI_BODY, VERTEX, "text"],
  ["vertex-gemini.sse", `${VERTEX_PATH}/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse`, GEMINI_BODY, VERTEX, "text"],
  ["vertex-claude.json", `${VERTEX_PATH}/anthropic/models/claude-sonnet-4@20250514:rawPredict`, VERTEX_CLAUDE, VERTEX, "text"],
  ["vertex-claude.sse", `${VERTEX_PATH}/anthropic/models/claude-sonnet-4@20250514:streamRawPredict`, { ...VERTEX_CLAUDE, stream: true }, VERTEX, "text"],
  ["bedrock-converse.json", `/model/${NOVA}/converse`, { messages: [{ role: "user", content: [{ text: "Hello" }] }] }, { authorization: SIGV4 }, "text"],
  [
    "bedrock-converse-stream.txt",
    `/model/${NOVA}/converse-stream`,
    { messages: [{ role: "user", content: [{ text: "Hello" }] }], guardrailConfig: { guardrailIdentifier: "gr-abc123", guardrailVersion: "1", trace: "enabled" } },
    { authorization: SIGV4 },
    "frames",
  ],
  ["bedrock-invoke.json", `/model/${CLAUDE}/invoke`, CLAUDE_BODY, { authorization: SIGV4 }, "text"],
  ["bedrock-invoke-stream.txt", `/model/${CLAUDE}/invoke-with-response-stream`, CLAUDE_BODY, { authorization: SIGV4 }, "frames"],
  ["ollama-chat.json", "/api/chat", { model: "llama3.2", messages: USER, stream: false }, {}, "ollama"],
  ["ollama-chat.ndjson", "/api/chat", { model: "llama3.2", messages: USER }, {}, "ollama"],
];

describe.each(["prompt", "completion"] as const)("content_filter on %s: golden wire text", (on) => {
  it.each(CASES)("%s", async (name, path, body, headers, write) => {
    const res = await post(`safety-${on}`, path, body, headers);
    expect([res.status, res.headers.get("x-mockllm-outcome")]).toEqual([200, "failure"]);
    const text = write === "frames" ? await frames(res) : write === "ollama" ? normalize(await res.text(), OLLAMA_CLOCK, OLLAMA_DURATIONS) : await res.text();
    expectGolden(`safety/${on}/${name}`, text);
  });
});
