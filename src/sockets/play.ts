/**
 * Plays one turn's outcome on a socket: `latencyMs`, then the messages on the same absolute pacing schedule as an SSE
 * stream (src/http/sse.ts `schedule`), and scripted failures as the protocol's error (an in-band event or a close).
 */
import type { Outcome, Reply } from "../canonical/outcome";
import type { ApiError } from "../http/errors";
import { BREAK_FLUSH_MS, Pauses, schedule, sleep } from "../http/sse";
import type { SseEvent } from "../providers/types";
import { FAILURE_MESSAGES, MALFORMED_JSON } from "../turn/render";
import type { Failure } from "../scenario/schema";
import { filteredReply } from "../canonical/safety";
import type { SocketSink } from "./types";

/** What a protocol sends for an error: messages, then (optionally) a close. */
export interface SocketError {
  messages: string[];
  close?: { code: number; reason: string };
}

/** How one protocol renders a turn. Events are `SseEvent`s whose `data` is one whole WebSocket text message. */
export interface TurnRenderer {
  /** Every message of the turn, in order, with the words each carries (for tokensPerSecond). */
  events(reply: Reply): SseEvent[];
  /** A refused turn (mismatch, scripted rate limit, …). */
  error(error: ApiError): SocketError;
  /** What follows the messages already sent when a `stream_error` cuts the turn. */
  streamError(failure: Extract<Failure, { kind: "stream_error" }>, reply: Reply, sent: SseEvent[]): SseEvent[];
  /** A close after a `stream_error`'s messages, for protocols that report errors by closing (Gemini Live). */
  streamErrorClose?(failure: Extract<Failure, { kind: "stream_error" }>): { code: number; reason: string };
  /** The real API's wording of scripted failures without a message (default: OpenAI's). */
  failureMessages?: Partial<typeof FAILURE_MESSAGES>;
}

export function sendError(sink: SocketSink, error: SocketError): void {
  for (const m of error.messages) sink.send(m);
  if (error.close) sink.close(error.close.code, error.close.reason);
}

/**
 * Sends `events` on their schedule from `startAt`; stops early when `signal` aborts.
 * @returns how many were sent
 */
export async function sendPaced(sink: SocketSink, events: SseEvent[], reply: Reply, startAt: number, signal?: AbortSignal): Promise<number> {
  const due = schedule(events, reply.pacing);
  const pauses = new Pauses(signal);
  try {
    for (let i = 0; i < events.length; i++) {
      await pauses.sleep((due[i] ?? 0) - (Date.now() - startAt));
      if (pauses.aborted) return i;
      sink.send(events[i]!.data);
    }
    return events.length;
  } finally {
    pauses.close();
  }
}

/** The events sent before a mid-turn failure: at most `afterChunks`, never the last. */
function eventsBefore(events: SseEvent[], afterChunks: number | undefined): SseEvent[] {
  return events.slice(0, Math.min(afterChunks ?? 0, Math.max(0, events.length - 1)));
}

/** An `http` failure as a provider-neutral error: its status, and its body as the message. */
function httpError(failure: Extract<Failure, { kind: "http" }>): ApiError {
  const body = failure.body === undefined ? "" : typeof failure.body === "string" ? failure.body : JSON.stringify(failure.body);
  const s = failure.status;
  const code = s === 429 ? "rate_limit" : s === 503 || s === 529 ? "overloaded" : s === 401 ? "authentication" : s === 404 ? "not_found" : s < 500 ? "invalid_request" : "model_error";
  return { code, status: s, message: body || `HTTP ${s}` };
}

export interface PlayOptions {
  /** Epoch ms the client's message arrived: latency and pacing count from here. */
  arrivedAt: number;
  signal?: AbortSignal;
}

/**
 * Sends one outcome. Resolves when the last message is sent (or the turn was cancelled through `signal`).
 * @example await playOutcome(turn.outcome, renderer, sink, { arrivedAt })
 */
export async function playOutcome(outcome: Outcome, r: TurnRenderer, sink: SocketSink, opts: PlayOptions): Promise<void> {
  if (outcome.kind === "mismatch") return sendError(sink, r.error({ code: "mismatch", message: outcome.message }));
  const reply = outcome.reply;
  const startAt = opts.arrivedAt + reply.latencyMs;
  await sleep(startAt - Date.now(), opts.signal);
  if (opts.signal?.aborted) return;
  if (outcome.kind === "reply") {
    await sendPaced(sink, r.events(reply), reply, startAt, opts.signal);
    return;
  }
  const failure = outcome.failure;
  switch (failure.kind) {
    case "rate_limit":
    case "overloaded":
    case "model_error": {
      const message = failure.message ?? r.failureMessages?.[failure.kind] ?? FAILURE_MESSAGES[failure.kind];
      return sendError(sink, r.error({ code: failure.kind, message, ...(failure.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {}) }));
    }
    case "http":
      return sendError(sink, r.error(httpError(failure)));
    case "timeout": {
      await sleep(failure.delayMs ?? 600_000, opts.signal);
      if (opts.signal?.aborted) return;
      await sendPaced(sink, r.events(reply), reply, Date.now(), opts.signal);
      return;
    }
    case "network_error": {
      await sendPaced(sink, eventsBefore(r.events(reply), failure.afterChunks), reply, startAt, opts.signal);
      await sleep(BREAK_FLUSH_MS);
      sink.terminate();
      return;
    }
    case "invalid_response": {
      await sendPaced(sink, eventsBefore(r.events(reply), failure.afterChunks), reply, startAt, opts.signal);
      if (!opts.signal?.aborted) sink.send(MALFORMED_JSON);
      return;
    }
    case "stream_error": {
      const sent = eventsBefore(r.events(reply), failure.afterChunks);
      await sendPaced(sink, sent.concat(r.streamError(failure, reply, sent)), reply, startAt, opts.signal);
      const close = r.streamErrorClose?.(failure);
      if (close && !opts.signal?.aborted) sink.close(close.code, close.reason);
      return;
    }
    case "content_filter": {
      const filtered = filteredReply(failure, reply);
      await sendPaced(sink, r.events(filtered), filtered, startAt, opts.signal);
      return;
    }
  }
}
