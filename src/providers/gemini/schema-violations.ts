/**
 * The API's `Schema` message (the OpenAPI subset of `functionDeclarations[].parameters` and `.response`, and of
 * `generationConfig.responseSchema`) as its proto JSON parser reads it: a field the message lacks (`additionalProperties`,
 * `$schema`, `$ref`, `const`, `exclusiveMinimum`, …: JSON Schema belongs in `parametersJsonSchema` /
 * `responseJsonSchema`), a `type` it has no name for (`"null"`, `""`) or given as a list, an `enum` of numbers, are
 * each a field violation (field-violations.ts), all of them listed, in the order of the body. The most common 400 an
 * agent meets on Gemini: a tool catalogue passed through from MCP or zod unchanged.
 */
import { isObject } from "../output-schema-wire";
import { invalidValue, notRepeating, unknownName, Violations, violationsError } from "./field-violations";
import type { ApiError } from "../../http/errors";
import { camel } from "./wire";

/** What a field of `Schema` holds. */
type Kind = "string" | "bool" | "int64" | "double" | "type" | "strings" | "schema" | "schemas" | "schemaMap" | "value";

/** The fields of `Schema` (ai.google.dev/api/caching#Schema; @google/genai's `Schema`): proto name and kind. */
const SCHEMA: readonly [string, Kind][] = [
  ["type", "type"],
  ["format", "string"],
  ["title", "string"],
  ["description", "string"],
  ["nullable", "bool"],
  ["enum", "strings"],
  ["max_items", "int64"],
  ["min_items", "int64"],
  ["properties", "schemaMap"],
  ["required", "strings"],
  ["min_properties", "int64"],
  ["max_properties", "int64"],
  ["min_length", "int64"],
  ["max_length", "int64"],
  ["pattern", "string"],
  ["example", "value"],
  ["any_of", "schemas"],
  ["property_ordering", "strings"],
  ["default", "value"],
  ["items", "schema"],
  ["minimum", "double"],
  ["maximum", "double"],
];

/** Each spelling the parser accepts (proto name, and its camelCase JSON name) → the proto name and kind. A Map: no key of `Object.prototype` is a field. */
const FIELDS = new Map(SCHEMA.flatMap(([proto, kind]) => [proto, camel(proto)].map((name) => [name, { proto, kind }] as const)));

/** `FunctionDeclaration`'s fields (@google/genai's `FunctionDeclaration`), each spelling; the two schemas are walked. */
const DECLARATION = new Set(["name", "description", "behavior", "parameters", "parameters_json_schema", "parametersJsonSchema", "response", "response_json_schema", "responseJsonSchema"]);

/**
 * The enum `Type`'s names, in any case (`"object"`, as the REST examples write them, is answered). `NULL`, in the
 * SDK's enum, is left out: every capture of the API shows `"null"` refused (docs/providers/fidelity.md).
 */
const TYPES = new Set(["TYPE_UNSPECIFIED", "STRING", "NUMBER", "INTEGER", "BOOLEAN", "ARRAY", "OBJECT"]);

/** Beyond this nesting a schema is not walked further (the mock's bound; the API has its own). */
const MAX_DEPTH = 32;

const INT64 = /^-?\d+$/;
const DOUBLE = /^(?:-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|NaN|-?Infinity)$/;

/** The walk's fixed context: the proto package that names the messages (`google.ai.generativelanguage.v1beta`). */
interface Walk {
  pkg: string;
  out: Violations;
}

/** A `Schema`-typed field `name` of the message at `parent` (or a map value / list element, at `at`). */
function schemaField(w: Walk, value: unknown, at: string, parent: string, name: string | undefined, depth: number): void {
  if (value === null || value === undefined) return;
  if (Array.isArray(value) && name !== undefined) return w.out.add(notRepeating(name, parent));
  if (!isObject(value)) return w.out.add(invalidValue(at, `type.googleapis.com/${w.pkg}.Schema`, value));
  walkSchema(w, value, at, depth + 1);
}

function scalar(w: Walk, kind: Kind, value: unknown, at: string): void {
  if (kind === "string" && typeof value !== "string") w.out.add(invalidValue(at, "TYPE_STRING", value));
  else if (kind === "bool" && typeof value !== "boolean") w.out.add(invalidValue(at, "TYPE_BOOL", value));
  else if (kind === "int64" && !(Number.isInteger(value) || (typeof value === "string" && INT64.test(value)))) w.out.add(invalidValue(at, "TYPE_INT64", value));
  else if (kind === "double" && typeof value !== "number" && !(typeof value === "string" && DOUBLE.test(value))) w.out.add(invalidValue(at, "TYPE_DOUBLE", value));
  else if (kind === "type" && !(typeof value === "string" && TYPES.has(value.toUpperCase()))) w.out.add(invalidValue(at, `type.googleapis.com/${w.pkg}.Type`, value));
}

/** One `Schema` object at `at`: its fields in the body's order, and the schemas inside it. */
function walkSchema(w: Walk, schema: Record<string, unknown>, at: string, depth: number): void {
  if (depth > MAX_DEPTH) return;
  for (const key of Object.keys(schema)) {
    if (w.out.full) return;
    const field = FIELDS.get(key);
    if (field === undefined) {
      w.out.add(unknownName(key, at));
      continue;
    }
    const value = schema[key];
    // proto JSON reads a null as the field unset (a `Value`'s null is a value, and valid).
    if (value === null || field.kind === "value") continue;
    const here = `${at}.${field.proto}`;
    switch (field.kind) {
      case "schema":
        schemaField(w, value, here, at, key, depth);
        break;
      case "schemas":
      case "strings":
        if (!Array.isArray(value)) {
          if (field.kind === "schemas") schemaField(w, value, here, at, undefined, depth);
          else scalar(w, "string", value, here);
          break;
        }
        for (let i = 0; i < value.length && !w.out.full; i++) {
          if (field.kind === "schemas") schemaField(w, value[i], `${here}[${i}]`, here, undefined, depth);
          else scalar(w, "string", value[i], `${here}[${i}]`);
        }
        break;
      case "schemaMap": {
        if (!isObject(value)) {
          w.out.add(Array.isArray(value) ? notRepeating(key, at) : invalidValue(here, `type.googleapis.com/${w.pkg}.Schema.PropertiesEntry`, value));
          break;
        }
        const names = Object.keys(value);
        for (let i = 0; i < names.length && !w.out.full; i++) schemaField(w, value[names[i]!], `${here}[${i}].value`, here, undefined, depth);
        break;
      }
      default:
        if (Array.isArray(value)) w.out.add(notRepeating(key, at));
        else scalar(w, field.kind, value, here);
    }
  }
}

/** `key` read as a field of the message, in either spelling: `function_declarations` is `functionDeclarations`. */
const named = (key: string, field: string) => key === field || camel(key) === field;

/** Each function declaration of the body's `tools`: its fields, then its `parameters` and `response`. */
function walkTools(w: Walk, tools: unknown): void {
  if (!Array.isArray(tools)) return;
  for (let i = 0; i < tools.length && !w.out.full; i++) {
    const tool = tools[i];
    if (!isObject(tool)) continue;
    for (const k of Object.keys(tool)) {
      const declarations = tool[k];
      if (!named(k, "functionDeclarations") || !Array.isArray(declarations)) continue;
      for (let j = 0; j < declarations.length && !w.out.full; j++) {
        const declaration = declarations[j];
        if (!isObject(declaration)) continue;
        const at = `tools[${i}].function_declarations[${j}]`;
        for (const key of Object.keys(declaration)) {
          if (!DECLARATION.has(key)) w.out.add(unknownName(key, at));
          else if (key === "parameters" || key === "response") schemaField(w, declaration[key], `${at}.${key}`, at, key, 0);
        }
      }
    }
  }
}

/**
 * The 400 the API answers for the schemas of a request body as the client sent it (either spelling), every
 * violation listed in the body's order — each function declaration's unknown fields, its `parameters` and `response`;
 * `generationConfig.responseSchema` — or undefined when they read cleanly. `pkg` names the API's messages:
 * `google.ai.generativelanguage.v1beta`, on Vertex `google.cloud.aiplatform.v1`.
 * @example schemaViolations({ tools: [{ functionDeclarations: [{ name: "f", parameters: { type: "OBJECT", additionalProperties: false } }] }] }, "google.ai.generativelanguage.v1beta")?.message // `Invalid JSON payload received. Unknown name "additionalProperties" at 'tools[0].function_declarations[0].parameters': Cannot find field.`
 */
export function schemaViolations(body: unknown, pkg: string): ApiError | undefined {
  if (!isObject(body)) return undefined;
  const w: Walk = { pkg, out: new Violations() };
  for (const key of Object.keys(body)) {
    if (w.out.full) break;
    const value = body[key];
    if (named(key, "tools")) walkTools(w, value);
    else if (named(key, "generationConfig") && isObject(value)) {
      for (const k of Object.keys(value)) {
        if (named(k, "responseSchema")) schemaField(w, value[k], "generation_config.response_schema", "generation_config", k, 0);
      }
    }
  }
  return violationsError(w.out.list);
}
