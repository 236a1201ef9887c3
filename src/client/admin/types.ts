/**
 * What the admin API answers (contract section 5), validated loosely: documented fields are
 * checked, fields the server adds later pass through.
 */
import { z } from "zod";

export const UploadResultSchema = z.looseObject({ name: z.string(), version: z.string() });
export type UploadResult = z.output<typeof UploadResultSchema>;

/** A bulk upload answers one result per document, in order. */
export const BulkUploadResultSchema = z.array(UploadResultSchema);

/**
 * A stored scenario document: checked to be a JSON object and passed through untouched,
 * since bundled documents may be in the seed format (`id` + `turns`).
 */
export const StoredDocumentSchema = z.record(z.string(), z.unknown());
export type StoredDocument = z.output<typeof StoredDocumentSchema>;

export const ScenarioSummarySchema = z.looseObject({
  name: z.string(),
  version: z.string(),
  description: z.string().nullish(),
  source: z.enum(["kv", "bundled"]),
});
export type ScenarioSummary = z.output<typeof ScenarioSummarySchema>;

export const ScenarioListSchema = z.array(ScenarioSummarySchema);

export const SessionStateSchema = z.looseObject({
  version: z.string().nullish(),
  steps: z.array(
    z.looseObject({
      id: z.string(),
      used: z.boolean(),
      /** Attempts at this step, all providers together. */
      attempts: z.number(),
      attemptsByProvider: z.record(z.string(), z.number()).optional(),
    }),
  ),
  requests: z.number(),
});
export type SessionState = z.output<typeof SessionStateSchema>;

export const JournalEntrySchema = z.looseObject({
  seq: z.number(),
  /** ISO 8601 time the request arrived. */
  at: z.string(),
  provider: z.string(),
  endpoint: z.string(),
  stream: z.boolean(),
  turn: z.number(),
  /** The step that answered; null when none did. */
  step: z.string().nullable(),
  outcome: z.enum(["response", "failure", "mismatch"]),
  reasons: z.array(z.string()),
  /** The wire request: method, path, headers (redacted), body. */
  request: z.unknown(),
  status: z.number(),
});
export type JournalEntry = z.output<typeof JournalEntrySchema>;

/** The journal, oldest first. */
export const JournalSchema = z.array(JournalEntrySchema);

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
