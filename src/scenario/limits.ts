/**
 * Rate limits per session: whether a request that arrived at `now` is over the scenario's `limits`,
 * given what the session answered in the 60 seconds before it, and the buckets its answer reports. Pure: the
 * arrival time is passed in.
 */
import type { RateBucket, RateLimitView } from "../canonical/rate-limits";
import type { Limits } from "./limits-schema";

/** The window the limits count over. */
export const WINDOW_MS = 60_000;

/** One answered request of the session: when it arrived and the tokens its answer reported. */
export interface WindowEntry {
  at: number;
  tokens: number;
}

export type LimitCheck =
  /** Within the limits: the buckets before this request's own tokens are known. */
  | { over: false; view: RateLimitView }
  /** Over: which limit, and when the client may retry; `namespace`: the namespace's limit, not the scenario's. */
  | { over: true; view: RateLimitView; limit: "requestsPerMinute" | "tokensPerMinute"; retryAfterMs: number; namespace?: true };

/**
 * Drops the leading entries for which `gone` holds, in place: a window kept between requests, oldest first, losing
 * what has left it (by time, or past a bound by sequence).
 * @example dropLeading(entries, (e) => e.at <= now - WINDOW_MS)
 */
export function dropLeading<T>(entries: T[], gone: (e: T) => boolean): void {
  let n = 0;
  while (n < entries.length && gone(entries[n]!)) n++;
  if (n > 0) entries.splice(0, n);
}

/** Entries still in the window at `now`, oldest first; `entries` are in arrival order (the journal's), read from the newest back. */
function inWindow(entries: readonly WindowEntry[], now: number): WindowEntry[] {
  let from = entries.length;
  while (from > 0 && entries[from - 1]!.at > now - WINDOW_MS) from--;
  let to = entries.length;
  while (to > from && entries[to - 1]!.at > now) to--;
  return entries.slice(from, to);
}

/**
 * Checks a request arriving at `now` against `limits`.
 * @example checkLimits({ requestsPerMinute: 2 }, [{ at: 0, tokens: 96 }, { at: 10, tokens: 96 }], 20) // { over: true, limit: "requestsPerMinute", retryAfterMs: 59980, … }
 */
export function checkLimits(limits: Limits, entries: readonly WindowEntry[], now: number): LimitCheck {
  const window = inWindow(entries, now);
  const reset = (from: number) => Math.max(0, from + WINDOW_MS - now);
  const view: RateLimitView = { now };
  let over: { limit: "requestsPerMinute" | "tokensPerMinute"; retryAfterMs: number } | undefined;
  if (limits.requestsPerMinute !== undefined) {
    const used = window.length;
    // Full again when the newest request counted leaves the window.
    view.requests = { limit: limits.requestsPerMinute, remaining: Math.max(0, limits.requestsPerMinute - used), resetMs: window.length > 0 ? reset(window.at(-1)!.at) : 0 };
    if (used >= limits.requestsPerMinute) {
      // The request that frees a slot is the oldest of those over the limit's count.
      over = { limit: "requestsPerMinute", retryAfterMs: reset(window[used - limits.requestsPerMinute]!.at) };
    }
  }
  if (limits.tokensPerMinute !== undefined) {
    const used = window.reduce((n, e) => n + e.tokens, 0);
    const spent = window.filter((e) => e.tokens > 0);
    view.tokens = { limit: limits.tokensPerMinute, remaining: Math.max(0, limits.tokensPerMinute - used), resetMs: spent.length > 0 ? reset(spent.at(-1)!.at) : 0 };
    if (over === undefined && used >= limits.tokensPerMinute) {
      // Tokens come back as the answers that spent them leave the window: wait until enough have.
      let left = used;
      let at = spent[0]!.at;
      for (const e of spent) {
        left -= e.tokens;
        at = e.at;
        if (left < limits.tokensPerMinute) break;
      }
      over = { limit: "tokensPerMinute", retryAfterMs: reset(at) };
    }
  }
  return over === undefined ? { over: false, view } : { over: true, view, ...over };
}

/** The buckets after this request's answer: one request more, its tokens spent. */
export function afterAnswer(view: RateLimitView, tokens: number): RateLimitView {
  const out: RateLimitView = { now: view.now };
  const spend = (b: RateBucket, n: number): RateBucket => ({ limit: b.limit, remaining: Math.max(0, b.remaining - n), resetMs: n > 0 ? WINDOW_MS : b.resetMs });
  if (view.requests) out.requests = spend(view.requests, 1);
  if (view.tokens) out.tokens = spend(view.tokens, tokens);
  return out;
}

/** Of two buckets, the one with less left (on a tie, the smaller limit): the one that binds. */
function binding(a: RateBucket | undefined, b: RateBucket | undefined): RateBucket | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  if (a.remaining !== b.remaining) return a.remaining < b.remaining ? a : b;
  return a.limit <= b.limit ? a : b;
}

/**
 * The scenario's check and the namespace's together: over when either is (both: the longer wait, since the client
 * must wait for both), each bucket the one that binds.
 * @example stricter(checkLimits(scenario, window, now), namespaceCheck)
 */
export function stricter(own: LimitCheck | undefined, namespace: LimitCheck | undefined): LimitCheck | undefined {
  if (own === undefined || namespace === undefined) return own ?? (namespace?.over === true ? { ...namespace, namespace: true } : namespace);
  const view: RateLimitView = { now: own.view.now };
  const requests = binding(own.view.requests, namespace.view.requests);
  const tokens = binding(own.view.tokens, namespace.view.tokens);
  if (requests !== undefined) view.requests = requests;
  if (tokens !== undefined) view.tokens = tokens;
  if (own.over && (!namespace.over || own.retryAfterMs >= namespace.retryAfterMs)) return { ...own, view };
  if (namespace.over) return { over: true, view, limit: namespace.limit, retryAfterMs: namespace.retryAfterMs, namespace: true };
  return { over: false, view };
}
