/**
 * Bedrock Converse structured outputs: `outputConfig.textFormat` = `{ type: "json_schema", structure: { jsonSchema:
 * { schema, name?, description? } } }`, the schema sent as a JSON string (API_runtime_OutputFormat,
 * API_runtime_JsonSchemaDefinition). Constrained decoding: strict.
 */
import type { CanonicalOutputSchema } from "../../canonical/output-schema";
import { isObject, jsonSchemaOutput } from "../output-schema-wire";

/** @example bedrockOutputSchema({ textFormat: { type: "json_schema", structure: { jsonSchema: { schema: "{}", name: "x" } } } })?.name // "x" */
export function bedrockOutputSchema(outputConfig: unknown): CanonicalOutputSchema | undefined {
  if (!isObject(outputConfig) || !isObject(outputConfig.textFormat)) return undefined;
  const format = outputConfig.textFormat;
  const structure = isObject(format.structure) ? format.structure : undefined;
  const js = structure !== undefined && isObject(structure.jsonSchema) ? structure.jsonSchema : undefined;
  if ((format.type !== "json_schema" && format.type !== "jsonSchema") || js === undefined) return undefined;
  let schema: unknown = js.schema;
  if (typeof schema === "string") {
    try {
      schema = JSON.parse(schema);
    } catch {
      schema = undefined;
    }
  }
  return jsonSchemaOutput(schema, js.name, true);
}
