import { describe, expect, it } from "vitest";
import { describeMiss, expectationMisses, matchMisses, show, stringMatches } from "../../src/scenario/matchers";
import type { Expectations, Matcher, StringMatch } from "../../src/scenario/schema";
import { req, toolTurn } from "./fixtures";

describe("stringMatches", () => {
  it.each<{ match: StringMatch; value: string | undefined; expected: boolean }>([
    { match: "hello", value: "hello", expected: true },
    { match: "hello", value: "hello!", expected: false },
    { match: { equals: "a" }, value: "a", expected: true },
    { match: { contains: "ell" }, value: "hello", expected: true },
    { match: { contains: "xyz" }, value: "hello", expected: false },
    { match: { regex: "^h.*o$" }, value: "hello", expected: true },
    { match: { regex: "^H", flags: "i" }, value: "hello", expected: true },
    { match: { regex: "^H" }, value: "hello", expected: false },
    { match: { regex: "l", flags: "g" }, value: "hello", expected: true },
    { match: "x", value: undefined, expected: false },
  ])("$match on $value → $expected", ({ match, value, expected }) => {
    expect(stringMatches(match, value)).toBe(expected);
  });

  it("a global regex gives the same answer twice (no lastIndex state)", () => {
    expect([stringMatches({ regex: "l", flags: "g" }, "hello"), stringMatches({ regex: "l", flags: "g" }, "hello")]).toEqual([true, true]);
  });
});

describe("matchMisses", () => {
  it.each<{ name: string; matcher: Matcher; request: ReturnType<typeof req>; misses: string[] }>([
    { name: "empty matcher matches anything", matcher: {}, request: req(), misses: [] },
    {
      name: "provider list",
      matcher: { provider: ["anthropic", "gemini"] },
      request: req(),
      misses: ['match.provider: expected ["anthropic","gemini"], got "openai"'],
    },
    { name: "endpoint", matcher: { endpoint: "responses" }, request: req(), misses: ['match.endpoint: expected "responses", got "chat.completions"'] },
    { name: "model regex", matcher: { model: { regex: "^gpt-4o" } }, request: req(), misses: [] },
    { name: "stream", matcher: { stream: true }, request: req(), misses: ["match.stream: expected true, got false"] },
    { name: "turn counts assistant messages + 1", matcher: { turn: 2 }, request: req({}, toolTurn), misses: [] },
    { name: "turn mismatch", matcher: { turn: 3 }, request: req({}, toolTurn), misses: ["match.turn: expected 3, got 2"] },
    {
      name: "lastUserMessage contains",
      matcher: { lastUserMessage: { contains: "weather" } },
      request: req(),
      misses: ['match.lastUserMessage: expected contains "weather", got "hello"'],
    },
    { name: "firstUserMessage exact", matcher: { firstUserMessage: "weather in Paris?" }, request: req({}, toolTurn), misses: [] },
    { name: "system", matcher: { system: { contains: "bot" } }, request: req({ system: "You are a bot" }), misses: [] },
    { name: "toolResult by resolved name and content", matcher: { toolResult: { name: "get_weather", content: { contains: "sunny" } } }, request: req({}, toolTurn), misses: [] },
    { name: "toolResult by id", matcher: { toolResult: { toolCallId: "call_1" } }, request: req({}, toolTurn), misses: [] },
    {
      name: "toolResult absent",
      matcher: { toolResult: {} },
      request: req(),
      misses: ["match.toolResult: expected a tool result after the last assistant turn, got no tool result after the last assistant turn"],
    },
    {
      name: "tools offered",
      matcher: { tools: ["search"] },
      request: req({ tools: ["get_weather"] }),
      misses: ['match.tools: expected tools ["search"] offered, got ["get_weather"]'],
    },
    {
      name: "headers are case-insensitive by name",
      matcher: { headers: { "X-Run": { contains: "ci" } } },
      request: req({ headers: { "x-run": "ci-42" } }),
      misses: [],
    },
  ])("$name", ({ matcher, request, misses }) => {
    expect(matchMisses(matcher, request).map(describeMiss)).toEqual(misses);
  });

  it("a tool result before the last assistant turn does not count", () => {
    const later = [...toolTurn, { role: "assistant" as const, text: "done", toolCalls: [], reasoning: [] }, { role: "user" as const, text: "thanks" }];
    expect(matchMisses({ toolResult: {} }, req({}, later))).toHaveLength(1);
  });
});

describe("expectationMisses", () => {
  it.each<{ name: string; expect: Expectations; request: ReturnType<typeof req>; misses: string[] }>([
    { name: "temperature within 1e-6", expect: { temperature: 0.2 }, request: req({ temperature: 0.2000001 }), misses: [] },
    { name: "temperature off", expect: { temperature: 0.2 }, request: req({ temperature: 0.3 }), misses: ["expect.temperature: expected 0.2, got 0.3"] },
    { name: "temperature absent", expect: { temperature: 0.2 }, request: req(), misses: ["expect.temperature: expected 0.2, got (none)"] },
    { name: "topP", expect: { topP: 0.9 }, request: req({ topP: 0.9 }), misses: [] },
    { name: "agent__ tools exempt", expect: { tools: ["agent__final_report", "search"] }, request: req({ tools: ["search"] }), misses: [] },
    {
      name: "missing tool",
      expect: { tools: ["search", "fetch"] },
      request: req({ tools: ["search"] }),
      misses: ['expect.tools: expected tools ["fetch"] offered, got ["search"]'],
    },
    { name: "allowMissingTools", expect: { tools: ["fetch"], allowMissingTools: true }, request: req(), misses: [] },
    { name: "reasoning", expect: { reasoning: "enabled" }, request: req(), misses: ['expect.reasoning: expected "enabled", got "disabled"'] },
    { name: "model", expect: { model: "gpt-4o" }, request: req(), misses: ['expect.model: expected "gpt-4o", got "gpt-4o-mini"'] },
    { name: "maxTokens", expect: { maxTokens: 100 }, request: req({ maxTokens: 100 }), misses: [] },
    {
      name: "systemPromptMustInclude",
      expect: { systemPromptMustInclude: ["weather bot", "be brief"] },
      request: req({ system: "You are a weather bot." }),
      misses: ['expect.systemPromptMustInclude: expected system prompt including ["be brief"], got "You are a weather bot."'],
    },
  ])("$name", ({ expect: e, request, misses }) => {
    expect(expectationMisses(e, request).map(describeMiss)).toEqual(misses);
  });

  it("scenario-level systemPromptMustInclude applies to every step", () => {
    expect(expectationMisses(undefined, req({ system: "hi" }), ["policy v2"]).map(describeMiss)).toEqual(['expect.systemPromptMustInclude: expected system prompt including ["policy v2"], got "hi"']);
  });
});

describe("assistantMessage and toolCall (seed 001): what happened earlier in the conversation", () => {
  const history = req({}, [
    { role: "user", text: "weather in Paris and Rome?" },
    {
      role: "assistant",
      text: "Let me check Paris first.",
      toolCalls: [{ id: "call_1", name: "get_weather", arguments: '{"city":"Paris","days":3,"units":{"temp":"C","wind":"kmh"},"tags":["a","b"]}' }],
      reasoning: [],
    },
    { role: "tool", toolCallId: "call_1", content: "sunny", isError: false },
    { role: "assistant", text: "Paris is sunny.", toolCalls: [{ id: "call_2", name: "search", arguments: "{not json" }], reasoning: [] },
    { role: "user", text: "and Rome?" },
  ]);

  it.each<{ name: string; matcher: Matcher; misses: string[] }>([
    { name: "assistantMessage: any earlier assistant text", matcher: { assistantMessage: { contains: "sunny" } }, misses: [] },
    { name: "assistantMessage exact, first message", matcher: { assistantMessage: "Let me check Paris first." }, misses: [] },
    {
      name: "assistantMessage miss lists the texts",
      matcher: { assistantMessage: { regex: "^Rome" } },
      misses: ['match.assistantMessage: expected an earlier assistant message matching /^Rome/, got ["Let me check Paris first.","Paris is sunny."]'],
    },
    { name: "toolCall by name", matcher: { toolCall: { name: "get_weather" } }, misses: [] },
    { name: "toolCall by name regex", matcher: { toolCall: { name: { regex: "^get_" } } }, misses: [] },
    { name: "toolCall arguments: a subset", matcher: { toolCall: { name: "get_weather", arguments: { city: "Paris" } } }, misses: [] },
    { name: "toolCall arguments: JSON values, nested subset", matcher: { toolCall: { arguments: { days: 3, units: { temp: "C" } } } }, misses: [] },
    { name: "toolCall arguments: StringMatch values", matcher: { toolCall: { arguments: { city: { contains: "Par" }, days: { regex: "^3$" } } } }, misses: [] },
    { name: "toolCall arguments: arrays compare whole", matcher: { toolCall: { arguments: { tags: ["a", "b"] } } }, misses: [] },
    {
      name: "toolCall arguments: a different value misses",
      matcher: { toolCall: { name: "get_weather", arguments: { city: "Rome" } } },
      misses: [
        'match.toolCall: expected an earlier tool call with name "get_weather", arguments including {"city":"Rome"}, got [{"name":"get_weather","arguments":{"city":"Paris","days":3,"units":{"temp":"C","wind":"kmh"},"tags":["a","b"]}},{"name":"search","arguments":"{not json"}]',
      ],
    },
    { name: "toolCall arguments: a missing key misses", matcher: { toolCall: { arguments: { country: "FR" } } }, misses: ["x"] },
    { name: "toolCall arguments: an array with fewer elements misses", matcher: { toolCall: { arguments: { tags: ["a"] } } }, misses: ["x"] },
    { name: "toolCall arguments never match invalid JSON", matcher: { toolCall: { name: "search", arguments: {} } }, misses: ["x"] },
  ])("$name", ({ matcher, misses }) => {
    const got = matchMisses(matcher, history).map(describeMiss);
    if (misses[0] === "x") expect(got).toEqual([expect.stringMatching(/^match\.toolCall: expected an earlier tool call with /)]);
    else expect(got).toEqual(misses);
  });

  it("no history: says there was none", () => {
    expect(matchMisses({ assistantMessage: "x", toolCall: {} }, req()).map(describeMiss)).toEqual([
      'match.assistantMessage: expected an earlier assistant message "x", got no assistant message',
      "match.toolCall: expected an earlier tool call, got no tool call earlier in the conversation",
    ]);
  });
});

describe("a miss shows at most 200 characters of what the request had, however large it is", () => {
  // What `show` answered when it serialised the whole value first.
  const whole = (v: unknown) => {
    const s = JSON.stringify(v) ?? String(v);
    return s.length > 200 ? `${s.slice(0, 200)}…` : s;
  };
  const pair = "\u{1F600}"; // two UTF-16 units
  it.each([
    ["short", "sunny"],
    ["198 characters", "a".repeat(198)],
    ["199 characters", "a".repeat(199)],
    ["200 characters", "a".repeat(200)],
    ["201 characters", "a".repeat(201)],
    ["a megabyte", "x".repeat(1 << 20)],
    ["escapes throughout", 'say "hi"\n\t\\ '.repeat(60)],
    ["a surrogate pair across the cut", `${"a".repeat(199)}${pair}${"b".repeat(50)}`],
    ["a surrogate pair just inside", `${"a".repeat(197)}${pair}${"b".repeat(50)}`],
    ["a lone surrogate", `${"a".repeat(150)}\ud800${"b".repeat(100)}`],
  ])("%s: the same text as the whole value's", (_, text) => {
    expect(show(text)).toBe(whole(text));
  });

  it("a tool result the step does not match: its content shown cut, the same as the whole results' text", () => {
    const content = `"quoted"\n${"line of a large file\n".repeat(50_000)}`;
    const messages = [...toolTurn.slice(0, 2), { role: "tool" as const, toolCallId: "call_1", content, isError: false }];
    const [miss] = matchMisses({ toolResult: { name: "read_file" } }, req({}, messages));
    expect(miss).toEqual({
      field: "match.toolResult",
      expected: 'a tool result with name "read_file"',
      actual: whole([{ name: "get_weather", toolCallId: "call_1", content }]),
    });
    expect(miss!.actual).toHaveLength(201);
  });
});
