/**
 * An SSE body fed by polling stored state (a managed-agents session's events, on either provider): each pull reads
 * the source — soon after a change, then every POLL_MAX_MS while nothing happens — and sends what is new; a
 * keep-alive after a quiet spell; the end when the source says so, is gone, or has been quiet too long. The client's
 * disconnect stops the polling. Nothing of one request is kept for another: each stream owns its reads.
 */
import { sleep } from "./sse";

/** The stream's reads: soon after a change, then every POLL_MAX_MS while nothing happens. */
const POLL_MIN_MS = 5;
const POLL_MAX_MS = 100;

/** What one read of the source found. */
export type PolledRead =
  /** Nothing new. */
  | undefined
  /** Text to send; `last` ends the stream after it. */
  | { text: string; last?: boolean };

export interface PolledSource {
  read(): Promise<PolledRead>;
  /** What a quiet stream sends every `keepAliveMs`. */
  keepAlive: string;
  keepAliveMs: number;
  /** How long a stream stays open with nothing to send. */
  idleMs: number;
}

const encoder = new TextEncoder();

/**
 * The body of a stream that polls `source` until it ends.
 * @example new Response(polledStream({ read, keepAlive: ": keep-alive\n\n", keepAliveMs: 15_000, idleMs: 600_000 }))
 */
export function polledStream(source: PolledSource): ReadableStream<Uint8Array> {
  let closed = false;
  let lastActivity = Date.now();
  let lastWrite = lastActivity;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const close = () => {
        closed = true;
        controller.close();
      };
      for (let wait = POLL_MIN_MS; !closed; wait = Math.min(wait * 2, POLL_MAX_MS)) {
        const got = await source.read();
        if (closed) return;
        if (got !== undefined) {
          lastActivity = lastWrite = Date.now();
          if (got.text !== "") controller.enqueue(encoder.encode(got.text));
          if (got.last === true) close();
          return;
        }
        const t = Date.now();
        if (t - lastActivity >= source.idleMs) return close();
        if (t - lastWrite >= source.keepAliveMs) {
          lastWrite = t;
          controller.enqueue(encoder.encode(source.keepAlive));
          return;
        }
        await sleep(wait);
      }
    },
    cancel() {
      closed = true;
    },
  });
}

/**
 * What a stream has read but must not send yet (the script's latency and pacing), oldest first: each item leaves
 * when its time comes, never before one read earlier.
 * @example queue.push(text, due); const now = queue.takeDue(); // the texts due by now
 */
export class DueQueue<T> {
  readonly #items: { item: T; due: number }[] = [];

  get size(): number {
    return this.#items.length;
  }

  push(item: T, due: number): void {
    this.#items.push({ item, due });
  }

  /** The items due by `now`, in order, taken off the queue. */
  takeDue(now = Date.now()): T[] {
    let n = 0;
    while (n < this.#items.length && this.#items[n]!.due <= now) n++;
    return this.#items.splice(0, n).map((x) => x.item);
  }
}
