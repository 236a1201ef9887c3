/**
 * Outcome → HTTP Response for any surface: latency, scripted failures, pacing and the wire shape.
 */
import type { Outcome, Reply } from "../canonical/outcome";
import type { ApiError } from "../http/errors";
import { brokenBody, encodeAwsEvent, pacedStream, PlannedBody, sleep, type PacedStreamOptions, type StreamEnd } from "../http/sse";
import { PlannedResponse } from "../http/planned";
import type { Failure } from "../scenario/schema";
import type { ProviderSurface, RenderContext, SseEvent } from "../providers/types";
import { resolveSurface, type ResolvedSurface } from "../providers/surface";
import type { Exec } from "../runtime/types";
import type { Awaitable } from "../session/types";
import { execAt } from "./exec";
import { framesResponse } from "./frames";
import { filteredReply } from "../canonical/safety";
import { Response } from "../http/web";
import { byteStream, isByteSource, isTextChunks, joinText, textStream, type ByteSource, type TextChunks } from "../http/byte-source";

/** Default failure timeout: the official SDKs' own default request timeout. */
export const DEFAULT_TIMEOUT_DELAY_MS = 600_000;

const JSON_TYPE = "application/json";
const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});
const STREAM_HEADERS = {
  sse: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache" },
  ndjson: { "content-type": "application/x-ndjson", "cache-control": "no-cache" },
  eventstream: { "content-type": "application/vnd.amazon.eventstream" },
} as const;

/** A request id in the surface's own format (Anthropic's `req_011C…`, else `req_…` hex). */
export function surfaceRequestId<W>(surface: ProviderSurface<W>, seed: string): string {
  return resolveSurface(surface).requestId(seed);
}

export function errorResponse<W>(surface: ProviderSurface<W>, error: ApiError, requestId: string, extraHeaders: Record<string, string> = {}): Response {
  const rendered = surface.renderError(error, requestId);
  return new Response(JSON.stringify(rendered.body), {
    status: rendered.status,
    headers: { "content-type": JSON_TYPE, [surface.requestIdHeader]: requestId, ...rendered.headers, ...extraHeaders },
  });
}

/** `retry-after-ms`, `retry-after` (whole seconds, rounded up), `x-should-retry`, then the failure's own headers. */
export function failureRetryHeaders(failure: Failure): Record<string, string> {
  const ms = failure.retryAfterMs ?? 0;
  return { "retry-after-ms": String(ms), "retry-after": String(Math.ceil(ms / 1000)), ...shouldRetry(failure) };
}

/**
 * `x-should-retry` when the script sets `retryable`. Also on the 200 a failure breaks or leaves unfinished: since
 * `@anthropic-ai/sdk` 1.17 a JSON body cut off is sent again unless its answer says `x-should-retry: false`.
 */
function shouldRetry(failure: Failure): Record<string, string> {
  return failure.retryable !== undefined ? { "x-should-retry": String(failure.retryable) } : {};
}

/** The broken JSON an `invalid_response` answer ends with (also sent as a WebSocket message). */
export const MALFORMED_JSON = `{"mockllm": "invalid_response", "choices": [`;

/**
 * The line an `invalid_response` stream ends with: JSON cut short, in the surface's stream format (for an AWS event
 * stream, a message whose payload is cut short and whose message CRC is wrong).
 */
function malformedLine<W>(surface: ResolvedSurface<W>): string | Uint8Array {
  const broken = MALFORMED_JSON;
  if (surface.streamFormat === "ndjson") return `${broken}\n`;
  if (surface.streamFormat === "eventstream") {
    const frame = encodeAwsEvent({ event: surface.malformedEventName ?? "chunk", data: broken });
    frame[frame.length - 1] = (frame[frame.length - 1]! + 1) & 0xff;
    return frame;
  }
  const name = surface.malformedEventName !== undefined ? `event: ${surface.malformedEventName}\n` : "";
  return `${name}data: ${broken}\n\n`;
}

export { FAILURE_MESSAGES } from "../providers/surface";

function baseHeaders<W>(surface: ResolvedSurface<W>, ctx: RenderContext<W>, reply: Reply, extra: Record<string, string>) {
  return { [surface.requestIdHeader]: ctx.requestId, ...surface.responseHeaders(ctx), ...extra, ...reply.headers };
}

function streamResponse<W>(surface: ResolvedSurface<W>, events: SseEvent[], reply: Reply, ctx: RenderContext<W>, end: StreamEnd, exec: Exec, extra: Record<string, string>): Response {
  const format = surface.streamFormat;
  const opts: PacedStreamOptions = { events, format, pacing: reply.pacing, end, waitUntil: exec.waitUntil, signal: () => exec.signal };
  if (exec.arrivedAt !== undefined) opts.startAt = exec.arrivedAt;
  if (exec.breakConnection) opts.breakConnection = exec.breakConnection;
  if (exec.playsPlans) opts.plays = true;
  const pipe = exec.bodyPipe;
  if (pipe) opts.pipe = pipe;
  const body = pacedStream(opts);
  const own = surface.streamContentType !== undefined ? { "content-type": surface.streamContentType } : NO_HEADERS;
  const init = { status: 200, headers: { ...STREAM_HEADERS[format], ...own, ...baseHeaders(surface, ctx, reply, extra) } };
  return body instanceof PlannedBody ? new PlannedResponse(body.plan, init) : new Response(body, init);
}

/** The non-streaming body as sent: the surface's raw body (audio, plain text) when it has one, else the JSON. */
function wholeBody<W>(surface: ResolvedSurface<W>, reply: Reply, ctx: RenderContext<W>): { body: Uint8Array | string | ByteSource | TextChunks; type: string } {
  const raw = surface.renderRaw(reply, ctx);
  return raw ? { body: raw.body, type: raw.contentType } : { body: JSON.stringify(surface.renderJson(reply, ctx)), type: JSON_TYPE };
}

/** A body as a Response takes it: a large answer's source as a stream produced on pull (http/byte-source.ts). */
function sent(body: Uint8Array | string | ByteSource | TextChunks): Uint8Array | string | ReadableStream<Uint8Array> {
  return isByteSource(body) ? byteStream(body) : isTextChunks(body) ? textStream(body) : body;
}

/** The first half of a body (what a broken or malformed answer sends). */
function halfBody(body: Uint8Array | string | ByteSource | TextChunks): string | Uint8Array | ReadableStream<Uint8Array> {
  if (isByteSource(body)) return byteStream(body, Math.floor(body.byteLength / 2));
  const whole = isTextChunks(body) ? joinText(body) : body;
  return whole.slice(0, Math.floor(whole.length / 2));
}

/** The first half of a body, for a body that breaks off after it. */
function brokenHalf(body: Uint8Array | string | ByteSource | TextChunks): string | Uint8Array | { source: ByteSource; end: number } {
  if (isByteSource(body)) return { source: body, end: Math.floor(body.byteLength / 2) };
  const whole = isTextChunks(body) ? joinText(body) : body;
  return whole.slice(0, Math.floor(whole.length / 2));
}

/** A successful answer, JSON or SSE as the request asked. */
export function replyResponse<W>(declared: ProviderSurface<W>, reply: Reply, ctx: RenderContext<W>, exec: Exec, extra: Record<string, string> = {}): Response {
  const surface = resolveSurface(declared);
  if (ctx.request.stream) {
    return streamResponse(surface, surface.renderEvents(reply, ctx), reply, ctx, { kind: "close" }, exec, extra);
  }
  const whole = wholeBody(surface, reply, ctx);
  return new Response(sent(whole.body), { status: 200, headers: { "content-type": whole.type, ...baseHeaders(surface, ctx, reply, extra) } });
}

/** The events sent before a mid-stream failure: at most `afterChunks`, never the terminator. */
function eventsBefore(events: SseEvent[], afterChunks: number | undefined): SseEvent[] {
  const body = events.filter((e) => e.data !== "[DONE]");
  return body.slice(0, Math.min(afterChunks ?? 0, Math.max(0, body.length - 1)));
}

function failureResponse<W>(
  surface: ResolvedSurface<W>,
  failure: Failure,
  reply: Reply,
  ctx: RenderContext<W>,
  exec: Exec,
  extra: Record<string, string>,
  limited?: "requestsPerMinute" | "tokensPerMinute",
): Promise<Response> | Response {
  if (limited !== undefined) return limitedResponse(surface, failure, ctx, extra, limited);
  const retry = { ...failureRetryHeaders(failure), ...extra, ...failure.headers };
  const own = surface.failureHeaders(failure);
  // What an answer the failure breaks, cuts off, delays or filters carries besides the answer's own headers.
  const answerHeaders = { ...extra, ...shouldRetry(failure), ...failure.headers };
  switch (failure.kind) {
    case "rate_limit":
    case "overloaded":
    case "model_error":
      return errorResponse(
        surface,
        {
          code: failure.kind,
          message: failure.message ?? surface.failureMessage(failure.kind, failure, ctx),
          ...(failure.retryAfterMs !== undefined ? { retryAfterMs: failure.retryAfterMs } : {}),
        },
        ctx.requestId,
        { ...own, ...retry },
      );
    case "http": {
      const body = failure.body === undefined ? "" : typeof failure.body === "string" ? failure.body : JSON.stringify(failure.body);
      const type = typeof failure.body === "string" ? "text/plain; charset=utf-8" : JSON_TYPE;
      return new Response(body, {
        status: failure.status,
        headers: { "content-type": type, [surface.requestIdHeader]: ctx.requestId, ...surface.responseHeaders(ctx), ...surface.failureHeaders(failure), ...retry },
      });
    }
    case "timeout":
      return sleep(failure.delayMs ?? DEFAULT_TIMEOUT_DELAY_MS, exec.signal).then(() => replyResponse(surface, reply, ctx, execAt(exec, Date.now()), answerHeaders));
    case "network_error": {
      if (ctx.request.stream) {
        const events = eventsBefore(surface.renderEvents(reply, ctx), failure.afterChunks);
        return streamResponse(surface, events, reply, ctx, { kind: "break" }, exec, answerHeaders);
      }
      const whole = wholeBody(surface, reply, ctx);
      return new Response(brokenBody(brokenHalf(whole.body), exec.waitUntil, exec.breakConnection, exec.bodyPipe), {
        status: 200,
        headers: { "content-type": whole.type, ...baseHeaders(surface, ctx, reply, answerHeaders) },
      });
    }
    case "invalid_response": {
      if (ctx.request.stream) {
        const events = eventsBefore(surface.renderEvents(reply, ctx), failure.afterChunks);
        const malformed = { kind: "raw" as const, text: malformedLine(surface) };
        return streamResponse(surface, events, reply, ctx, malformed, exec, answerHeaders);
      }
      const whole = wholeBody(surface, reply, ctx);
      return new Response(halfBody(whole.body), {
        status: 200,
        headers: { "content-type": whole.type, ...baseHeaders(surface, ctx, reply, answerHeaders) },
      });
    }
    case "stream_error": {
      if (!ctx.request.stream) {
        // Nothing to break mid-stream in a JSON answer: the same error as a server error status.
        return errorResponse(surface, { code: "model_error", message: failure.message ?? surface.failureMessage("model_error", failure, ctx) }, ctx.requestId, retry);
      }
      const sent = eventsBefore(surface.renderEvents(reply, ctx), failure.afterChunks);
      const events = sent.concat(surface.renderStreamError(failure, ctx, reply, sent));
      return streamResponse(surface, events, reply, ctx, { kind: "close" }, exec, answerHeaders);
    }
    case "content_filter": {
      // The provider's own refusal or filtered answer, JSON or stream: a 200 the client reads as the real API's
      // (or, where the provider refuses a blocked prompt with an error, that error).
      const filtered = filteredReply(failure, reply);
      const rendered = filtered.safety ? surface.refusal(filtered.safety, ctx.requestId) : undefined;
      if (rendered) {
        return new Response(JSON.stringify(rendered.body), {
          status: rendered.status,
          headers: { "content-type": JSON_TYPE, [surface.requestIdHeader]: ctx.requestId, ...rendered.headers, ...answerHeaders },
        });
      }
      return replyResponse(surface, filtered, ctx, exec, answerHeaders);
    }
  }
}

/**
 * A `limits` 429 (scenario or namespace): the surface's own quota answer (`renderLimited`) or its rate-limit error,
 * with the headers the real service sends — the buckets that exist (the turn's rate-limit headers in `extra`) and
 * `retry-after` where the surface reports buckets; none of the fixed figures a scripted failure carries.
 */
function limitedResponse<W>(surface: ResolvedSurface<W>, failure: Failure, ctx: RenderContext<W>, extra: Record<string, string>, limit: "requestsPerMinute" | "tokensPerMinute"): Response {
  const retryAfterMs = failure.retryAfterMs ?? 0;
  if (!surface.sendsRateLimitHeaders && surface.renderLimited !== undefined) {
    const r = surface.renderLimited(limit, retryAfterMs, ctx);
    return new Response(JSON.stringify(r.body), {
      status: r.status,
      headers: { "content-type": JSON_TYPE, [surface.requestIdHeader]: ctx.requestId, ...surface.responseHeaders(ctx), ...r.headers, ...extra },
    });
  }
  const retry = surface.sendsRateLimitHeaders ? failureRetryHeaders(failure) : {};
  const error = { code: "rate_limit" as const, message: surface.failureMessage("rate_limit", failure, ctx), retryAfterMs };
  return errorResponse(surface, error, ctx.requestId, { ...retry, ...extra });
}

/** The reply the client will receive in full: a reply, a `timeout` failure's late answer, a `content_filter`'s answer. */
export function deliveredReply(outcome: Outcome): Reply | undefined {
  if (outcome.kind === "reply") return outcome.reply;
  if (outcome.kind === "failure" && outcome.failure.kind === "timeout") return outcome.reply;
  if (outcome.kind === "failure" && outcome.failure.kind === "content_filter") return filteredReply(outcome.failure, outcome.reply);
  return undefined;
}

/**
 * Renders the engine's outcome, honouring `latencyMs` before the first byte.
 * @example return renderOutcome(openaiChat, outcome, ctx, { waitUntil: c.waitUntil.bind(c), signal })
 */
export function renderOutcome<W>(declared: ProviderSurface<W>, outcome: Outcome, ctx: RenderContext<W>, exec: Exec, extra: Record<string, string> = {}): Awaitable<Response> {
  const surface = resolveSurface(declared);
  if (outcome.kind === "mismatch") {
    return errorResponse(surface, { code: "mismatch", message: outcome.message }, ctx.requestId, extra);
  }
  if (outcome.kind === "reply" && outcome.reply.frames) return framesResponse({ ...outcome.reply, frames: outcome.reply.frames }, exec, extra);
  // Headers are due `latencyMs` after arrival; the stream's schedule (ttftMs, …) counts from then. An answer due now is
  // made at once, not through a promise.
  const headersAt = (exec.arrivedAt ?? Date.now()) + outcome.reply.latencyMs;
  const wait = headersAt - Date.now();
  const answer = (): Awaitable<Response> => {
    const paced = execAt(exec, headersAt);
    if (outcome.kind === "reply") return replyResponse(surface, outcome.reply, ctx, paced, extra);
    return failureResponse(surface, outcome.failure, outcome.reply, ctx, paced, extra, outcome.limited);
  };
  return wait > 0 ? sleep(wait, exec.signal).then(answer) : answer();
}
