// The Node runtime's session storages under the shared state machine: the same contract the Durable Object's SQLite
// storages keep (test/integration/session-object.test.ts checks those inside workerd).
import { wireToolCallIds } from "../../src/providers/registry";
import { describe, expect, it } from "vitest";
import { JOURNAL_LIMIT, SessionCore, type NeedsDocument, type NextInput, type NextResult } from "../../src/session/core";
import { MAX_STORED_RESPONSES } from "../../src/session/responses";
import { emptySessionData, MemoryResponsesStorage, MemorySessionStorage } from "../../src/hosts/node/memory";
import { ScenarioSchema } from "../../src/scenario/schema";
import { req } from "./fixtures";

const document = ScenarioSchema.parse({
  name: "mem",
  steps: [
    { id: "flaky", failures: [{ kind: "rate_limit" }], respond: { text: "ok" } },
    { id: "again", consume: false, respond: { text: "again" } },
  ],
});

function input(i: number, withDocument = true): NextInput {
  return {
    scenario: "mem",
    session: "s",
    version: "v1",
    ...(withDocument ? { document } : {}),
    request: req({ messages: [{ role: "user", text: `message ${i}` }] }),
    wire: { method: "POST", path: "/v1/chat/completions", headers: {}, body: { i } },
    statuses: { mismatch: 400, rate_limit: 429 },
  };
}

function decided(r: NextResult | NeedsDocument): NextResult {
  if ("needsDocument" in r) throw new Error("expected a decision");
  return r;
}

describe("SessionCore over the memory storage", () => {
  it("asks for the document once, counts attempts, consumes steps and reports changes", () => {
    let changes = 0;
    const core = new SessionCore(new MemorySessionStorage(emptySessionData(), () => changes++), wireToolCallIds);
    expect(core.next(input(1, false))).toStrictEqual({ needsDocument: true });
    expect(changes).toBe(0);
    const first = decided(core.next(input(1)));
    expect([first.seq, first.journaled, first.step]).toStrictEqual([1, "failure", "flaky"]);
    const second = decided(core.next(input(2, false)));
    expect([second.seq, second.journaled, second.step, second.version]).toStrictEqual([2, "response", "flaky", "v1"]);
    const third = decided(core.next(input(3, false)));
    expect([third.seq, third.step]).toStrictEqual([3, "again"]);
    expect(core.state()).toMatchObject({
      version: "v1",
      requests: 3,
      steps: [
        { id: "flaky", used: true, attempts: 2 },
        { id: "again", used: false, attempts: 1 },
      ],
    });
    expect(changes).toBeGreaterThan(0);
  });

  it("keeps the newest 1,000 journal entries, seqs counting on, and forgets everything on reset", () => {
    const core = new SessionCore(new MemorySessionStorage(emptySessionData()), wireToolCallIds);
    for (let i = 1; i <= JOURNAL_LIMIT + 7; i++) core.next(input(i));
    const journal = core.requests();
    expect(journal).toHaveLength(JOURNAL_LIMIT);
    expect([journal[0]!.seq, journal[0]!.request.body, journal.at(-1)!.seq]).toStrictEqual([8, { i: 8 }, JOURNAL_LIMIT + 7]);
    core.reset();
    expect(core.requests()).toStrictEqual([]);
    expect(core.next(input(1, false))).toStrictEqual({ needsDocument: true });
  });
});

describe("MemorySessionStorage's journal (each entry kept as its JSON text)", () => {
  const draft = (i: number) => ({
    at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
    provider: "openai",
    endpoint: "chat.completions",
    stream: false,
    turn: 1,
    step: "s",
    outcome: "response" as const,
    reasons: [],
    request: { method: "POST", path: "/v1/chat/completions", headers: { "x-n": String(i) }, body: undefined },
    status: 200,
  });

  it("reads back a body given as text as the value parsed from it, in its place last in the request, seq first", () => {
    const storage = new MemorySessionStorage(emptySessionData());
    expect(storage.append(draft(1), JOURNAL_LIMIT, { bodyJson: '{ "model": "m",\n  "messages": [] }' })).toBe(1);
    const [entry] = storage.journal();
    expect(entry).toStrictEqual({ seq: 1, ...draft(1), request: { method: "POST", path: "/v1/chat/completions", headers: { "x-n": "1" }, body: { model: "m", messages: [] } } });
    expect(Object.keys(entry!)[0]).toBe("seq");
    expect(Object.keys(entry!.request)).toStrictEqual(["method", "path", "headers", "body"]);
    expect(storage.lastAt()).toBe(draft(1).at);
  });

  it("keeps the newest `limit` entries through many times the bound, newest first on demand, and restores what it dumps", () => {
    const data = emptySessionData();
    const storage = new MemorySessionStorage(data);
    for (let i = 1; i <= 5 * 10 + 3; i++) storage.append({ ...draft(i % 60), request: { ...draft(i).request, body: { i } } }, 10);
    expect(storage.journalSize()).toBe(10);
    const journal = storage.journal();
    expect(journal.map((e) => e.seq)).toStrictEqual([44, 45, 46, 47, 48, 49, 50, 51, 52, 53]);
    expect(journal.map((e) => e.request.body)).toStrictEqual([44, 45, 46, 47, 48, 49, 50, 51, 52, 53].map((i) => ({ i })));
    expect([...storage.newestFirst()].map((e) => e.seq)).toStrictEqual([53, 52, 51, 50, 49, 48, 47, 46, 45, 44]);
    // What `--persist` writes is the journal as objects; a storage made over it reads the same journal back.
    const restored = new MemorySessionStorage({ ...data, journal });
    expect(restored.journal()).toStrictEqual(journal);
    expect(restored.append(draft(9), 10)).toBe(54);
    expect(restored.journal().map((e) => e.seq)).toStrictEqual([45, 46, 47, 48, 49, 50, 51, 52, 53, 54]);
  });
});

describe("MemoryResponsesStorage", () => {
  const rec = (id: string, previousId: string | null = null) => ({
    id,
    previousId,
    input: `[{"n":"${id}"}]`,
    response: `{"id":"${id}"}`,
    items: [{ id: `msg_${id}`, json: `{"id":"msg_${id}"}` }],
  });

  it("walks previous_response_id chains, finds items, and bounds what it keeps", () => {
    const store = new MemoryResponsesStorage({ responses: [], pointers: [] });
    store.save(rec("a"), 1);
    store.save(rec("b", "a"), 2);
    expect(store.history("b")).toStrictEqual({
      segments: [
        { input: '[{"n":"a"}]', output: ['{"id":"msg_a"}'] },
        { input: '[{"n":"b"}]', output: ['{"id":"msg_b"}'] },
      ],
      missing: null,
    });
    expect(store.history("c")).toStrictEqual({ segments: [], missing: "c" });
    expect(store.items(["msg_b", "msg_z"])).toStrictEqual({ msg_b: '{"id":"msg_b"}' });
    for (let i = 0; i < MAX_STORED_RESPONSES; i++) store.save(rec(`x${i}`), 10 + i);
    expect(store.load("a")).toBeNull();
    expect(store.load("b")).toBeNull();
    expect(store.load(`x${MAX_STORED_RESPONSES - 1}`)).toBe(`{"id":"x${MAX_STORED_RESPONSES - 1}"}`);
    expect(store.items(["msg_a"])).toStrictEqual({});
    expect(store.delete("x0")).toBe(true);
    expect(store.delete("x0")).toBe(false);
  });

  it("forgets index pointers older than seven days", () => {
    const store = new MemoryResponsesStorage({ responses: [], pointers: [] });
    const day = 24 * 3600 * 1000;
    store.point("old", "s/1", 0);
    store.point("new", "s/2", 8 * day);
    expect(store.pointer("old", 8 * day)).toBeNull();
    expect(store.pointer("new", 8 * day)).toBe("s/2");
    expect(store.dump().pointers.map((p) => p.id)).toStrictEqual(["new"]);
  });
});

describe("a scenario's `limits` window, kept in memory between turns", () => {
  const limited = ScenarioSchema.parse({
    name: "mem",
    limits: { requestsPerMinute: 4, tokensPerMinute: 70 },
    steps: [{ consume: false, respond: { text: "ok", usage: { inputTokens: 10, outputTokens: 5 } } }],
  });
  const turn = (i: number): NextInput => ({ ...input(i), document: limited });
  const seen = (r: NextResult) => [r.seq, r.outcome.kind, r.limits?.requests?.remaining, r.limits?.tokens?.remaining, r.limits?.requests?.resetMs];

  it("answers every turn as a core reading the journal afresh would: bursts, 429s not counted, a minute's gap, a reset", () => {
    const t0 = Date.parse("2026-12-02T10:00:00Z");
    // Arrival offsets (ms): a burst past both limits, turns as the oldest leave the window, a gap of over a minute.
    const schedule = [0, 1, 2, 3, 4, 5, 10_000, 59_999, 60_000, 60_001, 60_002, 61_000, 125_000, 125_001, 185_001, 185_002];
    const kept = new SessionCore(new MemorySessionStorage(emptySessionData()), wireToolCallIds);
    const storage = new MemorySessionStorage(emptySessionData());
    const keptSeen: unknown[] = [];
    const freshSeen: unknown[] = [];
    schedule.forEach((at, i) => {
      if (i === 14) {
        kept.reset();
        new SessionCore(storage, wireToolCallIds).reset();
      }
      keptSeen.push(seen(decided(kept.next(turn(i), t0 + at))));
      freshSeen.push(seen(decided(new SessionCore(storage, wireToolCallIds).next(turn(i), t0 + at))));
    });
    expect(keptSeen).toStrictEqual(freshSeen);
    // The burst: four requests a minute, 15 tokens each of 70: the fifth and sixth get the 429 (not counted), the
    // requests' bucket full again a minute after the newest counted one.
    expect(keptSeen.slice(0, 6)).toStrictEqual([
      [1, "reply", 3, 55, 60_000],
      [2, "reply", 2, 40, 60_000],
      [3, "reply", 1, 25, 60_000],
      [4, "reply", 0, 10, 60_000],
      [5, "failure", 0, 10, 59_999],
      [6, "failure", 0, 10, 59_998],
    ]);
    expect(keptSeen[14]).toStrictEqual([1, "reply", 3, 55, 60_000]);
  });

  it("counts at most the journal's newest 1,000 entries, as a read of the journal does", () => {
    const many = ScenarioSchema.parse({ name: "mem", limits: { requestsPerMinute: 1500 }, steps: [{ consume: false, respond: { text: "ok" } }] });
    const storage = new MemorySessionStorage(emptySessionData());
    const core = new SessionCore(storage, wireToolCallIds);
    const now = Date.parse("2026-12-02T10:00:00Z");
    let last: NextResult | undefined;
    for (let i = 1; i <= JOURNAL_LIMIT + 3; i++) last = decided(core.next({ ...input(i), document: many }, now + i));
    expect([last!.seq, last!.limits?.requests?.remaining]).toStrictEqual([JOURNAL_LIMIT + 3, 1500 - JOURNAL_LIMIT - 1]);
    const fresh = decided(new SessionCore(storage, wireToolCallIds).next({ ...input(0), document: many }, now + JOURNAL_LIMIT + 4));
    const kept = decided(core.next({ ...input(0), document: many }, now + JOURNAL_LIMIT + 5));
    expect([fresh.limits?.requests?.remaining, kept.limits?.requests?.remaining]).toStrictEqual([1500 - JOURNAL_LIMIT - 1, 1500 - JOURNAL_LIMIT - 1]);
  });
});
