/**
 * Every bundled scenario in scenarios/ (the agent-loop gallery), driven through the official SDKs the way an agent
 * loop would drive them. Each test uses its own session, so the bundled scripts start fresh.
 */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI, { APIError, RateLimitError } from "openai";
import type { ChatCompletion, ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.stop());

const MODEL = "gpt-4o-mini";
const CLAUDE = "claude-haiku-4-5";
let sessions = 0;

/** An OpenAI client bound to a bundled scenario and a fresh session. */
function openai(scenario: string, opts: { maxRetries?: number } = {}) {
  const session = `g${++sessions}`;
  const client = new OpenAI({ baseURL: `${h.url}/s/${scenario}/${session}/v1`, apiKey: "sk-test", maxRetries: opts.maxRetries ?? 0 });
  return { client, session };
}

function anthropic(scenario: string) {
  const session = `g${++sessions}`;
  const client = new Anthropic({ baseURL: `${h.url}/s/${scenario}/${session}`, apiKey: "sk-ant-test", maxRetries: 0 });
  return { client, session };
}

const tool = (name: string): ChatCompletionTool => ({
  type: "function",
  function: { name, parameters: { type: "object", properties: {} } },
});

type ToolImpl = (args: Record<string, unknown>) => string;

interface LoopResult {
  answer: string | null;
  /** Every assistant response, in order. */
  responses: ChatCompletion[];
  /** Every tool result the loop sent back, in order. */
  toolResults: string[];
  messages: ChatCompletionMessageParam[];
}

/**
 * A minimal agent loop: call the model, run the tool calls it asks for (unknown tool or unparsable arguments →
 * an error result), repeat until it answers with text or `maxIterations` is hit.
 */
async function agentLoop(
  client: OpenAI,
  task: string,
  impls: Record<string, ToolImpl>,
  opts: { maxIterations?: number; system?: string; afterToolResults?: (r: LoopResult) => Promise<void> } = {},
): Promise<LoopResult> {
  const messages: ChatCompletionMessageParam[] = [...(opts.system ? [{ role: "system" as const, content: opts.system }] : []), { role: "user", content: task }];
  const result: LoopResult = { answer: null, responses: [], toolResults: [], messages };
  for (let i = 0; i < (opts.maxIterations ?? 10); i++) {
    const res = await client.chat.completions.create({ model: MODEL, messages, tools: Object.keys(impls).map(tool) });
    result.responses.push(res);
    const msg = res.choices[0]!.message;
    messages.push(msg);
    if (!msg.tool_calls?.length) {
      result.answer = msg.content;
      return result;
    }
    for (const call of msg.tool_calls) {
      if (call.type !== "function") throw new Error("custom tool calls are not expected here");
      const impl = impls[call.function.name];
      let content: string;
      if (!impl) content = `Error: unknown tool "${call.function.name}"`;
      else {
        try {
          content = impl(JSON.parse(call.function.arguments) as Record<string, unknown>);
        } catch (e) {
          content = `Error: invalid arguments: ${(e as Error).message}`;
        }
      }
      result.toolResults.push(content);
      messages.push({ role: "tool", tool_call_id: call.id, content });
    }
    await opts.afterToolResults?.(result);
  }
  return result;
}

/** The function tool calls of a response's first choice, as `{ id, name, arguments }`. */
const calls = (res: ChatCompletion) =>
  (res.choices[0]!.message.tool_calls ?? []).map((c) => {
    if (c.type !== "function") throw new Error(`unexpected ${c.type} tool call`);
    return { id: c.id, ...c.function };
  });

async function journal(scenario: string, session: string) {
  return (await h.journal(scenario, session)).map((j) => ({ step: j.step, outcome: j.outcome, status: j.status }));
}

describe("weather-agent: a tool call, then the answer", () => {
  it("asks for get_weather(Paris), answers from its result", async () => {
    const { client, session } = openai("weather-agent");
    const r = await agentLoop(client, "What's the weather in Paris?", { get_weather: () => "sunny, 22C" });
    expect(calls(r.responses[0]!)).toMatchObject([{ name: "get_weather", arguments: '{"city":"Paris"}' }]);
    expect(r.responses[0]!.choices[0]!.finish_reason).toBe("tool_calls");
    expect(r.answer).toBe("It is sunny in Paris, 22 °C.");
    expect((await journal("weather-agent", session)).map((j) => j.step)).toEqual(["ask-tool", "answer"]);
  });
});

describe("parallel-tool-calls: two tool calls in one turn", () => {
  it("JSON: both calls with distinct ids; the answer comes after both results", async () => {
    const { client } = openai("parallel-tool-calls");
    const r = await agentLoop(client, "Weather and time in Tokyo?", {
      get_weather: () => "clear, 18C",
      get_time: () => "21:00",
    });
    const first = calls(r.responses[0]!);
    expect(first).toMatchObject([
      { name: "get_weather", arguments: '{"city":"Tokyo"}' },
      { name: "get_time", arguments: '{"timezone":"Asia/Tokyo"}' },
    ]);
    expect(new Set(first.map((c) => c.id)).size).toBe(2);
    expect(r.responses[0]!.choices[0]!.message.content).toBe("Checking the weather and the time.");
    expect(r.toolResults).toEqual(["clear, 18C", "21:00"]);
    expect(r.answer).toBe("In Tokyo it is 21:00 and clear, 18 °C.");
  });

  it("SSE: the SDK assembles both calls on tool_calls indexes 0 and 1", async () => {
    const { client } = openai("parallel-tool-calls");
    const final = await client.chat.completions
      .stream({ model: MODEL, messages: [{ role: "user", content: "Weather and time?" }], tools: [tool("get_weather"), tool("get_time")] })
      .finalChatCompletion();
    const toolCalls = final.choices[0]!.message.tool_calls ?? [];
    expect(toolCalls.map((c) => (c.type === "function" ? c.function.name : c.type))).toEqual(["get_weather", "get_time"]);
    expect(final.choices[0]!.finish_reason).toBe("tool_calls");
  });

  it("a client that does not offer both tools gets a mismatch naming the missing one", async () => {
    const { client } = openai("parallel-tool-calls");
    const err = await client.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "hi" }], tools: [tool("get_weather")] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIError);
    expect((err as APIError).status).toBe(400);
    expect((err as APIError).message).toContain('expect.tools: expected tools ["get_time"] offered');
  });
});

describe("malformed-tool-args: invalid JSON in a tool call's arguments", () => {
  it("the client's JSON.parse fails, it reports the error, the model corrects itself", async () => {
    const { client } = openai("malformed-tool-args");
    const written: unknown[] = [];
    const r = await agentLoop(client, "Write hello to notes.txt", {
      write_file: (args) => {
        written.push(args);
        return "ok";
      },
    });
    expect(calls(r.responses[0]!)[0]).toMatchObject({
      name: "write_file",
      arguments: '{"path": "notes.txt", "content": "unterminated',
    });
    expect(r.toolResults[0]).toMatch(/^Error: invalid arguments: /);
    expect(written).toEqual([{ path: "notes.txt", content: "hello" }]);
    expect(r.answer).toBe("Wrote notes.txt.");
  });
});

describe("unknown-tool: a tool the client never offered", () => {
  it("the loop answers with an error result; the model gives up gracefully", async () => {
    const { client, session } = openai("unknown-tool");
    const r = await agentLoop(client, "Clean up the database", { list_tables: () => "users" });
    expect(calls(r.responses[0]!)).toMatchObject([{ name: "delete_database", arguments: '{"confirm":true}' }]);
    expect(r.toolResults).toEqual(['Error: unknown tool "delete_database"']);
    expect(r.answer).toBe("That tool is not available, so I did not change anything.");
    expect((await journal("unknown-tool", session)).map((j) => j.step)).toEqual(["unknown-call", "answer"]);
  });
});

describe("compaction-threshold: usage crosses a compaction threshold on turn 3", () => {
  it("the client compacts after turn 3 (150k input tokens), then finishes on the summary", async () => {
    const { client, session } = openai("compaction-threshold");
    const THRESHOLD = 100_000;
    const task = "Where are the parser helpers?";
    let compactedAt: number | undefined;
    const r = await agentLoop(
      client,
      task,
      { read_file: (args) => `// contents of ${String(args.path)}` },
      {
        afterToolResults: async (loop) => {
          const last = loop.responses.at(-1)!;
          if ((last.usage?.prompt_tokens ?? 0) <= THRESHOLD || compactedAt !== undefined) return;
          compactedAt = loop.responses.length;
          const summary = await client.chat.completions.create({
            model: MODEL,
            messages: [...loop.messages, { role: "user", content: "Summarize the conversation so far for a fresh context." }],
          });
          loop.messages.splice(
            0,
            loop.messages.length,
            { role: "user", content: task },
            {
              role: "user",
              content: summary.choices[0]!.message.content!,
            },
          );
        },
      },
    );
    expect(r.responses.map((res) => res.usage?.prompt_tokens)).toEqual([1200, 40000, 150000, 900]);
    expect(r.responses[2]!.usage?.prompt_tokens_details?.cached_tokens).toBe(120000);
    expect(compactedAt).toBe(3);
    expect(r.messages[1]).toEqual({
      role: "user",
      content: "Summary: read src/a.ts, src/b.ts and src/c.ts; all three export helpers for the parser.",
    });
    expect(r.answer).toBe("The parser helpers live in src/a.ts, src/b.ts and src/c.ts.");
    expect((await journal("compaction-threshold", session)).map((j) => j.step)).toEqual(["small", "growing", "over-threshold", "summary", "answer"]);
  });
});

describe("reasoning-then-tool: reasoning before a tool call", () => {
  it("OpenAI Chat: reasoning_content and the tool call in one message, then reasoning and the answer", async () => {
    const { client } = openai("reasoning-then-tool");
    const r = await agentLoop(client, "ACME price?", { get_quote: () => "123.45" });
    const first = r.responses[0]!.choices[0]!.message as unknown as Record<string, unknown>;
    expect(first.reasoning_content).toBe("The user wants a stock price. I should call get_quote for ACME.");
    expect(calls(r.responses[0]!)).toMatchObject([{ name: "get_quote", arguments: '{"symbol":"ACME"}' }]);
    expect(r.responses[0]!.usage?.completion_tokens_details?.reasoning_tokens).toBe(15);
    expect(r.answer).toBe("ACME trades at 123.45.");
  });

  it("Anthropic: a signed thinking block before tool_use; echoed back, the next turn thinks and answers", async () => {
    const { client } = anthropic("reasoning-then-tool");
    const params = {
      model: CLAUDE,
      max_tokens: 4096,
      thinking: { type: "enabled" as const, budget_tokens: 2048 },
      tools: [{ name: "get_quote", input_schema: { type: "object" as const, properties: {} } }],
    };
    const messages: Anthropic.MessageParam[] = [{ role: "user", content: "ACME price?" }];
    const first = await client.messages.create({ ...params, messages });
    expect(first.content.map((b) => b.type)).toEqual(["thinking", "tool_use"]);
    expect(first.content[0]).toMatchObject({ type: "thinking", signature: "sig-think-1" });
    expect(first.stop_reason).toBe("tool_use");
    const use = first.content[1] as Anthropic.ToolUseBlock;
    expect(use.input).toEqual({ symbol: "ACME" });

    messages.push({ role: "assistant", content: first.content });
    messages.push({ role: "user", content: [{ type: "tool_result", tool_use_id: use.id, content: "123.45" }] });
    const second = await client.messages.stream({ ...params, messages }).finalMessage();
    expect(second.content.map((b) => b.type)).toEqual(["thinking", "text"]);
    expect(second.content[1]).toMatchObject({ type: "text", text: "ACME trades at 123.45." });
  });
});

describe("endless-tool-calls: an agent that never stops calling tools", () => {
  it("the loop stops at its max iterations and asks for a final answer without tools", async () => {
    const { client, session } = openai("endless-tool-calls");
    const r = await agentLoop(client, "Find the answer", { search: () => "nothing yet" }, { maxIterations: 5 });
    expect(r.answer).toBeNull();
    expect(r.responses).toHaveLength(5);
    expect(r.responses.every((res) => calls(res)[0]?.name === "search")).toBe(true);

    const final = await client.chat.completions.create({
      model: MODEL,
      messages: [...r.messages, { role: "user", content: "Max iterations reached. Give your final answer." }],
    });
    expect(final.choices[0]!.message.content).toBe("Stopped after too many tool calls: nothing conclusive found.");
    const steps = (await journal("endless-tool-calls", session)).map((j) => j.step);
    expect(steps).toEqual(["again", "again", "again", "again", "again", "final-summary"]);
  });
});

describe("rate-limited-twice: two 429s, then success", () => {
  it("the SDK's default two retries get the answer; the journal shows 429, 429, 200", async () => {
    const { client, session } = openai("rate-limited-twice", { maxRetries: 2 });
    const res = await client.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "hi" }] });
    expect(res.choices[0]!.message.content).toBe("Third time lucky.");
    expect(await journal("rate-limited-twice", session)).toEqual([
      { step: "limited", outcome: "failure", status: 429 },
      { step: "limited", outcome: "failure", status: 429 },
      { step: "limited", outcome: "response", status: 200 },
    ]);
  });

  it("without retries the client sees a RateLimitError with retry headers", async () => {
    const { client } = openai("rate-limited-twice");
    const err = await client.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "hi" }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).headers.get("retry-after")).toBe("0");
    expect((err as RateLimitError).headers.get("retry-after-ms")).toBe("0");
  });
});

describe("overloaded-mid-stream: the stream breaks off with an overloaded error", () => {
  const FULL = "This answer streams one word at a time until the server gives up.";

  it("OpenAI Chat: four words, then the SDK throws; the retry streams the whole answer", async () => {
    const { client } = openai("overloaded-mid-stream");
    const body = { model: MODEL, stream: true as const, messages: [{ role: "user" as const, content: "hi" }] };
    const seen: string[] = [];
    const err = await (async () => {
      for await (const chunk of await client.chat.completions.create(body)) seen.push(chunk.choices[0]?.delta.content ?? "");
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIError);
    expect((err as APIError).message).toContain("Overloaded");
    expect(seen.join("")).toBe("This answer streams one");

    let text = "";
    for await (const chunk of await client.chat.completions.create(body)) text += chunk.choices[0]?.delta.content ?? "";
    expect(text).toBe(FULL);
  });

  it("Anthropic: event: error overloaded_error after two deltas; the retry streams the whole answer", async () => {
    const { client } = anthropic("overloaded-mid-stream");
    const params = { model: CLAUDE, max_tokens: 256, messages: [{ role: "user" as const, content: "hi" }] };
    const deltas: string[] = [];
    const stream = client.messages.stream(params);
    stream.on("text", (d) => deltas.push(d));
    const err = await stream.finalMessage().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    expect((err as { type?: string }).type).toBe("overloaded_error");
    expect(deltas.join("")).toBe("This answer");

    const retry = await client.messages.stream(params).finalMessage();
    expect(retry.content).toEqual([{ type: "text", text: FULL }]);
  });
});

describe("test-runner-verdict: a JSON verdict after two tool calls", () => {
  it("http_get, then assert_status, then {verdict, reason, steps, issues}", async () => {
    const { client } = openai("test-runner-verdict");
    const r = await agentLoop(client, "Run test: health endpoint answers 200", {
      http_get: () => JSON.stringify({ status: 200, body: "ok" }),
      assert_status: () => "pass",
    });
    expect(r.responses.map((res) => calls(res).map((c) => c.name))).toEqual([["http_get"], ["assert_status"], []]);
    expect(JSON.parse(calls(r.responses[1]!)[0]!.arguments)).toEqual({ expected: 200, actual: 200 });
    const verdict = JSON.parse(r.answer!) as Record<string, unknown>;
    expect(verdict).toEqual({
      verdict: "PASS",
      reason: "GET /health answered 200 as expected.",
      steps: [
        { name: "Request health", status: "pass", details: "GET /health returned 200" },
        { name: "Assert status", status: "pass", details: "200 == 200" },
      ],
      issues: [],
    });
  });
});

describe("testllm-format: a TestLLM seed document, bundled unchanged", () => {
  const SYSTEM = "Phase 1 deterministic harness. Use the tools.";
  /** Selected by the first user message (rule 3), the harness's own convention. */
  const client = (session: string) => new OpenAI({ baseURL: `${h.url}/v1`, apiKey: "sk-test", maxRetries: 0, defaultHeaders: { "x-mock-session": session } });
  const tools = [tool("test__test"), tool("agent__final_report")];

  it("turn 1: the tool call with its callId and texts; turn 2: the agent__final_report call", async () => {
    const c = client(`g${++sessions}`);
    const messages: ChatCompletionMessageParam[] = [
      { role: "system", content: SYSTEM },
      { role: "user", content: "testllm-format" },
    ];
    const t1 = await c.chat.completions.create({ model: MODEL, messages, tools });
    expect(calls(t1)).toEqual([{ id: "call-test-1", name: "test__test", arguments: '{"text":"phase-1-tool-success"}' }]);
    expect(t1.choices[0]!.message.content).toBe("Requesting test to gather information.\n\nPreparing test input.");
    expect((t1.choices[0]!.message as unknown as Record<string, unknown>).reasoning_content).toBe("Evaluating task before invoking tool.");
    expect(t1.usage).toMatchObject({ prompt_tokens: 120, completion_tokens: 40, total_tokens: 160 });

    messages.push(t1.choices[0]!.message, { role: "tool", tool_call_id: "call-test-1", content: "ok" });
    const t2 = await c.chat.completions.create({ model: MODEL, messages, tools });
    const report = calls(t2)[0]!;
    expect(report).toMatchObject({ id: "agent-final-report", name: "agent__final_report" });
    expect(JSON.parse(report.arguments)).toEqual({
      status: "success",
      report_format: "markdown",
      report_content: "# Phase 1 Result\n\nTool execution succeeded and data was recorded.",
    });
  });

  it("a system prompt without the required fragment: 200 with a '# Test Harness Error' final report", async () => {
    const res = await client(`g${++sessions}`).chat.completions.create({
      model: MODEL,
      messages: [
        { role: "system", content: "Some other agent." },
        { role: "user", content: "testllm-format" },
      ],
      tools,
    });
    const report = JSON.parse(calls(res)[0]!.arguments) as Record<string, string>;
    expect(report.status).toBe("failure");
    expect(report.report_content).toMatch(/^# Test Harness Error\n\n/);
    expect(report.report_content).toContain('system prompt including ["Phase 1 deterministic harness"]');
  });

  it("a turn the scenario has no step for: 200 with a '# Scenario Failure' final report", async () => {
    const res = await client(`g${++sessions}`).chat.completions.create({
      model: MODEL,
      messages: [
        { role: "system", content: SYSTEM },
        { role: "user", content: "testllm-format" },
        { role: "assistant", content: "one" },
        { role: "assistant", content: "two" },
        { role: "user", content: "and now?" },
      ],
      tools,
    });
    const report = JSON.parse(calls(res)[0]!.arguments) as Record<string, string>;
    expect(report.report_content).toMatch(/^# Scenario Failure\n\n/);
    expect(report.report_content).toContain("match.turn: expected 1, got 3");
  });
});
