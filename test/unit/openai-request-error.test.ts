/**
 * A body the OpenAI API refuses, in its own words (src/providers/openai/request-error.ts). The Chat rows are the
 * API's answers as captured against it (docs/providers/fidelity.md, "Request bodies the schema refuses"): each one
 * fails here if a word, the `param` or the `code` differs.
 */
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { parseChatRequest } from "../../src/providers/openai/chat/parse";
import { validateChatRequest } from "../../src/providers/openai/chat/leniency";
import { parseResponsesRequest } from "../../src/providers/openai/responses/parse";
import { validateResponsesRequest } from "../../src/providers/openai/responses/leniency";
import { openaiChat } from "../../src/providers/openai/chat";
import { openaiResponses } from "../../src/providers/openai/responses";
import { resolveSurface } from "../../src/providers/surface";
import { arrayLengthError, expectedOf, numberBoundError, openaiRequestError, receivedOf } from "../../src/providers/openai/request-error";

const H = new Headers({ authorization: "Bearer sk" });
const messages = [{ role: "user", content: "ping" }];

/** What the Chat surface answers `fragment` merged into a valid body, from its parse and then its refusals. */
function chatError(fragment: Record<string, unknown>) {
  const body: Record<string, unknown> = { model: "gpt-4o", messages, ...fragment };
  for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
  const parsed = parseChatRequest(body, H);
  const error = parsed.ok ? validateChatRequest(parsed.wire, parsed.request) : parsed.error;
  return error && { message: error.message, param: error.param ?? null, code: error.providerCode ?? null };
}

describe("Chat Completions: the API's sentences, param and code", () => {
  it.each([
    // Types.
    [{ n: "2" }, "n", "invalid_type", "Invalid type for 'n': expected an integer, but got a string instead."],
    [{ n: 1.5 }, "n", "invalid_type", "Invalid type for 'n': expected an integer, but got a decimal number instead."],
    [{ temperature: "hot" }, "temperature", "invalid_type", "Invalid type for 'temperature': expected a decimal, but got a string instead."],
    [{ top_p: "wide" }, "top_p", "invalid_type", "Invalid type for 'top_p': expected a decimal, but got a string instead."],
    [{ tools: "none" }, "tools", "invalid_type", "Invalid type for 'tools': expected an array of objects, but got a string instead."],
    [{ messages: "ping" }, "messages", "invalid_type", "Invalid type for 'messages': expected an array of objects, but got a string instead."],
    [{ messages: ["ping"] }, "messages[0]", "invalid_type", "Invalid type for 'messages[0]': expected an object, but got a string instead."],
    [
      { messages: [{ role: "user", content: 7 }] },
      "messages[0].content",
      "invalid_type",
      "Invalid type for 'messages[0].content': expected one of a string or array of objects, but got an integer instead.",
    ],
    [{ tool_choice: 7 }, "tool_choice", "invalid_type", "Invalid type for 'tool_choice': expected one of one of 'none', 'auto', or 'required' or object, but got an integer instead."],
    [{ store: "yes" }, "store", "invalid_type", "Invalid type for 'store': expected a boolean, but got a string instead."],
    [{ seed: 1.5 }, "seed", "invalid_type", "Invalid type for 'seed': expected an integer, but got a decimal number instead."],
    [{ user: { a: 1 } }, "user", "invalid_type", "Invalid type for 'user': expected a string, but got an object instead."],
    [{ response_format: "json" }, "response_format", "invalid_type", "Invalid type for 'response_format': expected an object, but got a string instead."],
    [{ response_format: {} }, "response_format.type", "missing_required_parameter", "Missing required parameter: 'response_format.type'."],
    // Enums.
    [{ response_format: { type: "bogus" } }, "response_format.type", "invalid_value", "Invalid value: 'bogus'. Supported values are: 'json_object', 'json_schema', and 'text'."],
    [{ tools: [{ type: "function", function: { name: "f" } }], tool_choice: "bogus" }, "tool_choice", "invalid_value", "Invalid value: 'bogus'. Supported values are: 'none', 'auto', and 'required'."],
    [
      { messages: [{ role: "bogus", content: "ping" }] },
      "messages[0].role",
      "invalid_value",
      "Invalid value: 'bogus'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.",
    ],
    // Missing members.
    [{ tools: [{ type: "function" }] }, "tools[0].function", "missing_required_parameter", "Missing required parameter: 'tools[0].function'."],
    [{ tools: [{ type: "function", function: { parameters: {} } }] }, "tools[0].function.name", "missing_required_parameter", "Missing required parameter: 'tools[0].function.name'."],
    [{ messages: undefined }, "messages", "missing_required_parameter", "Missing required parameter: 'messages'."],
    [{ messages: [] }, "messages", "empty_array", "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead."],
    [{ messages: [{ content: "ping" }] }, "messages[0].role", "missing_required_parameter", "Missing required parameter: 'messages[0].role'."],
    // Bounds.
    [{ n: 0 }, "n", "integer_below_min_value", "Invalid 'n': integer below minimum value. Expected a value >= 1, but got 0 instead."],
    [{ max_completion_tokens: 0 }, "max_completion_tokens", "integer_below_min_value", "Invalid 'max_completion_tokens': integer below minimum value. Expected a value >= 1, but got 0 instead."],
    [{ temperature: 2.5 }, "temperature", "decimal_above_max_value", "Invalid 'temperature': decimal above maximum value. Expected a value <= 2, but got 2.5 instead."],
    [{ temperature: -2.5 }, "temperature", "decimal_below_min_value", "Invalid 'temperature': decimal below minimum value. Expected a value >= 0, but got -2.5 instead."],
    [{ stop: ["a", "b", "c", "d", "e"] }, "stop", "array_above_max_length", "Invalid 'stop': array too long. Expected an array with maximum length 4, but got an array with length 5 instead."],
    [
      { tools: Array.from({ length: 130 }, (_, i) => ({ type: "function", function: { name: `f${i}` } })) },
      "tools",
      "array_above_max_length",
      "Invalid 'tools': array too long. Expected an array with maximum length 128, but got an array with length 130 instead.",
    ],
  ])("%j → %s %s", (fragment, param, code, message) => {
    expect(chatError(fragment)).toEqual({ message, param, code });
  });

  it("a body without a model: the Chat surface's own sentence, no param, no code, before any other fault", () => {
    expect(chatError({ model: undefined, messages: [] })).toEqual({ message: "you must provide a model parameter", param: null, code: null });
    expect(chatError({ model: null })).toEqual({ message: "you must provide a model parameter", param: null, code: null });
  });

  it("the bounds' edges are taken, and one past them refused; four stops and 128 tools are taken", () => {
    for (const fragment of [{ temperature: 0 }, { temperature: 2 }, { top_p: 1 }, { presence_penalty: -2 }, { frequency_penalty: 2 }, { max_tokens: 1 }, { stop: ["a", "b", "c", "d"] }]) {
      expect(chatError(fragment)).toBeUndefined();
    }
    expect(chatError({ tools: Array.from({ length: 128 }, (_, i) => ({ type: "function", function: { name: `f${i}` } })) })).toBeUndefined();
    expect(chatError({ top_p: 1.01 })?.code).toBe("decimal_above_max_value");
    expect(chatError({ presence_penalty: -2.1 })).toEqual({
      message: "Invalid 'presence_penalty': decimal below minimum value. Expected a value >= -2, but got -2.1 instead.",
      param: "presence_penalty",
      code: "decimal_below_min_value",
    });
    expect(chatError({ frequency_penalty: "high" })?.message).toBe("Invalid type for 'frequency_penalty': expected a decimal, but got a string instead.");
  });

  it("a scenario with strict: false takes what is out of bounds, not what is of the wrong type", () => {
    const parsed = parseChatRequest({ model: "gpt-4o", messages, temperature: 7, stop: ["a", "b", "c", "d", "e"] }, H);
    if (!parsed.ok) throw new Error(parsed.error.message);
    expect(validateChatRequest(parsed.wire, parsed.request)?.param).toBe("temperature");
    // `strict: false` skips the surface's whole `validate` (src/providers/surface.ts), as a turn does.
    expect(resolveSurface(openaiChat).validate(parsed.wire, parsed.request, { name: "s", strict: false, steps: [] } as never)).toBeUndefined();
    expect(parseChatRequest({ model: "gpt-4o", messages, temperature: "7" }, H).ok).toBe(false);
  });
});

describe("metadata (Chat, Responses, and the platform routes): the values' types in document order, then the count, then the lengths", () => {
  const seventeen = Object.fromEntries(Array.from({ length: 17 }, (_, i) => [`k${i}`, "v"]));
  it.each([
    [{ k: 7 }, "metadata.k", "invalid_type", "Invalid type for 'metadata.k': expected a string, but got an integer instead."],
    [{ z: "v", b: null, a: 1 }, "metadata.b", "invalid_type", "Invalid type for 'metadata.b': expected a string, but got null instead."],
    [{ ...seventeen, k16: 2 }, "metadata.k16", "invalid_type", "Invalid type for 'metadata.k16': expected a string, but got an integer instead."],
    [seventeen, "metadata", "object_above_max_properties", "Invalid 'metadata': too many properties. Expected an object with at most 16 properties, but got an object with 17 properties instead."],
    [{ k: "x".repeat(600) }, "metadata.k", "string_above_max_length", "Invalid 'metadata.k': string too long. Expected a string with maximum length 512, but got a string with length 600 instead."],
    [
      { ["k".repeat(65)]: "v" },
      `metadata.${"k".repeat(65)}`,
      "property_name_above_max_length",
      `Invalid property name in 'metadata': '${"k".repeat(64)}...' is too long. Expected a string with maximum length 64, but got a string with length 65 instead.`,
    ],
    [["v"], "metadata", "invalid_type", "Invalid type for 'metadata': expected an object, but got an array instead."],
  ])("%j → %s %s", (metadata, param, code, message) => {
    expect(chatError({ metadata })).toEqual({ message, param, code });
    const r = parseResponsesRequest({ model: "m", input: "x", metadata }, H);
    expect(r.ok ? undefined : { message: r.error.message, param: r.error.param, code: r.error.providerCode }).toEqual({ message, param, code });
  });

  it("16 values, a 64-character key and a 512-character value are taken", () => {
    const sixteen = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`k${i}`, "v"]));
    for (const metadata of [sixteen, { ["k".repeat(64)]: "x".repeat(512) }, {}, null]) expect(chatError({ metadata })).toBeUndefined();
  });
});

describe("Responses: the same words, inside input items too", () => {
  const error = (body: unknown) => {
    const r = parseResponsesRequest(body, H);
    return r.ok ? undefined : { message: r.error.message, param: r.error.param, code: r.error.providerCode };
  };

  it.each([
    [{ input: "x" }, "model", "missing_required_parameter", "Missing required parameter: 'model'."],
    [{ model: "m", input: ["hello"] }, "input[0]", "invalid_type", "Invalid type for 'input[0]': expected an input item, but got a string instead."],
    [{ model: "m", input: { a: 1 } }, "input", "invalid_type", "Invalid type for 'input': expected one of a string or array of input items, but got an object instead."],
    [
      { model: "m", input: [{ type: "function_call_output", call_id: "c", output: { a: 1 } }] },
      "input[0].output",
      "invalid_type",
      "Invalid type for 'input[0].output': expected one of a string or array of objects, but got an object instead.",
    ],
    [{ model: "m", input: "x", tool_choice: "bogus" }, "tool_choice", "invalid_value", "Invalid value: 'bogus'. Supported values are: 'none', 'auto', and 'required'."],
    [{ model: "m", input: [{ role: "robot", content: "x" }] }, "input[0].role", "invalid_value", "Invalid value: 'robot'. Supported values are: 'user', 'assistant', 'system', and 'developer'."],
    [{ model: "m", input: [{ role: "user" }] }, "input[0].content", "missing_required_parameter", "Missing required parameter: 'input[0].content'."],
    [
      { model: "m", input: [{ type: "function_call", call_id: 5, name: "f", arguments: "{}" }] },
      "input[0].call_id",
      "invalid_type",
      "Invalid type for 'input[0].call_id': expected a string, but got an integer instead.",
    ],
    [{ model: "m", input: "x", temperature: "hot" }, "temperature", "invalid_type", "Invalid type for 'temperature': expected a decimal, but got a string instead."],
  ])("%j → %s %s", (body, param, code, message) => {
    expect(error(body)).toEqual({ message, param, code });
  });
});

describe("Responses: the numbers the API bounds", () => {
  const refusal = (body: Record<string, unknown>, scenario?: unknown) => {
    const parsed = parseResponsesRequest({ model: "gpt-5", input: "x", ...body }, H);
    if (!parsed.ok) throw new Error(parsed.error.message);
    const error = scenario === undefined ? validateResponsesRequest(parsed.wire, parsed.request) : resolveSurface(openaiResponses).validate(parsed.wire, parsed.request, scenario as never);
    return error && { message: error.message, param: error.param, code: error.providerCode };
  };

  it("max_output_tokens from 16 (the refusal 'Test connection' probes meet), temperature 0…2, top_p 0…1", () => {
    expect(refusal({ max_output_tokens: 5 })).toEqual({
      message: "Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got 5 instead.",
      param: "max_output_tokens",
      code: "integer_below_min_value",
    });
    expect(refusal({ temperature: 2.5 })?.code).toBe("decimal_above_max_value");
    expect(refusal({ top_p: -1 })?.message).toBe("Invalid 'top_p': decimal below minimum value. Expected a value >= 0, but got -1 instead.");
    expect(refusal({ max_output_tokens: 16, temperature: 2, top_p: 0 })).toBeUndefined();
    expect(refusal({ max_output_tokens: 5 }, { name: "s", strict: false, steps: [] })).toBeUndefined();
  });
});

describe("the parts", () => {
  it("expectedOf names a schema as the API does; null is not named; inside a union an object or array drops its article", () => {
    expect(expectedOf(z.string().nullish())).toBe("a string");
    expect(expectedOf(z.number().int())).toBe("an integer");
    expect(expectedOf(z.number())).toBe("a decimal");
    expect(expectedOf(z.boolean())).toBe("a boolean");
    expect(expectedOf(z.looseObject({}))).toBe("an object");
    expect(expectedOf(z.array(z.string()))).toBe("an array of strings");
    expect(expectedOf(z.union([z.string(), z.array(z.looseObject({})), z.null()]))).toBe("one of a string or array of objects");
    expect(expectedOf(z.union([z.enum(["none", "auto", "required"]), z.looseObject({})]))).toBe("one of one of 'none', 'auto', or 'required' or object");
    expect(expectedOf(z.enum(["in_memory", "24h"]))).toBe("one of 'in_memory' or '24h'");
    expect(expectedOf(z.literal("x"))).toBe("'x'");
  });

  it("receivedOf names a value", () => {
    expect([null, [], {}, 1, 1.5, true, "s"].map(receivedOf)).toEqual(["null", "an array", "an object", "an integer", "a decimal number", "a boolean", "a string"]);
  });

  it("a prefix names where the body sits; a too-long string and a too-short array have their own sentences", () => {
    const schema = z.looseObject({ name: z.string().max(3), tags: z.array(z.string()).min(2) });
    const at = (body: unknown) => openaiRequestError(schema.safeParse(body).error!, schema, body, "tools[1]");
    expect(at({ name: "abcd", tags: ["a", "b"] })).toMatchObject({
      param: "tools[1].name",
      providerCode: "string_above_max_length",
      message: "Invalid 'tools[1].name': string too long. Expected a string with maximum length 3, but got a string with length 4 instead.",
    });
    expect(at({ name: "a", tags: ["a"] })).toMatchObject({
      param: "tools[1].tags",
      providerCode: "array_below_min_length",
      message: "Invalid 'tools[1].tags': array too short. Expected an array with minimum length 2, but got an array with length 1 instead.",
    });
    expect(numberBoundError("seed", 3, { min: 0, max: 5 }, "integer")).toBeUndefined();
    expect(arrayLengthError("stop", null, 4)).toBeUndefined();
  });
});
