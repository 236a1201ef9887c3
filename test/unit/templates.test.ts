import { describe, expect, it } from "vitest";
import { decide } from "../../src/scenario/engine";
import { parseScenarioDocument } from "../../src/scenario/document";
import { ScenarioSchema } from "../../src/scenario/schema";
import { expandResponse, expandString, hasTemplates } from "../../src/scenario/templates";
import { req, toolTurn } from "./fixtures";

const values = {
  vars: { city: "Paris", days: 3, user: { name: "Ada" }, tags: ["x"] },
  request: { model: "gpt-4o-mini", lastUserMessage: "hi there", turn: 2 },
  session: "ci-42",
};

describe("expandString", () => {
  it.each([
    { text: "Weather in {{vars.city}}", expected: "Weather in Paris" },
    { text: "{{ vars.city }} for {{vars.days}} days", expected: "Paris for 3 days" },
    { text: "hi {{vars.user.name}}, {{vars.user}}", expected: 'hi Ada, {"name":"Ada"}' },
    { text: "{{request.model}} / {{request.lastUserMessage}} / turn {{request.turn}} / {{session}}", expected: "gpt-4o-mini / hi there / turn 2 / ci-42" },
    { text: "{{handlebars}} and {{ not a ref }} stay", expected: "{{handlebars}} and {{ not a ref }} stay" },
  ])("$text", ({ text, expected }) => {
    expect(expandString(text, values)).toBe(expected);
  });
});

describe("expandResponse", () => {
  it("expands text, reasoning, refusal, header values and tool-call arguments; a whole-reference argument keeps its type", () => {
    const out = expandResponse(
      {
        text: "{{vars.city}}",
        reasoning: [{ text: "look up {{vars.city}}", signature: "{{vars.city}}" }, { redacted: "{{vars.city}}" }],
        refusal: "no {{session}}",
        headers: { "x-city": "{{vars.city}}" },
        toolCalls: [
          { name: "get_weather", arguments: { city: "{{vars.city}}", days: "{{vars.days}}", note: "{{vars.days}} days", nested: ["{{vars.tags}}"] } },
          { name: "raw", arguments: '{"q":"{{request.lastUserMessage}}"' },
        ],
        model: "{{vars.city}}",
      },
      values,
    );
    expect(out).toEqual({
      text: "Paris",
      reasoning: [{ text: "look up Paris", signature: "{{vars.city}}" }, { redacted: "{{vars.city}}" }],
      refusal: "no ci-42",
      headers: { "x-city": "Paris" },
      toolCalls: [
        { name: "get_weather", arguments: { city: "Paris", days: 3, note: "3 days", nested: [["x"]] } },
        { name: "raw", arguments: '{"q":"hi there"' },
      ],
      model: "{{vars.city}}",
    });
  });
});

describe("validation at upload: an unknown reference is an issue with its JSON path", () => {
  it.each([
    {
      name: "unknown variable, with did you mean",
      doc: { variables: { city: "Paris" }, steps: [{ respond: { text: "in {{vars.cty}}" } }] },
      issues: [{ path: "$.steps[0].respond.text", message: "unknown reference {{vars.cty}}; did you mean {{vars.city}}? (variables: city)" }],
    },
    {
      name: "no variables at all",
      doc: { steps: [{ respond: { reasoning: [{ text: "{{vars.city}}" }] } }] },
      issues: [{ path: "$.steps[0].respond.reasoning[0].text", message: "unknown reference {{vars.city}} (the scenario has no variables)" }],
    },
    {
      name: "unknown request field",
      doc: { steps: [{ respond: { toolCalls: [{ name: "f", arguments: { q: "{{request.lastUserMesage}}" } }] } }] },
      issues: [
        {
          path: "$.steps[0].respond.toolCalls[0].arguments.q",
          message: "unknown reference {{request.lastUserMesage}}; did you mean {{request.lastUserMessage}}? (request fields: model, lastUserMessage, turn)",
        },
      ],
    },
    {
      name: "a key the variable's object lacks",
      doc: { variables: { user: { name: "Ada" } }, steps: [{}, { respond: { headers: { "x-u": "{{vars.user.id}}" } } }] },
      issues: [{ path: '$.steps[1].respond.headers["x-u"]', message: 'unknown reference {{vars.user.id}}: vars.user has no "id"' }],
    },
    {
      name: "a bad variable name",
      doc: { variables: { "my city": "Paris" }, steps: [] },
      issues: [{ path: '$.variables["my city"]', message: "variable names are letters, digits and _, not starting with a digit" }],
    },
  ])("$name", ({ doc, issues }) => {
    expect(parseScenarioDocument({ name: "t", ...doc })).toEqual({ ok: false, issues });
  });

  it("known references and other {{…}} text pass", () => {
    const r = parseScenarioDocument({
      name: "t",
      variables: { city: "Paris" },
      steps: [{ respond: { text: "{{vars.city}} {{request.model}} {{request.turn}} {{session}} {{other}}" } }],
    });
    expect(r.ok).toBe(true);
  });
});

describe("the engine expands templates when a step answers", () => {
  it("vars, request fields and the session, per request", () => {
    const sc = ScenarioSchema.parse({
      name: "weather",
      variables: { city: "Paris" },
      steps: [
        {
          consume: false,
          respond: {
            text: "{{vars.city}} for {{request.lastUserMessage}} on {{request.model}}, turn {{request.turn}}, session {{session}}",
            toolCalls: [{ name: "get_weather", arguments: { city: "{{vars.city}}" } }],
          },
        },
      ],
    });
    const d = decide(sc, { used: [], attempts: {} }, req({}, toolTurn), { scenario: "weather", session: "s1" });
    expect(d.outcome.kind === "reply" && d.outcome.reply.text).toBe("Paris for weather in Paris? on gpt-4o-mini, turn 2, session s1");
    expect(d.outcome.kind === "reply" && d.outcome.reply.toolCalls).toEqual([{ name: "get_weather", arguments: '{"city":"Paris"}' }]);
  });
});

describe("hasTemplates: whether a response would change when expanded", () => {
  it.each([
    { name: "plain text", respond: { text: "Hello" }, expected: false },
    { name: "a template in the text", respond: { text: "Hi {{session}}" }, expected: true },
    { name: "deep in a tool call's arguments", respond: { toolCalls: [{ name: "f", arguments: { a: [{ b: "{{vars.x}}" }] } }] }, expected: true },
    { name: "in a header value", respond: { text: "ok", headers: { "x-a": "{{vars.x}}" } }, expected: true },
    { name: "in a reasoning block", respond: { reasoning: [{ text: "{{vars.x}}" }] }, expected: true },
    { name: "only where nothing expands (a signature, the model)", respond: { reasoning: [{ text: "t", signature: "{{vars.x}}" }], model: "{{vars.x}}" }, expected: false },
    { name: "tool calls without one", respond: { toolCalls: [{ name: "f", arguments: { city: "Paris", n: 2, tags: ["a"] } }] }, expected: false },
  ])("$name: $expected", ({ respond, expected }) => {
    expect(hasTemplates(respond)).toBe(expected);
    // Where it says false, expanding changes nothing.
    if (!expected) expect(expandResponse(respond, values)).toEqual(respond);
  });

  it("a step without templates answers the same turn after turn and its response is left as written", () => {
    const sc = ScenarioSchema.parse({
      name: "plain",
      steps: [{ consume: false, respond: { text: "Sunny.", headers: { "x-a": "1" }, toolCalls: [{ id: "call_1", name: "get_weather", arguments: { city: "Paris" } }] } }],
    });
    const written = structuredClone(sc.steps[0]!.respond);
    const first = decide(sc, { used: [], attempts: {} }, req({}, toolTurn), { scenario: "plain", session: "s1" });
    const second = decide(sc, { used: [], attempts: {} }, req({}, toolTurn), { scenario: "plain", session: "s1" });
    expect(first.outcome.kind === "reply" && first.outcome.reply.toolCalls).toEqual([{ id: "call_1", name: "get_weather", arguments: '{"city":"Paris"}' }]);
    expect(first.outcome.kind === "reply" && first.outcome.reply.text).toBe("Sunny.");
    expect(second.outcome).toEqual(first.outcome);
    expect(sc.steps[0]!.respond).toEqual(written);
  });
});
