/**
 * Large request bodies served at once by one isolate, bounded. A Worker isolate has 128 MB, and a body at the 10 MiB
 * limit takes ~40 MB of heap while it is parsed and answered (+67 MB of workerd RSS, `bench/bounded-answers.mjs
 * --worker`): three at once — from one caller, on a URL many teams share — would take the isolate down, and every
 * other request in it. Past the budget a large body is refused before it is read, with the surface's retryable
 * `overloaded` and `Retry-After: 1` (the SDKs retry it); a body alone is always served, and a body under
 * LARGE_BODY_BYTES is never counted. The Worker runtime has one budget per isolate; Node, whose heap is its machine's,
 * none.
 */
import { MAX_BODY_BYTES } from "./body";
import { apiError, type ApiError } from "./errors";
import { header } from "./headers";

/**
 * A body this large or larger is counted. A body of unknown length (chunked) is not: HTTP/2 clients may leave the
 * length out of small bodies, and counting each as the body limit would refuse a fleet's small requests.
 */
export const LARGE_BODY_BYTES = 1024 * 1024;

/** Bytes of large bodies one Worker isolate serves at once: two at the body limit. */
export const ISOLATE_BODY_BUDGET = 2 * MAX_BODY_BYTES;

/** Headers of the refusal: retry after a second, as a client's SDK reads it. */
export const BUSY_HEADERS: Readonly<Record<string, string>> = { "retry-after": "1", "retry-after-ms": "1000", "x-should-retry": "true", "x-mockllm-outcome": "error" };

export class BodyBudget {
  #held = 0;

  constructor(readonly limit: number) {}

  /** Bytes of the bodies served now. */
  get held(): number {
    return this.#held;
  }

  /** Takes `bytes` of the budget; false, taking nothing, when other bodies hold some and `bytes` more would pass it. */
  take(bytes: number): boolean {
    if (this.#held > 0 && this.#held + bytes > this.limit) return false;
    this.#held += bytes;
    return true;
  }

  release(bytes: number): void {
    this.#held = Math.max(0, this.#held - bytes);
  }

  /** The refusal of a body of `bytes` that `take` would not fit. */
  refusal(bytes: number): ApiError {
    const mb = (n: number) => `${(n / (1024 * 1024)).toFixed(1)} MiB`;
    return apiError(
      "overloaded",
      `mockllm: this server is answering other large request bodies (${mb(this.#held)} of the ${mb(this.limit)} it serves at once); yours (${mb(bytes)}) was not read. Retry in a second.`,
    );
  }
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
