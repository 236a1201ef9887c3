/**
 * Structured outputs in a scenario (contract section 11): the `outputSchema` matcher, and the check of a scripted
 * answer against the strict schema the request asked for (journalled, failing verify as `schema_violation`).
 */
import { z } from "zod";
import type { OutputSchemaCheck } from "../canonical/output-schema";
import type { CanonicalRequest } from "../canonical/request";
import { validateSchema } from "../canonical/schema-validate";
import { StringMatchSchema } from "./string-match";
import { decisionErrors } from "../canonical/decisions";
import type { DecisionReply } from "./surface-replies";

export const OutputSchemaMatchSchema = z.union([
  z.boolean(),
  z.strictObject({
    name: StringMatchSchema.optional().describe("The schema's name (OpenAI `json_schema.name`, Responses `text.format.name`, Bedrock `jsonSchema.name`)."),
  }),
]);
export type OutputSchemaMatch = z.output<typeof OutputSchemaMatchSchema>;

/**
 * The check of a scripted answer against what the request constrains it to; undefined when there is nothing to check
 * (no strict schema nor a call to a strict tool, the step's `schemaCheck: false`). The text of a final answer (no
 * tool calls, no refusal, no recorded frames) is checked against a strict output schema; each tool call to a tool declared `strict: true` has its
 * arguments checked against that tool's schema, its errors' paths under `/toolCalls/{i}/arguments`. A decisions request's
 * scripted `decision` is checked against its questions instead (src/canonical/decisions.ts), under `/decision/{key}`.
 * @example checkOutput(req, reply, true) // { valid: false, errors: [{ path: "/total", message: "must be number, got string" }] }
 */
export function checkOutput(
  req: CanonicalRequest,
  reply: { text?: string; refusal?: string; frames?: unknown; toolCalls?: { name: string; arguments: string }[]; decision?: DecisionReply },
  enabled: boolean,
): OutputSchemaCheck | undefined {
  if (!enabled || reply.frames !== undefined) return undefined;
  if (req.questions !== undefined) {
    if (reply.decision === undefined) return undefined;
    const errors = decisionErrors(req.questions, reply.decision);
    return { valid: errors.length === 0, errors };
  }
  const out = req.outputSchema;
  const errors: OutputSchemaCheck["errors"] = [];
  let checked = false;
  if (out?.kind === "json_schema" && out.strict === true && out.schema !== undefined && reply.text !== undefined && reply.refusal === undefined && (reply.toolCalls ?? []).length === 0) {
    checked = true;
    errors.push(...jsonErrors(out.schema, reply.text, ""));
  }
  for (const [i, call] of (reply.toolCalls ?? []).entries()) {
    const tool = req.strictTools?.find((t) => t.name === call.name);
    if (tool === undefined) continue;
    checked = true;
    errors.push(...jsonErrors(tool.schema, call.arguments, `/toolCalls/${i}/arguments`));
  }
  return checked ? { valid: errors.length === 0, errors } : undefined;
}

/** The errors of JSON `text` against `schema`, their paths under `prefix`. */
function jsonErrors(schema: unknown, text: string, prefix: string): OutputSchemaCheck["errors"] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [{ path: prefix, message: "is not valid JSON" }];
  }
  return validateSchema(schema, value).map((e) => ({ path: `${prefix}${e.path}`, message: e.message }));
}
