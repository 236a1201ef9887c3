import { describe, expect, it } from "vitest";
import { parseScenarioDocument } from "../../src/scenario/document";

describe("parseScenarioDocument", () => {
  it("accepts a full document", () => {
    const r = parseScenarioDocument({
      $schema: "../scenario.schema.json",
      name: "full",
      description: "d",
      priority: 2,
      match: { provider: "openai", headers: { "x-run": { regex: "^ci" } } },
      systemPromptMustInclude: ["bot"],
      onMismatch: "report",
      defaults: { usage: { inputTokens: 1 }, stream: { ttftMs: 1 }, latencyMs: 0 },
      steps: [
        {
          id: "s",
          match: { turn: 1, toolResult: { name: "f" } },
          expect: { tools: ["f"], temperature: 0.1, reasoning: "enabled" },
          consume: false,
          failures: [
            { kind: "rate_limit", retryAfterMs: 100, retryable: true, headers: { a: "b" } },
            { kind: "timeout", delayMs: 10 },
            { kind: "network_error", afterChunks: 2 },
            { kind: "stream_error", afterChunks: 1, errorType: "overloaded_error" },
            { kind: "http", status: 418, body: { teapot: true } },
          ],
          respond: {
            text: "t",
            reasoning: [{ text: "r", signature: "sig" }, { redacted: "xyz" }],
            toolCalls: [{ id: "call_1", name: "f", arguments: "{not json" }],
            finishReason: "tool_calls",
            stream: { tokensPerSecond: 10, chunkWords: 2, jitterMs: 3, seed: 7 },
            headers: { "x-extra": "1" },
          },
        },
      ],
    });
    expect(r.ok).toBe(true);
  });

  it.each([
    { doc: { name: "x", steps: [], extra: 1 }, issues: [{ path: "$.extra", message: 'unknown key "extra"' }] },
    { doc: { name: "Bad Name", steps: [] }, issues: [{ path: "$.name", message: "must match [a-z0-9][a-z0-9._-]{0,63}" }] },
    {
      doc: { name: "x", steps: [{ respond: { txt: "typo" } }] },
      issues: [{ path: "$.steps[0].respond.txt", message: 'unknown key "txt"; did you mean "text"?' }],
    },
    {
      doc: { name: "x", steps: [{ failures: [{ kind: "explode" }] }] },
      issues: [{ path: "$.steps[0].failures[0].kind", message: expect.stringContaining("rate_limit") }],
    },
    {
      doc: { name: "x", steps: [{ match: { lastUserMessage: { regex: "(" } } }] },
      issues: [{ path: "$.steps[0].match.lastUserMessage.regex", message: "not a valid regular expression" }],
    },
    {
      doc: { name: "x", steps: [{ id: "a" }, { id: "a" }] },
      issues: [{ path: "$.steps[1].id", message: 'duplicate step id "a" (also steps[0])' }],
    },
    { doc: { name: "x" }, issues: [{ path: "$.steps", message: expect.stringContaining("expected array") }] },
  ])("rejects with JSON paths: $issues.0.path", ({ doc, issues }) => {
    const r = parseScenarioDocument(doc);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.issues).toEqual(issues);
  });

  it("a name that differs from the URL's is rejected, saying it must equal it", () => {
    const r = parseScenarioDocument({ name: "a", steps: [] }, "b");
    expect(r).toEqual({ ok: false, issues: [{ path: "$.name", message: 'name "a" must equal the URL\'s name "b"' }] });
    const seed = parseScenarioDocument({ id: "a", turns: [{ turn: 1, response: { kind: "text", assistantText: "x" } }] }, "b");
    expect(seed).toEqual({ ok: false, issues: [{ path: "$.id", message: 'id "a" must equal the URL\'s name "b"' }] });
  });

  it("a missing name says what it must be", () => {
    expect(parseScenarioDocument({ steps: [] }, "weather")).toEqual({
      ok: false,
      issues: [{ path: "$.name", message: 'missing: "name" must equal the URL\'s name "weather"' }],
    });
    expect(parseScenarioDocument({ naem: "weather", steps: [] }, "weather")).toEqual({
      ok: false,
      issues: [
        { path: "$.name", message: 'missing: "name" must equal the URL\'s name "weather"' },
        { path: "$.naem", message: 'unknown key "naem"; did you mean "name"?' },
      ],
    });
    expect(parseScenarioDocument({ steps: [] })).toEqual({
      ok: false,
      issues: [{ path: "$.name", message: 'missing: every scenario needs a "name" (lower-case letters, digits, ".", "_", "-")' }],
    });
  });

  const FORMS = 'a StringMatch is a string (exact match) or one of {"equals": "…"}, {"contains": "…"}, {"regex": "…", "flags": "i"}';

  it.each([
    { name: "matcher key", doc: { match: { lastUsrMessage: "hi" } }, path: "$.steps[0].match.lastUsrMessage", message: 'unknown key "lastUsrMessage"; did you mean "lastUserMessage"?' },
    { name: "case only", doc: { match: { LastUserMessage: "hi" } }, path: "$.steps[0].match.LastUserMessage", message: 'unknown key "LastUserMessage"; did you mean "lastUserMessage"?' },
    { name: "swapped letters", doc: { cosnume: false }, path: "$.steps[0].cosnume", message: 'unknown key "cosnume"; did you mean "consume"?' },
    { name: "failure field", doc: { failures: [{ kind: "rate_limit", retryAfter: 3 }] }, path: "$.steps[0].failures[0].retryAfter", message: 'unknown key "retryAfter"; did you mean "retryAfterMs"?' },
    { name: "nothing close", doc: { respond: { zzzqqq: 1 } }, path: "$.steps[0].respond.zzzqqq", message: 'unknown key "zzzqqq"' },
  ])("unknown key, did you mean from the schema's own keys: $name", ({ doc, path, message }) => {
    expect(parseScenarioDocument({ name: "x", steps: [doc] })).toEqual({ ok: false, issues: [{ path, message }] });
  });

  it.each([
    { name: "contain", value: { contain: "x" }, message: `an object with "contain" is not a StringMatch; did you mean "contains"? (${FORMS})` },
    { name: "equal in headers", value: { equal: "x" }, at: "headers", message: `an object with "equal" is not a StringMatch; did you mean "equals"? (${FORMS})` },
    { name: "a number", value: 5, message: `expected a StringMatch, got number (${FORMS})` },
    { name: "an empty object", value: {}, message: `{} is not a StringMatch (${FORMS})` },
  ])("a malformed StringMatch says which forms it takes: $name", ({ value, at, message }) => {
    const match = at === "headers" ? { headers: { "x-run": value } } : { lastUserMessage: value };
    const path = at === "headers" ? '$.steps[0].match.headers["x-run"]' : "$.steps[0].match.lastUserMessage";
    expect(parseScenarioDocument({ name: "x", steps: [{ match }] })).toEqual({ ok: false, issues: [{ path, message }] });
  });

  it("a StringMatch form with a bad value keeps that form's own issue", () => {
    const r = parseScenarioDocument({ name: "x", steps: [{ match: { lastUserMessage: { contains: 5 } } }] });
    expect(r).toEqual({
      ok: false,
      issues: [{ path: "$.steps[0].match.lastUserMessage.contains", message: "Invalid input: expected string, received number" }],
    });
  });
});
