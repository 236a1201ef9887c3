/**
 * `resolveSurface` (src/providers/surface.ts): the one place a surface's optional hooks get their defaults. A surface
 * with only the required members of its three parts answers every hook the turn calls; a declared hook wins.
 */
import { describe, expect, it } from "vitest";
import type { Reply } from "../../src/canonical/outcome";
import { makeRequestId } from "../../src/http/ids";
import { openaiChat } from "../../src/providers/openai/chat";
import { FAILURE_MESSAGES, resolveSurface } from "../../src/providers/surface";
import type { ProviderSurface, RenderContext } from "../../src/providers/types";
import type { Runtime } from "../../src/runtime/types";
import type { Failure } from "../../src/scenario/schema";

/** Only the required members: who it is, and each part's required hooks. */
const bare: ProviderSurface<{ n: number }> = {
  provider: "openai",
  endpoint: "chat.completions",
  paths: ["/bare"],
  checkHeaders: () => undefined,
  parse: () => ({ ok: false, error: { code: "invalid_request", message: "unused" } }),
  renderJson: () => ({}),
  renderEvents: () => [],
  renderStreamError: () => [],
  requestIdHeader: "x-request-id",
  renderError: () => ({ status: 500, body: {}, headers: {} }),
  failureHeaders: () => ({}),
};

const reply = { idSeed: "s" } as unknown as Reply;
const request = openaiChat.parse({ model: "gpt-4o", messages: [{ role: "user", content: "x" }] }, new Headers(), { path: "/v1/chat/completions", query: new URLSearchParams() });
if (!request.ok) throw new Error(request.error.message);
const canonical = request.request;
const ctx: RenderContext<{ n: number }> = { wire: { n: 1 }, request: canonical, requestId: "req_1", created: 1 };
const rt = {} as Runtime;
const rateLimit: Failure = { kind: "rate_limit" };

describe("resolveSurface: the defaults of a surface's optional hooks", () => {
  it("a bare surface answers every hook with its default", async () => {
    const s = resolveSurface(bare);
    const body = await s.readBody(new Request("http://x/bare", { method: "POST", headers: { "content-type": "application/json" }, body: '{"a":1}' }), { path: "/bare", query: new URLSearchParams() });
    expect(body.ok && body.value).toEqual({ a: 1 });
    expect([s.matchPath("/other"), s.validate({ n: 1 }, canonical, undefined), s.mcpServers({ n: 1 }), s.streamFormat, s.renderRaw(reply, ctx), s.stores({ n: 1 })]).toEqual([
      false,
      undefined,
      [],
      "sse",
      undefined,
      false,
    ]);
    expect(await s.prepare({ n: 1 }, canonical, rt)).toEqual({ ok: true, wire: { n: 1 }, request: canonical });
    expect(await s.complete({ n: 1 }, canonical, reply, rt)).toBe(reply);
    expect(await s.counted({ n: 1 }, canonical, reply)).toBeUndefined();
    expect(await s.remember(reply, ctx, rt)).toBeUndefined();
    expect(await s.rememberFailure(rateLimit, reply, ctx, rt)).toBe(false);
    expect(s.requestId("seed")).toBe(makeRequestId("seed"));
    expect(s.failureMessage("rate_limit", rateLimit, ctx)).toBe(FAILURE_MESSAGES.rate_limit);
    expect([s.rateLimitHeaders({} as never), s.responseHeaders(ctx)]).toEqual([{}, {}]);
    expect(s.refusal({ on: "prompt", categories: [] }, "req_1")).toBeUndefined();
  });

  it("the JSON reader refuses a form body unless the surface reads any content type", async () => {
    const form = () => new Request("http://x/bare", { method: "POST", headers: { "content-type": "application/x-www-form-urlencoded" }, body: '{"a":1}' });
    const target = { path: "/bare", query: new URLSearchParams() };
    expect((await resolveSurface(bare).readBody(form(), target)).ok).toBe(false);
    expect(await resolveSurface({ ...bare, anyContentType: true }).readBody(form(), target)).toMatchObject({ ok: true, value: { a: 1 } });
  });

  it("a failure's wording: the request's, else the surface's table, else OpenAI's", () => {
    const table = resolveSurface({ ...bare, failureMessages: { rate_limit: "slow down" } });
    expect([table.failureMessage("rate_limit", rateLimit, ctx), table.failureMessage("overloaded", { kind: "overloaded" }, ctx)]).toEqual(["slow down", FAILURE_MESSAGES.overloaded]);
    const byRequest = resolveSurface({ ...bare, failureMessages: { rate_limit: "slow down" }, requestFailureMessage: (f) => (f.kind === "rate_limit" ? "per request" : undefined) });
    expect([byRequest.failureMessage("rate_limit", rateLimit, ctx), byRequest.failureMessage("model_error", { kind: "model_error" }, ctx)]).toEqual(["per request", FAILURE_MESSAGES.model_error]);
  });

  it("a prompt block is refused with renderPromptBlock's error; a filtered completion only where blocksCompletion", () => {
    const block = { status: 400, body: { error: "blocked" }, headers: {} };
    const prompt = resolveSurface({ ...bare, renderPromptBlock: () => block });
    expect([prompt.refusal({ on: "prompt", categories: [] }, "r"), prompt.refusal({ on: "completion", categories: [] }, "r")]).toEqual([block, undefined]);
    const both = resolveSurface({ ...bare, renderPromptBlock: () => block, blocksCompletion: true });
    expect(both.refusal({ on: "completion", categories: [] }, "r")).toBe(block);
  });

  it("declared hooks win, and a surface resolves once (a resolved one resolves to itself)", () => {
    const s = resolveSurface(openaiChat);
    expect([s.stores, s.requestId("a")]).toEqual([expect.any(Function), makeRequestId("a")]);
    expect(resolveSurface(openaiChat)).toBe(s);
    expect(resolveSurface(s)).toBe(s);
    expect(resolveSurface({ ...bare, requestId: (seed) => `id-${seed}` }).requestId("a")).toBe("id-a");
  });
});
