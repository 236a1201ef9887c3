/**
 * Structured outputs through the official `openai` SDK (contract section 11): `chat.completions.parse` with
 * `zodResponseFormat`, `responses.parse` with `zodTextFormat`, the streaming helpers, `json_object`; with no scenario
 * (the default responder answers JSON valid against the schema) and scripted (`respond.json`, the `outputSchema`
 * matcher, the check of the mock's own output, verify's `schema_violation`), and the strict schemas the real API refuses.
 */
import OpenAI, { AzureOpenAI } from "openai";
import { zodResponseFormat, zodTextFormat } from "openai/helpers/zod";
import { ResponsesWS } from "openai/resources/responses/ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { validateSchema } from "../../src/canonical/schema-validate";
import { startHarness, type Harness } from "./harness";

let h: Harness;
let client: OpenAI;

const Invoice = z.object({
  invoice_id: z.string(),
  customer_name: z.string(),
  email: z.string(),
  total: z.number(),
  currency: z.enum(["EUR", "USD"]),
  issued_at: z.string(),
  lines: z.array(z.object({ description: z.string(), quantity: z.number().int(), price: z.number() })),
  note: z.string().nullable(),
});
const MODEL = "gpt-4.1";
const messages = [{ role: "user" as const, content: "Extract the invoice." }];

beforeAll(async () => {
  h = await startHarness({ DEFAULT_WORDS_PER_SECOND: "0" });
  client = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: "sk-test", maxRetries: 0 });
  await h.upload(
    {
      name: "structured-openai",
      steps: [
        {
          id: "extract",
          match: { outputSchema: { name: "Invoice" } },
          respond: {
            json: { invoice_id: "INV-{{vars.n}}", customer_name: "Ada", email: "ada@example.com", total: "{{vars.total}}", currency: "EUR", issued_at: "2025-01-02T03:04:05Z", lines: [], note: null },
          },
        },
        { id: "plain", match: { outputSchema: false }, respond: { text: "plain text" } },
      ],
      variables: { n: 7, total: 42.5 },
    },
    {
      name: "structured-violation",
      steps: [
        { id: "wrong-type", respond: { json: { total: "forty-two", currency: "GBP" } } },
        { id: "unchecked", schemaCheck: false, respond: { text: '{"total": 4' } },
      ],
    },
    { name: "structured-lenient", strict: false, steps: [{ respond: { json: { anything: true } } }] },
  );
});
afterAll(() => h?.stop());

/** The JSON Schema `zodResponseFormat` sends, for checking answers with mockllm's own validator. */
const invoiceSchema = zodResponseFormat(Invoice, "Invoice").json_schema.schema;

describe("no scenario: the default responder answers with JSON valid against the schema", () => {
  it("chat.completions.parse + zodResponseFormat: parsed, refusal null, valid, the same on every call", async () => {
    const ask = () => client.chat.completions.parse({ model: MODEL, messages, response_format: zodResponseFormat(Invoice, "Invoice") });
    const [a, b] = [await ask(), await ask()];
    const message = a.choices[0]!.message;
    expect(message.refusal).toBeNull();
    expect(a.choices[0]!.finish_reason).toBe("stop");
    expect(Invoice.parse(message.parsed)).toEqual(message.parsed);
    expect(validateSchema(invoiceSchema, message.parsed)).toEqual([]);
    expect(JSON.parse(message.content!)).toEqual(message.parsed);
    expect(b.choices[0]!.message.content).toBe(message.content);
    // Plausible values where the names say what they hold.
    expect(message.parsed!.email).toMatch(/^[a-z0-9._]+@example\.com$/);
    expect(message.parsed!.issued_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(message.parsed!.lines.length).toBeGreaterThan(0);
  });

  it("chat.completions.stream with response_format: the deltas add up to the same JSON; finalChatCompletion parses", async () => {
    const json = await client.chat.completions.parse({ model: MODEL, messages, response_format: zodResponseFormat(Invoice, "Invoice") });
    const stream = client.chat.completions.stream({ model: MODEL, messages, response_format: zodResponseFormat(Invoice, "Invoice") });
    let deltas = 0;
    stream.on("content.delta", () => deltas++);
    const final = await stream.finalChatCompletion();
    expect(final.choices[0]!.message.parsed).toEqual(json.choices[0]!.message.parsed);
    expect(deltas).toBeGreaterThan(1);
  });

  it("responses.parse + zodTextFormat: output_parsed valid; responses.stream's final response the same", async () => {
    const res = await client.responses.parse({ model: MODEL, input: "Extract the invoice.", text: { format: zodTextFormat(Invoice, "Invoice") } });
    expect(validateSchema(invoiceSchema, res.output_parsed)).toEqual([]);
    expect(JSON.parse(res.output_text)).toEqual(res.output_parsed);
    const stream = client.responses.stream({ model: MODEL, input: "Extract the invoice.", text: { format: zodTextFormat(Invoice, "Invoice") } });
    const final = await stream.finalResponse();
    expect(final.output_parsed).toEqual(res.output_parsed);
  });

  it("the Responses WebSocket mode: response.output_text.done carries the same JSON as HTTP", async () => {
    const http = await client.responses.create({ model: MODEL, input: "Extract the invoice.", store: false, text: { format: zodTextFormat(Invoice, "Invoice") } });
    const ws = new ResponsesWS(client);
    await new Promise((resolve, reject) => {
      ws.socket.on("open", resolve);
      ws.socket.on("error", reject);
    });
    const texts: string[] = [];
    let last = "";
    await new Promise<void>((resolve) => {
      ws.on("event", (e) => {
        if (e.type === "response.output_text.done") texts.push((e as { text: string }).text);
        last = e.type;
        if (["response.completed", "response.failed", "error"].includes(e.type)) resolve();
      });
      ws.send({ type: "response.create", model: MODEL, input: "Extract the invoice.", store: false, text: { format: zodTextFormat(Invoice, "Invoice") } } as never);
    });
    ws.close();
    expect([last, texts]).toEqual(["response.completed", [http.output_text]]);
    expect(validateSchema(invoiceSchema, JSON.parse(texts[0]!))).toEqual([]);
  });

  it("Azure (OpenAI's parse, inherited): AzureOpenAI chat.completions.parse gets a valid Invoice; the strict refusal too", async () => {
    const azure = new AzureOpenAI({ endpoint: h.url, apiKey: "azure-key", apiVersion: "2024-10-21", deployment: "prod-4o" });
    const res = await azure.chat.completions.parse({ model: "prod-4o", messages, response_format: zodResponseFormat(Invoice, "Invoice") });
    expect(validateSchema(invoiceSchema, res.choices[0]!.message.parsed)).toEqual([]);
    const bad = { type: "object", properties: { a: { type: "string" } }, required: ["a"] };
    const err = await azure.chat.completions
      .create({ model: "prod-4o", messages, response_format: { type: "json_schema", json_schema: { name: "A", schema: bad, strict: true } } })
      .catch((e: unknown) => e as InstanceType<typeof OpenAI.BadRequestError>);
    expect([(err as InstanceType<typeof OpenAI.BadRequestError>).status, (err as Error).message]).toEqual([
      400,
      "400 Invalid schema for response_format 'A': In context=(), 'additionalProperties' is required to be supplied and to be false.",
    ]);
  });

  it("json_object: a JSON object", async () => {
    const res = await client.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "Answer in JSON." }], response_format: { type: "json_object" } });
    const value = JSON.parse(res.choices[0]!.message.content!);
    expect(Object.keys(value)).toEqual(["response"]);
    expect(typeof value.response).toBe("string");
  });
});

describe("scripted: respond.json, the outputSchema matcher, the check of the mock's own output", () => {
  it("respond.json answers the named schema with its templates expanded; the journal shows what was asked and that it fits", async () => {
    const scripted = new OpenAI({ baseURL: `${h.url}/s/structured-openai/s1/v1`, apiKey: "sk-test", maxRetries: 0 });
    const plain = await scripted.chat.completions.create({ model: MODEL, messages });
    expect(plain.choices[0]!.message.content).toBe("plain text");
    const res = await scripted.chat.completions.parse({ model: MODEL, messages, response_format: zodResponseFormat(Invoice, "Invoice") });
    expect(res.choices[0]!.message.content).toBe(
      '{"invoice_id":"INV-7","customer_name":"Ada","email":"ada@example.com","total":42.5,"currency":"EUR","issued_at":"2025-01-02T03:04:05Z","lines":[],"note":null}',
    );
    expect(res.choices[0]!.message.parsed?.total).toBe(42.5);
    const journal = await h.journal("structured-openai", "s1");
    expect(journal.map((e) => [e.step, e.canonical.outputSchema ?? null, e.outputSchema ?? null])).toEqual([
      ["plain", null, null],
      ["extract", { kind: "json_schema", name: "Invoice", strict: true }, { valid: true, errors: [] }],
    ]);
    const verdict = (await (await h.admin("/sessions/structured-openai/s1/verify")).json()) as Record<string, any>;
    expect([verdict.ok, verdict.schemaViolations]).toEqual([true, undefined]);
  });

  it("a scripted answer that does not fit goes out as written, is journalled with its paths and fails verify; schemaCheck: false is not checked", async () => {
    const scripted = new OpenAI({ baseURL: `${h.url}/s/structured-violation/s1/v1`, apiKey: "sk-test", maxRetries: 0 });
    const format = zodResponseFormat(Invoice, "Invoice");
    const a = await scripted.chat.completions.create({ model: MODEL, messages, response_format: format });
    expect(a.choices[0]!.message.content).toBe('{"total":"forty-two","currency":"GBP"}');
    const b = await scripted.chat.completions.create({ model: MODEL, messages, response_format: format, stream: true });
    let text = "";
    for await (const c of b) text += c.choices[0]?.delta.content ?? "";
    expect(text).toBe('{"total": 4');
    const journal = await h.journal("structured-violation", "s1");
    expect(journal[0]!.outputSchema).toEqual({
      valid: false,
      errors: [
        { path: "", message: "must have required property 'invoice_id'" },
        { path: "", message: "must have required property 'customer_name'" },
        { path: "", message: "must have required property 'email'" },
        { path: "", message: "must have required property 'issued_at'" },
        { path: "", message: "must have required property 'lines'" },
        { path: "", message: "must have required property 'note'" },
        { path: "/total", message: "must be number, got string" },
        { path: "/currency", message: 'must be one of "EUR", "USD"' },
      ],
    });
    expect(journal[1]!.outputSchema).toBeUndefined();
    const verdict = (await (await h.admin("/sessions/structured-violation/s1/verify")).json()) as Record<string, any>;
    expect(verdict.ok).toBe(false);
    expect(verdict.schemaViolations.map((v: { kind: string; seq: number; step: string; errors: unknown[] }) => [v.kind, v.seq, v.step, v.errors.length])).toEqual([
      ["schema_violation", 1, "wrong-type", 8],
    ]);
    expect(verdict.summary).toContain("1 schema violation");
    expect(verdict.summary).toContain("(the answer): must have required property 'invoice_id'");
    expect(verdict.summary).toContain("… and 3 more (see the journal)");
  });
});

describe("what the real API refuses: a strict schema outside strict mode's rules gets its 400", () => {
  const loose = { type: "object", properties: { city: { type: "string" }, days: { type: "integer" } }, required: ["city", "days"] };

  it("Chat: additionalProperties missing, a property missing from required, an unsupported keyword; param response_format", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [loose, "Invalid schema for response_format 'Weather': In context=(), 'additionalProperties' is required to be supplied and to be false."],
      [
        { ...loose, additionalProperties: false, required: ["city"] },
        "Invalid schema for response_format 'Weather': In context=(), 'required' is required to be supplied and to be an array including every key in properties. Missing 'days'.",
      ],
      [
        { ...loose, additionalProperties: false, properties: { city: { type: "string", not: { const: "x" } }, days: { type: "integer" } } },
        "Invalid schema for response_format 'Weather': In context=('properties', 'city'), 'not' is not permitted.",
      ],
    ];
    for (const [schema, message] of cases) {
      const err = await client.chat.completions
        .create({ model: MODEL, messages, response_format: { type: "json_schema", json_schema: { name: "Weather", schema, strict: true } } })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.BadRequestError);
      const e = err as InstanceType<typeof OpenAI.BadRequestError>;
      expect([e.status, e.error]).toEqual([400, { message, type: "invalid_request_error", param: "response_format", code: null }]);
    }
    // Not strict: accepted as it is.
    const ok = await client.chat.completions.create({ model: MODEL, messages, response_format: { type: "json_schema", json_schema: { name: "Weather", schema: loose } } });
    expect(Object.keys(JSON.parse(ok.choices[0]!.message.content!))).toEqual(["city", "days"]);
  });

  it("Responses: param text.format.schema, code invalid_json_schema; a strict function tool: invalid_function_parameters", async () => {
    const err = await client.responses.create({ model: MODEL, input: "hi", text: { format: { type: "json_schema", name: "Weather", schema: loose, strict: true } } }).catch((e: unknown) => e);
    const e = err as InstanceType<typeof OpenAI.BadRequestError>;
    expect([e.status, e.error]).toEqual([
      400,
      {
        message: "Invalid schema for response_format 'Weather': In context=(), 'additionalProperties' is required to be supplied and to be false.",
        type: "invalid_request_error",
        param: "text.format.schema",
        code: "invalid_json_schema",
      },
    ]);
    const tool = await client.responses.create({ model: MODEL, input: "hi", tools: [{ type: "function", name: "get_weather", parameters: loose, strict: true }] }).catch((x: unknown) => x);
    expect((tool as InstanceType<typeof OpenAI.BadRequestError>).error).toEqual({
      message: "Invalid schema for function 'get_weather': In context=(), 'additionalProperties' is required to be supplied and to be false.",
      type: "invalid_request_error",
      param: "tools[0].parameters",
      code: "invalid_function_parameters",
    });
  });

  it("json_object without the word json in the messages: Chat's and Responses' own 400", async () => {
    const chat = await client.chat.completions.create({ model: MODEL, messages, response_format: { type: "json_object" } }).catch((e: unknown) => e);
    expect((chat as InstanceType<typeof OpenAI.BadRequestError>).error).toEqual({
      message: "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.",
      type: "invalid_request_error",
      param: "messages",
      code: null,
    });
    const res = await client.responses.create({ model: MODEL, instructions: "Reply in JSON.", input: "hi", text: { format: { type: "json_object" } } }).catch((e: unknown) => e);
    expect((res as InstanceType<typeof OpenAI.BadRequestError>).error).toEqual({
      message: "Response input messages must contain the word 'json' in some form to use 'text.format' of type 'json_object'.",
      type: "invalid_request_error",
      param: "text.format",
      code: null,
    });
    const ok = await client.responses.create({ model: MODEL, input: "Reply in json.", text: { format: { type: "json_object" } } });
    expect(Object.keys(JSON.parse(ok.output_text))).toEqual(["response"]);
  });

  it('a scenario with "strict": false lets the schema through', async () => {
    const lenient = new OpenAI({ baseURL: `${h.url}/s/structured-lenient/s1/v1`, apiKey: "sk-test", maxRetries: 0 });
    const res = await lenient.chat.completions.create({ model: MODEL, messages, response_format: { type: "json_schema", json_schema: { name: "Weather", schema: loose, strict: true } } });
    expect(res.choices[0]!.message.content).toBe('{"anything":true}');
  });
});
