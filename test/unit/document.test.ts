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
      issues: [{ path: "$.steps[0].respond.txt", message: 'unknown key "txt"' }],
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

  it("a name that differs from the URL's is rejected", () => {
    const r = parseScenarioDocument({ name: "a", steps: [] }, "b");
    expect(r).toEqual({ ok: false, issues: [{ path: "$.name", message: 'name "a" does not match the URL\'s "b"' }] });
  });
});
