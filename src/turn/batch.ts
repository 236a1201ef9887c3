/**
 * One batch line as a live call (contract section 11): the surface's `parse`, scenario selection, `Session.next()` (or
 * the default responder), then the JSON the call would have answered — through the same `decideTurn` and renderers
 * as `handleProvider`, without latency or pacing (a batch line has no connection to wait on or break). The session
 * journals the line with its batch and `custom_id`; its `customId` is on the canonical request for the matcher.
 */
import type { Outcome, Pacing } from "../canonical/outcome";
import { journalBody, journalsWhole, redactHeaders } from "../http/body";
import type { ApiError } from "../http/errors";
import type { ProviderSurface } from "../providers/types";
import { resolveSurface } from "../providers/surface";
import type { Runtime } from "../runtime/types";
import type { BatchRef } from "../session/core";
import { deliveredReply, errorResponse, renderOutcome, surfaceRequestId } from "./render";
import type { Exec } from "../runtime/types";
import type { Prefix } from "./select";
import { decideTurn, uniqueSeed } from "./turn";
import { schedule } from "../http/sse";
import { fillMcpResults, needsMcpResults, type McpClientOptions } from "./mcp-client";

/** What one line answered: the status, the request id and the JSON body a live call would have got. */
export interface LineAnswer {
  status: number;
  requestId: string;
  body: unknown;
  /** The delivered reply's latency and stream pacing (a batch plays neither; an agent session's stream does). */
  paced?: { latencyMs: number; pacing: Pacing };
}

/**
 * When each of a reply's events is due on a stream that plays it (epoch ms): the first after the reply's latency from
 * `start`, then each event carrying words (`words[i]`) by the reply's pacing, as mockllm paces any stream.
 * @example pacedDue(Date.now(), [0, 1, 1, 0], answer.paced) // [t+latency, t+latency+ttft+…, …]
 */
export function pacedDue(start: number, words: readonly number[], paced: NonNullable<LineAnswer["paced"]>): number[] {
  const at = start + paced.latencyMs;
  return schedule(
    words.map((w) => ({ data: "", words: w })),
    paced.pacing,
  ).map((offset) => at + offset);
}

/** Where the batch was created: its prefix and the headers that select scenarios (`x-mock-*`), kept with the batch. */
export interface LineOrigin {
  prefix: Prefix;
  headers: Record<string, string>;
  path: string;
}

const NO_WAIT: Exec = { waitUntil: () => undefined };

/**
 * The outcome as a batch answers it: no latency and no stream; a timeout is the late answer, a broken or malformed
 * answer the server error the batch records for it.
 */
function batchOutcome(outcome: Outcome): Outcome {
  if (outcome.kind === "mismatch") return outcome;
  const reply = { ...outcome.reply, latencyMs: 0 };
  if (outcome.kind === "reply") return { ...outcome, reply };
  const failure = outcome.failure;
  if (failure.kind === "timeout") return { kind: "reply", reply };
  if (failure.kind === "network_error" || failure.kind === "invalid_response" || failure.kind === "stream_error") {
    return { ...outcome, reply, failure: { kind: "model_error", ...(failure.message !== undefined ? { message: failure.message } : {}) } };
  }
  return { ...outcome, reply };
}

async function answerOf(res: Response, requestIdHeader: string): Promise<LineAnswer> {
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // a scripted `http` failure's text body stays text
  }
  return { status: res.status, requestId: res.headers.get(requestIdHeader) ?? "", body };
}

/**
 * The `/s/{scenario}[/{session}]` prefix of a request whose path below the prefix is `path` (what a batch's lines
 * run under), and the URL up to it (Anthropic's `results_url` points back through the same prefix).
 * @example requestPrefix(new Request("http://h/s/demo/run-1/v1/batches"), "/v1/batches") // { prefix: { scenario: "demo", session: "run-1" }, url: "http://h/s/demo/run-1" }
 */
export function requestPrefix(request: Request, path: string): { prefix: LineOrigin["prefix"]; url: string } {
  const url = new URL(request.url);
  const before = url.pathname.endsWith(path) ? url.pathname.slice(0, url.pathname.length - path.length) : "";
  const parts = before.startsWith("/s/")
    ? before
        .slice(3)
        .split("/")
        .filter((s) => s !== "")
    : [];
  const decode = (s: string) => {
    try {
      return decodeURIComponent(s);
    } catch {
      return s;
    }
  };
  const prefix = { ...(parts[0] !== undefined ? { scenario: decode(parts[0]) } : {}), ...(parts[1] !== undefined ? { session: decode(parts[1]) } : {}) };
  return { prefix, url: url.origin + before.replace(/\/$/, "") };
}

/**
 * Runs one line's `body` through `surface` as a live call at `origin` (journaled with its batch and line, when it
 * has one: a managed-agents session's model requests run here too, without).
 * @example await runBatchLine(openaiChat, rt, { model: "gpt-4o", messages }, origin, { id: "batch_1", customId: "a" })
 */
export async function runBatchLine<W>(declared: ProviderSurface<W>, rt: Runtime, body: unknown, origin: LineOrigin, batch?: BatchRef, mcp?: () => McpClientOptions): Promise<LineAnswer> {
  const surface = resolveSurface(declared);
  const headers = new Headers(origin.headers);
  const fail = (error: ApiError) => answerOf(errorResponse(surface, error, surfaceRequestId(surface, uniqueSeed())), surface.requestIdHeader);
  const target = { path: origin.path, query: new URLSearchParams() };
  const first = surface.parse(body, headers, target);
  if (!first.ok) return fail(first.error);
  const request = { ...first.request, stream: false, ...(batch !== undefined ? { customId: batch.customId } : {}) };
  const prepared = await surface.prepare(first.wire, request, rt);
  if (!prepared.ok) return fail(prepared.error);
  const text = JSON.stringify(body);
  const wire = { method: "POST", path: origin.path, headers: redactHeaders(headers), body: journalBody(text, body) };
  const turn = await decideTurn(surface, rt, prepared, {
    prefix: origin.prefix,
    headers,
    wire: () => wire,
    bodyText: text,
    ...(journalsWhole(text) ? { wireText: text } : {}),
    allowProxy: false,
    ...(batch !== undefined ? { batch } : {}),
  });
  if (turn.kind === "error") return fail(turn.error);
  if (turn.kind === "proxy") return fail({ code: "model_error", message: "mockllm: a batch line is never proxied to a recording upstream." });
  // A scripted `mcp` use without its result, for a caller that reaches MCP servers (an agent session): the server answers.
  if (mcp !== undefined && needsMcpResults(surface, turn.outcome)) turn.outcome = await fillMcpResults(surface, turn.outcome, turn.ctx.wire, mcp);
  const delivered = deliveredReply(turn.outcome);
  if (delivered) await surface.remember(delivered, turn.ctx, rt);
  const res = await renderOutcome(surface, batchOutcome(turn.outcome), turn.ctx, NO_WAIT);
  const answer = await answerOf(res, surface.requestIdHeader);
  return delivered === undefined ? answer : { ...answer, paced: { latencyMs: delivered.latencyMs, pacing: delivered.pacing } };
}

/**
 * Most lines one read of a batch runs (`BATCH_LINES_PER_READ`, default 1,000): a bigger batch goes on at the next
 * read, so no request runs an unbounded number of turns (a Worker's subrequests and CPU are per request).
 */
export function linesPerRead(rt: Runtime): number {
  const n = Number(rt.vars.BATCH_LINES_PER_READ ?? "1000");
  return Number.isInteger(n) && n > 0 ? n : 1000;
}

/** The headers a batch keeps from its creation request: those that select a scenario or session (`x-mock-*`). */
export function originHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((v, k) => {
    if (k.startsWith("x-mock-")) out[k] = v;
  });
  return out;
}
