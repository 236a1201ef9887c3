/** A scenario's `limits` (contract section 11): per session, as a provider's rate limits. */
import { z } from "zod";

export const LimitsSchema = z
  .strictObject({
    requestsPerMinute: z.number().int().min(1).optional().describe("Requests a session may make in any 60 seconds; the next gets the provider's 429."),
    tokensPerMinute: z.number().int().min(1).optional().describe("Tokens (prompt + completion, as each answer reported them) a session may use in any 60 seconds; once used up, the provider's 429."),
  })
  .describe(
    "Rate limits per session: every answer carries the provider's remaining/reset headers (`x-ratelimit-*` on OpenAI and Azure, `anthropic-ratelimit-*` on Anthropic); past a limit, the provider's own 429 (Gemini `RESOURCE_EXHAUSTED` with `QuotaFailure` and `RetryInfo`).",
  );
export type Limits = z.output<typeof LimitsSchema>;
