/**
 * The default responder's answer to a structured-output request (contract section 11): JSON valid against the
 * request's schema, from the same generator as forced tool arguments (src/default/schema-args.ts), seeded by the
 * request; a JSON object holding lorem text for `json_object` / Ollama's `"json"` / Gemini's JSON MIME type alone.
 */
import type { CanonicalOutputSchema } from "../canonical/output-schema";
import { lorem, loremLength } from "./lorem";
import { schemaValue } from "./schema-args";

/**
 * `value` as JSON text with a space after each `:` and `,` (as Python's `json.dumps` writes it, and as models often
 * answer): one line, and words enough that a stream of it comes in pieces like any text.
 * @example spacedJson({ a: [1, 2] }) // '{"a": [1, 2]}'
 */
export function spacedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(spacedJson).join(", ")}]`;
  if (typeof value === "object" && value !== null) {
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}: ${spacedJson(v)}`)
      .join(", ")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/**
 * The JSON text answering `output` for choice `index`; `seed` is the request's (the same request, the same JSON).
 * @example structuredText({ kind: "json_object" }, "hi", "default/1", 0) // '{"response": "lorem ipsum …"}'
 */
export function structuredText(output: CanonicalOutputSchema, message: string, seed: string, index: number): string {
  const at = `${seed}/output${index > 0 ? `/choice-${index}` : ""}`;
  if (output.kind === "json_schema" && output.schema !== undefined) return spacedJson(schemaValue(output.schema, at));
  return spacedJson({ response: lorem(loremLength(`${message}${index > 0 ? `\n${index}` : ""}`), index) });
}
