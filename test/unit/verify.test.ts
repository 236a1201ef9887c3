/**
 * Verify, coverage and the canonical view as pure functions: the cases the integration tests do not reach.
 */
import { wireToolCallIds } from "../../src/providers/registry";
import { describe, expect, it } from "vitest";
import { resolveReply } from "../../src/scenario/engine";
import { canonicalView, CANONICAL_TEXT_LIMIT } from "../../src/session/canonical-view";
import { SessionCore, type JournalEntry, type SessionView } from "../../src/session/core";
import { coverage, describeMatch, verifySession } from "../../src/session/verify";
import { emptySessionData, MemorySessionStorage } from "../../src/hosts/node/memory";
import type { Scenario } from "../../src/scenario/schema";
import type { Endpoint } from "../../src/canonical/request";
import type { Reply } from "../../src/canonical/outcome";
import { req, toolTurn } from "./fixtures";

/** Runs requests through a real SessionCore over memory storage; answers the view and journal verify reads. */
function run(doc: Scenario, requests: ReturnType<typeof req>[]): { view: SessionView; journal: JournalEntry[] } {
  const core = new SessionCore(new MemorySessionStorage(emptySessionData()), wireToolCallIds);
  let now = Date.parse("2026-01-01T00:00:00Z");
  for (const request of requests) {
    core.next(
      {
        scenario: doc.name,
        session: "s",
        version: "v1",
        document: doc,
        request,
        wire: { method: "POST", path: "/", headers: {}, body: null },
        statuses: { mismatch: 400, rate_limit: 429, overloaded: 529 },
      },
      now++,
    );
  }
  return { view: core.state(doc), journal: core.requests() };
}

describe("describeMatch", () => {
  it("says what a matcher matches on, whatever its keys", () => {
    expect(describeMatch(undefined)).toBe("any request");
    expect(describeMatch({})).toBe("any request");
    expect(describeMatch({ turn: 2, provider: ["openai", "anthropic"], model: { regex: "^gpt", flags: "i" } })).toBe('turn 2, provider ["openai","anthropic"], model matching /^gpt/i');
    expect(describeMatch({ toolResult: { name: "get_weather", content: { contains: "sunny" } } })).toBe('toolResult { name "get_weather", content contains "sunny" }');
  });
});

describe("verifySession", () => {
  it("a consume:false step counts as used once it answered (it is never marked used)", () => {
    const doc: Scenario = { name: "loop", steps: [{ id: "again", consume: false, respond: { text: "x" } }] };
    const { view, journal } = run(doc, [req(), req()]);
    expect(view.steps[0]!.used).toBe(false);
    expect(verifySession({ scenario: "loop", session: "s", document: doc, view, journal }).ok).toBe(true);
  });

  it("a failure the client retried past is not pending; allowUnused also covers a pending step", () => {
    const doc: Scenario = {
      name: "f",
      steps: [
        { id: "a", match: { turn: 1 }, failures: [{ kind: "overloaded" }], respond: { text: "a" } },
        { id: "b", match: { turn: 2 }, failures: [{ kind: "rate_limit" }, { kind: "rate_limit" }], respond: { text: "b" } },
      ],
    };
    const turn2 = req({}, [
      { role: "user", text: "hi" },
      { role: "assistant", text: "a", toolCalls: [], reasoning: [] },
      { role: "user", text: "more" },
    ]);
    const { view, journal } = run(doc, [req(), req(), turn2]);
    const v = verifySession({ scenario: "f", session: "s", document: doc, view, journal });
    expect(v.pendingFailures).toEqual([{ id: "b", index: 2, served: 1, scripted: 2, last: "attempt 1: scripted rate_limit", status: 429 }]);
    const allowed = verifySession({ scenario: "f", session: "s", document: doc, view, journal, allowUnused: ["b"] });
    expect(allowed.ok).toBe(true);
    expect(allowed.summary).toMatch(/\(unused but allowed: b\)$/);
  });

  it("lists at most 10 mismatches in the summary and says how many more there are", () => {
    const doc: Scenario = { name: "m", steps: [{ id: "only", match: { lastUserMessage: "exactly this" } }] };
    const { view, journal } = run(
      doc,
      Array.from({ length: 12 }, (_, i) => req({}, [{ role: "user", text: `try ${i}` }])),
    );
    const v = verifySession({ scenario: "m", session: "s", document: doc, view, journal });
    expect(v.mismatches).toHaveLength(12);
    expect(v.summary.match(/^ {2}- request #/gm)).toHaveLength(10);
    expect(v.summary).toContain("  … and 2 more (see the journal)");
  });

  it("journal entries from before the canonical view still verify (no last user message known)", () => {
    const doc: Scenario = { name: "m", steps: [{ id: "only", match: { turn: 3 } }] };
    const { view, journal } = run(doc, [req()]);
    const old = journal.map(({ canonical: _, ...rest }) => rest);
    const v = verifySession({ scenario: "m", session: "s", document: doc, view, journal: old });
    expect(v.mismatches[0]).toMatchObject({ lastUserMessage: null, toolResults: [] });
    expect(v.summary).toContain("    last user message: (none)");
  });

  it("steps are described from the current document by id; a step no longer there says so", () => {
    const doc: Scenario = { name: "d", steps: [{ id: "gone", respond: { text: "x" } }] };
    const { view, journal } = run(doc, []);
    const v = verifySession({ scenario: "d", session: "s", document: { name: "d", steps: [] }, view, journal });
    expect(v.unusedSteps).toEqual([{ id: "gone", index: 1, match: "any request", respond: "(step no longer in the scenario)" }]);
  });
});

describe("coverage", () => {
  it("adds sessions, attempts, failures and nearest-step mismatches per step; unknown step ids are ignored", () => {
    const doc: Scenario = {
      name: "c",
      steps: [
        { id: "hi", match: { lastUserMessage: "hi" }, failures: [{ kind: "rate_limit" }], respond: { text: "a" } },
        { id: "bye", match: { lastUserMessage: "bye" }, respond: { text: "b" } },
      ],
    };
    const one = run(doc, [req({}, [{ role: "user", text: "hi" }]), req({}, [{ role: "user", text: "hi" }])]);
    const two = run(doc, [req({}, [{ role: "user", text: "hi" }]), req({}, [{ role: "user", text: "byee" }])]);
    const other = run({ name: "c", steps: [{ id: "old", respond: { text: "x" } }] }, [req()]);
    const c = coverage("c", "v1", doc, [one, two, other]);
    expect(c.sessions).toBe(3);
    expect(c.steps.map(({ id, sessions, attempts, failures, mismatches }) => ({ id, sessions, attempts, failures, mismatches }))).toEqual([
      { id: "hi", sessions: 1, attempts: 3, failures: 2, mismatches: 1 },
      { id: "bye", sessions: 0, attempts: 0, failures: 0, mismatches: 0 },
    ]);
  });
});

describe("canonicalView", () => {
  it("derives tool-call ids per provider as the renderers do, and cuts long strings", () => {
    const reply = { ...resolveReply(undefined, { respond: { toolCalls: [{ name: "f" }, { name: "g", id: "mine" }] } }, req(), "seed"), text: "y".repeat(5000) };
    const ids = (provider: "openai" | "anthropic" | "ollama" | "gemini") => canonicalView(req({ provider }), { kind: "reply", reply }, wireToolCallIds).answered!.toolCalls.map((c) => c.id);
    expect(ids("openai")[0]).toMatch(/^call_[A-Za-z0-9]{24}$/);
    expect(ids("anthropic")[0]).toMatch(/^toolu_01[A-Za-z0-9]{22}$/);
    expect(ids("ollama")[0]).toMatch(/^call_[a-z0-9]{8}$/);
    expect(ids("gemini")).toEqual([null, "mine"]);
    expect(ids("openai")[1]).toBe("mine");
    const text = canonicalView(req(), { kind: "reply", reply }, wireToolCallIds).answered!.text!;
    expect(text).toBe(`${"y".repeat(CANONICAL_TEXT_LIMIT)}…[mockllm: truncated 1000 characters]`);
  });

  it("a transcription shows the transcript it answered; images, speech, moderations and rerank show no text or calls", () => {
    const reply = resolveReply(undefined, { respond: { text: "unused", toolCalls: [{ name: "f" }] } }, req(), "seed");
    const view = (endpoint: Endpoint, r: Reply = reply) => canonicalView(req({ endpoint }), { kind: "reply", reply: r }, wireToolCallIds).answered;
    expect(view("transcriptions")).toEqual({ text: "The quick brown fox jumps over the lazy dog.", toolCalls: [] });
    expect(view("transcriptions", { ...reply, transcript: "Bonjour." })).toEqual({ text: "Bonjour.", toolCalls: [] });
    expect(view("transcriptions", { ...reply, transcript: { text: "Hola.", language: "spanish" } })).toEqual({ text: "Hola.", toolCalls: [] });
    for (const endpoint of ["images", "speech", "moderations", "rerank"] as const) expect(view(endpoint)).toEqual({ text: null, toolCalls: [] });
    expect(view("chat.completions")!.text).toBe("unused");
  });

  it("tool results after the last assistant turn, with names resolved from its calls", () => {
    const v = canonicalView(req({ tools: ["get_weather"] }, toolTurn), { kind: "mismatch", message: "x" }, wireToolCallIds);
    expect(v).toEqual({
      tools: ["get_weather"],
      toolResults: [{ name: "get_weather", toolCallId: "call_1", content: "sunny, 22C" }],
      lastUserMessage: "weather in Paris?",
      answered: null,
      model: "gpt-4o-mini",
      stream: false,
      usage: null,
    });
  });
});
