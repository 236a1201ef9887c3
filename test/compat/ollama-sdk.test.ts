/**
 * The official `ollama` JS client against the Worker on a random port: `/api/chat`, `/api/generate` (JSON and
 * NDJSON streams), `/api/tags`, `/api/show`, `/api/version`, and failures as the client surfaces them.
 * The client keeps the host's path, so `host: ${url}/s/{scenario}/{session}` reaches `/s/…/api/chat`.
 */
import { Ollama, type ChatResponse, type Message } from "ollama";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;
const client = (scenario: string, session: string) => new Ollama({ host: `${h.url}/s/${scenario}/${session}` });

const weatherTool = {
  type: "function",
  function: { name: "get_weather", description: "Current weather", parameters: { type: "object", properties: { city: { type: "string" } } } },
};

const SCENARIOS = [
  {
    name: "o-hello",
    steps: [{ consume: false, respond: { text: "Hello from the script.", model: "llama3.2:3b", usage: { inputTokens: 12, outputTokens: 5 } } }],
  },
  { name: "o-stream", steps: [{ consume: false, respond: { text: "One two three four five.", stream: { chunkWords: 2 } } }] },
  {
    name: "o-tools",
    steps: [
      {
        id: "ask",
        match: { turn: 1, tools: ["get_weather"], provider: "ollama", endpoint: "chat" },
        respond: { toolCalls: [{ name: "get_weather", arguments: { city: "Paris", detail: { hourly: true } } }] },
      },
      {
        id: "answer",
        match: { toolResult: { name: "get_weather", content: { contains: "sunny" } } },
        respond: { text: "It is sunny in Paris." },
      },
    ],
  },
  {
    name: "o-think",
    steps: [
      {
        match: { provider: "ollama" },
        expect: { reasoning: "enabled", temperature: 0.2, maxTokens: 64 },
        consume: false,
        respond: { reasoning: "The user greets. Greet back.", text: "Hi!", usage: { outputTokens: 9 } },
      },
    ],
  },
  { name: "o-length", steps: [{ consume: false, respond: { text: "cut", finishReason: "length" } }] },
  { name: "o-bad-args", steps: [{ consume: false, respond: { toolCalls: [{ name: "get_weather", arguments: '{"city": "Par' }] } }] },
  { name: "o-rate", steps: [{ failures: [{ kind: "rate_limit", retryAfterMs: 2000 }], respond: { text: "ok" } }] },
  { name: "o-overloaded", steps: [{ failures: [{ kind: "overloaded" }], respond: { text: "ok" } }] },
  {
    name: "o-stream-error",
    steps: [{ failures: [{ kind: "stream_error", afterChunks: 2, message: "model runner crashed" }], respond: { text: "a b c d e f", stream: { chunkWords: 1 } } }],
  },
  { name: "o-mismatch", steps: [{ id: "weather-only", match: { lastUserMessage: { contains: "weather" } }, respond: { text: "x" } }] },
];

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

const hi: Message[] = [{ role: "user", content: "hi" }];

describe("ollama client: chat", () => {
  it("answers a non-streaming chat with counts and nanosecond durations", async () => {
    const res = await client("o-hello", "json").chat({ model: "llama3.2", messages: hi });
    expect(res).toMatchObject({
      model: "llama3.2:3b",
      message: { role: "assistant", content: "Hello from the script." },
      done: true,
      done_reason: "stop",
      prompt_eval_count: 12,
      eval_count: 5,
      prompt_eval_duration: 24_000_000,
      eval_duration: 100_000_000,
    });
    expect(res.total_duration).toBe(res.load_duration + res.prompt_eval_duration + res.eval_duration);
    expect(String(res.created_at)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z$/);
  });

  it("streams NDJSON parts that assemble the text, ending with done: true", async () => {
    const parts: ChatResponse[] = [];
    for await (const part of await client("o-stream", "s1").chat({ model: "llama3.2", messages: hi, stream: true })) parts.push(part);
    expect(parts.map((p) => p.message.content)).toEqual(["One two", " three four", " five.", ""]);
    expect(parts.map((p) => p.done)).toEqual([false, false, false, true]);
    expect(parts.at(-1)).toMatchObject({ done_reason: "stop", prompt_eval_count: 64, eval_count: 32 });
  });

  it("streams by default when the request leaves stream out (and reads a curl -d form-typed body as JSON)", async () => {
    const res = await fetch(`${h.url}/s/o-stream/raw/api/chat`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: JSON.stringify({ model: "llama3.2", messages: hi }),
    });
    expect(res.headers.get("content-type")).toBe("application/x-ndjson");
    const lines = (await res.text())
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.message.content).join("")).toBe("One two three four five.");
    expect((await h.journal("o-stream", "raw"))[0]).toMatchObject({ provider: "ollama", endpoint: "chat", stream: true });
  });

  it.each([false, true])("runs a tool-call loop, the answer selected by the tool result (stream: %s)", async (stream) => {
    const ollama = client("o-tools", `loop-${stream}`);
    const collect = async (messages: Message[]): Promise<Message> => {
      if (!stream) return (await ollama.chat({ model: "qwen3", messages, tools: [weatherTool] })).message;
      const out: Message = { role: "assistant", content: "" };
      for await (const part of await ollama.chat({ model: "qwen3", messages, tools: [weatherTool], stream: true })) {
        out.content += part.message.content;
        if (part.message.tool_calls) out.tool_calls = [...(out.tool_calls ?? []), ...part.message.tool_calls];
      }
      return out;
    };
    const messages: Message[] = [{ role: "user", content: "Weather in Paris?" }];
    const first = await collect(messages);
    expect(first.content).toBe("");
    expect(first.tool_calls).toEqual([{ id: expect.stringMatching(/^call_[0-9a-z]{8}$/), function: { index: 0, name: "get_weather", arguments: { city: "Paris", detail: { hourly: true } } } }]);
    messages.push(first, { role: "tool", content: "sunny, 24C", tool_name: "get_weather" });
    const second = await collect(messages);
    expect(second.content).toBe("It is sunny in Paris.");
    const journal = await h.journal("o-tools", `loop-${stream}`);
    expect(journal.map((j) => [j.turn, j.step, j.stream])).toEqual([
      [1, "ask", stream],
      [2, "answer", stream],
    ]);
  });

  it("sends thinking when asked with think, and reads options as expectations", async () => {
    const res = await client("o-think", "json").chat({
      model: "qwen3",
      messages: hi,
      think: "high",
      options: { temperature: 0.2, num_predict: 64 },
    });
    expect(res.message).toEqual({ role: "assistant", content: "Hi!", thinking: "The user greets. Greet back." });
    expect(res.eval_count).toBe(9);

    const thinking: string[] = [];
    const content: string[] = [];
    for await (const part of await client("o-think", "stream").chat({
      model: "qwen3",
      messages: hi,
      think: true,
      stream: true,
      options: { temperature: 0.2, num_predict: 64 },
    })) {
      if (part.message.thinking) thinking.push(part.message.thinking);
      content.push(part.message.content);
    }
    expect(thinking.join("")).toBe("The user greets. Greet back.");
    expect(content.join("")).toBe("Hi!");
  });

  it("reports done_reason length for a reply cut by the token limit", async () => {
    const res = await client("o-length", "json").chat({ model: "llama3.2", messages: hi });
    expect(res.done_reason).toBe("length");
  });

  it("wraps scripted arguments that are not a JSON object as { INVALID_JSON }", async () => {
    const res = await client("o-bad-args", "json").chat({ model: "llama3.2", messages: hi, tools: [weatherTool] });
    expect(res.message.tool_calls?.[0]?.function.arguments).toEqual({ INVALID_JSON: '{"city": "Par' });
  });
});

describe("ollama client: generate", () => {
  it("answers a non-streaming generate with response and counts, and no context (Ollama omits an empty one)", async () => {
    const res = await client("o-hello", "gen").generate({ model: "llama3.2", prompt: "hi", system: "Be brief." });
    expect(res).toMatchObject({
      model: "llama3.2:3b",
      response: "Hello from the script.",
      done: true,
      done_reason: "stop",
      prompt_eval_count: 12,
      eval_count: 5,
    });
    expect(res).not.toHaveProperty("context");
    const [entry] = await h.journal("o-hello", "gen");
    expect(entry).toMatchObject({ provider: "ollama", endpoint: "generate", stream: false });
  });

  it("streams a generate as response chunks and a final done line", async () => {
    const parts = [];
    for await (const part of await client("o-stream", "gen").generate({ model: "llama3.2", prompt: "hi", stream: true })) parts.push(part);
    expect(parts.map((p) => p.response)).toEqual(["One two", " three four", " five.", ""]);
    expect(parts.at(-1)).toMatchObject({ done: true, done_reason: "stop", eval_count: 32 });
    expect(parts.at(-1)).not.toHaveProperty("context");
  });
});

describe("ollama client: models", () => {
  it("lists the models the scenarios mention, plus the default, as tags", async () => {
    const { models } = await client("o-hello", "tags").list();
    const names = models.map((m) => m.name);
    expect(names).toContain("mockllm-default:latest");
    expect(names).toContain("llama3.2:3b");
    expect(models.find((m) => m.name === "llama3.2:3b")).toEqual({
      name: "llama3.2:3b",
      model: "llama3.2:3b",
      modified_at: "2025-01-01T00:00:00Z",
      size: expect.any(Number),
      digest: expect.stringMatching(/^[0-9a-f]{64}$/),
      details: { parent_model: "", format: "gguf", family: "llama", families: ["llama"], parameter_size: "8.0B", quantization_level: "Q4_K_M" },
    });
  });

  it("answers show and version", async () => {
    const ollama = new Ollama({ host: h.url });
    const show = await ollama.show({ model: "qwen3" });
    expect(show.capabilities).toEqual(["completion", "tools", "thinking"]);
    expect(show.details.family).toBe("qwen");
    // 0.12.10 and later send tool-call ids, as mockllm does.
    expect(await ollama.version()).toEqual({ version: "0.12.10" });
  });
});

describe("ollama client: failures", () => {
  it("surfaces a scripted rate limit as ResponseError 429 with retry headers on the wire", async () => {
    const err = await client("o-rate", "c1")
      .chat({ model: "llama3.2", messages: hi })
      .catch((e) => e);
    expect(err.name).toBe("ResponseError");
    expect(err.status_code).toBe(429);
    expect(err.error).toBe("rate limit exceeded");
    const raw = await fetch(`${h.url}/s/o-rate/raw/api/chat`, { method: "POST", body: JSON.stringify({ model: "m", messages: hi }) });
    expect(raw.status).toBe(429);
    expect(raw.headers.get("retry-after")).toBe("2");
    expect(raw.headers.get("retry-after-ms")).toBe("2000");
    expect(await raw.json()).toEqual({ error: "rate limit exceeded" });
  });

  it("answers overloaded with 503", async () => {
    const err = await client("o-overloaded", "c1")
      .chat({ model: "llama3.2", messages: hi })
      .catch((e) => e);
    expect(err.status_code).toBe(503);
  });

  it("throws from the iterator on a mid-stream error line", async () => {
    const seen: string[] = [];
    const run = async () => {
      for await (const part of await client("o-stream-error", "c1").chat({ model: "llama3.2", messages: hi, stream: true })) {
        seen.push(part.message.content);
      }
    };
    await expect(run()).rejects.toThrow("model runner crashed");
    expect(seen).toEqual(["a", " b"]);
  });

  it("answers a mismatch with 400 and a message starting mockllm:", async () => {
    const err = await client("o-mismatch", "c1")
      .chat({ model: "llama3.2", messages: hi })
      .catch((e) => e);
    expect(err.status_code).toBe(400);
    expect(err.error).toMatch(/^mockllm: scenario "o-mismatch" session "c1" turn 1: no step matches/);
  });

  it("answers an unknown scenario with 404 naming it", async () => {
    const err = await client("o-nope", "c1")
      .chat({ model: "llama3.2", messages: hi })
      .catch((e) => e);
    expect(err.status_code).toBe(404);
    expect(err.error).toBe('mockllm: scenario "o-nope" not found');
  });

  it.each([
    ["no model", JSON.stringify({ messages: hi }), "model is required"],
    ["malformed JSON", '{"model":', /^We could not parse the JSON body/],
    ["empty body", "", "missing request body"],
    ["content of the wrong type", JSON.stringify({ model: "m", messages: [{ role: "user", content: 1 }] }), "json: cannot unmarshal number into Go struct field .messages.content of type string"],
    ["a bad think value", JSON.stringify({ model: "m", think: "max" }), 'invalid think value: "max" (must be "high", "medium", "low", true, or false)'],
  ])("answers bad input (%s) with 400 { error }", async (_label, body, message) => {
    const res = await fetch(`${h.url}/api/chat`, { method: "POST", body });
    expect(res.status).toBe(400);
    expect(res.headers.get("content-type")).toBe("application/json");
    const json = (await res.json()) as { error: string };
    expect(Object.keys(json)).toEqual(["error"]);
    if (typeof message === "string") expect(json.error).toBe(message);
    else expect(json.error).toMatch(message);
  });

  it("rejects a missing model through the client too", async () => {
    const err = await new Ollama({ host: h.url }).generate({ model: "", prompt: "hi" }).catch((e) => e);
    expect([err.status_code, err.error]).toEqual([400, "model is required"]);
  });
});
