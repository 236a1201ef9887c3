/**
 * Structured outputs in a scenario (contract section 11): the `outputSchema` matcher, and the check of a scripted
 * answer against the strict schema the request asked for (journalled, failing verify as `schema_violation`).
 */
import { z } from "zod";
import type { OutputSchemaCheck } from "../canonical/output-schema";
import type { CanonicalRequest } from "../canonical/request";
import { validateSchema } from "../canonical/schema-validate";
import { StringMatchSchema } from "./string-match";

export const OutputSchemaMatchSchema = z.union([
  z.boolean(),
  z.strictObject({
    name: StringMatchSchema.optional().describe("The schema's name (OpenAI `json_schema.name`, Responses `text.format.name`, Bedrock `jsonSchema.name`)."),
  }),
]);
export type OutputSchemaMatch = z.output<typeof OutputSchemaMatchSchema>;

/**
 * The check of a scripted answer against the request's strict schema; undefined when there is nothing to check (no
 * strict schema, the step's `schemaCheck: false`, an answer that is a refusal or has no text).
 * @example checkOutput(req, reply, true) // { valid: false, errors: [{ path: "/total", message: "must be number, got string" }] }
 */
export function checkOutput(req: CanonicalRequest, reply: { text?: string; refusal?: string; frames?: unknown }, enabled: boolean): OutputSchemaCheck | undefined {
  const out = req.outputSchema;
  if (!enabled || out === undefined || out.kind !== "json_schema" || out.strict !== true || out.schema === undefined) return undefined;
  if (reply.text === undefined || reply.refusal !== undefined || reply.frames !== undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(reply.text);
  } catch {
    return { valid: false, errors: [{ path: "", message: "is not valid JSON" }] };
  }
  const errors = validateSchema(out.schema, value);
  return { valid: errors.length === 0, errors };
}
