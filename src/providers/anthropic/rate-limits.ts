/**
 * Anthropic's rate-limit headers for a scenario's `limits`: `anthropic-ratelimit-requests-*` and
 * `anthropic-ratelimit-tokens-*` (`-limit`, `-remaining`, `-reset` as an RFC 3339 time). The scenario has one token
 * bucket, so `-input-tokens-*` and `-output-tokens-*` report that same bucket.
 * https://docs.anthropic.com/en/api/rate-limits#response-headers
 */
import type { RateBucket, RateLimitView } from "../../canonical/rate-limits";

/** An RFC 3339 time to the second, as the API writes it: `2026-01-01T00:01:00Z`. */
function rfc3339(ms: number): string {
  return new Date(Math.ceil(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");
}

function bucket(name: string, b: RateBucket | undefined, now: number): Record<string, string> {
  if (b === undefined) return {};
  return {
    [`anthropic-ratelimit-${name}-limit`]: String(b.limit),
    [`anthropic-ratelimit-${name}-remaining`]: String(b.remaining),
    [`anthropic-ratelimit-${name}-reset`]: rfc3339(now + b.resetMs),
  };
}

/** @example anthropicRateLimitHeaders({ now, tokens: { limit: 1000, remaining: 904, resetMs: 60000 } })["anthropic-ratelimit-tokens-remaining"] // "904" */
export function anthropicRateLimitHeaders(view: RateLimitView): Record<string, string> {
  return {
    ...bucket("requests", view.requests, view.now),
    ...bucket("tokens", view.tokens, view.now),
    ...bucket("input-tokens", view.tokens, view.now),
    ...bucket("output-tokens", view.tokens, view.now),
  };
}
