/** Scenario `limits` (issue 58), pure: the window, the 429's retry time, the buckets, the providers' headers. */
import { describe, expect, it } from "vitest";
import { anthropicRateLimitHeaders } from "../../src/providers/anthropic/rate-limits";
import { openAIDuration, openAIRateLimitHeaders } from "../../src/providers/openai/rate-limits";
import { afterAnswer, checkLimits } from "../../src/scenario/limits";

const T = 1_800_000_000_000;

describe("checkLimits", () => {
  it("counts the requests of the last 60 s; the one past the limit waits for the oldest to leave", () => {
    const entries = [
      { at: T - 70_000, tokens: 96 },
      { at: T - 30_000, tokens: 96 },
      { at: T - 10_000, tokens: 96 },
    ];
    expect(checkLimits({ requestsPerMinute: 3 }, entries, T)).toEqual({ over: false, view: { now: T, requests: { limit: 3, remaining: 1, resetMs: 50_000 } } });
    expect(checkLimits({ requestsPerMinute: 2 }, entries, T)).toEqual({
      over: true,
      limit: "requestsPerMinute",
      retryAfterMs: 30_000,
      view: { now: T, requests: { limit: 2, remaining: 0, resetMs: 50_000 } },
    });
  });

  it("tokens come back as the answers that spent them leave the window", () => {
    const entries = [
      { at: T - 50_000, tokens: 100 },
      { at: T - 40_000, tokens: 100 },
      { at: T - 5_000, tokens: 100 },
    ];
    const check = checkLimits({ tokensPerMinute: 250 }, entries, T);
    expect(check).toMatchObject({ over: true, limit: "tokensPerMinute", retryAfterMs: 10_000 });
    expect(checkLimits({ tokensPerMinute: 301 }, entries, T)).toEqual({ over: false, view: { now: T, tokens: { limit: 301, remaining: 1, resetMs: 55_000 } } });
  });

  it("after an answer: one request and its tokens spent, full again in 60 s", () => {
    const view = { now: T, requests: { limit: 3, remaining: 3, resetMs: 0 }, tokens: { limit: 200, remaining: 200, resetMs: 0 } };
    expect(afterAnswer(view, 96)).toEqual({ now: T, requests: { limit: 3, remaining: 2, resetMs: 60_000 }, tokens: { limit: 200, remaining: 104, resetMs: 60_000 } });
  });
});

describe("the providers' headers", () => {
  const view = { now: T, requests: { limit: 3, remaining: 2, resetMs: 60_000 }, tokens: { limit: 200, remaining: 104, resetMs: 1_500 } };

  it("OpenAI and Azure: x-ratelimit-*, resets as durations", () => {
    expect(openAIRateLimitHeaders(view)).toEqual({
      "x-ratelimit-limit-requests": "3",
      "x-ratelimit-remaining-requests": "2",
      "x-ratelimit-reset-requests": "1m0s",
      "x-ratelimit-limit-tokens": "200",
      "x-ratelimit-remaining-tokens": "104",
      "x-ratelimit-reset-tokens": "1.5s",
    });
    expect([openAIDuration(17), openAIDuration(360_000), openAIDuration(3_723_000)]).toEqual(["17ms", "6m0s", "1h2m3s"]);
    // Rounding carries into the next unit: a reset a few ms short of a minute is "1m0s" (the API never writes "60s").
    expect([openAIDuration(59_998), openAIDuration(59_994), openAIDuration(999.6), openAIDuration(3_599_999)]).toEqual(["1m0s", "59.99s", "1s", "1h0m0s"]);
  });

  it("Anthropic: anthropic-ratelimit-*, resets as RFC 3339 times", () => {
    const h = anthropicRateLimitHeaders(view);
    expect(h["anthropic-ratelimit-requests-reset"]).toBe(new Date(T + 60_000).toISOString().replace(".000Z", "Z"));
    expect([h["anthropic-ratelimit-tokens-remaining"], h["anthropic-ratelimit-input-tokens-limit"], h["anthropic-ratelimit-output-tokens-remaining"]]).toEqual(["104", "200", "104"]);
  });
});
