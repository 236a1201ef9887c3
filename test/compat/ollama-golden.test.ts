/**
 * Golden wire text: whole Ollama NDJSON streams (and one JSON body) from the running Worker, timestamps
 * normalized, compared byte for byte with test/golden/ollama/*. Regenerate after an intended change with
 * UPDATE_GOLDEN=1 and review the diff.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectGolden, normalize, OLLAMA_CALL_IDS, OLLAMA_CLOCK } from "../support/golden";
import { BROKEN_TEXT, GREETING, GREETING_USAGE, THOUGHT, toolAnswer } from "../support/golden-scenarios";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const SCENARIOS = [
  { name: "og-text", steps: [{ consume: false, respond: { text: GREETING, usage: GREETING_USAGE, stream: { chunkWords: 2 } } }] },
  {
    name: "og-tool",
    steps: [{ consume: false, respond: toolAnswer("call_scripted_1") }],
  },
  { name: "og-thinking", steps: [{ consume: false, respond: { reasoning: THOUGHT, text: "Hi!", stream: { chunkWords: 3 } } }] },
  {
    name: "og-stream-error",
    steps: [{ consume: false, failures: [{ kind: "stream_error", afterChunks: 2, message: "model runner has unexpectedly stopped" }], respond: { text: BROKEN_TEXT } }],
  },
];

async function send(scenario: string, path: "chat" | "generate", body: Record<string, unknown> = {}): Promise<Response> {
  const base = path === "chat" ? { messages: [{ role: "user", content: "Hello" }] } : { prompt: "Hello" };
  return fetch(`${h.url}/s/${scenario}/golden/api/${path}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "llama3.2", ...base, ...body }),
  });
}

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

describe("ollama golden NDJSON transcripts", () => {
  it.each([
    ["og-text", "chat", "chat-text.ndjson"],
    ["og-tool", "chat", "chat-tool-calls.ndjson"],
    ["og-thinking", "chat", "chat-thinking.ndjson"],
    ["og-stream-error", "chat", "chat-stream-error.ndjson"],
    ["og-text", "generate", "generate-text.ndjson"],
    ["og-thinking", "generate", "generate-thinking.ndjson"],
  ] as const)("%s on /api/%s matches %s", async (scenario, path, file) => {
    const res = await send(scenario, path);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/x-ndjson");
    const text = await res.text();
    expect(text.endsWith("\n")).toBe(true);
    for (const line of text.trimEnd().split("\n")) expect(() => JSON.parse(line)).not.toThrow();
    expectGolden(`ollama/${file}`, normalize(text, OLLAMA_CLOCK, OLLAMA_CALL_IDS));
  });

  it("og-tool on /api/chat with stream: false matches chat-tool-calls.json", async () => {
    const res = await send("og-tool", "chat", { stream: false });
    expect(res.headers.get("content-type")).toBe("application/json");
    expectGolden("ollama/chat-tool-calls.json", `${JSON.stringify(JSON.parse(normalize(await res.text(), OLLAMA_CLOCK, OLLAMA_CALL_IDS)), null, 2)}\n`);
  });
});
