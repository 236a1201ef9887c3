/**
 * Anthropic structured outputs: `output_config.format` (GA: `{ type: "json_schema", schema }`) and the beta
 * `output_format` (`structured-outputs-2025-11-13`) into the canonical `outputSchema`; both constrain decoding, so
 * the schema is strict. Tools declared `strict: true` are read too.
 */
import type { CanonicalOutputSchema, CanonicalStrictTool } from "../../canonical/output-schema";
import { isObject, jsonSchemaOutput } from "../output-schema-wire";

/**
 * @example anthropicOutputSchema({ output_config: { format: { type: "json_schema", schema: { type: "object" } } } })?.strict // true
 */
export function anthropicOutputSchema(body: Record<string, unknown>): CanonicalOutputSchema | undefined {
  const config = body.output_config;
  const format = isObject(config) && isObject(config.format) ? config.format : isObject(body.output_format) ? body.output_format : undefined;
  if (format?.type !== "json_schema") return undefined;
  return jsonSchemaOutput(format.schema, undefined, true);
}

/** Tools with `strict: true` and their `input_schema`. */
export function anthropicStrictTools(tools: unknown): CanonicalStrictTool[] {
  if (!Array.isArray(tools)) return [];
  return tools.flatMap((t) => (isObject(t) && t.strict === true && typeof t.name === "string" ? [{ name: t.name, schema: t.input_schema }] : []));
}
