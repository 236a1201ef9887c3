/**
 * The schemas inside the chat message's reply kinds (src/scenario/reply-kinds.ts): a thinking block of
 * `respond.reasoning`, a call of `respond.toolCalls`. Re-exported by src/scenario/schema.ts.
 */
import { z } from "zod";

export const ReasoningBlockSchema = z.union([
  z.strictObject({
    text: z.string().describe("The reasoning text."),
    signature: z.string().optional().describe("Anthropic's thinking signature (default: one derived from the text)."),
  }),
  z.strictObject({
    redacted: z.string().describe("Anthropic `redacted_thinking` data."),
  }),
]);

export const ToolCallSchema = z.strictObject({
  id: z.string().min(1).optional().describe("The call's id (default: derived per provider from the scenario, session, step and attempt: `call_…`, `toolu_…`)."),
  name: z.string().min(1).describe("The tool's name (never checked against the tools offered)."),
  arguments: z
    .union([z.record(z.string(), z.unknown()), z.string()])
    .optional()
    .describe("An object (sent as JSON), or a raw string sent verbatim — even invalid JSON."),
});
