/**
 * Requests the real APIs refuse that mockllm used to answer (issue 51 point 7), through the official SDKs on both
 * runtimes: each is the provider's 400 (Azure's gateway: 404) with the real wording, exactly; a scenario with
 * `"strict": false` answers them as before.
 */
import Anthropic, { BadRequestError as AnthropicBadRequest } from "@anthropic-ai/sdk";
import AnthropicBedrock from "@anthropic-ai/bedrock-sdk";
import { BedrockRuntimeClient, ConverseCommand, ValidationException } from "@aws-sdk/client-bedrock-runtime";
import { NodeHttpHandler } from "@smithy/node-http-handler";
import OpenAI, { AzureOpenAI, BadRequestError, NotFoundError } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RUNTIME, startHarness, type Harness } from "./harness";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  await h.upload({ name: "lenient", strict: false, steps: [{ consume: false, respond: { text: "Answered anyway." } }] });
}, 120_000);
afterAll(() => h?.stop());

const openai = (base = `${h.url}/v1`) => new OpenAI({ baseURL: base, apiKey: "sk-test", maxRetries: 0 });
const anthropic = (base = h.url) => new Anthropic({ baseURL: base, apiKey: "sk-ant-test", maxRetries: 0 });
/** `@anthropic-ai/sdk` 1.x types no longer list the sampling parameters; the SDK still sends them as given. */
const sampled = (params: Record<string, unknown>) => params as unknown as Anthropic.MessageCreateParamsNonStreaming;
const messages = [{ role: "user" as const, content: "What is the weather in Paris?" }];
const tools = [{ type: "function" as const, function: { name: "get_weather", parameters: { type: "object", properties: {} } } }];

async function refusal<E extends { status: number; error: unknown }>(call: Promise<unknown>, type: new (...args: never[]) => E): Promise<[number, unknown]> {
  const err = await call.catch((e: unknown) => e);
  expect(err).toBeInstanceOf(type);
  return [(err as E).status, (err as E).error];
}

describe("openai Chat Completions", () => {
  const openaiError = (message: string, param: string | null, code: string | null = null) => [400, { message, type: "invalid_request_error", param, code }];

  it("stream_options without stream", async () => {
    expect(await refusal(openai().chat.completions.create({ model: "gpt-4o-mini", messages, stream_options: { include_usage: true } }), BadRequestError)).toEqual(
      openaiError("The 'stream_options' parameter is only allowed when 'stream' is enabled.", "stream_options"),
    );
    expect(await refusal(openai().chat.completions.create({ model: "gpt-4o-mini", messages, stream: false, stream_options: { include_usage: true } }), BadRequestError)).toEqual(
      openaiError("The 'stream_options' parameter is only allowed when 'stream' is enabled.", "stream_options"),
    );
  });

  it("max_tokens on a reasoning model (o-series, GPT-5 and later); max_completion_tokens is taken, and max_tokens on gpt-4o", async () => {
    for (const model of ["o3", "o4-mini", "gpt-5", "gpt-5.1-mini", "ft:o4-mini:acme::abc"]) {
      expect(await refusal(openai().chat.completions.create({ model, messages, max_tokens: 100 }), BadRequestError)).toEqual(
        openaiError("Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", "max_tokens", "unsupported_parameter"),
      );
    }
    expect((await openai().chat.completions.create({ model: "o3", messages, max_completion_tokens: 1000 })).choices[0]!.finish_reason).toBe("stop");
    expect((await openai().chat.completions.create({ model: "gpt-4o", messages, max_tokens: 1000 })).choices[0]!.finish_reason).toBe("stop");
  });

  it("tool messages that answer no call, or leave a call unanswered; a strict: false scenario answers them", async () => {
    const calling = { role: "assistant" as const, content: null, tool_calls: [{ id: "call_a", type: "function" as const, function: { name: "get_weather", arguments: "{}" } }] };
    const orphan = [...messages, { role: "tool" as const, tool_call_id: "call_a", content: "18C" }];
    expect(await refusal(openai().chat.completions.create({ model: "gpt-4o-mini", messages: orphan, tools }), BadRequestError)).toEqual(
      openaiError("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", "messages.[1].role"),
    );
    const dropped = [...messages, calling, { role: "user" as const, content: "And tomorrow?" }];
    expect(await refusal(openai().chat.completions.create({ model: "gpt-4o-mini", messages: dropped, tools }), BadRequestError)).toEqual(
      openaiError(
        "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_a",
        "messages.[2].role",
      ),
    );
    const lenient = await openai(`${h.url}/s/lenient/tools/v1`).chat.completions.create({ model: "gpt-4o-mini", messages: dropped, tools });
    expect(lenient.choices[0]!.message.content).toBe("Answered anyway.");
  });

  it("a forced tool choice without tools", async () => {
    for (const tool_choice of ["required" as const, { type: "function" as const, function: { name: "get_weather" } }]) {
      expect(await refusal(openai().chat.completions.create({ model: "gpt-4o-mini", messages, tool_choice }), BadRequestError)).toEqual(
        openaiError("Invalid value for 'tool_choice': 'tool_choice' is only allowed when 'tools' are specified.", "tool_choice"),
      );
    }
    expect((await openai().chat.completions.create({ model: "gpt-4o-mini", messages, tools, tool_choice: "required" })).choices[0]!.finish_reason).toBe("tool_calls");
  });

  it("a user message without content (refused since wave 7)", async () => {
    expect(await refusal(openai().chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user" } as never] }), BadRequestError)).toEqual(
      openaiError("Missing required parameter: 'messages[0].content'.", "messages[0].content", "missing_required_parameter"),
    );
  });

  it("Azure's deployment route refuses the same", async () => {
    const az = new AzureOpenAI({ endpoint: h.url, apiKey: "azure-key", apiVersion: "2024-10-21", deployment: "o3", maxRetries: 0 });
    expect(await refusal(az.chat.completions.create({ model: "o3", messages, max_tokens: 5 }), BadRequestError)).toEqual(
      openaiError("Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", "max_tokens", "unsupported_parameter"),
    );
  });

  it("values out of the API's bounds, and more stop sequences or tools than it takes (wave 33)", async () => {
    expect(await refusal(openai().chat.completions.create({ model: "gpt-4o-mini", messages, temperature: 2.5 }), BadRequestError)).toEqual(
      openaiError("Invalid 'temperature': decimal above maximum value. Expected a value <= 2, but got 2.5 instead.", "temperature", "decimal_above_max_value"),
    );
    expect(await refusal(openai().chat.completions.create({ model: "gpt-4o-mini", messages, max_completion_tokens: 0 }), BadRequestError)).toEqual(
      openaiError("Invalid 'max_completion_tokens': integer below minimum value. Expected a value >= 1, but got 0 instead.", "max_completion_tokens", "integer_below_min_value"),
    );
    expect(await refusal(openai().chat.completions.create({ model: "gpt-4o-mini", messages, stop: ["1", "2", "3", "4", "5"] }), BadRequestError)).toEqual(
      openaiError("Invalid 'stop': array too long. Expected an array with maximum length 4, but got an array with length 5 instead.", "stop", "array_above_max_length"),
    );
    const many = Array.from({ length: 129 }, (_, i) => ({ type: "function" as const, function: { name: `tool_${i}` } }));
    expect(await refusal(openai().chat.completions.create({ model: "gpt-4o-mini", messages, tools: many }), BadRequestError)).toEqual(
      openaiError("Invalid 'tools': array too long. Expected an array with maximum length 128, but got an array with length 129 instead.", "tools", "array_above_max_length"),
    );
    const taken = await openai().chat.completions.create({ model: "gpt-4o-mini", messages, tools: many.slice(0, 128), stop: ["1", "2", "3", "4"], temperature: 2 });
    expect(taken.choices[0]!.finish_reason).toBe("stop");
  });

  it("a body the schema refuses: the API's sentence and code for each fault (wave 33)", async () => {
    expect(await refusal(openai().chat.completions.create({ model: "gpt-4o-mini", messages: [] }), BadRequestError)).toEqual(
      openaiError("Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.", "messages", "empty_array"),
    );
    expect(await refusal(openai().chat.completions.create({ model: "gpt-4o-mini", messages, temperature: "0.2" as never }), BadRequestError)).toEqual(
      openaiError("Invalid type for 'temperature': expected a decimal, but got a string instead.", "temperature", "invalid_type"),
    );
    expect(await refusal(openai().chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "robot", content: "hi" } as never] }), BadRequestError)).toEqual(
      openaiError("Invalid value: 'robot'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.", "messages[0].role", "invalid_value"),
    );
    expect(await refusal(openai().chat.completions.create({ messages } as never), BadRequestError)).toEqual(openaiError("you must provide a model parameter", null));
  });

  it('a scenario with "strict": false answers them all', async () => {
    const lenient = openai(`${h.url}/s/lenient/c1/v1`);
    const answers = [
      await lenient.chat.completions.create({ model: "gpt-4o-mini", messages, stream_options: { include_usage: true } }),
      await lenient.chat.completions.create({ model: "o3", messages, max_tokens: 100 }),
      await lenient.chat.completions.create({ model: "gpt-4o-mini", messages, tool_choice: "required" }),
      await lenient.chat.completions.create({ model: "gpt-4o-mini", messages, temperature: 3, stop: ["1", "2", "3", "4", "5"] }),
    ];
    expect(answers.map((a) => a.choices[0]!.message.content)).toEqual(["Answered anyway.", "Answered anyway.", "Answered anyway.", "Answered anyway."]);
  });
});

describe("openai Responses", () => {
  it("max_output_tokens below 16 (wave 33); 16 is taken, and a scenario with strict: false takes 5", async () => {
    const err = await openai()
      .responses.create({ model: "gpt-5", input: "Say hello.", max_output_tokens: 5 })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as InstanceType<typeof BadRequestError>).error).toEqual({
      message: "Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got 5 instead.",
      type: "invalid_request_error",
      param: "max_output_tokens",
      code: "integer_below_min_value",
    });
    expect((await openai().responses.create({ model: "gpt-5", input: "Say hello.", max_output_tokens: 16 })).status).toMatch(/^(completed|incomplete)$/);
    expect((await openai(`${h.url}/s/lenient/r1/v1`).responses.create({ model: "gpt-5", input: "Say hello.", max_output_tokens: 5 })).output_text).toBe("Answered anyway.");
  });

  it("a new message after a response that ended in a function call, its output not sent: No tool output found", async () => {
    const weather = { type: "function" as const, name: "get_weather", parameters: { type: "object", properties: {} }, strict: false };
    const first = await openai().responses.create({ model: "gpt-4.1", input: "weather?", tools: [weather], tool_choice: "required" });
    const call = first.output.find((o) => o.type === "function_call");
    if (call?.type !== "function_call") throw new Error("expected a function_call");
    const next = openai().responses.create({ model: "gpt-4.1", previous_response_id: first.id, input: "And tomorrow?", tools: [weather] });
    expect(await refusal(next, BadRequestError)).toEqual([400, { message: `No tool output found for function call ${call.call_id}.`, type: "invalid_request_error", param: "input", code: null }]);
    const answered = await openai().responses.create({
      model: "gpt-4.1",
      previous_response_id: first.id,
      input: [
        { type: "function_call_output", call_id: call.call_id, output: "18C" },
        { role: "user", content: "And tomorrow?" },
      ],
      tools: [weather],
    });
    expect(answered.status).toBe("completed");
  });

  it("a tool choice naming a function not offered", async () => {
    const call = openai().responses.create({
      model: "gpt-4.1",
      input: "weather?",
      tools: [{ type: "function", name: "lookup_time", parameters: { type: "object", properties: {} }, strict: false }],
      tool_choice: { type: "function", name: "get_weather" },
    });
    expect(await refusal(call, BadRequestError)).toEqual([400, { message: "Tool choice 'function' not found in 'tools' parameter.", type: "invalid_request_error", param: "tool_choice", code: null }]);
  });
});

describe("@anthropic-ai/sdk Messages", () => {
  const anthropicError = (message: string) => [400, { type: "error", error: { type: "invalid_request_error", message }, request_id: expect.stringMatching(/^req_/) }];

  it("a temperature outside 0…1, on every Claude model (wave 33); 0 and 1 are taken", async () => {
    expect(await refusal(anthropic().messages.create(sampled({ model: "claude-sonnet-4-20250514", max_tokens: 64, messages, temperature: 1.5 })), AnthropicBadRequest)).toEqual(
      anthropicError("temperature: range: 0..1"),
    );
    expect(await refusal(anthropic().messages.create(sampled({ model: "claude-opus-4-5", max_tokens: 64, messages, temperature: -1 })), AnthropicBadRequest)).toEqual(
      anthropicError("`temperature` cannot be set to -1 for this model"),
    );
    for (const temperature of [0, 1]) {
      expect((await anthropic().messages.create(sampled({ model: "claude-sonnet-4-5", max_tokens: 1024, messages, temperature }))).stop_reason).toBe("end_turn");
    }
  });

  it("temperature and top_p together on Claude 4.5 and later; on Claude Sonnet 4 they are taken", async () => {
    for (const model of ["claude-sonnet-4-5", "claude-haiku-4-5-20251001", "claude-opus-4-5", "claude-sonnet-4-6"]) {
      expect(await refusal(anthropic().messages.create(sampled({ model, max_tokens: 64, messages, temperature: 0.5, top_p: 0.9 })), AnthropicBadRequest)).toEqual(
        anthropicError("`temperature` and `top_p` cannot both be specified for this model. Please use only one."),
      );
    }
    expect((await anthropic().messages.create(sampled({ model: "claude-sonnet-4-20250514", max_tokens: 1024, messages, temperature: 0.5, top_p: 0.9 }))).stop_reason).toBe("end_turn");
    expect((await anthropic().messages.create(sampled({ model: "claude-sonnet-4-5", max_tokens: 1024, messages, temperature: 0.5 }))).stop_reason).toBe("end_turn");
  });

  it("thinking with a forced tool choice", async () => {
    const tool = { name: "get_weather", input_schema: { type: "object" as const, properties: {} } };
    for (const tool_choice of [{ type: "any" as const }, { type: "tool" as const, name: "get_weather" }]) {
      const call = anthropic().messages.create({ model: "claude-sonnet-4-20250514", max_tokens: 2048, messages, tools: [tool], tool_choice, thinking: { type: "enabled", budget_tokens: 1024 } });
      expect(await refusal(call, AnthropicBadRequest)).toEqual(anthropicError("Thinking may not be enabled when tool_choice forces tool use."));
    }
  });

  it('a scenario with "strict": false answers them', async () => {
    const lenient = anthropic(`${h.url}/s/lenient/a1`);
    const msg = await lenient.messages.create(sampled({ model: "claude-sonnet-4-5", max_tokens: 64, messages, temperature: 0.5, top_p: 0.9 }));
    expect(msg.content).toEqual([{ type: "text", text: "Answered anyway." }]);
    const hot = await lenient.messages.create(sampled({ model: "claude-sonnet-4-5", max_tokens: 64, messages, temperature: 1.5 }));
    expect(hot.content).toEqual([{ type: "text", text: "Answered anyway." }]);
  });
});

describe("Claude on Bedrock: the same refusals, as Bedrock relays a model's 400", () => {
  const MODEL = "anthropic.claude-sonnet-4-5-20250929-v1:0";
  const prefix = "The model returned the following errors: ";

  it("Converse: temperature with topP; thinking with a forced tool", async () => {
    const client = new BedrockRuntimeClient({
      region: "us-east-1",
      endpoint: h.url,
      credentials: { accessKeyId: "AKIDMOCKLLMEXAMPLE", secretAccessKey: "mockllm-fake-secret" },
      maxAttempts: 1,
      ...(RUNTIME === "workers" ? { requestHandler: new NodeHttpHandler() } : {}),
    });
    const ask = async (input: ConstructorParameters<typeof ConverseCommand>[0]) => {
      const err = await client.send(new ConverseCommand(input)).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ValidationException);
      return [(err as ValidationException).$metadata.httpStatusCode, (err as ValidationException).message];
    };
    const base = { modelId: MODEL, messages: [{ role: "user" as const, content: [{ text: "weather?" }] }] };
    expect(await ask({ ...base, inferenceConfig: { temperature: 0.5, topP: 0.9 } })).toEqual([
      400,
      `${prefix}\`temperature\` and \`top_p\` cannot both be specified for this model. Please use only one.`,
    ]);
    const toolConfig = { tools: [{ toolSpec: { name: "get_weather", inputSchema: { json: { type: "object", properties: {} } } } }], toolChoice: { any: {} } };
    expect(await ask({ ...base, toolConfig, additionalModelRequestFields: { thinking: { type: "enabled", budget_tokens: 1024 } } })).toEqual([
      400,
      `${prefix}Thinking may not be enabled when tool_choice forces tool use.`,
    ]);
  });

  it("InvokeModel (@anthropic-ai/bedrock-sdk): temperature with top_p", async () => {
    const bedrock = new AnthropicBedrock({ baseURL: h.url, awsRegion: "us-east-1", awsAccessKey: "AKIDMOCKLLMEXAMPLE", awsSecretKey: "mockllm-fake-secret", maxRetries: 0 });
    const err = await bedrock.messages.create(sampled({ model: MODEL, max_tokens: 64, messages, temperature: 0.5, top_p: 0.9 })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AnthropicBadRequest);
    expect([(err as AnthropicBadRequest).status, (err as AnthropicBadRequest).error]).toEqual([
      400,
      { message: `${prefix}\`temperature\` and \`top_p\` cannot both be specified for this model. Please use only one.` },
    ]);
  });
});

describe("Azure OpenAI: a well-formed api-version the service never had", () => {
  it("1999-01-01 is the gateway's 404 Resource not found", async () => {
    const az = new AzureOpenAI({ endpoint: h.url, apiKey: "azure-key", apiVersion: "1999-01-01", deployment: "prod-4o", maxRetries: 0 });
    expect(await refusal(az.chat.completions.create({ model: "prod-4o", messages }), NotFoundError)).toEqual([404, { code: "404", message: "Resource not found" }]);
  });
});
