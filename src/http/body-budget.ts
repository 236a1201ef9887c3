/**
 * Large request bodies served at once by one isolate, bounded. A Worker isolate has 128 MB, and a body at the 10 MiB
 * limit takes ~40 MB of heap while it is parsed and answered (+67 MB of workerd RSS, `bench/bounded-answers.mjs
 * --worker`): three at once — from one caller, on a URL many teams share — would take the isolate down, and every
 * other request in it. Past the budget a large body is refused before it is read, with the surface's retryable
 * `overloaded` and `Retry-After: 1` (the SDKs retry it) — a body of unknown length where it passes the budget as it is
 * read; a body alone is always served, and a body under LARGE_BODY_BYTES is never counted. The Worker runtime has one
 * budget per isolate; Node, whose heap is its machine's, none.
 */
import { MAX_BODY_BYTES } from "./body";
import { apiError, type ApiError } from "./errors";
import { header } from "./headers";

/**
 * A body this large or larger is counted: by its declared length before it is read, or — a body of unknown length
 * (chunked; HTTP/2 clients may leave the length out) — as it is read, once this much of it has arrived, a
 * LARGE_BODY_BYTES step at a time.
 */
export const LARGE_BODY_BYTES = 1024 * 1024;

/** Bytes of large bodies one Worker isolate serves at once: two at the body limit. */
export const ISOLATE_BODY_BUDGET = 2 * MAX_BODY_BYTES;

/** Headers of the refusal: retry after a second, as a client's SDK reads it. */
export const BUSY_HEADERS: Readonly<Record<string, string>> = { "retry-after": "1", "retry-after-ms": "1000", "x-should-retry": "true", "x-mockllm-outcome": "error" };

/** A body of unknown length being read: what it holds of the budget, how much of it has arrived, and whether it was refused. */
export interface BodyTicket {
  held: number;
  seen: number;
  refused: boolean;
}

export class BodyBudget {
  #held = 0;

  constructor(readonly limit: number) {}

  /** Bytes of the bodies served now. */
  get held(): number {
    return this.#held;
  }

  /** Whether `bytes` more fit beside what other bodies hold (`own`: what the asking body holds already). */
  #fits(bytes: number, own: number): boolean {
    return this.#held === own || this.#held + bytes <= this.limit;
  }

  /** Takes `bytes` of the budget; false, taking nothing, when other bodies hold some and `bytes` more would pass it. */
  take(bytes: number): boolean {
    if (!this.#fits(bytes, 0)) return false;
    this.#held += bytes;
    return true;
  }

  release(bytes: number): void {
    this.#held = Math.max(0, this.#held - bytes);
  }

  /**
   * The body of unknown length, passed through as it is read: past LARGE_BODY_BYTES the ticket takes the budget a
   * step at a time, and when other bodies leave no room for the next step the body errors there (`ticket.refused`;
   * the router answers the refusal, whatever the route made of the broken body). The caller releases `ticket.held`.
   * @example const ticket = { held: 0, seen: 0, refused: false }; const body = request.body.pipeThrough(budget.counter(ticket))
   */
  counter(ticket: BodyTicket): TransformStream<Uint8Array, Uint8Array> {
    return new TransformStream<Uint8Array, Uint8Array>({
      transform: (chunk, controller) => {
        ticket.seen += chunk.byteLength;
        if (ticket.seen >= LARGE_BODY_BYTES && ticket.seen > ticket.held) {
          const more = Math.ceil((ticket.seen - ticket.held) / LARGE_BODY_BYTES) * LARGE_BODY_BYTES;
          if (!this.#fits(more, ticket.held)) {
            ticket.refused = true;
            controller.error(new Error("mockllm: other large request bodies fill the budget"));
            return;
          }
          this.#held += more;
          ticket.held += more;
        }
        controller.enqueue(chunk);
      },
    });
  }

  /**
   * The refusal of a body of `bytes` that `take` would not fit; with `ticket`, of a body of unknown length read that
   * far (what it holds is not the others').
   */
  refusal(bytes: number, ticket?: BodyTicket): ApiError {
    const mb = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MiB`;
    const yours = ticket ? `yours (its length not declared) was read to ${mb(bytes)} and no further` : `yours (${mb(bytes)}) was not read`;
    return apiError(
      "overloaded",
      `mockllm: this server is answering other large request bodies (${mb(this.#held - (ticket?.held ?? 0))} of the ${mb(this.limit)} it serves at once); ${yours}. Retry in a second.`,
    );
  }
}

/** Whether the request has a body whose length it does not declare. */
export function undeclaredBody(request: Request): boolean {
  return request.body !== null && header(request.headers, "content-length") === undefined;
}

/**
 * The bytes a request's body is counted as: its declared length from LARGE_BODY_BYTES, else 0.
 * @example countedBytes(new Request(url, { method: "POST", body: "{}", headers: { "content-length": "2" } })) // 0
 */
export function countedBytes(request: Request): number {
  const declared = header(request.headers, "content-length"); // the record every parser reads next: no native call
  if (declared === undefined) return 0;
  const n = Number(declared);
  return Number.isFinite(n) && n >= LARGE_BODY_BYTES ? n : 0;
}
