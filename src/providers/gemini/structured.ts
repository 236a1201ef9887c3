/**
 * Gemini (and Vertex) structured outputs: `generationConfig.responseMimeType: "application/json"` with
 * `responseSchema` (the OpenAPI subset: upper-case types, `nullable`, `propertyOrdering`) or `responseJsonSchema`
 * (JSON Schema); the MIME type alone asks for any JSON. Constrained decoding: strict. A `responseSchema` the API's
 * proto parser refuses is answered by schema-violations.ts.
 */
import type { CanonicalOutputSchema } from "../../canonical/output-schema";
import { isObject, jsonSchemaOutput } from "../output-schema-wire";

/** @example geminiOutputSchema({ responseMimeType: "application/json" }) // { kind: "json_object" } */
export function geminiOutputSchema(config: unknown): CanonicalOutputSchema | undefined {
  if (!isObject(config)) return undefined;
  const schema = config.responseJsonSchema ?? config.response_json_schema ?? config.responseSchema ?? config.response_schema;
  const mime = config.responseMimeType ?? config.response_mime_type;
  if (schema !== undefined && schema !== null) return jsonSchemaOutput(schema, undefined, true);
  return mime === "application/json" ? { kind: "json_object" } : undefined;
}
