/**
 * The TestLLM harness's behaviours, ported as a table: a seed document converted and run through the engine.
 */
import { describe, expect, it } from "vitest";
import type { CanonicalMessage, CanonicalRequest } from "../../src/canonical/request";
import type { Outcome } from "../../src/canonical/outcome";
import { parseScenarioDocument } from "../../src/scenario/document";
import { decide, type SessionState } from "../../src/scenario/engine";
import type { Failure, Scenario } from "../../src/scenario/schema";
import { req } from "./fixtures";
import RUN_TEST_1 from "../../scenarios/testllm-format.json";

const ctx = { scenario: "s", session: "default" };

function load(doc: unknown): Scenario {
  const r = parseScenarioDocument(doc);
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.scenario;
}

/** Runs requests through the engine, applying state changes the way the Durable Object does. */
function run(sc: Scenario, requests: CanonicalRequest[], state: SessionState = { used: [], attempts: {} }) {
  return requests.map((r) => {
    const d = decide(sc, state, r, ctx);
    if (d.change.attemptKey) state.attempts[d.change.attemptKey] = (state.attempts[d.change.attemptKey] ?? 0) + 1;
    if (d.change.consume !== undefined) state.used.push(d.change.consume);
    return d;
  });
}

const once = (sc: Scenario, r: CanonicalRequest) => run(sc, [r])[0]!;

/** A conversation at turn `n`: n-1 assistant messages already in it. */
function atTurn(n: number, over: Partial<CanonicalRequest> = {}): CanonicalRequest {
  const messages: CanonicalMessage[] = [{ role: "user", text: "s" }];
  for (let i = 1; i < n; i++) {
    messages.push({ role: "assistant", text: `a${i}`, toolCalls: [], reasoning: [] });
    messages.push({ role: "user", text: `u${i}` });
  }
  return req(over, messages);
}

function reply(o: Outcome) {
  if (o.kind !== "reply") throw new Error(`expected a reply, got ${o.kind}`);
  return o.reply;
}

/** The report an `onMismatch: "report"` reply carries: the final-report arguments, or the text. */
function report(o: Outcome): { title: string; body: string; viaTool: boolean } {
  const r = reply(o);
  const call = r.toolCalls.find((c) => c.name === "agent__final_report");
  const content = call ? (JSON.parse(call.arguments) as { report_content: string }).report_content : r.text!;
  const [title, ...rest] = content.split("\n\n");
  return { title: title!, body: rest.join("\n\n"), viaTool: call !== undefined };
}

const oneTurn = (turn: Record<string, unknown>, top: Record<string, unknown> = {}) => load({ id: "s", ...top, turns: [{ turn: 1, response: { kind: "text", assistantText: "ok" }, ...turn }] });

describe("turns: turn = assistant messages + 1, turn-pinned, never used up", () => {
  const sc = load(RUN_TEST_1);
  const system = "Phase 1 deterministic harness. Be brief.";

  it("turn 1 answers the tool call, turn 2 the final report", () => {
    const t1 = reply(once(sc, atTurn(1, { system, tools: ["test__test"] })).outcome);
    expect(t1.toolCalls).toEqual([{ id: "call-test-1", name: "test__test", arguments: '{"text":"phase-1-tool-success"}' }]);
    expect(t1.text).toBe("Requesting test to gather information.\n\nPreparing test input.");
    expect(t1.reasoning).toEqual([{ type: "thinking", text: "Evaluating task before invoking tool.", signature: "scenario-run-test-1-step-0" }]);
    expect(t1.finishReason).toBe("tool_calls");
    expect(t1.usage).toMatchObject({ inputTokens: 120, outputTokens: 40 });

    const t2 = reply(once(sc, atTurn(2, { system })).outcome);
    expect(JSON.parse(t2.toolCalls[0]!.arguments)).toEqual({
      status: "success",
      report_format: "markdown",
      report_content: "# Phase 1 Result\n\nTool execution succeeded and data was recorded.",
    });
    expect(t2.toolCalls[0]!.id).toBe("agent-final-report");
  });

  it("the same turn answers again and again (consume: false)", () => {
    const ds = run(sc, [atTurn(1, { system, tools: ["test__test"] }), atTurn(1, { system, tools: ["test__test"] })]);
    expect(ds.map((d) => [d.journal.step, d.journal.outcome])).toEqual([
      ["turn-1", "response"],
      ["turn-1", "response"],
    ]);
  });

  it("a turn with no step → 200 with a final report '# Scenario Failure'", () => {
    const d = once(sc, atTurn(3, { system, tools: ["agent__final_report"] }));
    expect(d.journal.outcome).toBe("mismatch");
    const r = report(d.outcome);
    expect(r).toMatchObject({ title: "# Scenario Failure", viaTool: true });
    expect(r.body).toContain("match.turn: expected 1, got 3");
    expect(JSON.parse(reply(d.outcome).toolCalls[0]!.arguments)).toMatchObject({ status: "failure", report_format: "markdown" });
  });

  it("without the final-report tool offered, the report is the text", () => {
    expect(report(once(sc, atTurn(3, { system })).outcome)).toMatchObject({ title: "# Scenario Failure", viaTool: false });
  });

  it("onMismatch: error (opt-in) answers mismatches as errors instead", () => {
    const strict = load({ ...RUN_TEST_1, onMismatch: "error" });
    expect(once(strict, atTurn(3, { system })).outcome.kind).toBe("mismatch");
  });
});

describe("validations → '# Test Harness Error'", () => {
  it.each([
    {
      why: "system prompt missing a fragment",
      sc: oneTurn({}, { systemPromptMustInclude: ["You are a bot"] }),
      request: atTurn(1, { system: "You are a cat" }),
      reason: 'expect.systemPromptMustInclude: expected system prompt including ["You are a bot"]',
    },
    {
      why: "an expected tool not offered",
      sc: oneTurn({ expectedTools: ["search", "agent__task_status"] }),
      request: atTurn(1, { tools: ["other"] }),
      reason: 'expect.tools: expected tools ["search"] offered',
    },
    {
      why: "temperature off by more than 1e-6",
      sc: oneTurn({ expectedTemperature: 0.42 }),
      request: atTurn(1, { temperature: 0.43 }),
      reason: "expect.temperature: expected 0.42, got 0.43",
    },
    {
      why: "temperature not sent",
      sc: oneTurn({ expectedTemperature: 0.42 }),
      request: atTurn(1),
      reason: "expect.temperature: expected 0.42, got (none)",
    },
    {
      why: "topP off",
      sc: oneTurn({ expectedTopP: 0.85 }),
      request: atTurn(1, { topP: 0.9 }),
      reason: "expect.topP: expected 0.85, got 0.9",
    },
    {
      why: "reasoning expected enabled",
      sc: oneTurn({ expectedReasoning: "enabled" }),
      request: atTurn(1, { reasoning: "disabled" }),
      reason: 'expect.reasoning: expected "enabled", got "disabled"',
    },
    {
      why: "reasoning expected disabled",
      sc: oneTurn({ expectedReasoning: "disabled" }),
      request: atTurn(1, { reasoning: "enabled" }),
      reason: 'expect.reasoning: expected "disabled", got "enabled"',
    },
  ])("$why", ({ sc, request, reason }) => {
    const d = once(sc, { ...request, tools: [...request.tools, "agent__final_report"] });
    expect(d.journal.outcome).toBe("mismatch");
    const r = report(d.outcome);
    expect(r.title).toBe("# Test Harness Error");
    expect(r.body).toContain(reason);
  });

  it.each([
    { why: "agent__ tools are exempt", sc: oneTurn({ expectedTools: ["agent__batch"] }), request: atTurn(1) },
    { why: "allowMissingTools", sc: oneTurn({ expectedTools: ["nope"], allowMissingTools: true }), request: atTurn(1) },
    { why: "an empty expectedTools", sc: oneTurn({ expectedTools: [] }), request: atTurn(1) },
    {
      why: "final reports skip the tool check",
      sc: oneTurn({ expectedTools: ["nope"], response: { kind: "final-report", reportContent: "x", reportFormat: "markdown" } }),
      request: atTurn(1),
    },
    { why: "temperature within 1e-6", sc: oneTurn({ expectedTemperature: 0.42 }), request: atTurn(1, { temperature: 0.4200005 }) },
    { why: "topP within 1e-6", sc: oneTurn({ expectedTopP: 0.85 }), request: atTurn(1, { topP: 0.8499995 }) },
    { why: "reasoning enabled as expected", sc: oneTurn({ expectedReasoning: "enabled" }), request: atTurn(1, { reasoning: "enabled" }) },
  ])("passes: $why", ({ sc, request }) => {
    expect(once(sc, request).journal).toMatchObject({ step: "turn-1", outcome: "response" });
  });
});

describe("failuresBeforeSuccess: n failures per (turn, provider), then the response", () => {
  it("two rate limits then success; another provider counts its own attempts", () => {
    const sc = oneTurn({ failuresBeforeSuccess: 2, failureStatus: "rate_limit", failureRetryAfterMs: 25, failureMessage: "slow down" });
    const state: SessionState = { used: [], attempts: {} };
    const openai = run(sc, [atTurn(1), atTurn(1), atTurn(1), atTurn(1)], state);
    expect(openai.map((d) => d.outcome.kind)).toEqual(["failure", "failure", "reply", "reply"]);
    const f = openai[0]!.outcome;
    if (f.kind !== "failure") throw new Error("expected a failure");
    expect(f.failure).toEqual({ kind: "rate_limit", message: "slow down", retryAfterMs: 25 });
    const anthropic = run(sc, [atTurn(1, { provider: "anthropic" })], state);
    expect(anthropic[0]!.outcome.kind).toBe("failure");
  });

  const failureOf = (turn: Record<string, unknown>): Failure => {
    const o = once(oneTurn({ failuresBeforeSuccess: 1, ...turn }), atTurn(1)).outcome;
    if (o.kind !== "failure") throw new Error("expected a failure");
    return o.failure;
  };

  it.each([
    { turn: {}, failure: { kind: "model_error" } },
    { turn: { failureStatus: "model_error", failureRetryable: false }, failure: { kind: "model_error", retryable: false } },
    { turn: { failureStatus: "timeout", failureMessage: "slow" }, failure: { kind: "timeout", message: "slow" } },
    { turn: { failureStatus: "invalid_response" }, failure: { kind: "invalid_response" } },
    { turn: { failureStatus: "network_error", failureRetryable: true }, failure: { kind: "network_error", retryable: true } },
    { turn: { failureStatus: "rate_limit", failureRetryAfterMs: 1500 }, failure: { kind: "rate_limit", retryAfterMs: 1500 } },
    // failureThrows: a thrown provider error, whatever failureStatus says; failureError only counts with it.
    { turn: { failureThrows: true, failureStatus: "timeout", failureMessage: "boom" }, failure: { kind: "model_error", message: "boom" } },
    {
      turn: { failureThrows: true, failureMessage: "m", failureError: { message: "from error", isRetryable: false } },
      failure: { kind: "model_error", message: "from error", retryable: false },
    },
    {
      turn: { failureThrows: true, failureError: { message: "unavailable", statusCode: 503 } },
      failure: { kind: "http", status: 503, message: "unavailable", body: { error: { message: "unavailable", type: "api_error" } } },
    },
    { turn: { failureStatus: "network_error", failureError: { statusCode: 503 } }, failure: { kind: "network_error" } },
  ])("$turn → $failure.kind", ({ turn, failure }) => {
    expect(failureOf(turn)).toEqual(failure);
  });
});

describe("responses", () => {
  const respond = (response: Record<string, unknown>) => reply(once(oneTurn({ response }), atTurn(1)).outcome);

  it("tool-call: callId defaults to call-{n}; each call's assistantText joins the text", () => {
    const r = respond({
      kind: "tool-call",
      toolCalls: [
        { toolName: "a", arguments: { x: 1 } },
        { toolName: "b", arguments: {}, assistantText: "Calling b." },
      ],
    });
    expect(r.toolCalls).toEqual([
      { id: "call-1", name: "a", arguments: '{"x":1}' },
      { id: "call-2", name: "b", arguments: "{}" },
    ]);
    expect(r.text).toBe("Calling b.");
    expect(r.finishReason).toBe("tool_calls");
  });

  it("final-report: agent__final_report with status (default success), report_format, report_content, content_json", () => {
    const r = respond({
      kind: "final-report",
      reportContent: "{}",
      reportFormat: "json",
      reportContentJson: { ok: true },
    });
    expect(r.toolCalls).toEqual([
      {
        id: "agent-final-report",
        name: "agent__final_report",
        arguments: '{"status":"success","report_format":"json","report_content":"{}","content_json":{"ok":true}}',
      },
    ]);
    expect(r.text).toBeUndefined();
  });

  it("final-report with reportMessages sends messages instead of report_content", () => {
    const r = respond({
      kind: "final-report",
      reportContent: "",
      reportFormat: "slack-block-kit",
      status: "failure",
      reportMessages: [{ blocks: [] }],
    });
    expect(JSON.parse(r.toolCalls[0]!.arguments)).toEqual({
      status: "failure",
      report_format: "slack-block-kit",
      messages: [{ blocks: [] }],
    });
  });

  it("text: the assistant text; a blank one sends empty content", () => {
    expect(respond({ kind: "text", assistantText: "Plain answer." })).toMatchObject({ text: "Plain answer.", toolCalls: [], finishReason: "stop" });
    expect(respond({ kind: "text", assistantText: "  " }).text).toBe("");
  });

  it("text with finishReason content-filter / length", () => {
    expect(respond({ kind: "text", assistantText: "x", finishReason: "content-filter" }).finishReason).toBe("content_filter");
    expect(respond({ kind: "text", assistantText: "x", finishReason: "length" }).finishReason).toBe("length");
    expect(respond({ kind: "text", assistantText: "x", finishReason: "other" }).finishReason).toBe("stop");
  });

  it("usage: from tokenUsage, else 64 / 32", () => {
    expect(respond({ kind: "text", assistantText: "x" }).usage).toEqual({
      inputTokens: 64,
      outputTokens: 32,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
    });
    const u = respond({
      kind: "text",
      assistantText: "x",
      tokenUsage: { inputTokens: 60, outputTokens: 28, totalTokens: 88, cacheWriteInputTokens: 42, cacheReadInputTokens: 7 },
    }).usage;
    expect(u).toEqual({ inputTokens: 60, outputTokens: 28, cacheReadTokens: 7, cacheWriteTokens: 42, reasoningTokens: 0 });
  });

  it("reasoning segments: trimmed, empty ones dropped, signatures and redacted data kept, reasoningContent appended", () => {
    const r = respond({
      kind: "text",
      assistantText: "x",
      reasoning: [
        { type: "reasoning", text: "  first  ", providerMetadata: { anthropic: { signature: "sig-1" } } },
        { type: "reasoning", text: "   " },
        { type: "reasoning", text: "", providerMetadata: { anthropic: { redactedData: "opaque" } } },
      ],
      reasoningContent: ["second", { text: "third", providerMetadata: { anthropic: { signature: "sig-3" } } }],
    });
    expect(r.reasoning).toEqual([
      { type: "thinking", text: "first", signature: "sig-1" },
      { type: "redacted", data: "opaque" },
      { type: "thinking", text: "second" },
      { type: "thinking", text: "third", signature: "sig-3" },
    ]);
  });

  it("turn-level providerMetadata is accepted and changes nothing on the wire", () => {
    const r = respond({ kind: "text", assistantText: "x", providerMetadata: { actualProvider: "router/fireworks", reportedCostUsd: 0.1 } });
    expect(r.text).toBe("x");
  });
});
