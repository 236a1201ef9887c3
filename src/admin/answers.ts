/**
 * What each admin route answers, as its handler builds it (contract sections 5, 8, 9 and 10), and the compile-time
 * check that the admin client accepts every one of them: `AdminClient` parses each answer with a zod schema of its own
 * (src/client/admin/types.ts, namespace-types.ts), so a server answer that schema would refuse (a new enum value such
 * as `source: "file"`, a field renamed or retyped) fails `tsc` here instead of failing a user's `mockllm list`.
 * The handlers build their bodies with `satisfies` these types, and every refusal is an `ErrorAnswer` (http.ts's
 * `adminError`, the one place that writes it). Nothing here runs: the file holds types only.
 */
import type { z } from "zod";
import type * as Client from "../client/admin/types";
import type * as ClientNs from "../client/admin/namespace-types";
import type { DocumentIssue } from "../scenario/document";
import type { ScenarioSummary } from "../scenario/store";
import type { JournalEntry, SessionView } from "../session/core";
import type { SessionListing } from "../session/session-index";
import type { Coverage, VerifyResult } from "../session/verify";
import type { AuditEntry, KeyRecord, NamespaceRecord, Quotas } from "../tenancy/types";
import type { Scope } from "../tenancy/keys";
import type { WebhookReport } from "../webhooks/types";
import type { CallRecord } from "../webhooks/calls";

/** Every admin refusal: the message, and the document's issues or a stable `code` (contract section 10). */
export interface ErrorAnswer {
  error: { message: string; issues?: DocumentIssue[]; code?: string };
}

export interface UploadAnswer {
  name: string;
  version: string;
}

export type SessionAnswer = SessionView & { exists: boolean };

export interface CreatedKeyAnswer {
  id: string;
  key: string;
  scope: Scope;
  label: string | null;
}

/** Each admin route the client calls, and what it answers. */
export interface AdminAnswers {
  "GET /admin/scenarios": ScenarioSummary[];
  "PUT /admin/scenarios/{name}": UploadAnswer;
  "POST /admin/scenarios": UploadAnswer[];
  "GET /admin/scenarios/{name}/coverage": Coverage;
  "GET /admin/sessions": SessionListing[];
  "GET /admin/sessions/{scenario}/{session}": SessionAnswer;
  "GET /admin/sessions/{scenario}/{session}/requests": JournalEntry[];
  "GET /admin/sessions/{scenario}/{session}/verify": VerifyResult;
  "GET /admin/sessions/{scenario}/{session}/recording": Record<string, unknown>;
  "POST /admin/namespaces": { name: string; quotas: Quotas; expiresAt?: string; limits?: { requestsPerMinute?: number; tokensPerMinute?: number } };
  "GET /admin/namespaces": NamespaceRecord[];
  "GET /admin/namespaces/{ns}/keys": KeyRecord[];
  "POST /admin/namespaces/{ns}/keys": CreatedKeyAnswer;
  "GET /admin/namespaces/{ns}/audit": AuditEntry[];
  "GET /admin/webhooks": WebhookReport;
  "POST /admin/realtime/calls": CallRecord & { endpoints: number };
  "GET /admin/realtime/calls/{id}": CallRecord;
}

/** The schema the client parses each answer with. */
interface ClientSchemas {
  "GET /admin/scenarios": typeof Client.ScenarioListSchema;
  "PUT /admin/scenarios/{name}": typeof Client.UploadResultSchema;
  "POST /admin/scenarios": typeof Client.BulkUploadResultSchema;
  "GET /admin/scenarios/{name}/coverage": typeof Client.CoverageSchema;
  "GET /admin/sessions": typeof Client.SessionListSchema;
  "GET /admin/sessions/{scenario}/{session}": typeof Client.SessionStateSchema;
  "GET /admin/sessions/{scenario}/{session}/requests": typeof Client.JournalSchema;
  "GET /admin/sessions/{scenario}/{session}/verify": typeof Client.VerifyResultSchema;
  "GET /admin/sessions/{scenario}/{session}/recording": typeof Client.StoredDocumentSchema;
  "POST /admin/namespaces": typeof ClientNs.NamespaceSchema;
  "GET /admin/namespaces": typeof ClientNs.NamespaceListSchema;
  "GET /admin/namespaces/{ns}/keys": typeof ClientNs.KeyListSchema;
  "POST /admin/namespaces/{ns}/keys": typeof ClientNs.CreatedKeySchema;
  "GET /admin/namespaces/{ns}/audit": typeof ClientNs.AuditSchema;
  "GET /admin/webhooks": typeof Client.WebhookReportSchema;
  "POST /admin/realtime/calls": typeof Client.RungCallSchema;
  "GET /admin/realtime/calls/{id}": typeof Client.CallSchema;
}

/** `T` as plain object types all the way down (interfaces are not assignable to a loose object's index signature). */
type Plain<T> = T extends readonly (infer U)[] ? Plain<U>[] : T extends object ? { [K in keyof T]: Plain<T[K]> } : T;
/** Whether every value of `Answer` is a valid input of `Schema`. */
type Accepts<Schema extends z.ZodType, Answer> = [Plain<Answer>] extends [z.input<Schema>] ? true : false;
type AllTrue<T extends { [K in keyof AdminAnswers]: true }> = T;
type IsTrue<T extends true> = T;

/**
 * Fails to compile when the client would refuse an answer: the route whose entry is `false` names the drift.
 * Every route of `AdminAnswers` must have a client schema.
 */
export type ClientAcceptsEveryAnswer = AllTrue<{ [K in keyof AdminAnswers]: Accepts<ClientSchemas[K], AdminAnswers[K]> }>;

/** Fails to compile when the client's error schema would refuse a refusal (it would then show no message at all). */
export type ClientAcceptsEveryError = IsTrue<Accepts<typeof Client.AdminErrorBodySchema, ErrorAnswer>>;
