// Why a client got what it got, without admin access: x-mockllm-outcome on every provider answer, "did you mean"
// hints for typo'd scenario names, fresh request ids on errors, and hints for a doubled /v1 (issue 13, issue 15).
import { describe, expect, it } from "vitest";
import { admin, call, chat, upload, userTurn } from "./helpers";

const flaky = {
  name: "tl-main",
  onMismatch: "error",
  steps: [{ id: "hello", match: { lastUserMessage: "hello" }, failures: [{ kind: "rate_limit" }], respond: { text: "hi there" } }],
};

describe("x-mockllm-outcome", () => {
  it("says response, failure, mismatch, default or error on every answer", async () => {
    await upload(flaky);
    const failure = await chat(userTurn("hello"), "/s/tl-main/o1");
    expect([failure.status, failure.headers.get("x-mockllm-outcome"), failure.headers.get("x-mockllm-step")]).toStrictEqual([429, "failure", "hello"]);
    const response = await chat(userTurn("hello"), "/s/tl-main/o1");
    expect([response.status, response.headers.get("x-mockllm-outcome")]).toStrictEqual([200, "response"]);
    const mismatch = await chat(userTurn("something else"), "/s/tl-main/o1");
    expect([mismatch.status, mismatch.headers.get("x-mockllm-outcome"), mismatch.headers.get("x-mockllm-scenario")]).toStrictEqual([400, "mismatch", "tl-main"]);
    const fallback = await chat(userTurn("no scenario is named like this sentence"));
    expect([fallback.status, fallback.headers.get("x-mockllm-outcome"), fallback.headers.get("x-mockllm-hint")]).toStrictEqual([200, "default", null]);
    const bad = await call("/v1/chat/completions", { method: "POST", headers: { authorization: "Bearer k", "content-type": "application/json" }, body: "{" });
    expect([bad.status, bad.headers.get("x-mockllm-outcome")]).toStrictEqual([400, "error"]);
    const unknown = await call("/v1/nothing-here", { method: "POST", headers: { authorization: "Bearer k" } });
    expect([unknown.status, unknown.headers.get("x-mockllm-outcome")]).toStrictEqual([404, "error"]);
  });

  it("an onMismatch: report answer is a 200 whose outcome says mismatch", async () => {
    await upload({ name: "reporting", onMismatch: "report", steps: [{ match: { lastUserMessage: "x" }, respond: { text: "x" } }] });
    const res = await chat(userTurn("y"), "/s/reporting");
    expect([res.status, res.headers.get("x-mockllm-outcome")]).toStrictEqual([200, "mismatch"]);
  });
});

describe("typo'd scenario names", () => {
  it("a first user message one typo from a scenario name gets the default answer with a did-you-mean header", async () => {
    await upload(flaky);
    const res = await chat(userTurn("tl-mian"));
    expect(res.status).toBe(200);
    expect(res.headers.get("x-mockllm-outcome")).toBe("default");
    expect(res.headers.get("x-mockllm-hint")).toBe('did you mean scenario "tl-main"? The first user message "tl-mian" names no scenario');
  });

  it.each([
    ["the prefix", () => chat(userTurn("hello"), "/s/tl-mian")],
    ["x-mock-scenario", () => chat(userTurn("hello"), "", { "x-mock-scenario": "tl-mian" })],
  ])("a scenario named by %s that does not exist is a 404 with a did-you-mean", async (_how, send) => {
    await upload(flaky);
    const res = await send();
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe('mockllm: scenario "tl-mian" not found; did you mean "tl-main"?');
  });

  it("the admin state of a session of a scenario that does not exist is a 404 naming it, not an empty state", async () => {
    await upload(flaky);
    const res = await admin("/sessions/tl-mian/default");
    expect(res.status).toBe(404);
    expect(await res.json()).toStrictEqual({ error: { message: 'scenario "tl-mian" not found; did you mean "tl-main"?' } });
    // A session of a real scenario that never ran is a 404 too, saying so (contract section 10).
    const real = await admin("/sessions/tl-main/fresh");
    expect(real.status).toBe(404);
    expect(await real.json()).toStrictEqual({
      error: { message: 'session "fresh" of scenario "tl-main" has not run: no request reached /s/tl-main/fresh', code: "session_not_run" },
    });
  });
});

describe("request ids", () => {
  it("two identical bad requests get different ids; a scripted answer's id is deterministic per session seq", async () => {
    const send = () => call("/v1/messages", { method: "POST", headers: { "x-api-key": "k", "anthropic-version": "2023-06-01", "content-type": "application/json" }, body: "{}" });
    const [a, b] = [await send(), await send()];
    expect(a.status).toBe(400);
    expect(a.headers.get("request-id")).toMatch(/^req_/);
    expect(a.headers.get("request-id")).not.toBe(b.headers.get("request-id"));
    expect(((await a.json()) as { request_id: string }).request_id).toBe(a.headers.get("request-id"));
  });
});

describe("a base URL that already ends in /v1", () => {
  it("the Anthropic SDK's doubled /v1 gets a 404 that says to drop it", async () => {
    const res = await call("/s/tl-main/s1/v1/v1/messages", {
      method: "POST",
      headers: { "x-api-key": "k", "anthropic-version": "2023-06-01", "content-type": "application/json" },
      body: JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 10, messages: [{ role: "user", content: "hi" }] }),
    });
    expect(res.status).toBe(404);
    const body = (await res.json()) as { type: string; error: { type: string; message: string } };
    expect(body.error.type).toBe("not_found_error");
    expect(body.error.message).toBe(
      "Unknown request URL: POST /s/tl-main/s1/v1/v1/messages. The path has /v1 twice: drop /v1 from the base URL — the Anthropic SDK and CLI agents add it themselves (base URL http://host or http://host/s/{scenario}/{session}).",
    );
  });
});
