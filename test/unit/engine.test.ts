import { describe, expect, it } from "vitest";
import { attemptKey, decide, type SessionState } from "../../src/scenario/engine";
import { ScenarioSchema, type Scenario } from "../../src/scenario/schema";
import { req, toolTurn } from "./fixtures";

const ctx = { scenario: "demo", session: "s1" };

function scenario(doc: unknown): Scenario {
  return ScenarioSchema.parse(doc);
}

/** Runs requests through the engine, applying state changes the way the Durable Object does. */
function run(sc: Scenario, requests: ReturnType<typeof req>[], state: SessionState = { used: [], attempts: {} }) {
  return requests.map((r) => {
    const d = decide(sc, state, r, ctx);
    if (d.change.attemptKey) state.attempts[d.change.attemptKey] = (state.attempts[d.change.attemptKey] ?? 0) + 1;
    if (d.change.consume !== undefined) state.used.push(d.change.consume);
    return d;
  });
}

const summary = (d: ReturnType<typeof decide>) =>
  d.outcome.kind === "reply"
    ? `reply:${d.journal.step}:${d.outcome.reply.text ?? d.outcome.reply.toolCalls.map((c) => c.name).join(",")}`
    : d.outcome.kind === "failure"
      ? `failure:${d.journal.step}:${d.outcome.failure.kind}#${d.outcome.attempt}`
      : "mismatch";

describe("step choice", () => {
  const sc = scenario({
    name: "demo",
    steps: [
      { id: "a", match: { lastUserMessage: { contains: "weather" } }, respond: { text: "A" } },
      { id: "b", respond: { text: "B" } },
      { id: "c", consume: false, match: { lastUserMessage: "again" }, respond: { text: "C" } },
    ],
  });

  it.each([
    { name: "first matching unused step, in order", texts: ["weather?", "weather?", "weather?"], expected: ["reply:a:A", "reply:b:B", "mismatch"] },
    { name: "a catch-all answers when the first does not match", texts: ["hello", "weather?"], expected: ["reply:b:B", "reply:a:A"] },
    { name: "consume:false answers every time", texts: ["again", "again", "again"], expected: ["reply:b:B", "reply:c:C", "reply:c:C"] },
  ])("$name", ({ texts, expected }) => {
    const out = run(
      sc,
      texts.map((t) => req({}, [{ role: "user", text: t }])),
    );
    expect(out.map(summary)).toEqual(expected);
  });

  it("a used-up script is a mismatch that says so", () => {
    const one = scenario({ name: "demo", steps: [{ respond: { text: "only" } }] });
    const [, second] = run(one, [req(), req()]);
    expect(second!.outcome).toEqual({
      kind: "mismatch",
      message: 'mockllm: scenario "demo" session "s1" turn 1: all 1 steps are used',
    });
    expect(second!.journal).toEqual({ outcome: "mismatch", reasons: ["all 1 steps are used"] });
  });

  it("no match names the nearest step and each failed condition", () => {
    const sc2 = scenario({
      name: "demo",
      steps: [
        { id: "far", match: { turn: 3, model: "x", lastUserMessage: "y" } },
        { id: "near", match: { turn: 2, lastUserMessage: { contains: "weather" } } },
      ],
    });
    const [d] = run(sc2, [req()]);
    expect(d!.outcome.kind).toBe("mismatch");
    expect(d!.journal.step).toBe("near");
    expect(d!.journal.reasons).toEqual(['no step matches; nearest step "near" failed', "match.turn: expected 2, got 1", 'match.lastUserMessage: expected contains "weather", got "hello"']);
  });

  it("a matched step whose expectations fail is a mismatch, not skipped", () => {
    const sc2 = scenario({
      name: "demo",
      steps: [{ id: "t", expect: { temperature: 0 } }, { id: "fallback" }],
    });
    const [d] = run(sc2, [req({ temperature: 1 })]);
    expect(d!.outcome.kind).toBe("mismatch");
    expect(d!.journal.reasons).toEqual(['step "t" matched but its expectations failed', "expect.temperature: expected 0, got 1"]);
  });

  it("onMismatch report answers 200 with a final report text", () => {
    const sc2 = scenario({ name: "demo", onMismatch: "report", steps: [{ match: { turn: 5 } }] });
    const [d] = run(sc2, [req()]);
    expect(d!.outcome.kind).toBe("reply");
    if (d!.outcome.kind !== "reply") return;
    expect(d!.outcome.reply.text).toBe('# Scenario Failure\n\nmockllm: scenario "demo" session "s1" turn 1: no step matches; nearest step "step-1" failed\n- match.turn: expected 5, got 1');
    expect(d!.journal.outcome).toBe("mismatch");
  });

  it("onMismatch report calls agent__final_report when the client offers it", () => {
    const sc2 = scenario({ name: "demo", onMismatch: "report", steps: [] });
    const [d] = run(sc2, [req({ tools: ["agent__final_report"] })]);
    if (d!.outcome.kind !== "reply") throw new Error("expected a reply");
    const call = d!.outcome.reply.toolCalls[0]!;
    expect(call.name).toBe("agent__final_report");
    expect(JSON.parse(call.arguments)).toMatchObject({ status: "failure", report_format: "markdown" });
    expect(d!.outcome.reply.finishReason).toBe("tool_calls");
  });
});

describe("failures by attempt", () => {
  const sc = scenario({
    name: "demo",
    steps: [
      {
        id: "flaky",
        failures: [{ kind: "rate_limit", retryAfterMs: 5 }, { kind: "overloaded" }],
        respond: { text: "ok" },
      },
      { id: "next", respond: { text: "next" } },
    ],
  });

  it("attempts 1..n fail, n+1 answers and only then consumes the step", () => {
    const out = run(sc, [req(), req(), req(), req()]);
    expect(out.map(summary)).toEqual(["failure:flaky:rate_limit#1", "failure:flaky:overloaded#2", "reply:flaky:ok", "reply:next:next"]);
    expect(out.map((d) => d.change.consume)).toEqual([undefined, undefined, 0, 1]);
  });

  it("attempts are counted per provider", () => {
    const state: SessionState = { used: [], attempts: {} };
    const out = run(sc, [req(), req({ provider: "anthropic", endpoint: "messages" }), req()], state);
    expect(out.map(summary)).toEqual(["failure:flaky:rate_limit#1", "failure:flaky:rate_limit#1", "failure:flaky:overloaded#2"]);
    expect(state.attempts).toEqual({ [attemptKey(0, "openai")]: 2, [attemptKey(0, "anthropic")]: 1 });
  });
});

describe("reply defaults", () => {
  it("usage 64/32, finish reason derived, ids seeded by scenario/session/step/attempt", () => {
    const sc = scenario({ name: "demo", steps: [{ id: "t", respond: { toolCalls: [{ name: "f", arguments: { a: 1 } }] } }] });
    const [d] = run(sc, [req()]);
    if (d!.outcome.kind !== "reply") throw new Error("expected a reply");
    expect(d!.outcome.reply).toMatchObject({
      finishReason: "tool_calls",
      usage: { inputTokens: 64, outputTokens: 32, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
      toolCalls: [{ name: "f", arguments: '{"a":1}' }],
      // A well-known alias is answered by its dated snapshot, as the real API does.
      model: "gpt-4o-mini-2024-07-18",
      idSeed: "demo/s1/t/1",
    });
    expect(d!.outcome.reply.text).toBeUndefined();
  });

  it("a scripted respond.model wins over the snapshot; unknown names are echoed", () => {
    const scripted = scenario({ name: "demo", steps: [{ respond: { text: "x", model: "gpt-4o-mini" } }] });
    const [a] = run(scripted, [req()]);
    if (a!.outcome.kind !== "reply") throw new Error("expected a reply");
    expect(a!.outcome.reply.model).toBe("gpt-4o-mini");
    const plain = scenario({ name: "demo", steps: [{ respond: { text: "x" } }] });
    const [b] = run(plain, [req({ model: "my-finetune" })]);
    if (b!.outcome.kind !== "reply") throw new Error("expected a reply");
    expect(b!.outcome.reply.model).toBe("my-finetune");
  });

  it("scenario defaults apply under step values", () => {
    const sc = scenario({
      name: "demo",
      defaults: { usage: { inputTokens: 1000 }, stream: { chunkWords: 3 }, latencyMs: 5 },
      steps: [{ respond: { text: "x", usage: { outputTokens: 7 } } }],
    });
    const [d] = run(sc, [req({}, toolTurn)]);
    if (d!.outcome.kind !== "reply") throw new Error("expected a reply");
    expect(d!.outcome.reply.usage).toMatchObject({ inputTokens: 1000, outputTokens: 7 });
    expect(d!.outcome.reply.pacing.chunkWords).toBe(3);
    expect(d!.outcome.reply.latencyMs).toBe(5);
  });
});

describe("the request's output-token limit (max_tokens and its kin)", () => {
  const reply = (d: ReturnType<typeof decide>) => {
    if (d.outcome.kind !== "reply") throw new Error(`expected a reply, got ${d.outcome.kind}`);
    return d.outcome.reply;
  };
  const long = "one two three four five six seven eight";

  it("cuts scripted text at maxTokens words, finishReason length, usage = words sent", () => {
    const sc = scenario({ name: "demo", steps: [{ consume: false, respond: { text: long, usage: { outputTokens: 500 } } }] });
    const [cut] = run(sc, [req({ maxTokens: 3 })]);
    expect(reply(cut!)).toMatchObject({ text: "one two three", finishReason: "length" });
    expect(reply(cut!).usage).toEqual({ inputTokens: 64, outputTokens: 3, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });
    const [fits] = run(sc, [req({ maxTokens: 8 })]);
    expect(reply(fits!)).toMatchObject({ text: long, finishReason: "stop" });
    expect(reply(fits!).usage.outputTokens).toBe(500);
  });

  it("reasoning counts first; tool calls that do not fit whole are not sent", () => {
    const sc = scenario({
      name: "demo",
      steps: [
        {
          consume: false,
          respond: { reasoning: "a b c d", text: "e f", toolCalls: [{ name: "get_weather", arguments: { city: "Paris" } }] },
        },
      ],
    });
    const [two] = run(sc, [req({ maxTokens: 2 })]);
    expect(reply(two!)).toMatchObject({ reasoning: [{ type: "thinking", text: "a b" }], text: "", toolCalls: [], finishReason: "length" });
    expect(reply(two!).usage).toMatchObject({ outputTokens: 2, reasoningTokens: 2 });
    const [six] = run(sc, [req({ maxTokens: 6 })]);
    expect(reply(six!)).toMatchObject({ text: "e f", toolCalls: [], finishReason: "length" });
    const [seven] = run(sc, [req({ maxTokens: 7 })]);
    expect(reply(seven!)).toMatchObject({ finishReason: "tool_calls", toolCalls: [{ name: "get_weather" }] });
  });

  it("a step with an explicit finishReason is sent as written", () => {
    const sc = scenario({ name: "demo", steps: [{ consume: false, respond: { text: long, finishReason: "stop" } }] });
    const [d] = run(sc, [req({ maxTokens: 2 })]);
    expect(reply(d!)).toMatchObject({ text: long, finishReason: "stop" });
    expect(reply(d!).usage.outputTokens).toBe(32);
  });

  it("the reply a scripted failure is cut from obeys the limit too", () => {
    const sc = scenario({ name: "demo", steps: [{ failures: [{ kind: "network_error", afterChunks: 1 }], respond: { text: long } }] });
    const [d] = run(sc, [req({ maxTokens: 4 })]);
    expect(d!.outcome.kind === "failure" && d!.outcome.reply.text).toBe("one two three four");
  });
});
