/**
 * OpenAI's (and Azure OpenAI's) rate-limit headers for a scenario's `limits`: `x-ratelimit-limit-*`,
 * `x-ratelimit-remaining-*` and `x-ratelimit-reset-*` for requests and tokens, the resets as the API writes them
 * (`1s`, `6m0s`, `17ms`). https://platform.openai.com/docs/guides/rate-limits#rate-limits-in-headers
 */
import type { RateBucket, RateLimitView } from "../../canonical/rate-limits";

/**
 * A duration as OpenAI's reset headers write it.
 * @example openAIDuration(360_000) // "6m0s"
 */
export function openAIDuration(ms: number): string {
  if (Math.round(ms) < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  // Rounded to hundredths first, then split: 59,998 ms is "1m0s", never "60s".
  const cs = Math.round(ms / 10);
  const h = Math.floor(cs / 360_000);
  const m = Math.floor((cs % 360_000) / 6_000);
  const s = (cs % 6_000) / 100;
  return `${h > 0 ? `${h}h` : ""}${h > 0 || m > 0 ? `${m}m` : ""}${s}s`;
}

function bucket(name: "requests" | "tokens", b: RateBucket | undefined): Record<string, string> {
  if (b === undefined) return {};
  return {
    [`x-ratelimit-limit-${name}`]: String(b.limit),
    [`x-ratelimit-remaining-${name}`]: String(b.remaining),
    [`x-ratelimit-reset-${name}`]: openAIDuration(b.resetMs),
  };
}

/** @example openAIRateLimitHeaders({ now, requests: { limit: 3, remaining: 2, resetMs: 60000 } })["x-ratelimit-reset-requests"] // "1m0s" */
export function openAIRateLimitHeaders(view: RateLimitView): Record<string, string> {
  return { ...bucket("requests", view.requests), ...bucket("tokens", view.tokens) };
}
