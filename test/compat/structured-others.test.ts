/**
 * Structured outputs beside OpenAI's own SDK (contract section 11): `@anthropic-ai/sdk` (`output_config.format` with
 * `messages.parse` / `messages.stream`, the beta `output_format`, strict tools), `@google/genai` (`responseSchema`
 * in the OpenAPI subset, `responseJsonSchema`), `ollama` (`format`), and the AI SDK's `generateObject` /
 * `streamObject` on its OpenAI and Anthropic providers; default and scripted, JSON and stream.
 */
import Anthropic from "@anthropic-ai/sdk";
import { zodOutputFormat } from "@anthropic-ai/sdk/helpers/zod";
import { betaZodOutputFormat } from "@anthropic-ai/sdk/helpers/beta/zod";
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { GoogleGenAI, Type } from "@google/genai";
import { generateObject, streamObject } from "ai";
import { Ollama } from "ollama";
import { BedrockRuntimeClient, ConverseCommand, ConverseStreamCommand } from "@aws-sdk/client-bedrock-runtime";
import { NodeHttpHandler } from "@smithy/node-http-handler";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { validateSchema } from "../../src/canonical/schema-validate";
import { RUNTIME, startHarness, type Harness } from "./harness";

let h: Harness;

const Recipe = z.object({
  title: z.string(),
  servings: z.number().int(),
  ingredients: z.array(z.object({ name: z.string(), quantity: z.string() })),
  vegetarian: z.boolean(),
});
const RECIPE_JSON_SCHEMA = z.toJSONSchema(Recipe);
const ask = "Give me a recipe.";

beforeAll(async () => {
  h = await startHarness({ DEFAULT_WORDS_PER_SECOND: "0" });
  await h.upload(
    {
      name: "structured-others",
      steps: [{ id: "recipe", consume: false, match: { outputSchema: true }, respond: { json: { title: "Soup", servings: 2, ingredients: [{ name: "leek", quantity: "1" }], vegetarian: true } } }],
    },
    {
      name: "structured-strict-tool",
      steps: [{ id: "call", respond: { toolCalls: [{ name: "get_weather", arguments: { city: 75001, unit: "c" } }] } }],
    },
  );
});
afterAll(() => h?.stop());

const SCRIPTED = { title: "Soup", servings: 2, ingredients: [{ name: "leek", quantity: "1" }], vegetarian: true };

describe("@anthropic-ai/sdk", () => {
  const client = () => new Anthropic({ baseURL: h.url, apiKey: "sk-ant-test", maxRetries: 0 });
  const scripted = () => new Anthropic({ baseURL: `${h.url}/s/structured-others/a1`, apiKey: "sk-ant-test", maxRetries: 0 });

  it("messages.parse with output_config.format: one text block holding JSON valid against the schema; stream the same", async () => {
    const params = { model: "claude-sonnet-4-5", max_tokens: 1024, messages: [{ role: "user" as const, content: ask }], output_config: { format: zodOutputFormat(Recipe) } };
    const msg = await client().messages.parse(params);
    expect(msg.content.map((b) => b.type)).toEqual(["text"]);
    expect(Recipe.parse(msg.parsed_output)).toEqual(msg.parsed_output);
    expect(validateSchema(RECIPE_JSON_SCHEMA, msg.parsed_output)).toEqual([]);
    expect(msg.stop_reason).toBe("end_turn");
    const final = await client().messages.stream(params).finalMessage();
    expect(final.parsed_output).toEqual(msg.parsed_output);
    const mine = await scripted().messages.parse(params);
    expect(mine.parsed_output).toEqual(SCRIPTED);
  });

  it("beta output_format (structured-outputs-2025-11-13): parsed the same way", async () => {
    const msg = await client().beta.messages.parse({
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      betas: ["structured-outputs-2025-11-13"],
      messages: [{ role: "user", content: ask }],
      output_format: betaZodOutputFormat(Recipe),
    });
    expect(validateSchema(RECIPE_JSON_SCHEMA, msg.parsed_output)).toEqual([]);
  });

  it("strict tool use, forced: the call's input is valid against the tool's schema", async () => {
    const schema = { type: "object" as const, properties: { city: { type: "string" }, unit: { type: "string", enum: ["c", "f"] } }, required: ["city", "unit"], additionalProperties: false };
    const msg = await client().messages.create({
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      messages: [{ role: "user", content: "Weather in Paris?" }],
      tools: [{ name: "get_weather", description: "Weather", input_schema: schema, strict: true }],
      tool_choice: { type: "tool", name: "get_weather" },
    });
    const call = msg.content.find((b) => b.type === "tool_use");
    expect(call?.type === "tool_use" ? validateSchema(schema, call.input) : ["no call"]).toEqual([]);
  });

  it("strict tool use, scripted: a call whose input breaks the tool's schema is sent as written and journalled", async () => {
    const schema = { type: "object" as const, properties: { city: { type: "string" }, unit: { type: "string", enum: ["c", "f"] } }, required: ["city", "unit"], additionalProperties: false };
    const mine = new Anthropic({ baseURL: `${h.url}/s/structured-strict-tool/a1`, apiKey: "sk-ant-test", maxRetries: 0 });
    const msg = await mine.messages.create({
      model: "claude-sonnet-4-5",
      max_tokens: 1024,
      messages: [{ role: "user", content: "Weather in Paris?" }],
      tools: [{ name: "get_weather", description: "Weather", input_schema: schema, strict: true }],
    });
    expect(msg.content.flatMap((b) => (b.type === "tool_use" ? [b.input] : []))).toEqual([{ city: 75001, unit: "c" }]);
    const journal = await h.journal("structured-strict-tool", "a1");
    expect(journal[0]!.outputSchema).toEqual({ valid: false, errors: [{ path: "/toolCalls/0/arguments/city", message: "must be string, got number" }] });
  });
});

describe("@google/genai", () => {
  const client = (base = h.url) => new GoogleGenAI({ apiKey: "g-test", httpOptions: { baseUrl: base } });
  const openapi = {
    type: Type.OBJECT,
    properties: {
      title: { type: Type.STRING },
      servings: { type: Type.INTEGER, minimum: 1, maximum: 8 },
      ingredients: { type: Type.ARRAY, items: { type: Type.OBJECT, properties: { name: { type: Type.STRING }, quantity: { type: Type.STRING } }, required: ["name", "quantity"] } },
      cuisine: { type: Type.STRING, enum: ["french", "italian"], nullable: true },
    },
    required: ["title", "servings", "ingredients"],
    propertyOrdering: ["title", "servings", "ingredients", "cuisine"],
  };

  it("responseSchema (the OpenAPI subset, upper-case types): response.text is JSON valid against it; stream the same", async () => {
    const config = { responseMimeType: "application/json", responseSchema: openapi };
    const res = await client().models.generateContent({ model: "gemini-2.5-flash", contents: ask, config });
    const value = JSON.parse(res.text!);
    expect(validateSchema(openapi, value)).toEqual([]);
    expect(Object.keys(value)).toEqual(["title", "servings", "ingredients", "cuisine"]);
    let streamed = "";
    for await (const c of await client().models.generateContentStream({ model: "gemini-2.5-flash", contents: ask, config })) streamed += c.text ?? "";
    expect(JSON.parse(streamed)).toEqual(value);
  });

  it("responseJsonSchema: JSON valid against the JSON Schema; scripted respond.json as the text part", async () => {
    const config = { responseMimeType: "application/json", responseJsonSchema: RECIPE_JSON_SCHEMA };
    const res = await client().models.generateContent({ model: "gemini-2.5-flash", contents: ask, config });
    expect(validateSchema(RECIPE_JSON_SCHEMA, JSON.parse(res.text!))).toEqual([]);
    const mine = await client(`${h.url}/s/structured-others/g1`).models.generateContent({ model: "gemini-2.5-flash", contents: ask, config });
    expect(JSON.parse(mine.text!)).toEqual(SCRIPTED);
  });

  it("a responseSchema field outside the subset (the SDK drops unknown fields; a raw client does not): the real API's 400", async () => {
    const body = {
      contents: [{ parts: [{ text: ask }] }],
      generationConfig: { responseMimeType: "application/json", responseSchema: { type: "OBJECT", properties: { a: { type: "STRING", maxLength: 3, $ref: "#/x" } } } },
    };
    const res = await fetch(`${h.url}/v1beta/models/gemini-2.5-flash:generateContent`, {
      method: "POST",
      headers: { "x-goog-api-key": "g-test", "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    expect([res.status, await res.json()]).toEqual([
      400,
      {
        error: {
          code: 400,
          message: `Invalid JSON payload received. Unknown name "$ref" at 'generation_config.response_schema.properties[0].value': Cannot find field.`,
          status: "INVALID_ARGUMENT",
          details: [
            {
              "@type": "type.googleapis.com/google.rpc.BadRequest",
              fieldViolations: [
                {
                  field: "generation_config.response_schema.properties[0].value",
                  description: `Invalid JSON payload received. Unknown name "$ref" at 'generation_config.response_schema.properties[0].value': Cannot find field.`,
                },
              ],
            },
          ],
        },
      },
    ]);
  });
});

describe("@aws-sdk/client-bedrock-runtime: Converse outputConfig.textFormat", () => {
  it("the schema (sent as JSON text) answered with JSON valid against it, JSON and stream", async () => {
    const client = new BedrockRuntimeClient({
      region: "us-east-1",
      endpoint: h.url,
      credentials: { accessKeyId: "AKIDMOCKLLMEXAMPLE", secretAccessKey: "mockllm-fake-secret" },
      ...(RUNTIME === "workers" ? { requestHandler: new NodeHttpHandler() } : {}),
    });
    const input = {
      modelId: "anthropic.claude-3-5-haiku-20241022-v1:0",
      messages: [{ role: "user" as const, content: [{ text: ask }] }],
      outputConfig: { textFormat: { type: "json_schema" as const, structure: { jsonSchema: { name: "Recipe", schema: JSON.stringify(RECIPE_JSON_SCHEMA) } } } },
    };
    const res = await client.send(new ConverseCommand(input));
    const text = res.output?.message?.content?.[0]?.text ?? "";
    expect(validateSchema(RECIPE_JSON_SCHEMA, JSON.parse(text))).toEqual([]);
    let streamed = "";
    for await (const e of (await client.send(new ConverseStreamCommand(input))).stream ?? []) streamed += e.contentBlockDelta?.delta?.text ?? "";
    expect(streamed).toBe(text);
  });
});

describe("ollama", () => {
  it('format: a schema gives JSON valid against it, "json" a JSON object; stream the same', async () => {
    const ollama = new Ollama({ host: h.url });
    const res = await ollama.chat({ model: "llama3.2", messages: [{ role: "user", content: ask }], format: RECIPE_JSON_SCHEMA, stream: false });
    const value = JSON.parse(res.message.content);
    expect(validateSchema(RECIPE_JSON_SCHEMA, value)).toEqual([]);
    let streamed = "";
    for await (const part of await ollama.chat({ model: "llama3.2", messages: [{ role: "user", content: ask }], format: RECIPE_JSON_SCHEMA, stream: true })) streamed += part.message.content;
    expect(JSON.parse(streamed)).toEqual(value);
    const json = await ollama.generate({ model: "llama3.2", prompt: ask, format: "json", stream: false });
    expect(typeof JSON.parse(json.response ?? "")).toBe("object");
  });
});

describe("the AI SDK: generateObject / streamObject", () => {
  const openai = () => createOpenAI({ baseURL: `${h.url}/v1`, apiKey: "sk-test" });
  const anthropic = () => createAnthropic({ baseURL: `${h.url}/v1`, apiKey: "sk-ant-test" });

  it("@ai-sdk/openai (Responses and Chat): an object valid against the zod schema; streamObject's final object the same", async () => {
    for (const model of [openai()("gpt-4.1"), openai().chat("gpt-4.1")]) {
      const { object } = await generateObject({ model, schema: Recipe, prompt: ask });
      expect(Recipe.parse(object)).toEqual(object);
      const stream = streamObject({ model, schema: Recipe, prompt: ask });
      const partials: unknown[] = [];
      for await (const partial of stream.partialObjectStream) partials.push(partial);
      expect([await stream.object, partials.length > 1]).toEqual([object, true]);
    }
  });

  it("@ai-sdk/anthropic: an object valid against the zod schema; streamObject the same", async () => {
    const model = anthropic()("claude-sonnet-4-5");
    const { object } = await generateObject({ model, schema: Recipe, prompt: ask });
    expect(Recipe.parse(object)).toEqual(object);
    const stream = streamObject({ model, schema: Recipe, prompt: ask });
    const partials: unknown[] = [];
    for await (const partial of stream.partialObjectStream) partials.push(partial);
    expect([await stream.object, partials.length > 1]).toEqual([object, true]);
  });
});
