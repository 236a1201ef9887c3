/**
 * What the admin API answers (contract section 5), validated loosely: documented fields are
 * checked, fields the server adds later pass through.
 */
import { z } from "zod";

export const UploadResultSchema = z.looseObject({ name: z.string(), version: z.string() });
export type UploadResult = z.output<typeof UploadResultSchema>;

/** A bulk upload answers an array of results, or `{ scenarios: [...] }`. */
export const BulkUploadResultSchema = z.union([
  z.array(UploadResultSchema),
  z.looseObject({ scenarios: z.array(UploadResultSchema) }).transform((r) => r.scenarios),
]);

export const ScenarioSummarySchema = z.looseObject({
  name: z.string(),
  version: z.string(),
  description: z.string().nullish(),
  source: z.enum(["kv", "bundled"]),
});
export type ScenarioSummary = z.output<typeof ScenarioSummarySchema>;

export const ScenarioListSchema = z.union([
  z.array(ScenarioSummarySchema),
  z.looseObject({ scenarios: z.array(ScenarioSummarySchema) }).transform((r) => r.scenarios),
]);

export const SessionStateSchema = z.looseObject({
  version: z.string().nullish(),
  steps: z.array(z.looseObject({ id: z.string(), used: z.boolean(), attempts: z.unknown() })),
  requests: z.number(),
});
export type SessionState = z.output<typeof SessionStateSchema>;

export const JournalEntrySchema = z.looseObject({
  seq: z.number(),
  at: z.union([z.string(), z.number()]),
  provider: z.string().nullish(),
  endpoint: z.string().nullish(),
  stream: z.boolean().nullish(),
  turn: z.number().nullish(),
  step: z.string().nullish(),
  outcome: z.enum(["response", "failure", "mismatch"]),
  reasons: z.array(z.unknown()).nullish(),
  request: z.unknown(),
  status: z.number().nullish(),
});
export type JournalEntry = z.output<typeof JournalEntrySchema>;

/** The journal: an array of entries, or `{ requests: [...] }`. */
export const JournalSchema = z.union([
  z.array(JournalEntrySchema),
  z.looseObject({ requests: z.array(JournalEntrySchema) }).transform((r) => r.requests),
]);

/** The server's error body: `{ error: { message, issues? } }`. */
export const AdminErrorBodySchema = z.looseObject({
  error: z.union([
    z.string(),
    z.looseObject({
      message: z.string().optional(),
      issues: z.array(z.looseObject({ path: z.string(), message: z.string() })).optional(),
    }),
  ]),
});
