/**
 * Amazon Bedrock through the official clients, on both runtimes: `@aws-sdk/client-bedrock-runtime` (Converse,
 * ConverseStream, InvokeModel, InvokeModelWithResponseStream) and `@anthropic-ai/bedrock-sdk` — text, stream, a
 * two-turn tool loop, a scripted 429 the SDK retries, and a mid-stream exception. Fake static credentials: the mock
 * checks that a SigV4 `Authorization` is present, never the signature. On the Node runtime the AWS client keeps its
 * default HTTP/2 handler (cleartext, prior knowledge); the Worker under workerd speaks HTTP/1.1 only, so there the
 * client gets the README's one-line `requestHandler: new NodeHttpHandler()`.
 */
import AnthropicBedrock from "@anthropic-ai/bedrock-sdk";
import {
  BedrockRuntimeClient,
  ConverseCommand,
  ConverseStreamCommand,
  InvokeModelCommand,
  InvokeModelWithResponseStreamCommand,
  ThrottlingException,
  type ContentBlock,
  type Message,
} from "@aws-sdk/client-bedrock-runtime";
import { ConfiguredRetryStrategy } from "@smithy/core/retry";
import { NodeHttpHandler } from "@smithy/node-http-handler";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cloudSteps } from "./cloud-steps";
import { RUNTIME, startHarness, type Harness } from "./harness";

let h: Harness;
const MODEL = "anthropic.claude-3-5-haiku-20241022-v1:0";
const CREDENTIALS = { accessKeyId: "AKIDMOCKLLMEXAMPLE", secretAccessKey: "mockllm-fake-secret" };

const steps = (midStreamError: Record<string, unknown>) => cloudSteps({ text: "Hello from Bedrock.", inputTokens: 9, outputTokens: 4 }, midStreamError);

beforeAll(async () => {
  h = await startHarness();
  await h.upload({ name: "bd-aws", steps: steps({ errorType: "throttlingException", message: "Slow down, mid-stream." }) }, { name: "bd-anthropic", steps: steps({ message: "Model stream broke." }) });
}, 120_000);
afterAll(() => h?.stop());

function aws(session: string): BedrockRuntimeClient {
  return new BedrockRuntimeClient({
    region: "us-east-1",
    endpoint: `${h.url}/s/bd-aws/${session}`,
    credentials: CREDENTIALS,
    retryStrategy: new ConfiguredRetryStrategy(3, () => 0),
    ...(RUNTIME === "workers" ? { requestHandler: new NodeHttpHandler() } : {}),
  });
}

const user = (text: string): Message => ({ role: "user", content: [{ text }] });
const weatherTool = { tools: [{ toolSpec: { name: "get_weather", description: "Weather", inputSchema: { json: { type: "object", properties: { city: { type: "string" } } } } } }] };

describe("@aws-sdk/client-bedrock-runtime", () => {
  it("Converse: text, stop reason, usage, metrics", async () => {
    const out = await aws("text").send(new ConverseCommand({ modelId: MODEL, messages: [user("hello")], system: [{ text: "Be brief." }], inferenceConfig: { maxTokens: 64 } }));
    expect(out.output?.message).toEqual({ role: "assistant", content: [{ text: "Hello from Bedrock." }] });
    expect([out.stopReason, out.usage, out.metrics]).toEqual(["end_turn", { cacheReadInputTokens: 0, cacheWriteInputTokens: 0, inputTokens: 9, outputTokens: 4, totalTokens: 13 }, { latencyMs: 0 }]);
    const [entry] = await h.journal("bd-aws", "text");
    expect([entry!.provider, entry!.endpoint, entry!.canonical.model, entry!.request.headers.authorization]).toEqual(["bedrock", "converse", MODEL, "[redacted]"]);
  });

  it("ConverseStream: the events in order, text in chunks of two words", async () => {
    const out = await aws("stream").send(new ConverseStreamCommand({ modelId: MODEL, messages: [user("stream please")] }));
    const names: string[] = [];
    let text = "";
    for await (const e of out.stream!) {
      names.push(Object.entries(e).find(([, v]) => v !== undefined)![0]);
      text += e.contentBlockDelta?.delta?.text ?? "";
      if (e.messageStop) expect(e.messageStop.stopReason).toBe("end_turn");
    }
    expect(text).toBe("One two three four five.");
    expect(names).toEqual(["messageStart", "contentBlockDelta", "contentBlockDelta", "contentBlockDelta", "contentBlockStop", "messageStop", "metadata"]);
  });

  it("a two-turn tool loop over ConverseStream then Converse", async () => {
    const client = aws("tools");
    const first = await client.send(new ConverseStreamCommand({ modelId: MODEL, messages: [user("weather in Paris")], toolConfig: weatherTool }));
    let toolUseId = "";
    let name = "";
    let input = "";
    for await (const e of first.stream!) {
      if (e.contentBlockStart?.start?.toolUse) ({ toolUseId = "", name = "" } = e.contentBlockStart.start.toolUse);
      input += e.contentBlockDelta?.delta?.toolUse?.input ?? "";
    }
    expect([toolUseId, name, JSON.parse(input)]).toEqual([expect.stringMatching(/^tooluse_[A-Za-z0-9]{22}$/), "get_weather", { city: "Paris" }]);
    const assistant: ContentBlock[] = [{ toolUse: { toolUseId, name, input: JSON.parse(input) } }];
    const second = await client.send(
      new ConverseCommand({
        modelId: MODEL,
        toolConfig: weatherTool,
        messages: [user("weather in Paris"), { role: "assistant", content: assistant }, { role: "user", content: [{ toolResult: { toolUseId, content: [{ text: "18C" }] } }] }],
      }),
    );
    expect(second.output?.message?.content).toEqual([{ text: "It is 18C in Paris." }]);
    const journal = await h.journal("bd-aws", "tools");
    expect(journal.map((j) => [j.step, j.canonical.answered?.toolCalls[0]?.id ?? null])).toEqual([
      ["call", toolUseId],
      ["answer", null],
    ]);
  });

  it("parallel tool results sent as two user messages, a blank assistant text: the service's ValidationException, nothing journaled", async () => {
    const client = aws("shape");
    const calls: ContentBlock[] = ["a", "b"].map((id) => ({ toolUse: { toolUseId: `tooluse_${id}`, name: "get_weather", input: { city: id } } }));
    const result = (id: string): Message => ({ role: "user", content: [{ toolResult: { toolUseId: `tooluse_${id}`, content: [{ text: "18C" }] } }] });
    const refused = async (messages: Message[]) => {
      const err = (await client.send(new ConverseCommand({ modelId: MODEL, toolConfig: weatherTool, messages })).catch((e: unknown) => e)) as {
        name: string;
        message: string;
        $metadata: { httpStatusCode: number };
      };
      return [err.name, err.$metadata.httpStatusCode, err.message];
    };
    expect(await refused([user("weather"), { role: "assistant", content: calls }, result("a"), result("b")])).toEqual([
      "ValidationException",
      400,
      "A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.",
    ]);
    expect(await refused([user("hi"), { role: "assistant", content: [{ text: "\n\n" }] }, user("what?")])).toEqual([
      "ValidationException",
      400,
      "The text field in the ContentBlock object at messages.1.content.0 is blank. Add text to the text field, and try again.",
    ]);
    // Refused before the session saw them: the session never ran.
    expect(await h.journal("bd-aws", "shape")).toMatchObject({ error: { code: "session_not_run" } });
  });

  it("a scripted 429 is a ThrottlingException the SDK retries to success", async () => {
    const out = await aws("flaky").send(new ConverseCommand({ modelId: MODEL, messages: [user("flaky")] }));
    expect(out.output?.message?.content).toEqual([{ text: "after a retry" }]);
    expect(out.$metadata.attempts).toBe(2);
    expect((await h.journal("bd-aws", "flaky")).map((j) => [j.outcome, j.status])).toEqual([
      ["failure", 429],
      ["response", 200],
    ]);
    const once = new BedrockRuntimeClient({
      region: "us-east-1",
      endpoint: `${h.url}/s/bd-aws/flaky-once`,
      credentials: CREDENTIALS,
      maxAttempts: 1,
      ...(RUNTIME === "workers" ? { requestHandler: new NodeHttpHandler() } : {}),
    });
    const err = await once.send(new ConverseCommand({ modelId: MODEL, messages: [user("flaky")] })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ThrottlingException);
    expect((err as ThrottlingException).message).toBe("Too many requests, please wait before trying again.");
  });

  it("a mid-stream throttlingException frame is thrown as ThrottlingException after the events before it", async () => {
    const out = await aws("cut").send(new ConverseStreamCommand({ modelId: MODEL, messages: [user("cut")] }));
    const seen: string[] = [];
    const err = await (async () => {
      for await (const e of out.stream!) seen.push(Object.keys(e)[0]!);
    })().catch((e: unknown) => e);
    expect(seen).toEqual(["messageStart", "contentBlockDelta"]);
    expect(err).toBeInstanceOf(ThrottlingException);
    expect((err as Error).message).toBe("Slow down, mid-stream.");
  });

  it("InvokeModel and InvokeModelWithResponseStream with an Anthropic Messages body", async () => {
    const body = (text: string) => JSON.stringify({ anthropic_version: "bedrock-2023-05-31", max_tokens: 64, messages: [{ role: "user", content: text }] });
    const client = aws("invoke");
    const json = await client.send(new InvokeModelCommand({ modelId: MODEL, contentType: "application/json", body: body("hello") }));
    expect(JSON.parse(new TextDecoder().decode(json.body))).toMatchObject({ type: "message", content: [{ type: "text", text: "Hello from Bedrock." }], stop_reason: "end_turn" });
    const stream = await client.send(new InvokeModelWithResponseStreamCommand({ modelId: MODEL, contentType: "application/json", body: body("stream please") }));
    const events: { type: string; delta?: { text?: string } }[] = [];
    for await (const e of stream.body!) events.push(JSON.parse(new TextDecoder().decode(e.chunk!.bytes)));
    expect(events.map((e) => e.delta?.text ?? "").join("")).toBe("One two three four five.");
    expect([events[0]!.type, events.at(-1)!.type]).toEqual(["message_start", "message_stop"]);
  });
});

function anthropicBedrock(session: string): AnthropicBedrock {
  return new AnthropicBedrock({
    baseURL: `${h.url}/s/bd-anthropic/${session}`,
    awsRegion: "us-east-1",
    awsAccessKey: CREDENTIALS.accessKeyId,
    awsSecretKey: CREDENTIALS.secretAccessKey,
    maxRetries: 2,
  });
}

describe("@anthropic-ai/bedrock-sdk", () => {
  const tools = [{ name: "get_weather", description: "Weather", input_schema: { type: "object" as const, properties: { city: { type: "string" } } } }];

  it("text and stream", async () => {
    const client = anthropicBedrock("text");
    const msg = await client.messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: "user", content: "hello" }] });
    expect(msg.content).toEqual([{ type: "text", text: "Hello from Bedrock." }]);
    const stream = client.messages.stream({ model: MODEL, max_tokens: 64, messages: [{ role: "user", content: "stream please" }] });
    const deltas: string[] = [];
    stream.on("text", (t) => deltas.push(t));
    const final = await stream.finalMessage();
    expect(deltas).toEqual(["One two", " three four", " five."]);
    expect(final.stop_reason).toBe("end_turn");
    const journal = await h.journal("bd-anthropic", "text");
    expect(journal.map((j) => [j.endpoint, j.stream, j.request.path])).toEqual([
      ["messages", false, `/model/${MODEL}/invoke`],
      ["messages", true, `/model/${MODEL}/invoke-with-response-stream`],
    ]);
  });

  it("a two-turn tool loop", async () => {
    const client = anthropicBedrock("tools");
    const first = await client.messages.stream({ model: MODEL, max_tokens: 64, tools, messages: [{ role: "user", content: "weather in Paris" }] }).finalMessage();
    const call = first.content.find((b) => b.type === "tool_use");
    expect(call).toMatchObject({ type: "tool_use", name: "get_weather", input: { city: "Paris" } });
    const second = await client.messages.create({
      model: MODEL,
      max_tokens: 64,
      tools,
      messages: [
        { role: "user", content: "weather in Paris" },
        { role: "assistant", content: first.content },
        { role: "user", content: [{ type: "tool_result", tool_use_id: call!.type === "tool_use" ? call!.id : "", content: "18C" }] },
      ],
    });
    expect(second.content).toEqual([{ type: "text", text: "It is 18C in Paris." }]);
  });

  it("a scripted 429 is retried; a mid-stream exception frame becomes the SDK's error", async () => {
    const client = anthropicBedrock("flaky");
    const msg = await client.messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: "user", content: "flaky" }] });
    expect(msg.content).toEqual([{ type: "text", text: "after a retry" }]);
    expect((await h.journal("bd-anthropic", "flaky")).map((j) => j.status)).toEqual([429, 200]);
    const stream = client.messages.stream({ model: MODEL, max_tokens: 64, messages: [{ role: "user", content: "cut" }] });
    const err = await stream.finalMessage().catch((e: unknown) => e);
    expect(String(err)).toMatch(/modelStreamErrorException/);
    expect(String(err)).toMatch(/Model stream broke\./);
  });
});
