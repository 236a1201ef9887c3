import { describe, expect, it } from "vitest";
import { apiError, type ErrorCode } from "../../src/http/errors";
import { anthropicFailureHeaders, checkAnthropicHeaders, renderAnthropicError } from "../../src/providers/anthropic/errors";
import { estimateInputTokens } from "../../src/providers/anthropic/count-tokens";
import { createdAt, displayName, getModel, listModels } from "../../src/providers/anthropic/models";
import type { Runtime } from "../../src/runtime/types";

describe("anthropic error shape", () => {
  it.each([
    ["invalid_request", 400, "invalid_request_error"],
    ["invalid_json", 400, "invalid_request_error"],
    ["mismatch", 400, "invalid_request_error"],
    ["authentication", 401, "authentication_error"],
    ["permission", 403, "permission_error"],
    ["not_found", 404, "not_found_error"],
    ["payload_too_large", 413, "request_too_large"],
    ["rate_limit", 429, "rate_limit_error"],
    ["model_error", 500, "api_error"],
    ["internal", 500, "api_error"],
    ["overloaded", 529, "overloaded_error"],
  ] as [ErrorCode, number, string][])("%s → %i %s", (code, status, type) => {
    expect(renderAnthropicError(apiError(code, "msg"), "req_1")).toEqual({
      status,
      body: { type: "error", error: { type, message: "msg" }, request_id: "req_1" },
      headers: {},
    });
  });

  it("honours status and type overrides", () => {
    const r = renderAnthropicError(apiError("overloaded", "m", { status: 503, type: "custom_error", headers: { a: "1" } }), "r");
    expect(r).toEqual({ status: 503, body: { type: "error", error: { type: "custom_error", message: "m" }, request_id: "r" }, headers: { a: "1" } });
  });
});

describe("anthropic failure headers", () => {
  const now = Date.UTC(2026, 0, 1, 0, 0, 0, 250);
  it("rate limit: retry-after rounded up and empty buckets resetting then", () => {
    expect(anthropicFailureHeaders({ kind: "rate_limit", retryAfterMs: 1500 }, now)).toEqual({
      "retry-after": "2",
      "anthropic-ratelimit-requests-limit": "50",
      "anthropic-ratelimit-requests-remaining": "0",
      "anthropic-ratelimit-requests-reset": "2026-01-01T00:00:02Z",
      "anthropic-ratelimit-tokens-limit": "40000",
      "anthropic-ratelimit-tokens-remaining": "0",
      "anthropic-ratelimit-tokens-reset": "2026-01-01T00:00:02Z",
    });
    expect(anthropicFailureHeaders({ kind: "rate_limit" }, now)["retry-after"]).toBe("0");
  });
  it("overloaded: retry-after only; others: nothing", () => {
    expect(anthropicFailureHeaders({ kind: "overloaded", retryAfterMs: 10 }, now)).toEqual({ "retry-after": "1" });
    expect(anthropicFailureHeaders({ kind: "model_error" }, now)).toEqual({});
  });
});

describe("anthropic header checks", () => {
  it.each([
    [{ "x-api-key": "k", "anthropic-version": "2023-06-01" }, undefined],
    [{ authorization: "Bearer tok", "anthropic-version": "2023-06-01" }, undefined],
    [{ "anthropic-version": "2023-06-01" }, "authentication"],
    [{ authorization: "Bearer ", "x-api-key": "", "anthropic-version": "2023-06-01" }, "authentication"],
    [{ "x-api-key": "k" }, "invalid_request"],
  ])("%j → %s", (h, code) => {
    expect(checkAnthropicHeaders(new Headers(h))?.code).toBe(code);
  });
  it("uses the real API's wording for a missing anthropic-version", () => {
    expect(checkAnthropicHeaders(new Headers({ "x-api-key": "k" }))?.message).toBe("anthropic-version: header is required");
  });
});

describe("anthropic models and count_tokens helpers", () => {
  const env = {} as Runtime;
  const models = ["claude-sonnet-4-5-20250929", "claude-3-5-haiku-latest", "claude-opus-4-1"];
  const h = { "x-api-key": "k", "anthropic-version": "2023-06-01" };

  it.each([
    ["claude-sonnet-4-5-20250929", "Claude Sonnet 4.5", "2025-09-29T00:00:00Z"],
    ["claude-3-5-haiku-latest", "Claude 3.5 Haiku", "2025-01-01T00:00:00Z"],
    ["claude-opus-4-1", "Claude Opus 4.1", "2025-01-01T00:00:00Z"],
  ])("%s → %s, %s", (id, name, created) => {
    expect(displayName(id)).toBe(name);
    expect(createdAt(id)).toBe(created);
  });

  it("lists and pages", async () => {
    const all = await listModels(new Request("http://x/v1/models", { headers: h }), env, models).json();
    expect(all).toEqual({
      data: [
        { type: "model", id: "claude-sonnet-4-5-20250929", display_name: "Claude Sonnet 4.5", created_at: "2025-09-29T00:00:00Z" },
        { type: "model", id: "claude-3-5-haiku-latest", display_name: "Claude 3.5 Haiku", created_at: "2025-01-01T00:00:00Z" },
        { type: "model", id: "claude-opus-4-1", display_name: "Claude Opus 4.1", created_at: "2025-01-01T00:00:00Z" },
      ],
      has_more: false,
      first_id: "claude-sonnet-4-5-20250929",
      last_id: "claude-opus-4-1",
    });
    const page = await listModels(new Request("http://x/v1/models?limit=1&after_id=claude-sonnet-4-5-20250929", { headers: h }), env, models).json();
    expect(page).toMatchObject({ has_more: true, first_id: "claude-3-5-haiku-latest", last_id: "claude-3-5-haiku-latest" });
    const back = await listModels(new Request("http://x/v1/models?limit=1&before_id=claude-opus-4-1", { headers: h }), env, models).json();
    expect(back).toMatchObject({ has_more: true, first_id: "claude-3-5-haiku-latest" });
    const bad = listModels(new Request("http://x/v1/models?limit=0", { headers: h }), env, models);
    expect(bad.status).toBe(400);
  });

  it("gets one model or 404s", async () => {
    const one = getModel(new Request("http://x/s/sc/v1/models/claude-opus-4-1", { headers: h }), env, models);
    expect(one.headers.get("request-id")).toMatch(/^req_/);
    expect(await one.json()).toEqual({ type: "model", id: "claude-opus-4-1", display_name: "Claude Opus 4.1", created_at: "2025-01-01T00:00:00Z" });
    // Any id in the form of a model id answers (every surface takes it); one no surface would take is a 404.
    const named = getModel(new Request("http://x/v1/models/gpt-4o", { headers: h }), env, models);
    expect(await named.json()).toEqual({ type: "model", id: "gpt-4o", display_name: "Gpt 4o", created_at: "2025-01-01T00:00:00Z" });
    const missing = getModel(new Request("http://x/v1/models/gpt%204o", { headers: h }), env, models);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ type: "error", error: { type: "not_found_error", message: "model: gpt 4o" } });
  });

  it("estimates input tokens as ceil(chars / 4)", () => {
    const req = {
      provider: "anthropic" as const,
      endpoint: "count_tokens" as const,
      model: "m",
      stream: false,
      system: "abcd",
      messages: [{ role: "user" as const, text: "Hello, world" }],
      tools: [],
      reasoning: "disabled" as const,
      headers: {},
    };
    expect(estimateInputTokens(req, [])).toBe(4);
    expect(estimateInputTokens({ ...req, system: "", messages: [] }, [])).toBe(1);
    expect(estimateInputTokens(req, [{ name: "f" }])).toBe(Math.ceil((16 + '[{"name":"f"}]'.length) / 4));
  });
});
