/** Seeded chaos in the pure engine (issue 58): the same seed replays, a chaos turn leaves its step for the retry. */
import { describe, expect, it } from "vitest";
import { CHAOS_KINDS, chaosOfSpec, drawChaos, parseChaosSpec } from "../../src/scenario/chaos";
import { decide, type SessionState } from "../../src/scenario/engine";
import { ScenarioSchema, type Scenario } from "../../src/scenario/schema";
import { req } from "./fixtures";

function scenario(chaos: unknown, steps: unknown[] = [{ consume: false, respond: { text: "ok" } }]): Scenario {
  return ScenarioSchema.parse({ name: "agent", chaos, steps });
}

/** Outcome labels of `n` requests through one session, state applied as the session does. */
function run(sc: Scenario, session: string, n: number, tools: string[] = []): string[] {
  const state: SessionState = { used: [], attempts: {} };
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const d = decide(sc, state, req({ tools }), { scenario: "agent", session });
    if (d.change.attemptKey) state.attempts[d.change.attemptKey] = (state.attempts[d.change.attemptKey] ?? 0) + 1;
    if (d.change.consume !== undefined) state.used.push(d.change.consume);
    out.push(d.journal.outcome === "chaos" ? d.journal.chaos!.kind : d.journal.outcome);
  }
  return out;
}

describe("chaos draws", () => {
  const sc = scenario({ seed: 42, rate: 0.3 });

  it("the same seed, scenario and session give the same sequence, exactly", () => {
    const expected = ["rate_limit", "response", "response", "server_error", "response", "response", "rate_limit", "overloaded", "response", "response", "response", "stream_error"];
    expect(run(sc, "ci-1", 12)).toEqual(expected);
    expect(run(sc, "ci-1", 12)).toEqual(expected);
  });

  it("another session or seed draws another sequence", () => {
    expect(run(sc, "ci-2", 40)).not.toEqual(run(sc, "ci-1", 40));
    expect(run(scenario({ seed: 43, rate: 0.3 }), "ci-1", 40)).not.toEqual(run(sc, "ci-1", 40));
  });

  it("rate 0 never draws, rate 1 always does, from the kinds given", () => {
    expect(run(scenario({ seed: 1, rate: 0 }), "s", 20).every((o) => o === "response")).toBe(true);
    const all = run(scenario({ seed: 1, rate: 1, kinds: ["rate_limit", "empty_response"] }), "s", 20);
    expect(new Set(all)).toEqual(new Set(["rate_limit", "empty_response"]));
  });

  it("the draw is the request number in the session: a chaos turn counts, a mismatch does not", () => {
    expect(drawChaos({ seed: 7, rate: 1, kinds: ["overloaded"] }, "agent", "s", 5)).toEqual({ kind: "overloaded", seed: 7, draw: 5, afterChunks: expect.any(Number) });
    const state: SessionState = { used: [], attempts: { chaos: 2, "0:openai": 3, "report:1": 4 } };
    const d = decide(scenario({ seed: 7, rate: 1, kinds: ["overloaded"] }), state, req(), { scenario: "agent", session: "s" });
    expect(d.journal.chaos).toEqual({ kind: "overloaded", seed: 7, draw: 6 });
  });
});

describe("a chaos turn", () => {
  it("does not use the step: the retry gets the scripted answer", () => {
    const sc = scenario({ seed: 3, rate: 1, kinds: ["rate_limit"] }, [{ id: "only", respond: { text: "scripted" } }]);
    const state: SessionState = { used: [], attempts: {} };
    const d = decide(sc, state, req(), { scenario: "agent", session: "s" });
    expect(d.outcome).toMatchObject({ kind: "failure", failure: { kind: "rate_limit" } });
    expect(d.journal).toEqual({ step: "only", outcome: "chaos", reasons: ["chaos rate_limit (seed 3, request 1)"], chaos: { kind: "rate_limit", seed: 3, draw: 1 } });
    expect(d.change).toEqual({ attemptKey: "chaos" });
  });

  it.each([
    ["server_error", { kind: "failure", failure: { kind: "model_error" } }],
    ["timeout", { kind: "failure", failure: { kind: "timeout", delayMs: 600000 } }],
    ["network_error", { kind: "failure", failure: { kind: "network_error", afterChunks: 0 } }],
    ["stream_error", { kind: "failure", failure: { kind: "stream_error" } }],
  ])("%s is the renderers' failure", (kind, expected) => {
    const d = decide(scenario({ seed: 1, rate: 1, kinds: [kind] }), { used: [], attempts: {} }, req(), { scenario: "agent", session: "s" });
    expect(d.outcome).toMatchObject(expected);
  });

  const toolStep = [{ respond: { toolCalls: [{ name: "get_weather", arguments: { city: "Paris" } }] } }];
  const reply = (kind: string, steps: unknown[] = toolStep, tools = ["get_weather"]) => {
    const d = decide(scenario({ seed: 1, rate: 1, kinds: [kind] }, steps), { used: [], attempts: {} }, req({ tools }), { scenario: "agent", session: "s" });
    if (d.outcome.kind !== "reply") throw new Error(`expected a reply, got ${d.outcome.kind}`);
    return d.outcome.reply;
  };

  it("model kinds change the reply", () => {
    expect(reply("malformed_tool_arguments").toolCalls).toEqual([{ name: "get_weather", arguments: '{"city":' }]);
    expect(reply("unknown_tool").toolCalls).toEqual([{ name: "mockllm_unknown_tool", arguments: "{}" }]);
    const empty = reply("empty_response");
    expect([empty.text, empty.toolCalls, empty.finishReason, empty.usage.outputTokens]).toEqual(["", [], "stop", 0]);
    const cut = reply("truncated_json");
    expect([cut.toolCalls[0]!.arguments, cut.finishReason]).toEqual(['{"city":', "length"]);
    const text = reply("truncated_json", [{ respond: { text: '{"total": 42.5, "currency": "EUR"}' } }]);
    expect([text.text, text.finishReason]).toEqual(['{"total": 42.5, "', "length"]);
    const dup = reply("duplicate_tool_call_id");
    expect(dup.toolCalls).toHaveLength(2);
    expect(dup.toolCalls[0]!.id).toMatch(/^call_[0-9A-Za-z]{24}$/);
    expect(dup.toolCalls[1]!.id).toBe(dup.toolCalls[0]!.id);
    const thinking = reply("reasoning_without_answer", [{ respond: { text: "answer" } }]);
    expect([thinking.text, thinking.toolCalls, thinking.finishReason, thinking.reasoning.length]).toEqual(["", [], "length", 1]);
    expect(reply("slow_first_token", [{ respond: { text: "x" } }]).pacing.ttftMs).toBe(2000);
  });

  it("a tool-call kind with no tool call or tool offered answers as scripted", () => {
    const d = decide(scenario({ seed: 1, rate: 1, kinds: ["malformed_tool_arguments"] }), { used: [], attempts: {} }, req(), { scenario: "agent", session: "s" });
    expect(d.journal.outcome).toBe("response");
  });
});

describe("the CHAOS spec", () => {
  it("parses seed, rate and kinds", () => {
    expect(parseChaosSpec("seed=42,rate=0.1,kinds=rate_limit+overloaded")).toEqual({ ok: true, chaos: { seed: 42, rate: 0.1, kinds: ["rate_limit", "overloaded"] } });
    expect(parseChaosSpec("seed=1,rate=1,timeoutMs=50")).toEqual({ ok: true, chaos: { seed: 1, rate: 1, timeoutMs: 50 } });
  });

  it("refuses what the schema refuses, naming the field", () => {
    expect(parseChaosSpec("seed=42,rate=2")).toEqual({ ok: false, error: "rate: Too big: expected number to be <=1" });
    const bad = parseChaosSpec("seed=1,rate=0.5,kinds=teapot");
    expect(bad.ok).toBe(false);
    expect(parseChaosSpec("seed")).toEqual({ ok: false, error: '"seed" is not name=value' });
    expect(chaosOfSpec("nonsense")).toBeUndefined();
    expect(chaosOfSpec("seed=1,rate=1")).toEqual({ seed: 1, rate: 1 });
  });

  it("every kind is in the contract's list or the issue's", () => {
    expect(CHAOS_KINDS).toContain("truncated_json");
    expect(CHAOS_KINDS).toHaveLength(13);
  });
});
