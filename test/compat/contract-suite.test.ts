/**
 * The shared contract suite: one set of behaviours, one scenario per behaviour, run against every provider
 * surface through its official SDK. A scenario does not care which surface asks.
 */
import Anthropic from "@anthropic-ai/sdk";
import { ApiError, GoogleGenAI, type Content, type GenerateContentResponse } from "@google/genai";
import OpenAI from "openai";
import { Ollama, type Message as OllamaMessage } from "ollama";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

/** What a turn looks like to the suite, whichever wire it crossed. */
interface Turn {
  text: string;
  toolCalls: { id: string; name: string; input: unknown }[];
  usage: { input: number; output: number };
}

interface ToolResult {
  id: string;
  name: string;
  content: string;
  call: Turn;
}

interface Driver {
  name: string;
  /** Sends one turn: the user message, optionally the previous turn and its tool result. */
  send(scenario: string, session: string, opts: { user: string; stream: boolean; maxRetries?: number; result?: ToolResult }): Promise<Turn>;
}

const TOOL = { name: "get_weather", schema: { type: "object" as const, properties: { city: { type: "string" } } } };

const openaiChat: Driver = {
  name: "openai chat.completions",
  async send(scenario, session, { user, stream, maxRetries = 0, result }) {
    const client = new OpenAI({ apiKey: "sk", baseURL: `${h.url}/s/${scenario}/${session}/v1`, maxRetries });
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: user }];
    if (result) {
      messages.push({
        role: "assistant",
        content: result.call.text || null,
        tool_calls: result.call.toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: JSON.stringify(c.input) } })),
      });
      messages.push({ role: "tool", tool_call_id: result.id, content: result.content });
    }
    const params = { model: "gpt-4o-mini", messages, tools: [{ type: "function" as const, function: { name: TOOL.name, parameters: TOOL.schema } }] };
    const completion = stream ? await client.chat.completions.stream({ ...params, stream_options: { include_usage: true } }).finalChatCompletion() : await client.chat.completions.create(params);
    const msg = completion.choices[0]!.message;
    return {
      text: msg.content ?? "",
      toolCalls: (msg.tool_calls ?? []).flatMap((c) => (c.type === "function" ? [{ id: c.id, name: c.function.name, input: JSON.parse(c.function.arguments) }] : [])),
      usage: { input: completion.usage!.prompt_tokens, output: completion.usage!.completion_tokens },
    };
  },
};

const anthropicMessages: Driver = {
  name: "anthropic messages",
  async send(scenario, session, { user, stream, maxRetries = 0, result }) {
    const client = new Anthropic({ apiKey: "sk", baseURL: `${h.url}/s/${scenario}/${session}`, maxRetries });
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: user }];
    if (result) {
      messages.push({
        role: "assistant",
        content: [
          ...(result.call.text ? [{ type: "text" as const, text: result.call.text }] : []),
          ...result.call.toolCalls.map((c) => ({ type: "tool_use" as const, id: c.id, name: c.name, input: c.input })),
        ],
      });
      messages.push({ role: "user", content: [{ type: "tool_result", tool_use_id: result.id, content: result.content }] });
    }
    const params = { model: "claude-sonnet-4-5", max_tokens: 1024, messages, tools: [{ name: TOOL.name, input_schema: TOOL.schema }] };
    const message = stream ? await client.messages.stream(params).finalMessage() : await client.messages.create(params);
    return {
      text: message.content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join(""),
      toolCalls: message.content.flatMap((b) => (b.type === "tool_use" ? [{ id: b.id, name: b.name, input: b.input }] : [])),
      usage: { input: message.usage.input_tokens, output: message.usage.output_tokens },
    };
  },
};

/**
 * The ollama client neither retries nor keeps a status on its errors the way the other SDKs do, so the driver
 * retries ResponseErrors itself (as an Ollama user's code would) and reports them as `{ status, error: { message } }`.
 */
const ollamaChat: Driver = {
  name: "ollama chat",
  async send(scenario, session, { user, stream, maxRetries = 0, result }) {
    const client = new Ollama({ host: `${h.url}/s/${scenario}/${session}` });
    const messages: OllamaMessage[] = [{ role: "user", content: user }];
    if (result) {
      messages.push({
        role: "assistant",
        content: result.call.text,
        tool_calls: result.call.toolCalls.map((c) => ({ function: { name: c.name, arguments: c.input as Record<string, unknown> } })),
      });
      messages.push({ role: "tool", content: result.content, tool_name: result.name });
    }
    const params = { model: "llama3.2", messages, tools: [{ type: "function", function: { name: TOOL.name, parameters: TOOL.schema } }] };
    const once = async (): Promise<Turn> => {
      const turn: Turn = { text: "", toolCalls: [], usage: { input: 0, output: 0 } };
      const parts = stream ? await client.chat({ ...params, stream: true }) : [await client.chat({ ...params, stream: false })];
      for await (const part of parts) {
        turn.text += part.message.content;
        for (const c of part.message.tool_calls ?? []) turn.toolCalls.push({ id: (c as { id?: string }).id ?? "", name: c.function.name, input: c.function.arguments });
        if (part.done) turn.usage = { input: part.prompt_eval_count, output: part.eval_count };
      }
      return turn;
    };
    for (let attempt = 0; ; attempt++) {
      try {
        return await once();
      } catch (e) {
        const status = (e as { status_code?: number }).status_code;
        if (status === undefined) throw e;
        if (attempt < maxRetries && (status === 429 || status >= 500)) continue;
        throw { status, error: { message: (e as { error: string }).error } };
      }
    }
  },
};

/**
 * js-genai retries only when given `retryOptions` (attempts include the first call), and its ApiError carries the
 * response body as JSON text in `message`: the driver reports it as `{ status, error: { message, … } }`.
 */
const geminiGenerateContent: Driver = {
  name: "gemini generateContent",
  async send(scenario, session, { user, stream, maxRetries = 0, result }) {
    const client = new GoogleGenAI({
      apiKey: "sk",
      httpOptions: { baseUrl: `${h.url}/s/${scenario}/${session}`, retryOptions: { attempts: maxRetries + 1, initialDelay: 0 } },
    });
    const contents: Content[] = [{ role: "user", parts: [{ text: user }] }];
    if (result) {
      contents.push({
        role: "model",
        parts: [...(result.call.text ? [{ text: result.call.text }] : []), ...result.call.toolCalls.map((c) => ({ functionCall: { name: c.name, args: c.input as Record<string, unknown> } }))],
      });
      contents.push({ role: "user", parts: [{ functionResponse: { name: result.name, response: { output: result.content } } }] });
    }
    const params = {
      model: "gemini-2.5-flash",
      contents,
      config: { tools: [{ functionDeclarations: [{ name: TOOL.name, parametersJsonSchema: TOOL.schema }] }] },
    };
    const responses: GenerateContentResponse[] = [];
    try {
      if (stream) for await (const c of await client.models.generateContentStream(params)) responses.push(c);
      else responses.push(await client.models.generateContent(params));
    } catch (e) {
      if (!(e instanceof ApiError)) throw e;
      throw { status: e.status, error: (JSON.parse(e.message) as { error: unknown }).error };
    }
    const parts = responses.flatMap((r) => r.candidates?.[0]?.content?.parts ?? []);
    const usage = responses.at(-1)!.usageMetadata!;
    return {
      text: parts.flatMap((p) => (typeof p.text === "string" && p.thought !== true ? [p.text] : [])).join(""),
      // Gemini calls carry no id: clients answer by function name.
      toolCalls: parts.flatMap((p) => (p.functionCall ? [{ id: p.functionCall.id ?? p.functionCall.name!, name: p.functionCall.name!, input: p.functionCall.args }] : [])),
      usage: { input: usage.promptTokenCount!, output: usage.candidatesTokenCount! },
    };
  },
};

const SCENARIOS = [
  { name: "cs-text", steps: [{ consume: false, respond: { text: "Plain answer.", usage: { inputTokens: 20, outputTokens: 3 } } }] },
  {
    name: "cs-tools",
    steps: [
      { id: "ask", match: { turn: 1 }, respond: { text: "Checking.", toolCalls: [{ name: "get_weather", arguments: { city: "Rome" } }] } },
      { id: "answer", match: { toolResult: { name: "get_weather", content: { contains: "warm" } } }, respond: { text: "Warm in Rome." } },
    ],
  },
  {
    name: "cs-retry",
    steps: [
      {
        failures: [
          { kind: "rate_limit", retryAfterMs: 1 },
          { kind: "overloaded", retryAfterMs: 1 },
        ],
        respond: { text: "third time lucky" },
      },
    ],
  },
  { name: "cs-paced", steps: [{ consume: false, respond: { text: "a b c d", stream: { chunkWords: 1, tokensPerSecond: 40 } } }] },
  { name: "cs-mismatch", steps: [{ id: "only-weather", match: { lastUserMessage: { contains: "weather" } }, respond: { text: "x" } }] },
  { name: "cs-sessions", steps: [{ respond: { text: "first" } }, { respond: { text: "second" } }] },
];

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

describe.each([openaiChat, anthropicMessages, ollamaChat, geminiGenerateContent])("contract suite: $name", (driver) => {
  const session = (s: string) => `${driver.name.split(" ")[0]}-${s}`;

  it.each([false, true])("text with scripted usage (stream: %s)", async (stream) => {
    const turn = await driver.send("cs-text", session(`text-${stream}`), { user: "hi", stream });
    expect(turn).toEqual({ text: "Plain answer.", toolCalls: [], usage: { input: 20, output: 3 } });
  });

  it.each([false, true])("a tool call, then an answer selected by its result (stream: %s)", async (stream) => {
    const s = session(`tools-${stream}`);
    const first = await driver.send("cs-tools", s, { user: "weather in Rome?", stream });
    expect(first.text).toBe("Checking.");
    expect(first.toolCalls).toEqual([{ id: expect.any(String), name: "get_weather", input: { city: "Rome" } }]);
    const call = first.toolCalls[0]!;
    const second = await driver.send("cs-tools", s, {
      user: "weather in Rome?",
      stream,
      result: { id: call.id, name: call.name, content: "warm, 28C", call: first },
    });
    expect(second.text).toBe("Warm in Rome.");
    expect((await h.journal("cs-tools", s)).map((j) => [j.turn, j.step])).toEqual([
      [1, "ask"],
      [2, "answer"],
    ]);
  });

  it("two scripted failures, then success with the SDK's own retries", async () => {
    const turn = await driver.send("cs-retry", session("retry"), { user: "hi", stream: false, maxRetries: 2 });
    expect(turn.text).toBe("third time lucky");
    expect((await h.journal("cs-retry", session("retry"))).map((j) => j.outcome)).toEqual(["failure", "failure", "response"]);
  });

  it("paced streaming still assembles the exact text", async () => {
    expect((await driver.send("cs-paced", session("paced"), { user: "hi", stream: true })).text).toBe("a b c d");
  });

  it("a mismatch is a 400 whose message starts mockllm:", async () => {
    const err = await driver.send("cs-mismatch", session("mismatch"), { user: "hello", stream: false }).catch((e) => e);
    expect(err.status).toBe(400);
    // openai-node keeps `body.error`; the Anthropic SDK keeps the whole body `{ type, error: { type, message } }`.
    const message: string = err.error?.error?.message ?? err.error?.message;
    expect(message).toMatch(/^mockllm: scenario "cs-mismatch" session "[a-z]+-mismatch" turn 1: no step matches/);
    expect((await h.journal("cs-mismatch", session("mismatch")))[0]).toMatchObject({ outcome: "mismatch", status: 400 });
  });

  it("sessions are independent and ordered", async () => {
    const a1 = await driver.send("cs-sessions", session("a"), { user: "x", stream: false });
    const b1 = await driver.send("cs-sessions", session("b"), { user: "x", stream: true });
    const a2 = await driver.send("cs-sessions", session("a"), { user: "x", stream: true });
    expect([a1.text, b1.text, a2.text]).toEqual(["first", "first", "second"]);
  });
});
