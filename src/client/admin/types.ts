/**
 * What the admin API answers (contract section 5), validated loosely: documented fields are
 * checked, fields the server adds later pass through. src/admin/answers.ts checks at
 * compile time that each schema accepts what the server answers.
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
  /** `kv`: uploaded (KV on Workers, memory on Node); `file`: `mockllm serve --scenarios`; `bundled`: shipped. */
  source: z.enum(["kv", "file", "bundled"]),
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
  /** The scenario's `mcp.calls`; absent when it scripts none. */
  mcpCalls: z.array(z.looseObject({ id: z.string(), used: z.boolean(), attempts: z.number(), consume: z.boolean() })).optional(),
  requests: z.number(),
  /** When the newest journaled request arrived; null when there is none. */
  lastAt: z.string().nullish(),
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
  outcome: z.enum(["response", "failure", "mismatch", "side_call", "chaos"]),
  reasons: z.array(z.string()),
  /** Outcome `chaos`: the fault the scenario's seeded chaos drew, its seed and the request number it was drawn for. */
  chaos: z.looseObject({ kind: z.string(), seed: z.number(), draw: z.number() }).optional(),
  /** The wire request: method, path, headers (redacted), body. */
  request: z.unknown(),
  status: z.number(),
  /** `"mcp"` for a `tools/call` to the session's MCP server (provider "mcp", endpoint "tools/call"). */
  surface: z.literal("mcp").optional(),
  /** What the engine saw and answered, provider-neutral; MCP entries add `tool`, `arguments`, `result`, `error`. */
  canonical: z
    .looseObject({
      tools: z.array(z.string()),
      toolResults: z.array(z.looseObject({ name: z.string().nullable(), toolCallId: z.string(), content: z.string() })),
      lastUserMessage: z.string().nullish(),
      /** Null when nothing was answered (a mismatch error, a scripted failure). */
      answered: z
        .looseObject({
          text: z.string().nullable(),
          toolCalls: z.array(z.looseObject({ id: z.string().nullable(), name: z.string(), arguments: z.string() })),
        })
        .nullable(),
      model: z.string(),
      stream: z.boolean(),
      usage: z.record(z.string(), z.number()).nullable(),
      /** MCP: the tool called. */
      tool: z.string().optional(),
      /** MCP: the call's arguments. */
      arguments: z.record(z.string(), z.unknown()).optional(),
      /** MCP: the tool result answered (`content`, `isError`, …); null when an error was. */
      result: z.looseObject({ content: z.array(z.looseObject({ type: z.string() })) }).nullish(),
      /** MCP: the JSON-RPC error answered; null when a result was. */
      error: z.looseObject({ code: z.number(), message: z.string() }).nullish(),
    })
    .optional(),
});
export type JournalEntry = z.output<typeof JournalEntrySchema>;

/** The journal, oldest first. */
export const JournalSchema = z.array(JournalEntrySchema);

/** Which journal entries to return: one step's, one outcome's, those after a seq. */
export interface JournalFilter {
  step?: string;
  outcome?: "response" | "failure" | "mismatch" | "side_call" | "chaos";
  /** Only entries with a greater seq (poll with the last seq seen). */
  since?: number;
}

/** Tokens, cost and requests of one session (verify, coverage). */
const UsageFiguresSchema = z.looseObject({
  requests: z.number(),
  inputTokens: z.number(),
  outputTokens: z.number(),
  cachedTokens: z.number(),
  totalTokens: z.number(),
  costUsd: z.number(),
  unpriced: z.array(z.string()),
});

export const VerifyResultSchema = z.looseObject({
  ok: z.boolean(),
  scenario: z.string(),
  session: z.string(),
  version: z.string().nullable(),
  unusedSteps: z.array(z.looseObject({ id: z.string(), index: z.number(), match: z.string(), respond: z.string() })),
  /** `mcp.calls` entries (consumed ones) the session never answered. */
  unusedMcpCalls: z.array(z.looseObject({ id: z.string(), index: z.number(), match: z.string(), respond: z.string(), attempts: z.number() })).optional(),
  mismatches: z.array(
    z.looseObject({
      seq: z.number(),
      at: z.string(),
      provider: z.string(),
      endpoint: z.string(),
      turn: z.number(),
      status: z.number(),
      nearestStep: z.string().nullable(),
      reasons: z.array(z.string()),
      lastUserMessage: z.string().nullable(),
      toolResults: z.array(z.looseObject({ name: z.string().nullable(), toolCallId: z.string(), content: z.string() })),
      /** An MCP `tools/call` no entry answered. */
      mcp: z.looseObject({ tool: z.string(), arguments: z.record(z.string(), z.unknown()) }).optional(),
    }),
  ),
  pendingFailures: z.array(z.looseObject({ id: z.string(), index: z.number(), served: z.number(), scripted: z.number().nullable(), last: z.string(), status: z.number() })),
  requests: z.number(),
  /** Faults the scenario's seeded chaos drew in the session (never a failure of verify by itself). */
  chaos: z.number().optional(),
  /** Tokens, cost and requests of the session. */
  usage: UsageFiguresSchema.optional(),
  /** The scenario's `expect.budget` and what went over it (`reason: "budget_exceeded"`); absent without a budget. */
  budget: z
    .looseObject({
      limits: z.looseObject({ maxTotalTokens: z.number().optional(), maxCostUsd: z.number().optional(), maxRequests: z.number().optional() }),
      exceeded: z.array(z.looseObject({ reason: z.string(), limit: z.string(), max: z.number(), actual: z.number() })),
    })
    .optional(),
  /** Scripted answers that did not fit the strict schema the request asked for (contract section 11); absent when none. */
  schemaViolations: z
    .array(
      z.looseObject({
        kind: z.literal("schema_violation"),
        seq: z.number(),
        step: z.string().nullable(),
        provider: z.string(),
        endpoint: z.string(),
        errors: z.array(z.looseObject({ path: z.string(), message: z.string() })),
      }),
    )
    .optional(),
  /** Multi-line text: what went wrong, readable without the journal. */
  summary: z.string(),
});
export type VerifyResult = z.output<typeof VerifyResultSchema>;

export const SessionListSchema = z.array(z.looseObject({ scenario: z.string(), session: z.string(), requests: z.number(), lastAt: z.string().nullable() }));
export type SessionListing = z.output<typeof SessionListSchema>[number];

/** A project's webhooks (`GET /admin/webhooks`): its endpoints, how many deliveries wait, the last attempts, newest first. */
export const WebhookReportSchema = z.looseObject({
  endpoints: z.array(z.looseObject({ id: z.string(), name: z.string(), url: z.string(), event_types: z.array(z.string()), created_at: z.number(), updated_at: z.number() })),
  waiting: z.number(),
  deliveries: z.array(
    z.looseObject({
      at: z.string(),
      event: z.string(),
      type: z.string(),
      endpoint: z.string(),
      url: z.string(),
      deliveryId: z.string(),
      attempt: z.number(),
      /** What the endpoint answered; absent when it did not (then `error` says why). */
      status: z.number().optional(),
      error: z.string().optional(),
      /** Whether it will be tried again. */
      retry: z.boolean(),
    }),
  ),
});
export type WebhookReport = z.output<typeof WebhookReportSchema>;

/** An incoming SIP call rung with `POST /admin/realtime/calls`, as it stands (`GET /admin/realtime/calls/{id}`). */
export const CallSchema = z.looseObject({
  call_id: z.string(),
  /** `ringing` until the backend accepts or rejects it; an accepted call is `referred` or `ended` at last. */
  status: z.enum(["ringing", "accepted", "rejected", "referred", "ended"]),
  created_at: z.number(),
  updated_at: z.number(),
  sip_headers: z.array(z.looseObject({ name: z.string(), value: z.string() })),
  scenario: z.string().optional(),
  session: z.string().optional(),
  /** What the backend's `accept` configured (the Realtime session, without its `type`). */
  accepted_session: z.record(z.string(), z.unknown()).optional(),
  reject_status_code: z.number().optional(),
  refer_target_uri: z.string().optional(),
});
export type Call = z.output<typeof CallSchema>;

/** The rung call, and how many of the project's endpoints `realtime.call.incoming` went to. */
export const RungCallSchema = CallSchema.extend({ endpoints: z.number() });
export type RungCall = z.output<typeof RungCallSchema>;

/** One step's (or MCP call entry's) use across sessions. */
const CoverageEntrySchema = z.looseObject({
  id: z.string(),
  index: z.number(),
  /** Sessions in which the step answered. */
  sessions: z.number(),
  attempts: z.number(),
  failures: z.number(),
  mismatches: z.number(),
  match: z.string().optional(),
  /** Tokens the step's answers reported, and their cost in US dollars. */
  tokens: z.number().optional(),
  costUsd: z.number().optional(),
});

export const CoverageSchema = z.looseObject({
  scenario: z.string(),
  version: z.string(),
  /** Sessions looked at. */
  sessions: z.number(),
  steps: z.array(CoverageEntrySchema),
  /** Per `mcp.calls` entry; absent when the scenario scripts none. */
  mcpCalls: z.array(CoverageEntrySchema).optional(),
  /** Tokens and cost per session. */
  usage: z.array(UsageFiguresSchema.extend({ session: z.string() })).optional(),
});
export type Coverage = z.output<typeof CoverageSchema>;

/** The server's error body: `{ error: { message, issues? } }`. */
export const AdminErrorBodySchema = z.looseObject({
  error: z.union([
    z.string(),
    z.looseObject({
      message: z.string().optional(),
      /** `session_not_run`: a session read of a session no request reached (contract section 10). */
      code: z.string().optional(),
      issues: z.array(z.looseObject({ path: z.string(), message: z.string() })).optional(),
    }),
  ]),
});
