/**
 * Seeded chaos (issue 58) on both runtimes: the same seed gives the same faults at the same requests (the exact
 * sequence below is asserted on the Worker and on Node alike), another session another sequence, the retry after a
 * chaos turn gets the scripted answer, and each fault reaches the official SDKs of OpenAI, Anthropic and Gemini in
 * that provider's own shape.
 */
import Anthropic from "@anthropic-ai/sdk";
import { ApiError, GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";
import { openResponsesWS, responsesTurn } from "../support/responses-ws";

let h: Harness;

const SEQ_KINDS = ["rate_limit", "overloaded", "server_error", "empty_response"];
const TRANSPORT = ["rate_limit", "overloaded", "server_error", "stream_error", "network_error", "timeout"] as const;
const MODEL_KINDS = ["malformed_tool_arguments", "unknown_tool", "empty_response", "truncated_json", "duplicate_tool_call_id", "reasoning_without_answer"] as const;

const weatherStep = {
  consume: false,
  respond: { text: "Checking the weather now please.", toolCalls: [{ name: "get_weather", arguments: { city: "Paris" } }], stream: { chunkWords: 1 } },
};

const SCENARIOS = [
  { name: "chaos-seq", chaos: { seed: 42, rate: 0.5, kinds: SEQ_KINDS }, steps: [{ consume: false, respond: { text: "ok" } }] },
  {
    name: "chaos-retry",
    chaos: { seed: 3, rate: 0.5, kinds: ["rate_limit"] },
    steps: [
      { id: "a", respond: { text: "A" } },
      { id: "b", respond: { text: "B" } },
    ],
  },
  ...[...TRANSPORT, ...MODEL_KINDS].map((kind) => ({
    name: `chaos-${kind.replaceAll("_", "-")}`,
    chaos: { seed: 1, rate: 1, kinds: [kind], timeoutMs: 2000 },
    steps: [weatherStep],
  })),
];

const scenarioOf = (kind: string) => `chaos-${kind.replaceAll("_", "-")}`;

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

/** What each of `n` plain requests to a session got: the chaos kind drawn, or the answer's text. */
async function sequence(scenario: string, session: string, n: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${h.url}/s/${scenario}/${session}/v1/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: "Bearer sk-test" },
      body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] }),
    });
    const chaos = res.headers.get("x-mockllm-chaos");
    const body = await res.text();
    out.push(chaos === null ? `${res.status} ${JSON.parse(body).choices[0].message.content}` : `${res.status} ${chaos.split(";")[0]}`);
  }
  return out;
}

describe("seeded chaos replays", () => {
  const EXPECTED = [
    "200 empty_response",
    "503 overloaded",
    "429 rate_limit",
    "200 ok",
    "200 ok",
    "429 rate_limit",
    "200 ok",
    "429 rate_limit",
    "200 ok",
    "200 ok",
    "503 overloaded",
    "200 empty_response",
  ];

  it("the same seed, scenario and session: the same faults at the same requests, on either runtime", async () => {
    expect(await sequence("chaos-seq", "ci-1", 12)).toEqual(EXPECTED);
    await h.admin("/sessions/chaos-seq/ci-1/reset", { method: "POST" });
    expect(await sequence("chaos-seq", "ci-1", 12)).toEqual(EXPECTED);
  });

  it("over the Responses WebSocket: the same draws at the same requests as over HTTP", async () => {
    const ws = await openResponsesWS(new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}/s/chaos-seq/ws-1/v1`, maxRetries: 0 }));
    ws.on("error", () => {});
    const got: string[] = [];
    for (let i = 0; i < 12; i++) {
      const last = (await responsesTurn(ws, { model: "gpt-4.1", input: "hi" })).at(-1)!;
      got.push(last.type === "error" ? `${last.status} ${last.error?.code}` : `${last.type} ${JSON.stringify(last.response?.output?.[0]?.content?.[0]?.text ?? "")}`);
    }
    ws.close();
    const kinds = async () => (await h.journal("chaos-seq", "ws-1")).map((e) => (e.outcome === "chaos" ? e.chaos.kind : "ok"));
    const overSocket = await kinds();
    await h.admin("/sessions/chaos-seq/ws-1/reset", { method: "POST" });
    await sequence("chaos-seq", "ws-1", 12);
    expect(await kinds()).toEqual(overSocket);
    expect(got).toEqual([
      'response.completed "ok"',
      'response.completed "ok"',
      'response.completed "ok"',
      "500 null",
      "500 null",
      'response.completed ""',
      "503 server_is_overloaded",
      "429 rate_limit_exceeded",
      "500 null",
      'response.completed "ok"',
      'response.completed "ok"',
      "500 null",
    ]);
  });

  it("another session draws another sequence", async () => {
    expect(await sequence("chaos-seq", "ci-2", 12)).not.toEqual(EXPECTED);
  });

  it("the journal marks chaos turns with the kind, seed and draw; verify counts them apart and passes", async () => {
    const journal = await h.journal("chaos-seq", "ci-1");
    const chaos = journal.filter((e) => e.outcome === "chaos");
    expect(chaos.length).toBe(EXPECTED.filter((e) => !e.endsWith(" ok")).length);
    for (const e of chaos) expect(e.chaos).toEqual({ kind: expect.any(String), seed: 42, draw: e.seq });
    const verify = (await (await h.admin("/sessions/chaos-seq/ci-1/verify")).json()) as { ok: boolean; chaos: number; summary: string };
    expect(verify.ok).toBe(true);
    expect(verify.chaos).toBe(chaos.length);
    expect(verify.summary).toContain(`(chaos: ${chaos.length})`);
  });

  it("a chaos turn leaves the step for the retry: the SDK's retries reach every scripted answer", async () => {
    const client = new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}/s/chaos-retry/r1/v1`, maxRetries: 5 });
    const texts: string[] = [];
    for (let i = 0; i < 2; i++) {
      const res = await client.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: `turn ${i}` }] }, { timeout: 5000 });
      texts.push(res.choices[0]!.message.content ?? "");
    }
    expect(texts).toEqual(["A", "B"]);
    const journal = await h.journal("chaos-retry", "r1");
    expect(journal.filter((e) => e.outcome === "response").map((e) => e.step)).toEqual(["a", "b"]);
    expect(journal.every((e) => e.outcome === "response" || (e.outcome === "chaos" && e.status === 429))).toBe(true);
    expect(((await (await h.admin("/sessions/chaos-retry/r1/verify")).json()) as { ok: boolean }).ok).toBe(true);
  });
});

const tools = [{ type: "function" as const, function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } } }];

describe("each fault in the OpenAI SDK's shape", () => {
  const client = (kind: string, stream = false) => new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}/s/${scenarioOf(kind)}/${stream ? "stream" : "json"}/v1`, maxRetries: 0, timeout: 10_000 });
  const call = (kind: string) => client(kind).chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "weather?" }], tools }, kind === "timeout" ? { timeout: 1000 } : {});

  it.each([
    ["rate_limit", 429, "rate_limit_exceeded"],
    ["overloaded", 503, "server_is_overloaded"],
    ["server_error", 500, null],
  ])("%s: APIError %i", async (kind, status, code) => {
    const err = (await call(kind).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.APIError>;
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect(err.status).toBe(status);
    if (code !== null) expect(err.code).toBe(code);
  });

  it("timeout: the SDK's own APIConnectionTimeoutError", async () => {
    expect(await call("timeout").catch((e: unknown) => e)).toBeInstanceOf(OpenAI.APIConnectionTimeoutError);
  });

  it("network_error: a connection-level error", async () => {
    const err = (await call("network_error").catch((e: unknown) => e)) as Error;
    expect(err instanceof OpenAI.APIConnectionError || /terminated|other side closed|aborted/i.test(String(err.message))).toBe(true);
  });

  it("stream_error: the stream throws an APIError", async () => {
    const stream = await client("stream_error", true).chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "weather?" }], tools, stream: true });
    const err = await (async () => {
      for await (const _ of stream);
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
  });

  it("model kinds: a 200 the client has to cope with", async () => {
    const malformed = (await call("malformed_tool_arguments")).choices[0]!;
    expect(() => JSON.parse((malformed.message.tool_calls![0] as { function: { arguments: string } }).function.arguments)).toThrow();
    expect(((await call("unknown_tool")).choices[0]!.message.tool_calls![0] as { function: { name: string } }).function.name).toBe("mockllm_unknown_tool");
    const empty = (await call("empty_response")).choices[0]!;
    expect([empty.message.content, empty.message.tool_calls, empty.finish_reason]).toEqual(["", undefined, "stop"]);
    const cut = (await call("truncated_json")).choices[0]!;
    expect(cut.finish_reason).toBe("length");
    expect(() => JSON.parse((cut.message.tool_calls![0] as { function: { arguments: string } }).function.arguments)).toThrow();
    const dup = (await call("duplicate_tool_call_id")).choices[0]!.message.tool_calls!;
    expect(dup).toHaveLength(2);
    expect(dup[0]!.id).toBe(dup[1]!.id);
    const thinking = (await call("reasoning_without_answer")).choices[0]! as OpenAI.ChatCompletion.Choice & { message: { reasoning_content?: string } };
    expect([thinking.message.content, thinking.finish_reason]).toEqual(["", "length"]);
    expect(thinking.message.reasoning_content).toBe("Let me think about this step by step before answering.");
  });
});

describe("each fault in the Anthropic SDK's shape", () => {
  const client = (kind: string) => new Anthropic({ apiKey: "sk-ant-test", baseURL: `${h.url}/s/${scenarioOf(kind)}/anthropic`, maxRetries: 0, timeout: 10_000 });
  const atools = [{ name: "get_weather", input_schema: { type: "object" as const, properties: { city: { type: "string" } } } }];
  const call = (kind: string) =>
    client(kind).messages.create({ model: "claude-sonnet-4-5", max_tokens: 256, messages: [{ role: "user", content: "weather?" }], tools: atools }, kind === "timeout" ? { timeout: 1000 } : {});

  it.each([
    ["rate_limit", 429, "rate_limit_error"],
    ["overloaded", 529, "overloaded_error"],
    ["server_error", 500, "api_error"],
  ])("%s: APIError %i %s", async (kind, status, type) => {
    const err = (await call(kind).catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
    expect(err).toBeInstanceOf(Anthropic.APIError);
    expect(err.status).toBe(status);
    expect((err.error as { error: { type: string } }).error.type).toBe(type);
  });

  it("timeout and network_error: connection-level errors", async () => {
    expect(await call("timeout").catch((e: unknown) => e)).toBeInstanceOf(Anthropic.APIConnectionTimeoutError);
    const err = (await call("network_error").catch((e: unknown) => e)) as Error;
    expect(err instanceof Anthropic.APIConnectionError || /terminated|other side closed|aborted/i.test(String(err.message))).toBe(true);
  });

  it("stream_error: an error event the SDK throws", async () => {
    const stream = client("stream_error").messages.stream({ model: "claude-sonnet-4-5", max_tokens: 256, messages: [{ role: "user", content: "weather?" }], tools: atools });
    const err = await stream.finalMessage().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIError);
  });

  it("model kinds: tool_use blocks and stop reasons as the API sends them", async () => {
    const unknown = await call("unknown_tool");
    expect(unknown.content.filter((b) => b.type === "tool_use").map((b) => (b as { name: string }).name)).toEqual(["mockllm_unknown_tool"]);
    const empty = await call("empty_response");
    expect(empty.content.filter((b) => b.type === "tool_use")).toEqual([]);
    expect(empty.stop_reason).toBe("end_turn");
    expect((await call("truncated_json")).stop_reason).toBe("max_tokens");
    const dup = (await call("duplicate_tool_call_id")).content.filter((b) => b.type === "tool_use") as { id: string }[];
    expect(dup).toHaveLength(2);
    expect(dup[0]!.id).toBe(dup[1]!.id);
  });
});

describe("each fault in the Gemini SDK's shape", () => {
  const client = (kind: string) => new GoogleGenAI({ apiKey: "k", httpOptions: { baseUrl: `${h.url}/s/${scenarioOf(kind)}/gemini` } });
  const gtools = [{ functionDeclarations: [{ name: "get_weather", parametersJsonSchema: { type: "object", properties: { city: { type: "string" } } } }] }];
  const call = (kind: string) => client(kind).models.generateContent({ model: "gemini-2.5-flash", contents: "weather?", config: { tools: gtools } });

  it.each([
    ["rate_limit", 429, "RESOURCE_EXHAUSTED"],
    ["overloaded", 503, "UNAVAILABLE"],
    ["server_error", 500, "INTERNAL"],
  ])("%s: ApiError %i %s", async (kind, status, code) => {
    const err = (await call(kind).catch((e: unknown) => e)) as ApiError;
    expect(err).toBeInstanceOf(ApiError);
    expect(err.status).toBe(status);
    expect(err.message).toContain(code);
  });

  it("model kinds: functionCall parts and finish reasons as the API sends them", async () => {
    expect((await call("unknown_tool")).functionCalls?.map((c) => c.name)).toEqual(["mockllm_unknown_tool"]);
    expect((await call("truncated_json")).candidates?.[0]?.finishReason).toBe("MAX_TOKENS");
    const empty = await call("empty_response");
    expect(empty.functionCalls).toBeUndefined();
    expect(empty.candidates?.[0]?.finishReason).toBe("STOP");
  });
});
