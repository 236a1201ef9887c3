/**
 * A forced tool choice answered by the default responder (contract section 7), through each surface's official SDK:
 * `@anthropic-ai/sdk` (`tool` / `any`), `@google/genai` (`mode: ANY`, with and without `allowedFunctionNames`, on
 * the Gemini API and on Vertex), `@aws-sdk/client-bedrock-runtime` (Converse / ConverseStream `toolChoice`), and
 * Claude on the clouds (`@anthropic-ai/bedrock-sdk` InvokeModel, `@anthropic-ai/vertex-sdk` rawPredict). JSON and
 * stream; the arguments are the exact ones every surface derives from the same conversation, valid against the schema.
 */
import Anthropic from "@anthropic-ai/sdk";
import AnthropicBedrock from "@anthropic-ai/bedrock-sdk";
import AnthropicVertex from "@anthropic-ai/vertex-sdk";
import { BedrockRuntimeClient, ConverseCommand, ConverseStreamCommand, type Tool } from "@aws-sdk/client-bedrock-runtime";
import { NodeHttpHandler } from "@smithy/node-http-handler";
import { FunctionCallingConfigMode, GoogleGenAI, type GenerateContentConfig } from "@google/genai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUNTIME, startHarness, type Harness } from "./harness";
import { MESSAGE, schemaErrors, TIME_ARGS, TOOLS, WEATHER_ARGS } from "./tool-choice-fixtures";

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ DEFAULT_WORDS_PER_SECOND: "0" });
}, 120_000);
afterAll(() => h?.stop());

const anthropicTools = TOOLS.map((t) => ({ name: t.name, description: t.description, input_schema: t.schema }));
const messages = [{ role: "user" as const, content: MESSAGE }];
const CASES = [
  [{ type: "tool", name: "get_weather" }, "get_weather", WEATHER_ARGS],
  [{ type: "any" }, "lookup_time", TIME_ARGS],
] as const;

describe("@anthropic-ai/sdk: tool_choice tool / any", () => {
  const client = () => new Anthropic({ baseURL: h.url, apiKey: "sk-ant-test", maxRetries: 0 });

  it("JSON: one tool_use block with the exact input, stop_reason tool_use", async () => {
    for (const [choice, name, args] of CASES) {
      const msg = await client().messages.create({ model: "claude-sonnet-4-5", max_tokens: 1024, messages, tools: anthropicTools, tool_choice: choice });
      expect([msg.stop_reason, msg.content]).toEqual(["tool_use", [{ type: "tool_use", id: expect.stringMatching(/^toolu_/), name, input: args }]]);
      expect(schemaErrors(name, msg.content[0]!.type === "tool_use" ? msg.content[0]!.input : null)).toEqual([]);
    }
  });

  it("stream: input_json_delta events add up to the same input", async () => {
    for (const [choice, name, args] of CASES) {
      const stream = client().messages.stream({ model: "claude-sonnet-4-5", max_tokens: 1024, messages, tools: anthropicTools, tool_choice: choice });
      let json = "";
      stream.on("inputJson", (delta) => (json += delta));
      const msg = await stream.finalMessage();
      expect([msg.stop_reason, msg.content.map((b) => (b.type === "tool_use" ? [b.name, b.input] : b.type)), JSON.parse(json)]).toEqual(["tool_use", [[name, args]], args]);
    }
  });

  it("auto and none: the lorem answer as before", async () => {
    for (const choice of [{ type: "auto" as const }, { type: "none" as const }]) {
      const msg = await client().messages.create({ model: "claude-sonnet-4-5", max_tokens: 1024, messages, tools: anthropicTools, tool_choice: choice });
      expect([msg.stop_reason, msg.content.map((b) => b.type)]).toEqual(["end_turn", ["text"]]);
    }
  });
});

describe("Claude on the clouds: Bedrock InvokeModel and Vertex rawPredict", () => {
  it("@anthropic-ai/bedrock-sdk and @anthropic-ai/vertex-sdk answer the forced call, JSON and stream", async () => {
    const bedrock = new AnthropicBedrock({ baseURL: h.url, awsRegion: "us-east-1", awsAccessKey: "AKIDMOCKLLMEXAMPLE", awsSecretKey: "mockllm-fake-secret", maxRetries: 0 });
    const authClient = { projectId: "mock-project", getRequestHeaders: async () => new Headers({ authorization: "Bearer ya29.mockllm-fake" }) };
    const vertex = new AnthropicVertex({ baseURL: `${h.url}/v1`, region: "us-east5", projectId: "mock-project", authClient: authClient as never, maxRetries: 0 });
    for (const [client, model] of [
      [bedrock, "anthropic.claude-3-5-haiku-20241022-v1:0"],
      [vertex, "claude-sonnet-4@20250514"],
    ] as const) {
      const msg = await client.messages.create({ model, max_tokens: 256, messages, tools: anthropicTools, tool_choice: { type: "tool", name: "get_weather" } });
      expect([msg.stop_reason, msg.content.map((b) => (b.type === "tool_use" ? [b.name, b.input] : b.type))]).toEqual(["tool_use", [["get_weather", WEATHER_ARGS]]]);
      const streamed = await client.messages.stream({ model, max_tokens: 256, messages, tools: anthropicTools, tool_choice: { type: "any" } }).finalMessage();
      expect([streamed.stop_reason, streamed.content.map((b) => (b.type === "tool_use" ? [b.name, b.input] : b.type))]).toEqual(["tool_use", [["lookup_time", TIME_ARGS]]]);
    }
  });
});

describe("@google/genai: functionCallingConfig mode ANY", () => {
  const declarations = TOOLS.map((t) => ({ name: t.name, description: t.description, parametersJsonSchema: t.schema }));
  const config = (allowed?: string[]): GenerateContentConfig => ({
    tools: [{ functionDeclarations: declarations }],
    toolConfig: { functionCallingConfig: { mode: FunctionCallingConfigMode.ANY, ...(allowed ? { allowedFunctionNames: allowed } : {}) } },
  });
  const authClient = { projectId: "mock-project", getRequestHeaders: async () => new Headers({ authorization: "Bearer ya29.mockllm-fake" }) };
  const clients = {
    gemini: () => new GoogleGenAI({ apiKey: "k", httpOptions: { baseUrl: h.url } }),
    vertex: () => new GoogleGenAI({ vertexai: true, project: "mock-project", location: "us-central1", googleAuthOptions: { authClient: authClient as never }, httpOptions: { baseUrl: h.url } }),
  };

  it.each(Object.keys(clients) as (keyof typeof clients)[])("%s: JSON and stream, within allowedFunctionNames or the first declared", async (which) => {
    const ai = clients[which]();
    for (const [allowed, name, args] of [
      [["get_weather"], "get_weather", WEATHER_ARGS],
      [undefined, "lookup_time", TIME_ARGS],
    ] as const) {
      const res = await ai.models.generateContent({ model: "gemini-2.5-flash", contents: MESSAGE, config: config(allowed ? [...allowed] : undefined) });
      expect([res.candidates?.[0]?.finishReason, res.text, res.functionCalls?.map((c) => [c.name, c.args])]).toEqual(["STOP", undefined, [[name, args]]]);
      expect(schemaErrors(name, res.functionCalls?.[0]?.args)).toEqual([]);
      const calls: unknown[] = [];
      for await (const chunk of await ai.models.generateContentStream({ model: "gemini-2.5-flash", contents: MESSAGE, config: config(allowed ? [...allowed] : undefined) })) {
        for (const c of chunk.functionCalls ?? []) calls.push([c.name, c.args]);
      }
      expect(calls).toEqual([[name, args]]);
    }
  });

  it("mode AUTO or NONE: text as before", async () => {
    for (const mode of [FunctionCallingConfigMode.AUTO, FunctionCallingConfigMode.NONE]) {
      const res = await clients
        .gemini()
        .models.generateContent({ model: "gemini-2.5-flash", contents: MESSAGE, config: { tools: [{ functionDeclarations: declarations }], toolConfig: { functionCallingConfig: { mode } } } });
      expect([res.functionCalls, typeof res.text]).toEqual([undefined, "string"]);
    }
  });
});

describe("@aws-sdk/client-bedrock-runtime: Converse toolChoice", () => {
  const tools = TOOLS.map((t): Tool => ({ toolSpec: { name: t.name, description: t.description, inputSchema: { json: JSON.parse(JSON.stringify(t.schema)) } } }));
  const aws = () =>
    new BedrockRuntimeClient({
      region: "us-east-1",
      endpoint: h.url,
      credentials: { accessKeyId: "AKIDMOCKLLMEXAMPLE", secretAccessKey: "mockllm-fake-secret" },
      ...(RUNTIME === "workers" ? { requestHandler: new NodeHttpHandler() } : {}),
    });
  const user = [{ role: "user" as const, content: [{ text: MESSAGE }] }];
  const CHOICES = [
    [{ tool: { name: "get_weather" } }, "get_weather", WEATHER_ARGS],
    [{ any: {} }, "lookup_time", TIME_ARGS],
  ] as const;
  const MODEL = "anthropic.claude-3-5-haiku-20241022-v1:0";

  it("Converse: one toolUse block with the exact input, stopReason tool_use", async () => {
    for (const [toolChoice, name, args] of CHOICES) {
      const out = await aws().send(new ConverseCommand({ modelId: MODEL, messages: user, toolConfig: { tools, toolChoice } }));
      expect([out.stopReason, out.output?.message?.content?.map((b) => [b.toolUse?.name, b.toolUse?.input])]).toEqual(["tool_use", [[name, args]]]);
      expect(schemaErrors(name, out.output?.message?.content?.[0]?.toolUse?.input)).toEqual([]);
    }
  });

  it("ConverseStream: the toolUse input deltas add up to the same input", async () => {
    for (const [toolChoice, name, args] of CHOICES) {
      const out = await aws().send(new ConverseStreamCommand({ modelId: MODEL, messages: user, toolConfig: { tools, toolChoice } }));
      let called = "";
      let input = "";
      let stop = "";
      for await (const e of out.stream!) {
        called += e.contentBlockStart?.start?.toolUse?.name ?? "";
        input += e.contentBlockDelta?.delta?.toolUse?.input ?? "";
        stop += e.messageStop?.stopReason ?? "";
      }
      expect([called, JSON.parse(input), stop]).toEqual([name, args, "tool_use"]);
    }
  });
});
