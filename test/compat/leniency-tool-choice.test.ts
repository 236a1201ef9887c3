/**
 * A forced tool choice naming a tool the request does not offer (issue 51 point 7), through the official SDKs on both
 * runtimes: Chat Completions (and Azure's chat) answer OpenAI's 400 `Invalid value for 'tool_choice': function 'x'
 * not found in 'tools'.`, Anthropic's Messages (and Claude on Bedrock, relayed) `Tool 'x' not found in provided tools`;
 * a choice naming an offered tool is answered as before, and a scenario with `"strict": false` answers them all.
 */
import Anthropic, { BadRequestError as AnthropicBadRequest } from "@anthropic-ai/sdk";
import { BedrockRuntimeClient, ConverseCommand, ValidationException } from "@aws-sdk/client-bedrock-runtime";
import { NodeHttpHandler } from "@smithy/node-http-handler";
import OpenAI, { AzureOpenAI, BadRequestError } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUNTIME, startHarness, type Harness } from "./harness";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  await h.upload({ name: "lenient-choice", strict: false, steps: [{ consume: false, respond: { text: "Answered anyway." } }] });
}, 120_000);
afterAll(() => h?.stop());

const openai = (base = `${h.url}/v1`) => new OpenAI({ baseURL: base, apiKey: "sk-test", maxRetries: 0 });
const anthropic = (base = h.url) => new Anthropic({ baseURL: base, apiKey: "sk-ant-test", maxRetries: 0 });
const messages = [{ role: "user" as const, content: "What is the weather in Paris?" }];

async function refusal<E extends { status: number; error: unknown }>(call: Promise<unknown>, type: new (...args: never[]) => E): Promise<[number, unknown]> {
  const err = await call.catch((e: unknown) => e);
  expect(err).toBeInstanceOf(type);
  return [(err as E).status, (err as E).error];
}

describe("openai Chat Completions", () => {
  const tools = [{ type: "function" as const, function: { name: "lookup_time", parameters: { type: "object", properties: {} } } }];
  const notFound = (name: string) => [400, { message: `Invalid value for 'tool_choice': function '${name}' not found in 'tools'.`, type: "invalid_request_error", param: "tool_choice", code: null }];

  it("a named function the tools do not offer: 400, streamed or not", async () => {
    const tool_choice = { type: "function" as const, function: { name: "get_weather" } };
    expect(await refusal(openai().chat.completions.create({ model: "gpt-4o-mini", messages, tools, tool_choice }), BadRequestError)).toEqual(notFound("get_weather"));
    expect(await refusal(openai().chat.completions.create({ model: "gpt-4o-mini", messages, tools, tool_choice, stream: true }), BadRequestError)).toEqual(notFound("get_weather"));
  });

  it("the names compare exactly (case and all)", async () => {
    const tool_choice = { type: "function" as const, function: { name: "Lookup_Time" } };
    expect(await refusal(openai().chat.completions.create({ model: "gpt-4o-mini", messages, tools, tool_choice }), BadRequestError)).toEqual(notFound("Lookup_Time"));
  });

  it("a named function that is offered is called, as before", async () => {
    const res = await openai().chat.completions.create({ model: "gpt-4o-mini", messages, tools, tool_choice: { type: "function", function: { name: "lookup_time" } } });
    expect(res.choices[0]!.message.tool_calls!.map((c) => (c.type === "function" ? c.function.name : c.type))).toEqual(["lookup_time"]);
    expect(res.choices[0]!.finish_reason).toBe("stop");
  });

  it("Azure's deployment route refuses the same", async () => {
    const az = new AzureOpenAI({ endpoint: h.url, apiKey: "azure-key", apiVersion: "2024-10-21", deployment: "prod-4o", maxRetries: 0 });
    const call = az.chat.completions.create({ model: "prod-4o", messages, tools, tool_choice: { type: "function", function: { name: "get_weather" } } });
    expect(await refusal(call, BadRequestError)).toEqual(notFound("get_weather"));
  });

  it('a scenario with "strict": false answers it', async () => {
    const lenient = openai(`${h.url}/s/lenient-choice/c1/v1`);
    const res = await lenient.chat.completions.create({ model: "gpt-4o-mini", messages, tools, tool_choice: { type: "function", function: { name: "get_weather" } } });
    expect(res.choices[0]!.message.content).toBe("Answered anyway.");
  });
});

describe("@anthropic-ai/sdk Messages", () => {
  const tools = [{ name: "lookup_time", input_schema: { type: "object" as const, properties: {} } }];
  const notFound = (name: string) => [
    400,
    { type: "error", error: { type: "invalid_request_error", message: `Tool '${name}' not found in provided tools` }, request_id: expect.stringMatching(/^req_011C/) },
  ];

  it("tool_choice {type: tool} naming a tool not offered: 400, streamed or not", async () => {
    const tool_choice = { type: "tool" as const, name: "get_weather" };
    expect(await refusal(anthropic().messages.create({ model: "claude-sonnet-4-5", max_tokens: 256, messages, tools, tool_choice }), AnthropicBadRequest)).toEqual(notFound("get_weather"));
    expect(await refusal(anthropic().messages.create({ model: "claude-sonnet-4-5", max_tokens: 256, messages, tools, tool_choice, stream: true }), AnthropicBadRequest)).toEqual(
      notFound("get_weather"),
    );
    // No tools at all: the same sentence.
    expect(await refusal(anthropic().messages.create({ model: "claude-sonnet-4-5", max_tokens: 256, messages, tool_choice }), AnthropicBadRequest)).toEqual(notFound("get_weather"));
  });

  it("a tool that is offered is used, as before", async () => {
    const msg = await anthropic().messages.create({ model: "claude-sonnet-4-5", max_tokens: 256, messages, tools, tool_choice: { type: "tool", name: "lookup_time" } });
    expect(msg.stop_reason).toBe("tool_use");
    expect(msg.content.flatMap((b) => (b.type === "tool_use" ? [b.name] : []))).toEqual(["lookup_time"]);
  });

  it("a server tool's name counts as offered", async () => {
    const msg = await anthropic().messages.create({
      model: "claude-sonnet-4-5",
      max_tokens: 256,
      messages,
      tools: [...tools, { type: "web_search_20250305", name: "web_search" }],
      tool_choice: { type: "tool", name: "web_search" },
    });
    expect(msg.type).toBe("message");
  });

  it('a scenario with "strict": false answers it', async () => {
    const lenient = anthropic(`${h.url}/s/lenient-choice/a1`);
    const msg = await lenient.messages.create({ model: "claude-sonnet-4-5", max_tokens: 256, messages, tools, tool_choice: { type: "tool", name: "get_weather" } });
    expect(msg.content).toEqual([{ type: "text", text: "Answered anyway." }]);
  });
});

describe("Claude on Bedrock Converse: the same refusal, as Bedrock relays a model's 400", () => {
  it("toolChoice naming a tool the toolConfig does not offer", async () => {
    const client = new BedrockRuntimeClient({
      region: "us-east-1",
      endpoint: h.url,
      credentials: { accessKeyId: "AKIDMOCKLLMEXAMPLE", secretAccessKey: "mockllm-fake-secret" },
      maxAttempts: 1,
      ...(RUNTIME === "workers" ? { requestHandler: new NodeHttpHandler() } : {}),
    });
    const command = new ConverseCommand({
      modelId: "anthropic.claude-sonnet-4-5-20250929-v1:0",
      messages: [{ role: "user", content: [{ text: "weather?" }] }],
      toolConfig: { tools: [{ toolSpec: { name: "lookup_time", inputSchema: { json: { type: "object", properties: {} } } } }], toolChoice: { tool: { name: "get_weather" } } },
    });
    const err = await client.send(command).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ValidationException);
    expect([(err as ValidationException).$metadata.httpStatusCode, (err as ValidationException).message]).toEqual([
      400,
      "The model returned the following errors: Tool 'get_weather' not found in provided tools",
    ]);
  });
});
