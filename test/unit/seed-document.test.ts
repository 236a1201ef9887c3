/**
 * The TestLLM seed format loads unchanged: validation (issue paths into the document as written) and conversion.
 */
import { describe, expect, it } from "vitest";
import { parseScenarioDocument } from "../../src/scenario/document";
import { isTestLlmDocument } from "../../src/scenario/testllm";
import type { Scenario } from "../../src/scenario/schema";
import doc from "../../scenarios/testllm-format.json";

/** The harness's run-test-1, as its fixture file wrote it, bundled under the id "testllm-format". */
const RUN_TEST_1: unknown = doc;

function load(doc: unknown, name?: string): Scenario {
  const r = parseScenarioDocument(doc, name);
  if (!r.ok) throw new Error(JSON.stringify(r.issues));
  return r.scenario;
}

function issues(doc: unknown, name?: string) {
  const r = parseScenarioDocument(doc, name);
  if (r.ok) throw new Error("expected issues");
  return r.issues;
}

describe("seed format detection", () => {
  it.each([
    { doc: { id: "x", turns: [] }, seed: true },
    { doc: { id: "x", description: "d", turns: [], systemPromptMustInclude: [] }, seed: true },
    { doc: { name: "x", steps: [] }, seed: false },
    { doc: { id: "x" }, seed: false },
    { doc: { turns: [] }, seed: false },
    { doc: [], seed: false },
    { doc: null, seed: false },
  ])("$doc → seed $seed", ({ doc, seed }) => {
    expect(isTestLlmDocument(doc)).toBe(seed);
  });
});

describe("seed → native scenario", () => {
  it("converts the harness's run-test-1 as written", () => {
    expect(load(RUN_TEST_1)).toEqual({
      name: "testllm-format",
      description: "The TestLLM harness's run-test-1, loaded unchanged: a tool call on turn 1, the final report on turn 2.",
      systemPromptMustInclude: ["Phase 1 deterministic harness"],
      onMismatch: "report",
      reportTitles: { expectations: "# Test Harness Error", noStep: "# Scenario Failure" },
      steps: [
        {
          id: "turn-1",
          match: { turn: 1 },
          expect: { tools: ["test__test"] },
          consume: false,
          respond: {
            text: "Requesting test to gather information.\n\nPreparing test input.",
            reasoning: [{ text: "Evaluating task before invoking tool.", signature: "scenario-run-test-1-step-0" }],
            toolCalls: [{ id: "call-test-1", name: "test__test", arguments: { text: "phase-1-tool-success" } }],
            finishReason: "tool_calls",
            usage: { inputTokens: 120, outputTokens: 40 },
          },
        },
        {
          id: "turn-2",
          match: { turn: 2 },
          consume: false,
          respond: {
            text: "Synthesizing final report from tool output.",
            toolCalls: [
              {
                id: "agent-final-report",
                name: "agent__final_report",
                arguments: {
                  status: "success",
                  report_format: "markdown",
                  report_content: "# Phase 1 Result\n\nTool execution succeeded and data was recorded.",
                },
              },
            ],
            usage: { inputTokens: 80, outputTokens: 30 },
          },
        },
      ],
    });
  });

  it("keeps a native document native", () => {
    const sc = load({ name: "native", steps: [{ respond: { text: "hi" } }] });
    expect(sc).toEqual({ name: "native", steps: [{ respond: { text: "hi" } }] });
  });

  it("accepts $schema, and onMismatch to opt back into HTTP 400 errors", () => {
    const sc = load({ $schema: "x.json", id: "x", onMismatch: "error", turns: [] });
    expect(sc.onMismatch).toBe("error");
  });

  it("checks the URL name against id", () => {
    expect(load(RUN_TEST_1, "testllm-format").name).toBe("testllm-format");
    expect(issues(RUN_TEST_1, "other")).toEqual([{ path: "$.id", message: 'id "testllm-format" must equal the URL\'s name "other"' }]);
  });
});

describe("seed validation: strict, with JSON paths into the document as written", () => {
  const turn = (over: Record<string, unknown>) => ({
    id: "s",
    turns: [{ turn: 1, response: { kind: "text", assistantText: "hi" }, ...over }],
  });

  it.each([
    { why: "a typo in a turn field", doc: turn({ expectedTool: ["x"] }), path: "$.turns[0].expectedTool" },
    { why: "an unknown failureStatus", doc: turn({ failureStatus: "boom" }), path: "$.turns[0].failureStatus" },
    { why: "a negative failuresBeforeSuccess", doc: turn({ failuresBeforeSuccess: -1 }), path: "$.turns[0].failuresBeforeSuccess" },
    { why: "turn 0", doc: turn({ turn: 0 }), path: "$.turns[0].turn" },
    { why: "an unknown response kind", doc: turn({ response: { kind: "image" } }), path: "$.turns[0].response.kind" },
    {
      why: "a tool call without toolName",
      doc: turn({ response: { kind: "tool-call", toolCalls: [{ arguments: {} }] } }),
      path: "$.turns[0].response.toolCalls[0].toolName",
    },
    {
      why: "a final report without reportFormat",
      doc: turn({ response: { kind: "final-report", reportContent: "x" } }),
      path: "$.turns[0].response.reportFormat",
    },
    { why: "an id that is not a scenario name", doc: { id: "Run Test", turns: [] }, path: "$.id" },
    { why: "an unknown top-level key", doc: { id: "s", turns: [], steps: [] }, path: "$.steps" },
  ])("$why → $path", ({ doc, path }) => {
    expect(issues(doc).map((i) => i.path)).toContain(path);
  });

  it("a duplicate turn number points at the second one", () => {
    const doc = {
      id: "s",
      turns: [
        { turn: 1, response: { kind: "text", assistantText: "a" } },
        { turn: 1, response: { kind: "text", assistantText: "b" } },
      ],
    };
    expect(issues(doc)).toEqual([{ path: "$.turns[1].turn", message: "duplicate turn 1 (also turns[0])" }]);
  });
});
