export { AdminClient, type AdminClientOptions, type Uploadable } from "./client";
export { MockLLMAdminError, type AdminErrorCode } from "./errors";
export { assertVerified, MockLLMVerifyError } from "./verify";
export type {
  Call,
  Coverage,
  JournalEntry,
  JournalFilter,
  RungCall,
  ScenarioSummary,
  SessionListing,
  SessionState,
  StoredDocument,
  UploadResult,
  VerifyResult,
  WebhookReport,
} from "./types";
export type { AuditEntry, CreatedKey, KeyScope, Namespace, NamespaceKey, Quotas } from "./namespace-types";
