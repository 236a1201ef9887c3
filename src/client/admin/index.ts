export { AdminClient, type AdminClientOptions, type Uploadable } from "./client";
export { MockLLMAdminError, type AdminErrorCode } from "./errors";
export type { JournalEntry, ScenarioSummary, SessionState, StoredDocument, UploadResult } from "./types";
