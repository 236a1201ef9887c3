/**
 * Ollama structured outputs: `format` is `"json"` (any JSON) or a JSON Schema (constrained decoding: strict).
 */
import type { CanonicalOutputSchema } from "../../canonical/output-schema";
import { isObject, jsonSchemaOutput } from "../output-schema-wire";

/** @example ollamaOutputSchema("json") // { kind: "json_object" } */
export function ollamaOutputSchema(format: unknown): CanonicalOutputSchema | undefined {
  if (format === "json") return { kind: "json_object" };
  return isObject(format) ? jsonSchemaOutput(format, undefined, true) : undefined;
}
