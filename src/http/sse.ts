/**
 * SSE encoding and the paced writer. Pacing runs on an absolute schedule measured from `startAt` (the request's
 * arrival, so processing time does not add to the time to first token), so delays never accumulate drift; a
 * client disconnect stops the writer and its timers.
 */
import type { Pacing } from "../canonical/outcome";
import { encodeMessage, type EventHeaders } from "./eventstream";
import { seededRandom } from "../util/hash";
import { concatBytes } from "../util/bytes";
import { eventStream, LazyEvent, STREAM_CHUNK_BYTES, WHOLE_BODY_LIMIT, type ByteSource } from "./byte-source";

/** One server-sent event. `words` is how much content it carries, for tokensPerSecond pacing. */
export interface SseEvent {
  event?: string;
  data: string;
  /** Words of generated content in this event (0 or absent: framing, not paced by tokensPerSecond). */
  words?: number;
  /** AWS event streams only: sent as an exception message (`:exception-type` = `event`), not an event. */
  exception?: true;
  /** `data` is known to hold no newline (serialised JSON): the SSE encoder need not look for one. */
  readonly oneLine?: boolean;
}

const encoder = new TextEncoder();

/** One SSE event as wire text, always terminated by a blank line. */
export function encodeEvent(e: SseEvent): string {
  const name = e.event !== undefined ? `event: ${e.event}\n` : "";
  // JSON payloads hold no raw newline: one `data:` line, without splitting.
  if (e.oneLine === true || !e.data.includes("\n")) return `${name}data: ${e.data}\n\n`;
  return `${name}${e.data
    .split("\n")
    .map((l) => `data: ${l}`)
    .join("\n")}\n\n`;
}

/** One event as a line of newline-delimited JSON (Ollama's stream format); the event name is not sent. */
export function encodeNdjson(e: SseEvent): string {
  return `${e.data}\n`;
}

/**
 * One event as an AWS event stream message (Bedrock's `application/vnd.amazon.eventstream`): `:event-type` is the
 * event name and the payload its JSON; an `exception` event goes out as `:message-type: exception` with
 * `:exception-type` instead. Headers in the order the service sends them.
 */
export function encodeAwsEvent(e: SseEvent): Uint8Array {
  const name = e.event ?? "message";
  const headers: EventHeaders = e.exception
    ? { ":message-type": "exception", ":exception-type": name, ":content-type": "application/json" }
    : { ":event-type": name, ":content-type": "application/json", ":message-type": "event" };
  return encodeMessage(headers, e.data);
}

/** A streamed body's two ends: the readable goes in the Response, the writable is written on schedule. */
export interface BodyPipe {
  readable: ReadableStream<Uint8Array>;
  writable: WritableStream<Uint8Array>;
}

/**
 * The runtime's pipe (RequestContext.bodyPipe) or, without one, a web TransformStream whose readable high-water mark
 * of 0 makes `writer.ready` wait until the runtime has pulled each chunk.
 */
function bodyPipe(make?: () => BodyPipe): BodyPipe {
  return make?.() ?? new TransformStream<Uint8Array, Uint8Array>(undefined, undefined, { highWaterMark: 0 });
}

/** How each stream format writes an event: text, or bytes for a binary framing. */
export const STREAM_ENCODERS: Record<"sse" | "ndjson" | "eventstream", (e: SseEvent) => string | Uint8Array> = {
  sse: encodeEvent,
  ndjson: encodeNdjson,
  eventstream: encodeAwsEvent,
};
export type StreamFormat = keyof typeof STREAM_ENCODERS;

function toBytes(chunk: string | Uint8Array): Uint8Array {
  return typeof chunk === "string" ? encoder.encode(chunk) : chunk;
}

/** Chunks written back to back: one string when all are text, else one byte array. */
function joinChunks(chunks: (string | Uint8Array)[]): string | Uint8Array {
  if (chunks.every((c) => typeof c === "string")) return chunks.join("");
  const parts = chunks.map(toBytes);
  return concatBytes(parts);
}

/** Offsets in ms from stream start at which each event is due. */
export function schedule(events: SseEvent[], pacing: Pacing): number[] {
  const jitter = seededRandom(pacing.seed);
  let t = 0;
  let started = false;
  return events.map((e) => {
    const words = e.words ?? 0;
    if (words > 0) {
      if (!started) {
        t += pacing.ttftMs;
        started = true;
      } else {
        t += pacing.chunkDelayMs;
      }
      if (pacing.tokensPerSecond > 0) t += (words * 1000) / pacing.tokensPerSecond;
      if (pacing.jitterMs > 0) t += jitter() * pacing.jitterMs;
    }
    return t;
  });
}

/** Resolves after `ms`, or at once when `signal` aborts; never rejects. One sleep of a `Pauses`. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (ms <= 0 || signal?.aborted) return Promise.resolve();
  const pauses = new Pauses(signal);
  return pauses.sleep(ms).finally(() => pauses.close());
}

/**
 * The sleeps of one paced writer, all cut short when `signal` aborts (the client went away), with one abort listener
 * for the whole writer: a listener added and removed per sleep cost ~19 µs an event on a request's signal in workerd,
 * a sixth of a 100-event paced stream's CPU there. One sleep at a time; `close` when the writer ends.
 * @example const pauses = new Pauses(signal); await pauses.sleep(20); if (pauses.aborted) return;
 */
export class Pauses {
  #aborted: boolean;
  #wake: (() => void) | undefined;
  readonly #signal: AbortSignal | undefined;
  readonly #onAbort = (): void => {
    this.#aborted = true;
    this.#wake?.();
  };

  constructor(signal?: AbortSignal) {
    this.#aborted = signal?.aborted === true;
    this.#signal = this.#aborted ? undefined : signal;
    this.#signal?.addEventListener("abort", this.#onAbort, { once: true });
  }

  /** The signal has aborted. */
  get aborted(): boolean {
    return this.#aborted;
  }

  /** Resolves after `ms`, or as soon as the signal aborts. */
  sleep(ms: number): Promise<void> {
    if (ms <= 0 || this.#aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.#wake = undefined;
        resolve();
      }, ms);
      // Woken early: the timer is cleared only then (a clearTimeout per event is ~3 µs in workerd).
      this.#wake = () => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve();
      };
    });
  }

  /** Stops listening to the signal. */
  close(): void {
    this.#signal?.removeEventListener("abort", this.#onAbort);
  }
}

/**
 * A body written from `waitUntil` through the runtime's pipe (`pipe`, see RequestContext.bodyPipe): `write` gets the
 * pipe's writer and the stream's `Pauses` on `signal`, and ends the body itself (close, or a scripted break). When it
 * throws — the client went away, a write failed — the body is aborted; the signal is let go either way. Every body
 * written on a schedule is made here (paced events, recorded frames, MCP progress, a broken JSON body).
 */
export function writtenBody(
  waitUntil: (p: Promise<unknown>) => void,
  pipe: (() => BodyPipe) | undefined,
  signal: AbortSignal | undefined,
  write: (writer: WritableStreamDefaultWriter<Uint8Array>, pauses: Pauses) => Promise<void>,
): ReadableStream<Uint8Array> {
  const { readable, writable } = bodyPipe(pipe);
  const writer = writable.getWriter();
  const pauses = new Pauses(signal);
  waitUntil(
    write(writer, pauses)
      .catch(() => writer.abort().then(aborted, aborted))
      .finally(() => pauses.close()),
  );
  return readable;
}

/** What the `waitUntil` promise of a body written later resolves to when the body was cut short (the client went away). */
export const BODY_ABORTED = "aborted";
const aborted = (): typeof BODY_ABORTED => BODY_ABORTED;

/** Time given to queued bytes to reach the socket before a scripted break. */
export const BREAK_FLUSH_MS = 25;

/** How a paced stream ends after its events. */
export type StreamEnd =
  | { kind: "close" }
  /** The connection breaks: the body errors without a clean end. */
  | { kind: "break" }
  /** Raw text (or bytes) written last (a malformed line or frame), then close. */
  | { kind: "raw"; text: string | Uint8Array };

export interface PacedStreamOptions {
  events: SseEvent[];
  /** Wire format of each event; default server-sent events. */
  format?: StreamFormat;
  pacing: Pacing;
  end: StreamEnd;
  /** Epoch ms the schedule counts from; default: when the stream is created. */
  startAt?: number;
  /** Stops the writer when the client goes away. A function, read only when a web stream's writer runs. */
  signal?: AbortSignal | (() => AbortSignal | undefined);
  /** Keeps the writer alive after the handler returns (`ctx.waitUntil`). */
  waitUntil: (p: Promise<unknown>) => void;
  /** Breaks the connection for a scripted break, where the runtime offers it (else the body errors). */
  breakConnection?: () => void;
  /** The runtime's pipe for the body (RequestContext.bodyPipe); default a web TransformStream. */
  pipe?: () => BodyPipe;
  /**
   * The runtime plays paced streams itself (Node, see RequestContext.playsPlans): a paced stream is returned as its
   * plan (`PlannedBody`) — no web stream, no writer, no timer per event.
   */
  plays?: boolean;
}

/** A paced stream returned as data, for a runtime that plays plans itself (RequestContext.playsPlans). */
export class PlannedBody {
  constructor(readonly plan: PacedPlan) {}
}

/** A paced stream as data: what to write and when, for a runtime that schedules the writes itself. */
export interface PacedPlan {
  events: readonly SseEvent[];
  /** Wire text of one event. */
  encode: (e: SseEvent) => string | Uint8Array;
  /** Offset in ms from `startAt` at which each event is due (non-decreasing). */
  due: readonly number[];
  /** Epoch ms the schedule counts from. */
  startAt: number;
  end: StreamEnd;
  /** Told once when the stream is over: `true` when the client went away before its end (src/turn/otel.ts). */
  ended?: (aborted: boolean) => void;
}

/**
 * Ends a body with a scripted break: once the runtime has taken what was written (`writer.ready`), BREAK_FLUSH_MS for
 * it to reach the client — aborting at once would discard events still queued — then the connection breaks, through
 * the runtime when it can, else by erroring the body.
 */
export async function breakAfterFlush(writer: WritableStreamDefaultWriter<Uint8Array>, breakConnection: (() => void) | undefined): Promise<void> {
  await writer.ready;
  await sleep(BREAK_FLUSH_MS);
  if (breakConnection) {
    breakConnection();
    await writer.abort().catch(() => {});
    return;
  }
  await writer.abort(new Error("mockllm: scripted network_error"));
}

/**
 * The body of a stream: a readable that writes `events` on their schedule (the writer never awaits before the Response
 * is returned, so the handler cannot deadlock); or, when nothing is paced and the stream ends cleanly, the whole
 * transcript as one string — the same bytes without a writer, a timer or a write per event — up to WHOLE_BODY_LIMIT,
 * past it a readable that encodes the events a batch at a time as the client reads; or, when the runtime
 * plays paced streams itself (`plays`), the plan as a value (`PlannedBody`).
 */
export function pacedStream(opts: PacedStreamOptions): ReadableStream<Uint8Array> | string | Uint8Array | PlannedBody {
  const encode = STREAM_ENCODERS[opts.format ?? "sse"];
  // No delay of any kind: every event is due at 0, without working the schedule out.
  const due = unpaced(opts.pacing) ? undefined : schedule(opts.events, opts.pacing);
  if (opts.end.kind !== "break" && (due === undefined || due.every((d) => d === 0))) {
    // Events made on demand (an answer too large to hold whole), and a transcript that grows past WHOLE_BODY_LIMIT as
    // it is encoded (a 10 MB message echoed on Responses is a 51 MB stream), are encoded as the client reads, never
    // joined: joining would hold the transcript three times (its events, their text, the joined text) and its bytes.
    const tail = opts.end.kind === "raw" ? opts.end.text : undefined;
    if (opts.events[0] instanceof LazyEvent) return eventStream(opts.events, encode, tail);
    const chunks: (string | Uint8Array)[] = [];
    let size = 0;
    for (const event of opts.events) {
      const wire = encode(event);
      size += wire.length;
      if (size > WHOLE_BODY_LIMIT) return eventStream(opts.events, encode, tail);
      chunks.push(wire);
    }
    if (tail !== undefined) chunks.push(tail);
    return joinChunks(chunks);
  }
  return pacedBody(opts, encode, due ?? schedule(opts.events, opts.pacing));
}

/** Pacing that delays nothing: every event of a stream is due at once. */
function unpaced(p: Pacing): boolean {
  return p.ttftMs === 0 && p.chunkDelayMs === 0 && p.tokensPerSecond === 0 && p.jitterMs === 0;
}

/** A stream with a schedule (or a scripted break): the runtime's own writer, or a web stream written on time. */
function pacedBody(opts: PacedStreamOptions, encode: (e: SseEvent) => string | Uint8Array, due: number[]): ReadableStream<Uint8Array> | PlannedBody {
  if (opts.plays) return new PlannedBody({ events: opts.events, encode, due, startAt: opts.startAt ?? Date.now(), end: opts.end });
  const signal = typeof opts.signal === "function" ? opts.signal() : opts.signal;
  const start = opts.startAt ?? Date.now();
  const events = opts.events;
  return writtenBody(opts.waitUntil, opts.pipe, signal, async (writer, pauses) => {
    for (let i = 0; i < events.length; ) {
      await pauses.sleep((due[i] ?? 0) - (Date.now() - start));
      if (pauses.aborted) throw new Error("client disconnected");
      // Every event due by now goes in one write (a writer that fell behind catches up at once, as Node's does).
      const now = Date.now() - start;
      let end = i + 1;
      while (end < events.length && (due[end] ?? 0) <= now) end++;
      await writer.write(toBytes(end === i + 1 ? encode(events[i]!) : joinChunks(events.slice(i, end).map(encode))));
      i = end;
    }
    if (opts.end.kind === "break") return breakAfterFlush(writer, opts.breakConnection);
    if (opts.end.kind === "raw") await writer.write(toBytes(opts.end.text));
    await writer.close();
  });
}

/** A body that sends `text` (or bytes) and then breaks off without a clean end (JSON network_error). */
export function brokenBody(
  text: string | Uint8Array | { source: ByteSource; end: number },
  waitUntil: (p: Promise<unknown>) => void,
  breakConnection?: () => void,
  pipe?: () => BodyPipe,
): ReadableStream<Uint8Array> {
  return writtenBody(waitUntil, pipe, undefined, async (writer) => {
    if (typeof text === "string" || text instanceof Uint8Array) await writer.write(typeof text === "string" ? encoder.encode(text) : text);
    // A large answer's first part, a chunk at a time (each write waits for the reader).
    else for (let at = 0; at < text.end; at += STREAM_CHUNK_BYTES) await writer.write(text.source.read(at, Math.min(STREAM_CHUNK_BYTES, text.end - at)));
    await breakAfterFlush(writer, breakConnection);
  });
}
