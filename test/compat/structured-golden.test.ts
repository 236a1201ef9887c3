/**
 * Golden wire text of the default responder's structured answer (contract section 11) on each provider: the same
 * schema asked through each surface's own field, answered as its JSON body and its stream, ids and clocks
 * normalised, compared byte for byte with test/golden/structured/*. Regenerate after an intended change with
 * UPDATE_GOLDEN=1 and review the diff.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANTHROPIC_IDS, expectGolden, normalize, OLLAMA_CLOCK, OLLAMA_DURATIONS, RESPONSES_IDS } from "../support/golden";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const SCHEMA = {
  type: "object",
  properties: {
    name: { type: "string" },
    city: { type: "string" },
    email: { type: "string", format: "email" },
    tags: { type: "array", items: { type: "string", enum: ["vip", "new", "late"] }, minItems: 1, maxItems: 2 },
    total: { type: "number", minimum: 0, maximum: 1000 },
  },
  required: ["name", "city", "email", "tags", "total"],
  additionalProperties: false,
};
const GEMINI_SCHEMA = {
  type: "OBJECT",
  properties: { name: { type: "STRING" }, city: { type: "STRING" }, tags: { type: "ARRAY", items: { type: "STRING", enum: ["vip", "new", "late"] } }, total: { type: "NUMBER" } },
  required: ["name", "city", "tags", "total"],
  propertyOrdering: ["name", "city", "tags", "total"],
};
const TEXT = "Extract the customer.";
const OPENAI = { authorization: "Bearer sk-test", "content-type": "application/json" };
const ANTHROPIC = { "x-api-key": "sk-ant-test", "anthropic-version": "2023-06-01", "content-type": "application/json" };
const GEMINI = { "x-goog-api-key": "g-test", "content-type": "application/json" };

const CASES: { name: string; path: string; headers: Record<string, string>; body: Record<string, unknown>; rules?: Parameters<typeof normalize>[1][] }[] = [
  {
    name: "openai-chat",
    path: "/v1/chat/completions",
    headers: OPENAI,
    body: { model: "gpt-4.1", messages: [{ role: "user", content: TEXT }], response_format: { type: "json_schema", json_schema: { name: "Customer", schema: SCHEMA, strict: true } } },
  },
  {
    name: "openai-chat-json-object",
    path: "/v1/chat/completions",
    headers: OPENAI,
    body: { model: "gpt-4.1", messages: [{ role: "user", content: `${TEXT} Answer in JSON.` }], response_format: { type: "json_object" } },
  },
  {
    name: "openai-responses",
    path: "/v1/responses",
    headers: OPENAI,
    body: { model: "gpt-4.1", input: TEXT, store: false, text: { format: { type: "json_schema", name: "Customer", schema: SCHEMA, strict: true } } },
    rules: [RESPONSES_IDS],
  },
  {
    name: "anthropic",
    path: "/v1/messages",
    headers: ANTHROPIC,
    body: { model: "claude-sonnet-4-5", max_tokens: 1024, messages: [{ role: "user", content: TEXT }], output_config: { format: { type: "json_schema", schema: SCHEMA } } },
    rules: [ANTHROPIC_IDS],
  },
  {
    name: "gemini",
    path: "/v1beta/models/gemini-2.5-flash:generateContent",
    headers: GEMINI,
    body: { contents: [{ role: "user", parts: [{ text: TEXT }] }], generationConfig: { responseMimeType: "application/json", responseSchema: GEMINI_SCHEMA } },
  },
  {
    name: "ollama",
    path: "/api/chat",
    headers: { "content-type": "application/json" },
    body: { model: "llama3.2", messages: [{ role: "user", content: TEXT }], format: SCHEMA },
    rules: [OLLAMA_CLOCK, OLLAMA_DURATIONS],
  },
];

beforeAll(async () => {
  h = await startHarness({ DEFAULT_WORDS_PER_SECOND: "0" });
});
afterAll(() => h?.stop());

describe("golden structured answers of the default responder", () => {
  it.each(CASES)("$name: JSON and stream", async (c) => {
    const json = await fetch(`${h.url}${c.path}`, { method: "POST", headers: c.headers, body: JSON.stringify({ ...c.body, ...(c.name === "ollama" ? { stream: false } : {}) }) });
    expect(json.status).toBe(200);
    expectGolden(`structured/${c.name}.json`, normalize(await json.text(), ...(c.rules ?? [])));
    const streamPath = c.name === "gemini" ? c.path.replace(":generateContent", ":streamGenerateContent?alt=sse") : c.path;
    const stream = await fetch(`${h.url}${streamPath}`, {
      method: "POST",
      headers: c.headers,
      body: JSON.stringify({ ...c.body, ...(c.name === "gemini" || c.name === "ollama" ? {} : { stream: true }) }),
    });
    expect(stream.status).toBe(200);
    expectGolden(`structured/${c.name}.${c.name === "ollama" ? "ndjson" : "sse"}`, normalize(await stream.text(), ...(c.rules ?? [])));
  });
});
