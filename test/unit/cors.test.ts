// src/http/cors.ts: the CORS_ORIGINS setting, which origins it allows, and the headers it adds.
import { describe, expect, it } from "vitest";
import { corsPolicy, isPreflight, originAllowed, preflightAnswer, withCors } from "../../src/http/cors";

describe("corsPolicy / originAllowed", () => {
  it("reads *, exact origins (case, trailing slash) and *.host patterns", () => {
    const list = corsPolicy(" https://App.example.com/ , http://localhost:5173,https://*.pages.dev ");
    expect(
      ["https://app.example.com", "http://localhost:5173", "https://pr-1.my-app.pages.dev", "https://pages.dev", "http://x.pages.dev", "https://x.pages.dev.evil", "https://evil.example"].map((o) =>
        originAllowed(list, o),
      ),
    ).toEqual([true, true, true, false, false, false, false]);
    expect(originAllowed(corsPolicy("*"), "null")).toBe(true);
    expect(originAllowed(corsPolicy(undefined), "https://app.example.com")).toBe(false);
    expect(originAllowed(corsPolicy(""), "https://app.example.com")).toBe(false);
  });
});

describe("preflightAnswer", () => {
  const ask = (headers: Record<string, string>) =>
    new Request("http://mock/v1/chat/completions", { method: "OPTIONS", headers: { origin: "https://a.test", "access-control-request-method": "POST", ...headers } });

  it("echoes the asked headers lower-cased; drops a malformed list", () => {
    const ok = preflightAnswer(ask({ "access-control-request-headers": "Authorization,X-Stainless-OS" }), "https://a.test", corsPolicy("https://a.test"));
    expect([ok.status, ok.headers.get("access-control-allow-origin"), ok.headers.get("access-control-allow-headers")]).toEqual([204, "https://a.test", "authorization, x-stainless-os"]);
    const bad = preflightAnswer(ask({ "access-control-request-headers": "a\u0001b" }), "https://a.test", corsPolicy("*"));
    expect([bad.status, bad.headers.get("access-control-allow-origin"), bad.headers.get("access-control-allow-headers")]).toEqual([204, "*", null]);
    expect(isPreflight(ask({}))).toBe(true);
    expect(isPreflight(new Request("http://mock/", { method: "OPTIONS" }))).toBe(false);
  });

  it("a refused origin: 403 naming CORS_ORIGINS", async () => {
    const res = preflightAnswer(ask({}), "https://b.test", corsPolicy(undefined));
    expect(res.status).toBe(403);
    expect(((await res.json()) as { error: { message: string } }).error.message).toContain("CORS_ORIGINS is not set");
  });
});

describe("withCors", () => {
  it("exposes every header a page could not read, appends origin to vary, and copies immutable headers", () => {
    const res = withCors(
      new Response("{}", { headers: { "content-type": "application/json", "retry-after": "2", "x-request-id": "req_1", vary: "accept-encoding" } }),
      "https://a.test",
      corsPolicy("https://a.test"),
    );
    expect([res.headers.get("access-control-allow-origin"), res.headers.get("access-control-expose-headers"), res.headers.get("vary")]).toEqual([
      "https://a.test",
      "retry-after, x-request-id",
      "accept-encoding, origin",
    ]);
    const frozen = Response.redirect("http://elsewhere.test/", 302);
    const copied = withCors(frozen, "https://a.test", corsPolicy("*"));
    expect([copied.status, copied.headers.get("location"), copied.headers.get("access-control-allow-origin"), copied.headers.get("access-control-expose-headers")]).toEqual([
      302,
      "http://elsewhere.test/",
      "*",
      "location",
    ]);
    const refused = new Response("{}");
    expect(withCors(refused, "https://b.test", corsPolicy("https://a.test"))).toBe(refused);
  });
});
