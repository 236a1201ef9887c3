/**
 * A scenario's `expect.budget` and `prices` (contract section 11): what a session may spend, and what a
 * token costs. Checked by verify (src/session/budget.ts).
 */
import { z } from "zod";

export const PriceSchema = z.strictObject({
  input: z.number().min(0).describe("US dollars per 1M prompt tokens."),
  cachedInput: z.number().min(0).optional().describe("US dollars per 1M cached prompt tokens (`cacheReadTokens`); default the input price."),
  output: z.number().min(0).describe("US dollars per 1M completion tokens (reasoning included)."),
});
export type Price = z.output<typeof PriceSchema>;

export const BudgetSchema = z.strictObject({
  maxTotalTokens: z.number().int().min(0).optional().describe("Most prompt plus completion tokens the session may report, over every answer."),
  maxCostUsd: z.number().min(0).optional().describe("Most US dollars the session's tokens may cost at the price table (or the scenario's `prices`)."),
  maxRequests: z.number().int().min(0).optional().describe("Most model requests the session may make (every journaled request but MCP calls)."),
});
export type Budget = z.output<typeof BudgetSchema>;

export const ScenarioExpectSchema = z.strictObject({
  budget: BudgetSchema.optional().describe("What one session may spend; verify fails (`budget_exceeded`) with the figures when it spends more."),
});

export const PricesSchema = z
  .record(z.string().min(1), PriceSchema)
  .describe("Prices per model (a key matches a model by prefix, the longest first), over the built-in dated table (docs/reference/prices.md).");
