/**
 * A session's request and token buckets as a rate-limited API reports them (scenario `limits`),
 * provider-neutral: each provider module renders them as its own headers (`x-ratelimit-*`, `anthropic-ratelimit-*`).
 */
export interface RateBucket {
  limit: number;
  remaining: number;
  /** Milliseconds until the bucket is full again. */
  resetMs: number;
}

export interface RateLimitView {
  /** When the request arrived (ms since the epoch): resets are rendered from it. */
  now: number;
  requests?: RateBucket;
  tokens?: RateBucket;
}
