import { describe, expect, it } from "vitest";
import { scenario, ScenarioValidationError, startMockLLM, step, StepBuilder } from "../../src/client/index";
import { parseScenarioDocument } from "../../src/scenario/document";

describe("scenario builder", () => {
  it("builds the issue's weather example as exactly the contract's JSON", () => {
    const doc = scenario("weather")
      .step((s) => s.match({ lastUserMessage: { contains: "weather" } }).toolCall("get_weather", { city: "Paris" }))
      .step((s) => s.match({ toolResult: {} }).text("Sunny"))
      .build();
    expect(doc).toStrictEqual({
      name: "weather",
      steps: [
        {
          match: { lastUserMessage: { contains: "weather" } },
          respond: { toolCalls: [{ name: "get_weather", arguments: { city: "Paris" } }] },
        },
        { match: { toolResult: {} }, respond: { text: "Sunny" } },
      ],
    });
  });

  it("structured outputs: matchOutputSchema, json and schemaCheck (contract section 11)", () => {
    const doc = scenario("invoices")
      .step((s) => s.id("extract").matchOutputSchema({ name: "Invoice" }).json({ total: 42.5, currency: "EUR" }))
      .step((s) => s.matchOutputSchema(false).schemaCheck(false).text('{"total": 4'))
      .build();
    expect(doc).toStrictEqual({
      name: "invoices",
      steps: [
        { id: "extract", match: { outputSchema: { name: "Invoice" } }, respond: { json: { total: 42.5, currency: "EUR" } } },
        { match: { outputSchema: false }, respond: { text: '{"total": 4' }, schemaCheck: false },
      ],
    });
  });

  it("expresses every scenario-level field, in contract key order", () => {
    const doc = scenario("agent")
      .description("asks for a tool, then answers")
      .priority(5)
      .match({ firstUserMessage: { regex: "^hi", flags: "i" } })
      .systemPromptMustInclude("You are a bot")
      .systemPromptMustInclude("Be brief", "No lies")
      .onMismatch("report")
      .strict(false)
      .defaults({ latencyMs: 5 })
      .defaults({ usage: { inputTokens: 1 }, stream: { chunkWords: 2 } })
      .step((s) => s.text("x"))
      .build();
    expect(JSON.stringify(doc)).toBe(
      JSON.stringify({
        name: "agent",
        description: "asks for a tool, then answers",
        priority: 5,
        match: { firstUserMessage: { regex: "^hi", flags: "i" } },
        systemPromptMustInclude: ["You are a bot", "Be brief", "No lies"],
        onMismatch: "report",
        strict: false,
        defaults: { latencyMs: 5, usage: { inputTokens: 1 }, stream: { chunkWords: 2 } },
        steps: [{ respond: { text: "x" } }],
      }),
    );
  });

  it("expresses failures, pacing, expectations, reasoning, usage, headers and consume on a step", () => {
    const doc = scenario("full")
      .step("ask", (s) =>
        s
          .match({ provider: ["openai", "anthropic"], turn: 1 })
          .match({ tools: ["search"] })
          .expect({ tools: ["search"], temperature: 0.2 })
          .expect({ reasoning: "enabled", maxTokens: 100 })
          .consume(false)
          .fail("rate_limit", { retryAfterMs: 1500, message: "slow down" })
          .failTimes(2, "overloaded")
          .fail("http", { status: 418, body: { teapot: true } })
          .fail("stream_error", { afterChunks: 3, errorType: "api_error" })
          .reasoning([{ text: "think", signature: "sig" }, { redacted: "abc" }])
          .text("done")
          .toolCall("search", '{"q": broken', { id: "call_9" })
          .toolCall("noargs")
          .refusal("no")
          .finishReason("tool_calls")
          .usage({ inputTokens: 10 })
          .usage({ outputTokens: 3, reasoningTokens: 2 })
          .model("gpt-x")
          .latency(25)
          .stream({ ttftMs: 100, tokensPerSecond: 20 })
          .stream({ jitterMs: 5, seed: 7 })
          .headers({ "x-a": "1" })
          .headers({ "x-b": "2" }),
      )
      .build();
    expect(doc.steps).toStrictEqual([
      {
        id: "ask",
        match: { provider: ["openai", "anthropic"], turn: 1, tools: ["search"] },
        expect: { tools: ["search"], temperature: 0.2, reasoning: "enabled", maxTokens: 100 },
        consume: false,
        failures: [
          { kind: "rate_limit", retryAfterMs: 1500, message: "slow down" },
          { kind: "overloaded" },
          { kind: "overloaded" },
          { kind: "http", status: 418, body: { teapot: true } },
          { kind: "stream_error", afterChunks: 3, errorType: "api_error" },
        ],
        respond: {
          reasoning: [{ text: "think", signature: "sig" }, { redacted: "abc" }],
          text: "done",
          toolCalls: [{ id: "call_9", name: "search", arguments: '{"q": broken' }, { name: "noargs" }],
          refusal: "no",
          finishReason: "tool_calls",
          usage: { inputTokens: 10, outputTokens: 3, reasoningTokens: 2 },
          model: "gpt-x",
          latencyMs: 25,
          stream: { ttftMs: 100, tokensPerSecond: 20, jitterMs: 5, seed: 7 },
          headers: { "x-a": "1", "x-b": "2" },
        },
      },
    ]);
  });

  it("accepts steps as builders, plain objects and id + builder; ids keep their position first", () => {
    const shared = step().match({ turn: 2 }).text("two");
    const doc = scenario("mixed")
      .step(shared)
      .step({ id: "raw", respond: { text: "raw" } })
      .step("named", shared)
      .build();
    expect(doc.steps).toStrictEqual([
      { match: { turn: 2 }, respond: { text: "two" } },
      { id: "raw", respond: { text: "raw" } },
      { id: "named", match: { turn: 2 }, respond: { text: "two" } },
    ]);
  });

  it("is immutable: a base scenario can be varied without changing it", () => {
    const base = scenario("base").step((s) => s.text("one"));
    const longer = base.step((s) => s.text("two")).onMismatch("report");
    expect(base.build().steps).toHaveLength(1);
    expect(base.build().onMismatch).toBeUndefined();
    expect(longer.build().steps).toHaveLength(2);
    const s1 = step().text("a");
    s1.fail("overloaded");
    expect(s1.toJSON()).toStrictEqual({ respond: { text: "a" } });
  });

  it("toJSON is what JSON.stringify writes, unvalidated", () => {
    const b = scenario("Bad Name").step((s) => s.latency(-1));
    expect(JSON.parse(JSON.stringify(b))).toStrictEqual({ name: "Bad Name", steps: [{ respond: { latencyMs: -1 } }] });
  });

  it("build() throws a readable error listing every issue's JSON path", () => {
    const bad = scenario("Bad Name")
      .step("a", (s) => s.latency(-1))
      .step("a", (s) => s.match({ lastUserMessage: { regex: "(" } }))
      .step({ respond: { text: "x", colour: "red" } } as never);
    let error: unknown;
    try {
      bad.build();
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ScenarioValidationError);
    const e = error as ScenarioValidationError;
    expect(e.scenarioName).toBe("Bad Name");
    expect(e.issues.map((i) => i.path).sort()).toStrictEqual(["$.name", "$.steps[0].respond.latencyMs", "$.steps[1].id", "$.steps[1].match.lastUserMessage.regex", "$.steps[2].respond.colour"]);
    expect(e.message.split("\n")[0]).toBe('invalid scenario "Bad Name": 5 issues');
    expect(e.message).toContain("\n  $.name: must match [a-z0-9][a-z0-9._-]{0,63}");
    expect(e.message).toContain('\n  $.steps[1].id: duplicate step id "a" (also steps[0])');
    expect(e.message).toContain('\n  $.steps[2].respond.colour: unknown key "colour"');
  });

  it("rejects an http failure without status at build time", () => {
    const b = scenario("x").step((s) => s.fail("http", {} as never).text("ok"));
    expect(() => b.build()).toThrow(/\$\.steps\[0\]\.failures\[0\]\.status/);
  });

  it("builds documents the server's own parser accepts unchanged", () => {
    const doc = scenario("roundtrip")
      .step((s) => s.failTimes(3, "model_error", { retryable: true }).text("ok"))
      .build();
    const again = parseScenarioDocument(JSON.parse(JSON.stringify(doc)));
    expect(again).toStrictEqual({ ok: true, scenario: doc });
    expect(doc.steps[0]?.failures).toHaveLength(3);
  });

  it("expresses variables and the earlier-conversation matchers (assistantMessage, toolCall)", () => {
    const doc = scenario("trip")
      .variables({ city: "Paris" })
      .variables({ days: 3 })
      .step("ask", (s) => s.toolCall("get_weather", { city: "{{vars.city}}", days: "{{vars.days}}" }))
      .step("answer", (s) =>
        s
          .matchToolCall("get_weather", { city: { contains: "Par" } })
          .matchAssistantMessage({ regex: "^$" })
          .text("{{vars.city}}: sunny for {{vars.days}} days ({{request.model}}, {{session}})"),
      )
      .step((s) => s.matchToolCall().text("any call"))
      .build();
    expect(JSON.stringify(doc)).toBe(
      JSON.stringify({
        name: "trip",
        variables: { city: "Paris", days: 3 },
        steps: [
          { id: "ask", respond: { toolCalls: [{ name: "get_weather", arguments: { city: "{{vars.city}}", days: "{{vars.days}}" } }] } },
          {
            id: "answer",
            match: { toolCall: { name: "get_weather", arguments: { city: { contains: "Par" } } }, assistantMessage: { regex: "^$" } },
            respond: { text: "{{vars.city}}: sunny for {{vars.days}} days ({{request.model}}, {{session}})" },
          },
          { match: { toolCall: {} }, respond: { text: "any call" } },
        ],
      }),
    );
    expect(() =>
      scenario("x")
        .variables({ city: "Paris" })
        .step((s) => s.text("{{vars.town}}"))
        .build(),
    ).toThrow("$.steps[0].respond.text: unknown reference {{vars.town}} (variables: city)");
  });

  it("guards misuse with clear errors", () => {
    expect(() => step().failTimes(-1, "overloaded")).toThrow(RangeError);
    expect(() => step().failTimes(1.5, "overloaded")).toThrow("failTimes: times must be a whole number >= 0, got 1.5");
    expect(step().failTimes(0, "overloaded").toJSON()).toStrictEqual({});
    expect(() => scenario("x").step((() => undefined) as never)).toThrow(/must return the step builder/);
    expect(new StepBuilder().toJSON()).toStrictEqual({});
  });
});

describe("s.fail(kind, { afterChunks })", () => {
  it("sends exactly afterChunks data: chunks before a stream_error; on Chat Completions the role-only chunk is the first", async () => {
    const mock = await startMockLLM({
      scenarios: [scenario("cut").step((s) => s.fail("stream_error", { afterChunks: 2 }).text("one two three four"))],
    });
    try {
      const res = await fetch(`${mock.openaiBaseURL("cut")}/chat/completions`, {
        method: "POST",
        headers: { authorization: "Bearer k", "content-type": "application/json" },
        body: JSON.stringify({ model: "m", stream: true, messages: [{ role: "user", content: "x" }] }),
      });
      const events = (await res.text())
        .split("\n\n")
        .filter(Boolean)
        .map((e) => JSON.parse(e.replace(/^data: /, "")) as Record<string, unknown>);
      const deltas = events.slice(0, -1).map((e) => (e.choices as { delta: Record<string, unknown> }[])[0]!.delta);
      expect(deltas).toStrictEqual([{ role: "assistant", content: "", refusal: null }, { content: "one" }]);
      expect(Object.keys(events.at(-1)!)).toStrictEqual(["error"]);
    } finally {
      await mock.stop();
    }
  });
});

describe("scenario builder: batches", () => {
  it("processingMs and matchCustomId build the contract's JSON", () => {
    const doc = scenario("nightly")
      .processingMs(5000)
      .step((s) => s.matchCustomId({ regex: "^q" }).text("ok"))
      .build();
    expect(doc).toStrictEqual({ name: "nightly", steps: [{ match: { customId: { regex: "^q" } }, respond: { text: "ok" } }], async: { processingMs: 5000 } });
    expect(parseScenarioDocument(doc, "nightly").ok).toBe(true);
  });
});
