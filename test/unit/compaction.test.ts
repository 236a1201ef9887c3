/**
 * Compaction, pure parts (contract section 10): the OpenAI blob, the compacted conversation, the engine's choice of
 * step for a compaction request, the `compacted` matcher, and the builder.
 */
import { describe, expect, it } from "vitest";
import { step } from "../../src/client/index";
import { compactionBlob, summaryOfBlob } from "../../src/providers/openai/responses/compaction";
import { parseItems, parseResponsesRequest } from "../../src/providers/openai/responses/parse";
import { restoredLocal, savedLocal } from "../../src/providers/openai/responses/state";
import { decide } from "../../src/scenario/engine";
import { matchMisses } from "../../src/scenario/matchers";
import { ScenarioSchema } from "../../src/scenario/schema";
import { req } from "./fixtures";

const ctx = { scenario: "demo", session: "s1" };

function openai(input: unknown[]) {
  const parsed = parseResponsesRequest({ model: "gpt-5", input }, new Headers());
  if (!parsed.ok) throw new Error(parsed.error.message);
  return parsed.request;
}

describe("the OpenAI compaction blob", () => {
  it("is opaque-looking, deterministic, and read back; a foreign blob has an unknown summary", () => {
    const blob = compactionBlob("The user asked about Paris. ✓");
    expect(blob).toMatch(/^gAAAAAB[A-Za-z0-9_-]+$/);
    expect(compactionBlob("The user asked about Paris. ✓")).toBe(blob);
    expect(summaryOfBlob(blob)).toBe("The user asked about Paris. ✓");
    expect(summaryOfBlob("gAAAAABforeign")).toBe("");
    expect(summaryOfBlob("not-ours")).toBe("");
  });
});

describe("a compaction item in the input", () => {
  it("stands for what came before it: user messages stay, the rest goes, the summary is the request's compaction", () => {
    const request = openai([
      { role: "user", content: "Plan a trip." },
      { role: "assistant", content: "Where to?" },
      { type: "function_call", call_id: "call_1", name: "search", arguments: "{}" },
      { type: "function_call_output", call_id: "call_1", output: "Kyoto" },
      { type: "compaction", encrypted_content: compactionBlob("Trip to Kyoto.") },
      { role: "user", content: "Book it." },
    ]);
    expect(request.messages).toEqual([
      { role: "user", text: "Plan a trip." },
      { role: "user", text: "Book it." },
    ]);
    expect(request.compaction).toEqual({ summary: "Trip to Kyoto." });
    expect(request.compactionRequested).toBeUndefined();
  });

  it("a request without one has no compaction field at all; a trailing compaction_trigger asks for one", () => {
    expect("compaction" in openai([{ role: "user", content: "hi" }])).toBe(false);
    expect(openai([{ role: "user", content: "hi" }, { type: "compaction_trigger" }]).compactionRequested).toBe(true);
  });
});

describe("the engine and the compacted matcher", () => {
  const sc = ScenarioSchema.parse({
    name: "demo",
    steps: [
      { id: "turn", respond: { text: "A turn." } },
      { id: "squash", match: { lastUserMessage: "squash me" }, respond: { compaction: { summary: "Scripted." } } },
    ],
  });

  it("a compaction request takes only compaction steps, else gets the default compaction and uses no step", () => {
    const scripted = decide(sc, { used: [], attempts: {} }, { ...req({}, [{ role: "user", text: "squash me" }]), compactionRequested: true }, ctx);
    expect(scripted.journal.step).toBe("squash");
    expect(scripted.outcome.kind === "reply" && scripted.outcome.reply.compaction).toEqual({ summary: "Scripted." });
    expect(scripted.outcome.kind === "reply" && scripted.outcome.reply.text).toBeUndefined();

    const fallback = decide(sc, { used: [], attempts: {} }, { ...req({}, [{ role: "user", text: "other" }]), compactionRequested: true }, ctx);
    expect(fallback.journal).toEqual({ outcome: "response", reasons: ["no compaction step: the default compaction"] });
    expect(fallback.change).toEqual({});
    expect(fallback.outcome.kind === "reply" && fallback.outcome.reply.compaction?.summary).toBe('Summary of 1 earlier messages (1 from the user). Last user message: "other".');
  });

  it("compacted: true / false", () => {
    const carried = { ...req(), compaction: { summary: "s" } };
    expect(matchMisses({ compacted: true }, carried)).toEqual([]);
    expect(matchMisses({ compacted: false }, carried)).toEqual([{ field: "match.compacted", expected: "false", actual: "a compaction item/block" }]);
    expect(matchMisses({ compacted: true }, req())).toEqual([{ field: "match.compacted", expected: "true", actual: "no compaction item/block" }]);
  });

  it("the builder writes both", () => {
    expect(step().matchCompacted().compaction("Short.").toJSON()).toEqual({ match: { compacted: true }, respond: { compaction: { summary: "Short." } } });
  });
});

describe("the Responses WebSocket's connection-local response", () => {
  it("survives being saved as JSON (Workers keeps it across hibernation); anything else restores nothing", () => {
    const items = parseItems([
      { role: "user", content: "hi" },
      { type: "compaction", encrypted_content: compactionBlob("s") },
      { type: "web_search_call", id: "ws_1", status: "completed" },
    ]);
    if (!items.ok) throw new Error("parse");
    const local = { id: "resp_1", items: items.items };
    expect(restoredLocal(JSON.parse(JSON.stringify(savedLocal(local))))).toEqual(local);
    expect(savedLocal(undefined)).toBeNull();
    expect(restoredLocal(null)).toBeUndefined();
    expect(restoredLocal({ id: 1, items: [] })).toBeUndefined();
  });
});

describe("a function_call_output's call", () => {
  it("may be any tool call of the conversation (Codex answers local_shell_call with function_call_output)", () => {
    const parsed = parseResponsesRequest(
      {
        model: "gpt-5",
        input: [
          { role: "user", content: "ls" },
          { type: "local_shell_call", call_id: "call_sh", status: "completed", action: { type: "exec", command: ["ls"] } },
          { type: "function_call_output", call_id: "call_sh", output: "README.md" },
        ],
      },
      new Headers(),
    );
    expect(parsed.ok).toBe(true);
    const orphan = parseResponsesRequest({ model: "gpt-5", input: [{ type: "function_call_output", call_id: "call_x", output: "1" }] }, new Headers());
    expect(orphan.ok ? null : orphan.error).toEqual({ code: "invalid_request", message: "No tool call found for function call output with call_id call_x.", param: "input" });
  });
});
