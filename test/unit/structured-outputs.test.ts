import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { describe, expect, it } from "vitest";
import type { CanonicalRequest } from "../../src/canonical/request";
import { validateSchema } from "../../src/canonical/schema-validate";
import { patternString, plausibleString } from "../../src/default/plausible";
import { defaultReply } from "../../src/default/responder";
import { spacedJson, structuredText } from "../../src/default/structured";
import { strictSchemaError } from "../../src/providers/openai/structured";
import { matchMisses } from "../../src/scenario/matchers";
import { checkOutput } from "../../src/scenario/structured";
import { CORPUS } from "./fixtures/structured-schemas";

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

/** Gemini's OpenAPI subset as JSON Schema, for ajv: lower-case types, `nullable` as a type list. */
function fromOpenApi(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(fromOpenApi);
  if (typeof s !== "object" || s === null) return s;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === "propertyOrdering" || k === "nullable") continue;
    out[k] = k === "type" && typeof v === "string" ? v.toLowerCase() : k === "enum" ? v : fromOpenApi(v);
  }
  const o = s as Record<string, unknown>;
  if (o.nullable === true && typeof out.type === "string") out.type = [out.type, "null"];
  return out;
}

const request = (outputSchema?: CanonicalRequest["outputSchema"], extra: Partial<CanonicalRequest> = {}): CanonicalRequest => ({
  provider: "openai",
  endpoint: "chat.completions",
  model: "gpt-4.1",
  stream: false,
  system: "",
  messages: [{ role: "user", text: "Extract it." }],
  tools: [],
  reasoning: "disabled",
  headers: {},
  ...(outputSchema !== undefined ? { outputSchema } : {}),
  ...extra,
});

describe(`the default responder's JSON for ${CORPUS.length} real schemas`, () => {
  it("has a corpus of 50+ schemas, each with its source", () => {
    expect(CORPUS.length).toBeGreaterThanOrEqual(50);
    for (const c of CORPUS) expect(c.source.length).toBeGreaterThan(10);
  });

  for (const { source, schema } of CORPUS) {
    it(`valid (ajv and mockllm's validator), deterministic: ${source}`, () => {
      const text = structuredText({ kind: "json_schema", schema, strict: true }, "Extract it.", "default/seed", 0);
      const value = JSON.parse(text);
      const validate = ajv.compile(fromOpenApi(schema) as object);
      expect(validate(value), JSON.stringify({ value, errors: validate.errors })).toBe(true);
      expect(validateSchema(schema, value)).toEqual([]);
      expect(structuredText({ kind: "json_schema", schema, strict: true }, "Extract it.", "default/seed", 0)).toBe(text);
      // Missing a required property: both validators refuse it.
      const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
      if (required.length > 0 && typeof value === "object" && value !== null && !Array.isArray(value)) {
        const { [required[0]!]: _, ...rest } = value as Record<string, unknown>;
        expect(ajv.compile(fromOpenApi(schema) as object)(rest)).toBe(false);
        expect(validateSchema(schema, rest).map((e) => e.message)).toContain(`must have required property '${required[0]}'`);
      }
    });
  }
});

describe("the generator's plausible values", () => {
  it("by property name, format and pattern, within the schema's bounds", () => {
    const schema = {
      type: "object",
      properties: {
        customer_name: { type: "string" },
        email: { type: "string" },
        city: { type: "string" },
        created_at: { type: "string" },
        id: { type: "string" },
        website: { type: "string" },
        price: { type: "number" },
        age: { type: "integer", minimum: 0, maximum: 150 },
        code: { type: "string", pattern: "^[A-Z]{3}-\\d{2}$" },
        short_city: { type: "string", maxLength: 2 },
      },
    };
    const value = JSON.parse(structuredText({ kind: "json_schema", schema }, "m", "seed", 0));
    expect(value.customer_name).toMatch(/^[A-Z][a-z]+ [A-Z][a-zA-Z-]+$/);
    expect(value.email).toMatch(/^[a-z]+@example\.com$/);
    expect(["Paris", "London", "Tokyo", "Berlin", "Lisbon", "Toronto", "Sydney", "Madrid"]).toContain(value.city);
    expect(value.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect(value.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(value.website).toMatch(/^https:\/\/example\.com\/\w+$/);
    expect(value.price % 1).toBe(0.5);
    expect(value.age).toBeGreaterThanOrEqual(18);
    expect(value.code).toMatch(/^[A-Z]{3}-\d{2}$/);
    expect(value.short_city.length).toBeLessThanOrEqual(2);
  });

  it("patternString follows simple patterns and gives up on what it cannot (then the string is lorem)", () => {
    for (const p of ["^[A-Z]{3}-\\d{3}$", "^@[a-zA-Z0-9_]+$", "^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)$", "^[a-z]+(?:-[a-z]+)*$", "\\d{5}"]) {
      expect(new RegExp(p).test(patternString(p, 7) ?? ""), p).toBe(true);
    }
    expect(patternString("^(?=a)b$", 0)).toBeUndefined();
    expect(plausibleString(["favourite", "number"], 0)).toBeUndefined();
  });

  it("spacedJson: one line, a space after each colon and comma", () => {
    expect(spacedJson({ a: [1, "x y", null], b: { c: true } })).toBe('{"a": [1, "x y", null], "b": {"c": true}}');
  });
});

describe("defaultReply for a structured request", () => {
  it("json_schema: the schema's JSON; json_object: a JSON object; n > 1: each choice its own; a forced tool still wins", () => {
    const schema = { type: "object", properties: { answer: { type: "integer", minimum: 1, maximum: 3 } }, required: ["answer"], additionalProperties: false };
    const reply = defaultReply(request({ kind: "json_schema", name: "A", schema, strict: true }), { wordsPerSecond: 0 });
    expect(JSON.parse(reply.text!)).toEqual({ answer: expect.any(Number) });
    expect([reply.finishReason, reply.toolCalls, reply.reasoning]).toEqual(["stop", [], []]);
    expect(Object.keys(JSON.parse(defaultReply(request({ kind: "json_object" }), { wordsPerSecond: 0 }).text!))).toEqual(["response"]);
    const n = defaultReply(request({ kind: "json_object" }, { choices: 2 }), { wordsPerSecond: 0 });
    expect(JSON.parse(n.extraChoices![0]!.text!).response).not.toBe(JSON.parse(n.text!).response);
    const forced = defaultReply(request({ kind: "json_object" }, { tools: ["t"], toolChoice: { kind: "tool", name: "t" }, toolSchemas: [{ name: "t", schema: { type: "object" } }] }), {
      wordsPerSecond: 0,
    });
    expect(forced.toolCalls.map((c) => c.name)).toEqual(["t"]);
  });
});

describe("validateSchema", () => {
  it("names each error by its JSON pointer, Gemini's upper-case types and nullable included", () => {
    const schema = {
      type: "object",
      properties: {
        total: { type: "number" },
        lines: { type: "array", items: { type: "object", properties: { qty: { type: "integer", minimum: 1 } }, required: ["qty"], additionalProperties: false } },
        "a/b": { type: "STRING", nullable: true },
      },
      required: ["total"],
    };
    expect(validateSchema(schema, { total: "1", lines: [{ qty: 0 }, { qty: 1, x: 2 }, {}], "a/b": null })).toEqual([
      { path: "/total", message: "must be number, got string" },
      { path: "/lines/0/qty", message: "must be >= 1" },
      { path: "/lines/1/x", message: "must NOT be an additional property" },
      { path: "/lines/2", message: "must have required property 'qty'" },
    ]);
    expect(validateSchema(schema, { total: 1, "a/b": 3 })).toEqual([{ path: "/a~1b", message: "must be string, got number" }]);
    expect(validateSchema({ anyOf: [{ type: "string" }, { type: "integer" }] }, 1.5)).toEqual([{ path: "", message: "must match at least one schema in anyOf" }]);
    expect(validateSchema({ $defs: { n: { type: "integer" } }, type: "array", items: { $ref: "#/$defs/n" } }, [1, "x"])).toEqual([{ path: "/1", message: "must be integer, got string" }]);
  });
});

describe("checkOutput: a scripted answer against a strict schema", () => {
  const schema = { type: "object", properties: { total: { type: "number" } }, required: ["total"], additionalProperties: false };
  const strict = request({ kind: "json_schema", name: "X", schema, strict: true });
  it("valid, invalid with paths, not JSON; not checked without a strict schema, for a refusal, or with schemaCheck off", () => {
    expect(checkOutput(strict, { text: '{"total":1}' }, true)).toEqual({ valid: true, errors: [] });
    expect(checkOutput(strict, { text: '{"total":"1"}' }, true)).toEqual({ valid: false, errors: [{ path: "/total", message: "must be number, got string" }] });
    expect(checkOutput(strict, { text: '{"total": 4' }, true)).toEqual({ valid: false, errors: [{ path: "", message: "is not valid JSON" }] });
    expect(checkOutput(strict, { text: "x" }, false)).toBeUndefined();
    expect(checkOutput(strict, { text: "x", refusal: "no" }, true)).toBeUndefined();
    expect(checkOutput(request({ kind: "json_schema", schema }), { text: "x" }, true)).toBeUndefined();
    expect(checkOutput(request({ kind: "json_object" }), { text: "x" }, true)).toBeUndefined();
  });

  it("a call to a strict tool: its arguments against the tool's schema; a turn with calls leaves its text unchecked", () => {
    const req = request(
      { kind: "json_schema", name: "X", schema, strict: true },
      { strictTools: [{ name: "get_weather", schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } }] },
    );
    expect(
      checkOutput(
        req,
        {
          text: "Checking.",
          toolCalls: [
            { name: "other", arguments: "{" },
            { name: "get_weather", arguments: '{"city":1}' },
          ],
        },
        true,
      ),
    ).toEqual({
      valid: false,
      errors: [{ path: "/toolCalls/1/arguments/city", message: "must be string, got number" }],
    });
    expect(checkOutput(req, { toolCalls: [{ name: "get_weather", arguments: '{"city":' }] }, true)).toEqual({
      valid: false,
      errors: [{ path: "/toolCalls/0/arguments", message: "is not valid JSON" }],
    });
    expect(checkOutput(request(), { toolCalls: [{ name: "get_weather", arguments: "{" }] }, true)).toBeUndefined();
  });
});

describe("the outputSchema matcher", () => {
  it("true / false / { name }", () => {
    const named = request({ kind: "json_schema", name: "Invoice", schema: {} });
    expect(matchMisses({ outputSchema: true }, named)).toEqual([]);
    expect(matchMisses({ outputSchema: { name: { regex: "^Inv" } } }, named)).toEqual([]);
    expect(matchMisses({ outputSchema: false }, named)).toEqual([{ field: "match.outputSchema", expected: "no structured output", actual: 'a JSON schema named "Invoice"' }]);
    expect(matchMisses({ outputSchema: { name: "Receipt" } }, named)).toEqual([{ field: "match.outputSchema.name", expected: '"Receipt"', actual: 'a JSON schema named "Invoice"' }]);
    expect(matchMisses({ outputSchema: true }, request())).toEqual([{ field: "match.outputSchema", expected: "structured output", actual: "no structured output" }]);
    expect(matchMisses({ outputSchema: { name: "X" } }, request({ kind: "json_object" }))).toEqual([{ field: "match.outputSchema.name", expected: '"X"', actual: "a JSON object (no schema)" }]);
  });
});

describe("strictSchemaError: what OpenAI strict mode refuses", () => {
  const out = (schema: unknown) => ({ kind: "json_schema" as const, name: "R", schema, strict: true });
  it("in the real API's words, with its context tuple", () => {
    const msg = (schema: unknown) => strictSchemaError(out(schema), [], "chat")?.message;
    expect(msg({ type: "array", items: {} })).toBe(`Invalid schema for response_format 'R': schema must be a JSON Schema of 'type: "object"', got 'type: "array"'.`);
    expect(msg({ type: "object", properties: { a: { type: "object", properties: { b: { type: "string" } }, required: ["b"] } }, required: ["a"], additionalProperties: false })).toBe(
      "Invalid schema for response_format 'R': In context=('properties', 'a'), 'additionalProperties' is required to be supplied and to be false.",
    );
    expect(msg({ type: "object", properties: { a: { type: "array", items: { type: "object", properties: {}, allOf: [] } } }, required: ["a"], additionalProperties: false })).toBe(
      "Invalid schema for response_format 'R': In context=('properties', 'a', 'items'), 'allOf' is not permitted.",
    );
    expect(msg({ type: "object", properties: { a: { type: "string", pattern: "^x$", format: "email" } }, required: ["a"], additionalProperties: false })).toBeUndefined();
    expect(strictSchemaError({ ...out({ type: "object" }), strict: false }, [], "chat")).toBeUndefined();
  });
});
