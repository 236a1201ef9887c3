/**
 * Answers too large to hold whole: a body whose size grows with a request field — an hour of speech, a
 * transcript of it as SSE — is produced a slice at a time as the client reads it, so an isolate's memory does not
 * depend on the answer's length. A `ByteSource` reads any slice of the bytes on demand; `byteStream` sends them as
 * a ReadableStream that produces the next chunk only when the runtime pulls it (backpressure: a slow client holds
 * at most a chunk or two). `LazyEvent` is an SSE event whose `data` is made when it is written.
 */
import type { SseEvent } from "./sse";

/** Bytes produced on demand: their length, known up front, and any slice of them. */
export interface ByteSource {
  readonly byteLength: number;
  /** Bytes `[offset, offset + size)`, clamped to `byteLength`; a new array the caller owns. */
  read(offset: number, size: number): Uint8Array;
}

/** Bytes per chunk a `byteStream` enqueues. */
export const STREAM_CHUNK_BYTES = 64 * 1024;

/**
 * Past this size an answer that can be produced lazily is streamed rather than built whole; below it the answer is
 * built and sent as before (the same bytes, with a `content-length`).
 */
export const WHOLE_BODY_LIMIT = 1024 * 1024;

export function isByteSource(body: unknown): body is ByteSource {
  return typeof body === "object" && body !== null && typeof (body as ByteSource).read === "function" && typeof (body as ByteSource).byteLength === "number";
}

/**
 * A stream of the source's first `end` bytes (all by default), read `chunk` bytes at a time on pull.
 * @example new Response(byteStream(source))
 */
export function byteStream(source: ByteSource, end = source.byteLength, chunk = STREAM_CHUNK_BYTES): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= end) {
        controller.close();
        return;
      }
      const size = Math.min(chunk, end - at);
      controller.enqueue(source.read(at, size));
      at += size;
      if (at >= end) controller.close();
    },
  });
}

/**
 * An SSE event whose `data` is made each time it is read (once when written): a transcript of thousands of large
 * events holds none of their text. Any `SseEvent` consumer reads it as a plain event.
 * @example new LazyEvent(() => JSON.stringify({ type: "speech.audio.delta", audio: base64(source.read(i, n)) }))
 */
export class LazyEvent implements SseEvent {
  readonly oneLine = true;
  constructor(private readonly make: () => string) {}

  get data(): string {
    return this.make();
  }
}

/** Encoded events at most this many bytes apart are enqueued together by `eventStream`. */
const EVENT_BATCH_BYTES = 64 * 1024;

/**
 * The events encoded one batch at a time on pull, `tail` (a malformed line) last: the same bytes as joining them,
 * without ever holding more than a batch.
 */
export function eventStream(events: readonly SseEvent[], encode: (e: SseEvent) => string | Uint8Array, tail?: string | Uint8Array): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let i = 0;
  let tailSent = tail === undefined;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const parts: Uint8Array[] = [];
      let size = 0;
      while (i < events.length && size < EVENT_BATCH_BYTES) {
        const wire = encode(events[i++]!);
        const bytes = typeof wire === "string" ? encoder.encode(wire) : wire;
        parts.push(bytes);
        size += bytes.length;
      }
      if (i >= events.length && !tailSent) {
        parts.push(typeof tail === "string" ? encoder.encode(tail) : tail!);
        tailSent = true;
      }
      if (parts.length === 1) controller.enqueue(parts[0]!);
      else if (parts.length > 1) {
        const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
        let at = 0;
        for (const p of parts) {
          out.set(p, at);
          at += p.length;
        }
        controller.enqueue(out);
      }
      if (i >= events.length && tailSent) controller.close();
    },
  });
}

/**
 * Text produced piece by piece (a JSON answer of thousands of vectors): a generator of its pieces, whose length is
 * not known until the end. Streamed by `textStream`; `joinText` builds it whole (a failure that cuts it in half).
 */
export interface TextChunks {
  readonly pieces: () => Iterator<string>;
}

export function isTextChunks(body: unknown): body is TextChunks {
  return typeof body === "object" && body !== null && typeof (body as TextChunks).pieces === "function";
}

/** The pieces encoded and enqueued about STREAM_CHUNK_BYTES at a time, on pull. */
export function textStream(text: TextChunks): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const pieces = text.pieces();
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      let batch = "";
      for (let next = pieces.next(); ; next = pieces.next()) {
        if (next.done) {
          if (batch !== "") controller.enqueue(encoder.encode(batch));
          controller.close();
          return;
        }
        batch += next.value;
        if (batch.length >= STREAM_CHUNK_BYTES) break;
      }
      controller.enqueue(encoder.encode(batch));
    },
  });
}

/** The whole text. */
export function joinText(text: TextChunks): string {
  let out = "";
  const pieces = text.pieces();
  for (let next = pieces.next(); !next.done; next = pieces.next()) out += next.value;
  return out;
}
