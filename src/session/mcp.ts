/**
 * The session's MCP server state (contract section 9): the `mcp.calls` entries consumed, attempts per entry, and
 * the MCP sessions (`Mcp-Session-Id`) opened by `initialize`, kept beside the model's steps in the same session, so
 * one journal holds both sides. Runtime-free; each runtime implements `McpStorage` (SQLite in the Durable Object,
 * memory on Node). The protocol decisions are pure (src/mcp/server.ts).
 */
import type { McpCallState } from "../mcp/calls";
import type { RpcMessage, RpcResponse } from "../mcp/protocol";
import { answer } from "../mcp/server";
import { mcpCallId, type McpCall, type McpError, type McpToolResult } from "../scenario/mcp-schema";
import type { Scenario } from "../scenario/schema";
import { journaledWire, type JournaledInput } from "./caller";
import type { CanonicalView } from "./canonical-view";
import type { JournalDraft, NeedsDocument, NextInput, SessionView, Snapshot } from "./core";

/** Most MCP sessions one session keeps open; opening another closes the oldest. */
export const MCP_SESSION_LIMIT = 100;

export interface McpStorage {
  state(): McpCallState;
  bumpAttempt(index: number): void;
  markUsed(index: number): void;
  /** Notes an open MCP session, keeping the newest `limit`. */
  open(id: string, limit: number): void;
  isOpen(id: string): boolean;
  /** False when `id` was not open. */
  close(id: string): boolean;
  clear(): void;
}

/**
 * The journal's view of a `tools/call`: the model view's fields (so tools reading `answered` keep working: the
 * result's text, nothing for an error) plus the call's `tool`, `arguments`, `result` and `error`.
 */
export interface McpCanonicalView extends CanonicalView {
  tool: string;
  arguments: Record<string, unknown>;
  /** The tool result answered; null when an error was. */
  result: McpToolResult | null;
  /** The JSON-RPC error answered (scripted, or the mismatch); null when a result was. */
  error: McpError | null;
}

/** One JSON-RPC message for the session's MCP server. */
export interface McpInput extends JournaledInput {
  scenario: string;
  session: string;
  version: string;
  /** As for `next`: only when the session answered `{ needsDocument: true }`. */
  document?: Scenario;
  /** The `Mcp-Session-Id` header; null when absent (accepted: a client that keeps no session). */
  mcpSession: string | null;
  /** The id an `initialize` opens (the route draws it at random, so ids never repeat, also across resets). */
  newMcpSession: string;
  message: RpcMessage;
}

export type McpResult =
  /** The `Mcp-Session-Id` is not (or no longer) open: HTTP 404, so the client initialises again. */
  | { kind: "unknown-session" }
  | {
      kind: "answer";
      /** Null for a notification. */
      response: RpcResponse | null;
      responseMode: "json" | "sse";
      /** `initialize`: the Mcp-Session-Id assigned. */
      mcpSession?: string;
      delayMs: number;
      progress?: { token: string | number; steps: NonNullable<McpCall["progress"]> };
      /** `tools/call`: its journal seq, the entry that answered (or was nearest), the outcome journaled. */
      journal?: { seq: number; step: string | null; outcome: "response" | "failure" | "mismatch" };
      version: string;
    };

export interface McpDeps {
  snapshot(input: Pick<NextInput, "version" | "document">): Snapshot | undefined;
  journal(entry: JournalDraft): number;
}

/**
 * Answers one message: checks the MCP session, decides with the pure server, applies the change, journals a
 * `tools/call`.
 * @example mcpRequest(storage, { snapshot: (i) => core.snapshot(i), journal: (e) => core.journalEntry(e) }, input)
 */
export function mcpRequest(storage: McpStorage, deps: McpDeps, input: McpInput, now = Date.now()): McpResult | NeedsDocument {
  const snap = deps.snapshot(input);
  if (!snap) return { needsDocument: true };
  const initializing = input.message.method === "initialize";
  if (!initializing && input.mcpSession !== null && !storage.isOpen(input.mcpSession)) return { kind: "unknown-session" };
  const ctx = { scenario: input.scenario, session: input.session, version: snap.version };
  const decision = answer(snap.document, storage.state(), input.message, ctx);
  const responseMode = snap.document.mcp?.responseMode ?? "json";
  const base = { kind: "answer" as const, response: decision.response, responseMode, delayMs: decision.delayMs, version: snap.version };

  if (decision.open) {
    storage.open(input.newMcpSession, MCP_SESSION_LIMIT);
    return { ...base, mcpSession: input.newMcpSession };
  }
  if (!decision.call) return base;

  const { toolCall, decision: d } = decision.call;
  if (d.kind === "answer") {
    storage.bumpAttempt(d.index);
    if (d.consume !== undefined) storage.markUsed(d.consume);
  }
  const outcome = d.kind === "mismatch" ? "mismatch" : d.failure ? "failure" : "response";
  const step = d.kind === "mismatch" ? (d.nearest ?? null) : d.id;
  const reasons = d.kind === "mismatch" ? d.reasons : d.failure ? [`attempt ${d.attempt}: scripted error ${d.error?.code ?? ""}`.trim()] : [];
  const seq = deps.journal({
    at: new Date(now).toISOString(),
    surface: "mcp",
    provider: "mcp",
    endpoint: "tools/call",
    stream: responseMode === "sse",
    turn: 0,
    step,
    outcome,
    reasons,
    request: journaledWire(input),
    status: 200,
    canonical: mcpCanonical(toolCall, d.kind === "answer" ? (d.result ?? null) : null, d.kind === "mismatch" ? d.error : (d.error ?? null), responseMode),
  });
  return {
    ...base,
    ...(decision.progress ? { progress: decision.progress } : {}),
    journal: { seq, step, outcome },
  };
}

/** The session view's `mcpCalls`: each scripted call with whether it was consumed and its attempts. */
export function mcpCallsView(doc: Scenario | undefined, state: McpCallState): NonNullable<SessionView["mcpCalls"]> {
  return (doc?.mcp?.calls ?? []).map((call, i) => ({
    id: mcpCallId(call, i),
    used: state.used.includes(i),
    attempts: state.attempts[String(i)] ?? 0,
    consume: call.consume !== false,
  }));
}

function mcpCanonical(call: { tool: string; arguments: Record<string, unknown> }, result: McpToolResult | null, error: McpError | null, responseMode: "json" | "sse"): McpCanonicalView {
  const text = (result?.content ?? []).flatMap((c) => (c.type === "text" ? [c.text] : [])).join("\n\n");
  return {
    tools: [],
    toolResults: [],
    lastUserMessage: null,
    answered: result ? { text: text === "" ? null : text, toolCalls: [] } : null,
    model: "",
    stream: responseMode === "sse",
    usage: null,
    tool: call.tool,
    arguments: call.arguments,
    result,
    error,
  };
}
