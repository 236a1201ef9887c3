/**
 * Gemini (and Vertex) structured outputs: `generationConfig.responseMimeType: "application/json"` with
 * `responseSchema` (the OpenAPI subset: upper-case types, `nullable`, `propertyOrdering`) or `responseJsonSchema`
 * (JSON Schema); the MIME type alone asks for any JSON. Constrained decoding: strict. A `responseSchema` field outside
 * the subset is refused as the real API refuses an unknown proto field.
 */
import type { CanonicalOutputSchema } from "../../canonical/output-schema";
import { apiError, type ApiError } from "../../http/errors";
import { isObject, jsonSchemaOutput } from "../output-schema-wire";

/** @example geminiOutputSchema({ responseMimeType: "application/json" }) // { kind: "json_object" } */
export function geminiOutputSchema(config: unknown): CanonicalOutputSchema | undefined {
  if (!isObject(config)) return undefined;
  const schema = config.responseJsonSchema ?? config.response_json_schema ?? config.responseSchema ?? config.response_schema;
  const mime = config.responseMimeType ?? config.response_mime_type;
  if (schema !== undefined && schema !== null) return jsonSchemaOutput(schema, undefined, true);
  return mime === "application/json" ? { kind: "json_object" } : undefined;
}

/** The fields of the API's `Schema` message (ai.google.dev/api/caching#Schema), camelCase and snake_case. */
const SCHEMA_FIELDS = new Set([
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "maxItems",
  "minItems",
  "properties",
  "required",
  "minProperties",
  "maxProperties",
  "minLength",
  "maxLength",
  "pattern",
  "example",
  "anyOf",
  "propertyOrdering",
  "default",
  "items",
  "minimum",
  "maximum",
  "max_items",
  "min_items",
  "min_properties",
  "max_properties",
  "min_length",
  "max_length",
  "any_of",
  "property_ordering",
]);

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The first field outside the subset and where it is, as the proto path names it. */
function unknownField(schema: unknown, at: string, depth: number): { name: string; at: string } | undefined {
  if (!isObject(schema) || depth > 32) return undefined;
  for (const k of Object.keys(schema)) if (!SCHEMA_FIELDS.has(k)) return { name: k, at };
  const props = schema.properties;
  if (isObject(props)) {
    for (const [i, [, sub]] of Object.entries(props).entries()) {
      const found = unknownField(sub, `${at}.properties[${i}].value`, depth + 1);
      if (found) return found;
    }
  }
  if (isObject(schema.items)) {
    const found = unknownField(schema.items, `${at}.items`, depth + 1);
    if (found) return found;
  }
  const anyOf = schema.anyOf ?? schema.any_of;
  if (Array.isArray(anyOf)) {
    for (const [i, sub] of anyOf.entries()) {
      const found = unknownField(sub, `${at}.any_of[${i}]`, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

/**
 * The real API's 400 for a `responseSchema` with a field its `Schema` message lacks (`additionalProperties`, `$ref`,
 * `$defs`, `const`, …: use `responseJsonSchema` for those), else undefined.
 * @example responseSchemaError({ responseSchema: { type: "OBJECT", additionalProperties: false } })?.message // `Invalid JSON payload received. Unknown name "additionalProperties" at 'generation_config.response_schema': Cannot find field.`
 */
export function responseSchemaError(config: unknown): ApiError | undefined {
  if (!isObject(config)) return undefined;
  const [key, schema] = config.responseSchema !== undefined ? ["responseSchema", config.responseSchema] : ["response_schema", config.response_schema];
  const found = unknownField(schema, `generation_config.${snake(key)}`, 0);
  if (found === undefined) return undefined;
  return apiError("invalid_request", `Invalid JSON payload received. Unknown name "${found.name}" at '${found.at}': Cannot find field.`);
}
