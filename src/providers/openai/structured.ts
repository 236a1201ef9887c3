/**
 * OpenAI structured outputs: Chat `response_format` and Responses `text.format` into the canonical `outputSchema`,
 * and the 400 the real API answers a strict schema it refuses (additionalProperties not false, a property missing
 * from `required`, an unsupported keyword, a root that is not an object). Sources in docs/providers/fidelity.md.
 */
import type { CanonicalOutputSchema, CanonicalStrictTool } from "../../canonical/output-schema";
import type { CanonicalRequest } from "../../canonical/request";
import { apiError, type ApiError } from "../../http/errors";
import { isObject, jsonSchemaOutput, type Loose } from "../output-schema-wire";

/**
 * Chat Completions `response_format`: `{ type: "json_schema", json_schema: { name, schema, strict } }` or
 * `{ type: "json_object" }`; `text` and anything else ask for nothing.
 * @example chatOutputSchema({ type: "json_object" }) // { kind: "json_object" }
 */
export function chatOutputSchema(format: unknown): CanonicalOutputSchema | undefined {
  if (!isObject(format)) return undefined;
  if (format.type === "json_object") return { kind: "json_object" };
  if (format.type !== "json_schema" || !isObject(format.json_schema)) return undefined;
  const js = format.json_schema;
  return jsonSchemaOutput(js.schema, js.name, js.strict === true);
}

/**
 * Responses `text.format`: `{ type: "json_schema", name, schema, strict }` or `{ type: "json_object" }`.
 * @example responsesOutputSchema({ format: { type: "json_schema", name: "x", schema: {}, strict: true } })?.name // "x"
 */
export function responsesOutputSchema(text: unknown): CanonicalOutputSchema | undefined {
  if (!isObject(text) || !isObject(text.format)) return undefined;
  const f = text.format;
  if (f.type === "json_object") return { kind: "json_object" };
  if (f.type !== "json_schema") return undefined;
  return jsonSchemaOutput(f.schema, f.name, f.strict === true);
}

/** Function tools declared `strict: true`, with their parameters (Chat `tools[].function`, Responses `tools[]`). */
export function strictTools(tools: unknown): (CanonicalStrictTool & { index: number })[] {
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((t, index) => {
    if (!isObject(t)) return [];
    const fn = isObject(t.function) ? t.function : t;
    return fn.strict === true && typeof fn.name === "string" ? [{ name: fn.name, schema: fn.parameters, index }] : [];
  });
}

/** Keywords strict mode refuses (the Structured Outputs guide's "unsupported" list). */
const UNSUPPORTED = ["allOf", "not", "if", "then", "else", "dependentRequired", "dependentSchemas", "patternProperties", "unevaluatedProperties", "propertyNames"];

/** `In context=('properties', 'city')`: how the real API names where in the schema it stopped. */
function contextOf(path: string[]): string {
  return path.length === 0 ? "()" : `(${path.map((p) => `'${p}'`).join(", ")}${path.length === 1 ? "," : ""})`;
}

/** The first reason strict mode refuses `schema`, in the real API's words after `In context=…, `; undefined when it is accepted. */
function strictViolation(schema: unknown, path: string[], depth: number): string | undefined {
  if (!isObject(schema) || depth > 32) return undefined;
  for (const k of UNSUPPORTED) if (Object.hasOwn(schema, k)) return `In context=${contextOf(path)}, '${k}' is not permitted.`;
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes("object") || isObject(schema.properties)) {
    if (schema.additionalProperties !== false) return `In context=${contextOf(path)}, 'additionalProperties' is required to be supplied and to be false.`;
    const properties: Loose = isObject(schema.properties) ? schema.properties : {};
    const required = Array.isArray(schema.required) ? schema.required : [];
    const missing = Object.keys(properties).find((k) => !required.includes(k));
    if (missing !== undefined) {
      return `In context=${contextOf(path)}, 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing}'.`;
    }
    for (const [k, sub] of Object.entries(properties)) {
      const v = strictViolation(sub, [...path, "properties", k], depth + 1);
      if (v !== undefined) return v;
    }
  }
  if (isObject(schema.items)) {
    const v = strictViolation(schema.items, [...path, "items"], depth + 1);
    if (v !== undefined) return v;
  }
  for (const key of ["anyOf", "prefixItems"]) {
    const list = schema[key];
    if (!Array.isArray(list)) continue;
    for (const [i, sub] of list.entries()) {
      const v = strictViolation(sub, [...path, key, String(i)], depth + 1);
      if (v !== undefined) return v;
    }
  }
  for (const key of ["$defs", "definitions"]) {
    const defs = schema[key];
    if (!isObject(defs)) continue;
    for (const [k, sub] of Object.entries(defs)) {
      const v = strictViolation(sub, [...path, key, k], depth + 1);
      if (v !== undefined) return v;
    }
  }
  return undefined;
}

/** Why a strict schema's root is refused: it must be an object schema (not `anyOf` at the root). */
function rootViolation(schema: unknown): string | undefined {
  if (!isObject(schema)) return undefined;
  if (schema.type === "object") return undefined;
  if (Object.hasOwn(schema, "anyOf")) return "In context=(), 'anyOf' is not permitted.";
  const got = schema.type === undefined ? "None" : JSON.stringify(schema.type);
  return `schema must be a JSON Schema of 'type: "object"', got 'type: ${got}'.`;
}

/**
 * The real API's 400 for a strict structured output or strict function tool it refuses, else undefined.
 * `surface` picks the params: Chat `response_format` / `tools[i].function.parameters`; Responses `text.format.schema`
 * / `tools[i].parameters` with `code: "invalid_json_schema"` / `"invalid_function_parameters"`.
 * @example strictSchemaError({ kind: "json_schema", name: "X", schema: { type: "object", properties: {} }, strict: true }, [], "chat")?.message // "Invalid schema for response_format 'X': In context=(), 'additionalProperties' is required to be supplied and to be false."
 */
export function strictSchemaError(output: CanonicalOutputSchema | undefined, tools: (CanonicalStrictTool & { index: number })[], surface: "chat" | "responses"): ApiError | undefined {
  if (output?.kind === "json_schema" && output.strict === true) {
    const why = rootViolation(output.schema) ?? strictViolation(output.schema, [], 0);
    if (why !== undefined) {
      const message = `Invalid schema for response_format '${output.name ?? "response"}': ${why}`;
      return surface === "chat"
        ? apiError("invalid_request", message, { param: "response_format" })
        : apiError("invalid_request", message, { param: "text.format.schema", providerCode: "invalid_json_schema" });
    }
  }
  for (const tool of tools) {
    const why = strictViolation(tool.schema, [], 0);
    if (why === undefined) continue;
    const param = surface === "chat" ? `tools[${tool.index}].function.parameters` : `tools[${tool.index}].parameters`;
    return apiError("invalid_request", `Invalid schema for function '${tool.name}': ${why}`, { param, providerCode: "invalid_function_parameters" });
  }
  return undefined;
}

/**
 * JSON mode's own 400: a `json_object` request whose messages never say "json" (any case). Chat reads every message,
 * system ones included; Responses only the input messages, not `instructions` (`instructions` is the part of the
 * canonical system text the request's own field gave).
 * @example jsonWordError(req, "chat")?.message // "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'."
 */
export function jsonWordError(request: CanonicalRequest, surface: "chat" | "responses", instructions = ""): ApiError | undefined {
  if (request.outputSchema?.kind !== "json_object") return undefined;
  const system = surface === "responses" && instructions !== "" ? request.system.slice(instructions.length) : request.system;
  const said = (t: string) => /json/i.test(t);
  const found = said(system) || request.messages.some((m) => (m.role === "tool" ? said(m.content) : said(m.text)));
  if (found) return undefined;
  return surface === "chat"
    ? apiError("invalid_request", "'messages' must contain the word 'json' in some form, to use 'response_format' of type 'json_object'.", { param: "messages" })
    : apiError("invalid_request", "Response input messages must contain the word 'json' in some form to use 'text.format' of type 'json_object'.", { param: "text.format" });
}
