/**
 * What the namespace admin routes answer (contract section 9), validated loosely.
 */
import { z } from "zod";

export const QuotasSchema = z.looseObject({
  sessions: z.number().optional(),
  requestsPerMinute: z.number().optional(),
  scenarioBytes: z.number().optional(),
  journalBytes: z.number().optional(),
  files: z.number().optional(),
  fileBytes: z.number().optional(),
});
export type Quotas = z.output<typeof QuotasSchema>;

/** A namespace's rate limits over all its sessions, as a provider's (429 and headers). */
export const NamespaceLimitsSchema = z.looseObject({ requestsPerMinute: z.number().optional(), tokensPerMinute: z.number().optional() });
export type NamespaceLimits = z.output<typeof NamespaceLimitsSchema>;

export const NamespaceSchema = z.looseObject({ name: z.string(), quotas: QuotasSchema, expiresAt: z.string().optional(), createdAt: z.string().optional(), limits: NamespaceLimitsSchema.optional() });
export type Namespace = z.output<typeof NamespaceSchema>;
export const NamespaceListSchema = z.array(NamespaceSchema);

export type KeyScope = "admin" | "read" | "run";

/** A key as listed: never its secret. */
export const KeySchema = z.looseObject({
  id: z.string(),
  scope: z.enum(["admin", "read", "run"]),
  label: z.string().nullish(),
  createdAt: z.string().optional(),
});
export type NamespaceKey = z.output<typeof KeySchema>;
export const KeyListSchema = z.array(KeySchema);

/** A key as created: `key` (`mk_{id}_{secret}`) is shown only in this answer. */
export const CreatedKeySchema = KeySchema.extend({ key: z.string() });
export type CreatedKey = z.output<typeof CreatedKeySchema>;

export const AuditSchema = z.array(z.looseObject({ at: z.string(), keyId: z.string(), action: z.string(), target: z.string() }));
export type AuditEntry = z.output<typeof AuditSchema>[number];
