/**
 * Gemini's proto JSON parser on the body's schemas: each row a refusal captured from the real API (the issue it was
 * quoted in beside it; docs/providers/fidelity.md lists them), with the body that produces it.
 */
import { describe, expect, it } from "vitest";
import { MAX_VIOLATIONS } from "../../src/providers/gemini/field-violations";
import { renderGeminiError } from "../../src/providers/gemini/errors";
import { schemaViolations } from "../../src/providers/gemini/schema-violations";

const V1BETA = "google.ai.generativelanguage.v1beta";
const tool = (...parameters: unknown[]) => ({ tools: [{ functionDeclarations: parameters.map((p, i) => ({ name: `f${i}`, parameters: p })) }] });
const lines = (body: unknown, pkg = V1BETA) => schemaViolations(body, pkg)?.message.split("\n");

describe("schemaViolations: the API's sentences", () => {
  it("additionalProperties in a function's parameters (Laisky/one-api#60)", () => {
    const body = tool({ type: "object", properties: { location: { type: "string" } }, required: ["location"], additionalProperties: false });
    expect(lines(body)).toEqual([`Invalid JSON payload received. Unknown name "additionalProperties" at 'tools[0].function_declarations[0].parameters': Cannot find field.`]);
  });

  it("every declaration, in order, named as the client spelled it (google/adk-python#1277: `additional_properties`)", () => {
    const p = { type: "OBJECT", properties: {}, additional_properties: false };
    expect(
      lines({
        tools: [
          {
            function_declarations: [
              { name: "a", parameters: p },
              { name: "b", parameters: p },
            ],
          },
        ],
      }),
    ).toEqual([
      `Invalid JSON payload received. Unknown name "additional_properties" at 'tools[0].function_declarations[0].parameters': Cannot find field.`,
      `Invalid JSON payload received. Unknown name "additional_properties" at 'tools[0].function_declarations[1].parameters': Cannot find field.`,
    ]);
  });

  it("the path through properties, any_of and items (ax-llm/ax#293)", () => {
    const nested = { type: "object", properties: { a: { type: "string" }, b: { anyOf: [{ type: "array", items: { type: "object", additionalProperties: false } }] } } };
    expect(lines(tool(nested))).toEqual([
      `Invalid JSON payload received. Unknown name "additionalProperties" at 'tools[0].function_declarations[0].parameters.properties[1].value.any_of[0].items': Cannot find field.`,
    ]);
  });

  it("in the body's order, depth first: $schema, a property's const, then additionalProperties (openswarm-ai/openswarm#24)", () => {
    const zodish = { $schema: "http://json-schema.org/draft-07/schema#", type: "object", properties: { a: { type: "string" }, kind: { type: "string", const: "x" } }, additionalProperties: false };
    expect(lines(tool(zodish))).toEqual([
      `Invalid JSON payload received. Unknown name "$schema" at 'tools[0].function_declarations[0].parameters': Cannot find field.`,
      `Invalid JSON payload received. Unknown name "const" at 'tools[0].function_declarations[0].parameters.properties[1].value': Cannot find field.`,
      `Invalid JSON payload received. Unknown name "additionalProperties" at 'tools[0].function_declarations[0].parameters': Cannot find field.`,
    ]);
  });

  it(`a type the enum has no name for, beside an unknown field (langchain-ai/langchainjs#7758: "$defs", any_of[0].type "null")`, () => {
    const pydantic = { $defs: {}, type: "object", properties: { a: { anyOf: [{ type: "null" }, { type: "string" }] }, b: { type: "" } } };
    expect(lines(tool(pydantic))).toEqual([
      `Invalid JSON payload received. Unknown name "$defs" at 'tools[0].function_declarations[0].parameters': Cannot find field.`,
      `Invalid value at 'tools[0].function_declarations[0].parameters.properties[0].value.any_of[0].type' (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), "null"`,
      `Invalid value at 'tools[0].function_declarations[0].parameters.properties[1].value.type' (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), ""`,
    ]);
  });

  it("a type list: not repeating (tumf/mcp-text-editor#11); an integer enum, each value (google-gemini/gemini-cli#4415)", () => {
    expect(lines(tool({ type: "object", properties: { a: { type: ["string", "null"] }, n: { type: "integer", enum: [0, 1] } } }))).toEqual([
      `Invalid JSON payload received. Unknown name "type" at 'tools[0].function_declarations[0].parameters.properties[0].value': Proto field is not repeating, cannot start list.`,
      `Invalid value at 'tools[0].function_declarations[0].parameters.properties[1].value.enum[0]' (TYPE_STRING), 0`,
      `Invalid value at 'tools[0].function_declarations[0].parameters.properties[1].value.enum[1]' (TYPE_STRING), 1`,
    ]);
  });

  it("a responseSchema sent as a JSON string (mscraftsman/generative-ai#53), and its fields as responseSchema's", () => {
    expect(lines({ generationConfig: { responseSchema: '{ "type": "ARRAY" }' } })).toEqual([
      `Invalid value at 'generation_config.response_schema' (type.googleapis.com/google.ai.generativelanguage.v1beta.Schema), "{ \\"type\\": \\"ARRAY\\" }"`,
    ]);
    expect(lines({ generation_config: { response_schema: { type: "OBJECT", properties: { t: { type: "STRING", title: "T", $ref: "#/x" } } } } })).toEqual([
      `Invalid JSON payload received. Unknown name "$ref" at 'generation_config.response_schema.properties[0].value': Cannot find field.`,
    ]);
  });

  it("a declaration's own unknown fields (an OpenAI tool's `strict`, an Anthropic tool's `input_schema`)", () => {
    expect(lines({ tools: [{ functionDeclarations: [{ name: "f", strict: true, input_schema: { type: "object" } }] }] })).toEqual([
      `Invalid JSON payload received. Unknown name "strict" at 'tools[0].function_declarations[0]': Cannot find field.`,
      `Invalid JSON payload received. Unknown name "input_schema" at 'tools[0].function_declarations[0]': Cannot find field.`,
    ]);
  });

  it("Vertex names its own messages (agno-agi/agno#2649: google.cloud.aiplatform.v1beta1.Type)", () => {
    expect(lines(tool({ type: "object", properties: { a: { type: "" } } }), "google.cloud.aiplatform.v1beta1")).toEqual([
      `Invalid value at 'tools[0].function_declarations[0].parameters.properties[0].value.type' (type.googleapis.com/google.cloud.aiplatform.v1beta1.Type), ""`,
    ]);
  });
});

describe("schemaViolations: what the parser takes", () => {
  it("every field of Schema, both spellings; lower-case type names; int64 and double as strings; nulls as unset", () => {
    const all = {
      type: "object",
      format: "x",
      title: "T",
      description: "d",
      nullable: false,
      properties: { a: { type: "STRING", enum: ["x", "y"], min_length: "1", maxLength: 9, pattern: "^x", default: { any: [1] }, example: null } },
      required: ["a"],
      minProperties: 1,
      max_properties: "3",
      property_ordering: ["a"],
      any_of: [{ type: "array", items: { type: "number", minimum: "0.5", maximum: 1e3 }, minItems: 0, max_items: 4 }],
      example: { a: "x" },
      items: null,
    };
    expect(schemaViolations(tool(all, { type: "OBJECT" }), V1BETA)).toBeUndefined();
    expect(schemaViolations({ contents: [], tools: [{ googleSearch: {} }], generationConfig: { responseJsonSchema: { additionalProperties: false } } }, V1BETA)).toBeUndefined();
    expect(schemaViolations({ tools: [{ functionDeclarations: [{ name: "f", parametersJsonSchema: { $schema: "x", additionalProperties: false } }] }] }, V1BETA)).toBeUndefined();
  });

  it("Object.prototype's names are fields of no message", () => {
    expect(lines(tool({ type: "object", constructor: 1, toString: "x" }))).toEqual([
      `Invalid JSON payload received. Unknown name "constructor" at 'tools[0].function_declarations[0].parameters': Cannot find field.`,
      `Invalid JSON payload received. Unknown name "toString" at 'tools[0].function_declarations[0].parameters': Cannot find field.`,
    ]);
  });

  it(`the first ${MAX_VIOLATIONS} violations are listed, and the message says there were more`, () => {
    const many = Object.fromEntries(Array.from({ length: 250 }, (_, i) => [`p${i}`, { type: "string", const: "x" }]));
    const error = schemaViolations(tool({ type: "object", properties: many }), V1BETA)!;
    expect(error.violations).toHaveLength(MAX_VIOLATIONS);
    expect(error.violations![99]!.field).toBe("tools[0].function_declarations[0].parameters.properties[99].value");
    expect(error.message.split("\n")).toHaveLength(MAX_VIOLATIONS + 1);
    expect(error.message.split("\n").at(-1)).toBe(`(mockllm: only the first ${MAX_VIOLATIONS} violations are listed)`);
  });

  it("rendered: INVALID_ARGUMENT, each sentence in the message and in a BadRequest detail with its field", () => {
    const error = schemaViolations(tool({ type: "object", additionalProperties: false, properties: { a: { type: "" } } }), V1BETA)!;
    expect(renderGeminiError(error, "").body).toEqual({
      error: {
        code: 400,
        message: `Invalid JSON payload received. Unknown name "additionalProperties" at 'tools[0].function_declarations[0].parameters': Cannot find field.\nInvalid value at 'tools[0].function_declarations[0].parameters.properties[0].value.type' (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), ""`,
        status: "INVALID_ARGUMENT",
        details: [
          {
            "@type": "type.googleapis.com/google.rpc.BadRequest",
            fieldViolations: [
              {
                field: "tools[0].function_declarations[0].parameters",
                description: `Invalid JSON payload received. Unknown name "additionalProperties" at 'tools[0].function_declarations[0].parameters': Cannot find field.`,
              },
              {
                field: "tools[0].function_declarations[0].parameters.properties[0].value.type",
                description: `Invalid value at 'tools[0].function_declarations[0].parameters.properties[0].value.type' (type.googleapis.com/google.ai.generativelanguage.v1beta.Type), ""`,
              },
            ],
          },
        ],
      },
    });
  });
});
