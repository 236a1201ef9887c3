// A namespace's `limits` window (src/tenancy/limits.ts) and the stricter of two checks (src/scenario/limits.ts).
import { describe, expect, it } from "vitest";
import { checkLimits, stricter } from "../../src/scenario/limits";
import { LimitWindows } from "../../src/tenancy/limits";

describe("LimitWindows", () => {
  it("counts a request when let through, its tokens when settled; a refused one leaves the window", () => {
    const w = new LimitWindows();
    const a = w.check("t", { requestsPerMinute: 2, tokensPerMinute: 100 }, 1000);
    expect(a).toMatchObject({ over: false, ticket: 1, view: { requests: { limit: 2, remaining: 2 }, tokens: { limit: 100, remaining: 100 } } });
    w.settle("t", 1, 60);
    const b = w.check("t", { requestsPerMinute: 2, tokensPerMinute: 100 }, 2000);
    expect(b).toMatchObject({ over: false, ticket: 2, view: { requests: { remaining: 1 }, tokens: { remaining: 40 } } });
    w.settle("t", 2, null);
    w.settle("t", 3, 5); // unknown ticket: nothing
    const c = w.check("t", { requestsPerMinute: 2, tokensPerMinute: 50 }, 3000);
    expect(c).toMatchObject({ over: true, limit: "tokensPerMinute", retryAfterMs: 58_000 });
    // A minute after the first request, it has left the window.
    expect(w.check("t", { requestsPerMinute: 2, tokensPerMinute: 50 }, 61_000)).toMatchObject({ over: false, view: { requests: { remaining: 2 } } });
    w.forget("t");
    expect(w.check("t", { requestsPerMinute: 1 }, 61_001)).toMatchObject({ over: false, ticket: 1 });
  });
});

describe("stricter", () => {
  const entries = [{ at: 0, tokens: 96 }];
  it("each bucket the one with less left; over when either is, marked when the namespace's", () => {
    const own = checkLimits({ requestsPerMinute: 2 }, entries, 10);
    const ns = checkLimits({ requestsPerMinute: 5, tokensPerMinute: 250 }, entries, 10);
    expect(stricter(own, ns)).toEqual({ over: false, view: { now: 10, requests: own.view.requests, tokens: ns.view.tokens } });
    const full = checkLimits({ requestsPerMinute: 1 }, entries, 10);
    expect(stricter(own, full)).toMatchObject({ over: true, limit: "requestsPerMinute", namespace: true, view: { requests: { limit: 1, remaining: 0 } } });
    expect(stricter(full, ns)).toMatchObject({ over: true, limit: "requestsPerMinute" });
    expect(stricter(full, ns)).not.toHaveProperty("namespace");
    expect(stricter(undefined, full)).toMatchObject({ over: true, namespace: true });
    expect(stricter(own, undefined)).toBe(own);
  });
});
