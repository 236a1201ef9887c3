import { describe, expect, it } from "vitest";
import { env, runInDurableObject } from "cloudflare:test";
import { JOURNAL_LIMIT, SessionCore, type NeedsDocument, type NextInput, type NextResult } from "../../src/session/core";
import { wireToolCallIds } from "../../src/providers/registry";
import { pacedStream } from "../../src/http/sse";
import { WorkerContext } from "../../src/hosts/workers/context";
import type { SessionObject } from "../../src/hosts/workers/session-object";
import { JOURNAL_TRIM_BATCH, SqlSessionStorage } from "../../src/hosts/workers/sql-session";
import { SqlTables } from "../../src/hosts/workers/sql-tables";
import { ScenarioSchema } from "../../src/scenario/schema";
import { admin, call, upload } from "./helpers";

const scenario = ScenarioSchema.parse({ name: "direct", steps: [{ consume: false, respond: { text: "x" } }] });

function input(i: number): NextInput {
  return {
    scenario: "direct",
    session: "s",
    version: "v1",
    document: scenario,
    request: {
      provider: "openai",
      endpoint: "chat.completions",
      model: "m",
      stream: false,
      system: "",
      messages: [{ role: "user", text: `message ${i}` }],
      tools: [],
      reasoning: "disabled",
      headers: {},
    },
    wire: { method: "POST", path: "/v1/chat/completions", headers: {}, body: { i } },
    statuses: { mismatch: 400 },
  };
}

/** A `next` result that decided something (the document was at hand). */
function decided(r: NextResult | NeedsDocument): NextResult {
  if ("needsDocument" in r) throw new Error("expected a decision");
  return r;
}

describe("SessionObject", () => {
  it("keeps at most 1,000 journal entries, dropping the oldest", async () => {
    const stub = env.SESSIONS.getByName("direct/s");
    await runInDurableObject(stub, async (instance: SessionObject) => {
      for (let i = 1; i <= JOURNAL_LIMIT + 5; i++) await instance.next(input(i));
      const journal = instance.requests();
      expect(journal).toHaveLength(JOURNAL_LIMIT);
      expect(journal[0]!.seq).toBe(6);
      expect(journal[0]!.request.body).toEqual({ i: 6 });
      expect(journal.at(-1)!.seq).toBe(JOURNAL_LIMIT + 5);
      expect(instance.state().requests).toBe(JOURNAL_LIMIT);
      expect(instance.state().steps[0]!.attempts).toBe(JOURNAL_LIMIT + 5);
    });
  });

  it("asks for the document only while it has no snapshot; a running session gets the version alone", async () => {
    const stub = env.SESSIONS.getByName("direct/lazy");
    await runInDurableObject(stub, async (instance: SessionObject) => {
      const { document: _, ...bare } = input(1);
      expect(await instance.next(bare)).toStrictEqual({ needsDocument: true });
      expect(instance.requests()).toStrictEqual([]);
      expect(decided(await instance.next(input(1))).seq).toBe(1);
      const second = decided(await instance.next({ ...bare, wire: { ...bare.wire, body: { i: 2 } } }));
      expect([second.seq, second.version, second.outcome.kind]).toStrictEqual([2, "v1", "reply"]);
    });
  });

  it("keeps the first scenario version it saw until reset", async () => {
    const stub = env.SESSIONS.getByName("direct/versions");
    await runInDurableObject(stub, async (instance: SessionObject) => {
      expect(decided(await instance.next(input(1))).version).toBe("v1");
      const newer = { ...input(2), version: "v2", document: ScenarioSchema.parse({ name: "direct", steps: [] }) };
      const r = decided(await instance.next(newer));
      expect(r.version).toBe("v1");
      expect(r.outcome.kind).toBe("reply");
      await instance.reset();
      const after = decided(await instance.next(newer));
      expect(after.version).toBe("v2");
      expect(after.outcome.kind).toBe("mismatch");
      expect(instance.requests().map((j) => j.seq)).toEqual([1]);
    });
  });

  it("journals request bodies over 64 KiB truncated with a marker, and redacts keys", async () => {
    await upload({ name: "big", steps: [{ consume: false, respond: { text: "ok" } }] });
    const content = "y".repeat(70 * 1024);
    const res = await call("/s/big/v1/chat/completions", {
      method: "POST",
      headers: { authorization: "Bearer sk-secret", "x-api-key": "also-secret", "content-type": "application/json" },
      body: JSON.stringify({ model: "m", messages: [{ role: "user", content }] }),
    });
    expect(res.status).toBe(200);
    const journal = (await (await admin("/sessions/big/default/requests")).json()) as any[];
    const body = journal[0].request.body as string;
    expect(typeof body).toBe("string");
    expect(body.length).toBeLessThan(66 * 1024);
    expect(body).toMatch(/…\[mockllm: truncated \d+ of \d+ characters\]$/);
    expect(journal[0].request.headers.authorization).toBe("[redacted]");
    expect(journal[0].request.headers["x-api-key"]).toBe("[redacted]");
  });
});

describe("SessionObject storage after a restart", () => {
  const twoSteps = ScenarioSchema.parse({ name: "direct", steps: [{ respond: { text: "first" } }, { consume: false, respond: { text: "x" } }] });

  /** The session as a restarted object sees it: nothing in memory, everything read back from SQLite. */
  function reread(state: DurableObjectState): SessionCore {
    return new SessionCore(new SqlSessionStorage(new SqlTables(state.storage.sql)), wireToolCallIds);
  }

  // Inside the trim batch (the oldest rows still stored, their attempts counted from them) and past it (folded).
  for (const turns of [JOURNAL_LIMIT + 3, JOURNAL_LIMIT + JOURNAL_TRIM_BATCH + 3]) {
    it(`holds exactly what the running object held after ${turns} turns: attempts, steps used, counters, journal, next seq`, async () => {
      const stub = env.SESSIONS.getByName(`direct/restart-${turns}`);
      const before = await runInDurableObject(stub, async (instance: SessionObject) => {
        for (let i = 1; i <= turns; i++) await instance.next({ ...input(i), document: twoSteps });
        // A counter bumped with no journal row after it, twice in one event.
        expect([instance.increment("ids"), instance.increment("ids")]).toStrictEqual([1, 2]);
        return { state: instance.state(), requests: instance.requests() };
      });
      expect(before.state.steps.map((s) => [s.used, s.attempts])).toStrictEqual([
        [true, 1],
        [false, turns - 1],
      ]);
      expect(before.state.requests).toBe(JOURNAL_LIMIT);
      expect(before.requests.map((e) => e.seq)).toStrictEqual(Array.from({ length: JOURNAL_LIMIT }, (_, i) => turns - JOURNAL_LIMIT + i + 1));
      await runInDurableObject(stub, (_instance: SessionObject, state) => {
        const restarted = reread(state);
        expect(restarted.state()).toStrictEqual(before.state);
        expect(restarted.requests()).toStrictEqual(before.requests);
        // Newest first, page by page (16, 64, 256, …), within the same bound as the whole journal; a reader may stop.
        const storage = new SqlSessionStorage(new SqlTables(state.storage.sql));
        expect([...storage.newestFirst()]).toStrictEqual(before.requests.slice().reverse());
        const firstThree: number[] = [];
        for (const e of storage.newestFirst()) {
          firstThree.push(e.seq);
          if (firstThree.length === 3) break;
        }
        expect(firstThree).toStrictEqual([turns, turns - 1, turns - 2]);
        expect(restarted.increment("ids")).toBe(3);
        const next = restarted.next({ ...input(turns + 1), document: twoSteps }, Date.parse("2026-01-01T00:00:00Z"));
        expect("needsDocument" in next ? undefined : [next.seq, next.step]).toStrictEqual([turns + 1, "step-2"]);
      });
      await runInDurableObject(stub, (_instance: SessionObject, state) => {
        const again = reread(state);
        expect(again.state().steps.map((s) => [s.used, s.attempts])).toStrictEqual([
          [true, 1],
          [false, turns],
        ]);
        expect(again.state().requests).toBe(JOURNAL_LIMIT);
        expect(again.state().lastAt).toBe("2026-01-01T00:00:00.000Z");
        expect(again.requests()[0]!.seq).toBe(turns + 2 - JOURNAL_LIMIT);
        expect(again.increment("ids")).toBe(4);
      });
    });
  }

  it("writes one row a turn: the journal row carries the attempt it bumped and the step it consumed", async () => {
    const stub = env.SESSIONS.getByName("direct/one-row");
    await runInDurableObject(stub, async (instance: SessionObject, state) => {
      for (let i = 1; i <= 3; i++) await instance.next({ ...input(i), document: twoSteps });
      const sql = state.storage.sql;
      expect(sql.exec("SELECT attempt FROM journal ORDER BY seq").toArray()).toStrictEqual([{ attempt: "0:openai" }, { attempt: "1:openai" }, { attempt: "1:openai" }]);
      // No `attempts` or `used` table: they are made when a trim first folds the rows' counters and used steps into
      // them (tables are made on their first write).
      const tables = sql.exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' ORDER BY name").toArray();
      expect(tables.map((t) => t.name)).toStrictEqual(["journal", "meta"]);
      expect(sql.exec("SELECT used FROM journal ORDER BY seq").toArray()).toStrictEqual([{ used: 0 }, { used: null }, { used: null }]);
    });
  });

  it("reads a journal written before rows carried their attempt (counters all in `attempts`) and goes on from it", async () => {
    const stub = env.SESSIONS.getByName("direct/old-schema");
    await runInDurableObject(stub, (_instance: SessionObject, state) => {
      const sql = state.storage.sql;
      sql.exec("CREATE TABLE journal (seq INTEGER PRIMARY KEY AUTOINCREMENT, entry TEXT NOT NULL)");
      sql.exec("CREATE TABLE attempts (key TEXT PRIMARY KEY, count INTEGER NOT NULL)");
      sql.exec("CREATE TABLE used (step INTEGER PRIMARY KEY)");
      sql.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)");
      sql.exec("INSERT INTO meta (key, value) VALUES ('version', 'v1'), ('document', ?)", JSON.stringify(twoSteps));
      sql.exec("INSERT INTO used (step) VALUES (0)");
      sql.exec("INSERT INTO attempts (key, count) VALUES ('0:openai', 1), ('1:openai', 4)");
      for (let i = 1; i <= 5; i++) sql.exec("INSERT INTO journal (entry) VALUES (?)", JSON.stringify({ at: "2026-01-01T00:00:00.000Z", request: { body: { i } } }));
      const session = reread(state);
      expect(session.state().steps.map((s) => [s.used, s.attempts])).toStrictEqual([
        [true, 1],
        [false, 4],
      ]);
      expect(decided(session.next({ ...input(6), document: twoSteps })).seq).toBe(6);
      expect(
        reread(state)
          .state()
          .steps.map((s) => s.attempts),
      ).toStrictEqual([1, 5]);
      expect(
        reread(state)
          .requests()
          .map((e) => e.seq),
      ).toStrictEqual([1, 2, 3, 4, 5, 6]);
    });
  });

  it("keeps its snapshot in one row; an older object's version row is read, and gone with its next snapshot", async () => {
    const stub = env.SESSIONS.getByName("direct/one-row-snapshot");
    await runInDurableObject(stub, async (instance: SessionObject, state) => {
      const sql = state.storage.sql;
      await instance.next(input(1));
      expect(sql.exec("SELECT key, value FROM meta").toArray()).toStrictEqual([{ key: "document", value: `v1\n${JSON.stringify(scenario)}` }]);
      expect(reread(state).state().version).toBe("v1");
    });
    const older = env.SESSIONS.getByName("direct/two-row-snapshot");
    await runInDurableObject(older, (_instance: SessionObject, state) => {
      const sql = state.storage.sql;
      sql.exec("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID");
      sql.exec("INSERT INTO meta (key, value) VALUES ('version', 'v0'), ('document', ?)", JSON.stringify(twoSteps));
      const session = reread(state);
      expect([session.state().version, session.state().steps.length]).toStrictEqual(["v0", 2]);
      session.reset();
      expect(decided(session.next({ ...input(1), version: "v2" })).version).toBe("v2");
      expect(sql.exec("SELECT key FROM meta").toArray()).toStrictEqual([{ key: "document" }]);
      expect(reread(state).state()).toMatchObject({ version: "v2", steps: [{ id: "step-1" }] });
    });
  });

  it("a reset starts the seq and the counters again from 1, also after a restart", async () => {
    const stub = env.SESSIONS.getByName("direct/restart-reset");
    await runInDurableObject(stub, async (instance: SessionObject) => {
      for (let i = 1; i <= 3; i++) await instance.next(input(i));
      await instance.reset();
      expect(decided(await instance.next(input(4))).seq).toBe(1);
    });
    await runInDurableObject(stub, (_instance: SessionObject, state) => {
      const restarted = reread(state);
      expect(restarted.requests().map((e) => [e.seq, e.request.body])).toStrictEqual([[1, { i: 4 }]]);
      expect(restarted.state().steps[0]!.attempts).toBe(1);
      expect(decided(restarted.next(input(5))).seq).toBe(2);
    });
  });
});

describe("group commit: turns arriving while a commit is in flight share the next one", () => {
  const failTwice = ScenarioSchema.parse({ name: "direct", steps: [{ respond: { text: "ok" }, failures: [{ kind: "rate_limit" }, { kind: "rate_limit" }] }] });
  const rows = (state: DurableObjectState) => state.storage.sql.exec<{ seq: number; attempt: string | null }>("SELECT seq, attempt FROM journal ORDER BY seq").toArray();

  it("decides each turn at arrival, in order, and answers it only once its row is written", async () => {
    const stub = env.SESSIONS.getByName("direct/group");
    await runInDurableObject(stub, async (instance: SessionObject, state) => {
      // The first turn writes at once (no commit in flight); the next three arrive while its commit is.
      const first = await instance.next({ ...input(1), document: failTwice });
      const queued = [2, 3, 4].map((i) => instance.next({ ...input(i), document: failTwice }) as unknown as Promise<NextResult>);
      expect(queued.every((q) => q instanceof Promise)).toBe(true);
      // Their rows wait for the next commit; the state in memory already counts them.
      expect(state.storage.sql.exec("SELECT count(*) AS n FROM journal").one().n).toBe(1);
      const results = [decided(first), ...(await Promise.all(queued))];
      expect(results.map((r) => [r.seq, r.outcome.kind])).toStrictEqual([
        [1, "failure"],
        [2, "failure"],
        [3, "reply"],
        [4, "mismatch"],
      ]);
      expect(rows(state)).toStrictEqual([
        { seq: 1, attempt: "0:openai" },
        { seq: 2, attempt: "0:openai" },
        { seq: 3, attempt: "0:openai" },
        { seq: 4, attempt: null },
      ]);
    });
  });

  it("writes the queued rows first when anything else reads or writes: a journal read, a counter, a reset", async () => {
    const stub = env.SESSIONS.getByName("direct/group-reads");
    await runInDurableObject(stub, async (instance: SessionObject, state) => {
      await instance.next(input(1));
      const pending = [instance.next(input(2)), instance.next(input(3))];
      // A read between them sees every turn decided so far.
      expect(instance.requests().map((e) => [e.seq, e.request.body])).toStrictEqual([
        [1, { i: 1 }],
        [2, { i: 2 }],
        [3, { i: 3 }],
      ]);
      const more = instance.next(input(4));
      expect(instance.increment("ids")).toBe(1);
      expect(rows(state).map((r) => r.seq)).toStrictEqual([1, 2, 3, 4]);
      const last = instance.next(input(5));
      await instance.reset();
      await Promise.all([...pending, more, last]);
      // The reset dropped every row, the queued one with the rest; nothing is written after it.
      expect(instance.requests()).toStrictEqual([]);
      expect(decided(await instance.next(input(6))).seq).toBe(1);
      expect(rows(state).map((r) => r.seq)).toStrictEqual([1]);
    });
  });

  it("a scenario's `limits` window, read newest first, counts the queued rows (a read writes them first)", async () => {
    const limited = ScenarioSchema.parse({ name: "direct", limits: { requestsPerMinute: 2 }, steps: [{ consume: false, respond: { text: "x" } }] });
    const stub = env.SESSIONS.getByName("direct/group-limits");
    await runInDurableObject(stub, async (instance: SessionObject, state) => {
      const first = decided(await instance.next({ ...input(1), document: limited }));
      // Turn 2 arrives while turn 1's commit is in flight: its row is queued. Turn 3's window must still see it.
      const queued = [2, 3].map((i) => instance.next({ ...input(i), document: limited }) as unknown as Promise<NextResult>);
      const [second, third] = await Promise.all(queued);
      expect([first, second!, third!].map((r) => [r.seq, r.outcome.kind, r.limits?.requests?.remaining])).toStrictEqual([
        [1, "reply", 1],
        [2, "reply", 0],
        [3, "failure", 0],
      ]);
      expect(rows(state).map((r) => r.seq)).toStrictEqual([1, 2, 3]);
      const storage = new SqlSessionStorage(new SqlTables(state.storage.sql));
      expect([...storage.newestFirst()].map((e) => [e.seq, e.limited ?? false])).toStrictEqual([
        [3, true],
        [2, false],
        [1, false],
      ]);
    });
  });

  it("a call that writes anything at once writes its row with it: one call's writes never span two commits", async () => {
    const stub = env.SESSIONS.getByName("direct/group-atomic");
    await runInDurableObject(stub, async (instance: SessionObject, state) => {
      await instance.next(input(1));
      await instance.reset(); // a commit in flight: the next call would queue its row
      const after = instance.next(input(2)); // writes the snapshot at once, so its row goes with it
      expect(after).not.toBeInstanceOf(Promise);
      expect(decided(after as unknown as NextResult).seq).toBe(1);
      expect(rows(state)).toStrictEqual([{ seq: 1, attempt: "0:openai" }]);
      expect(state.storage.sql.exec("SELECT key FROM meta").toArray()).toStrictEqual([{ key: "document" }]);
    });
  });

  it("SqlTables: a deferred statement waits for flush or for any other access, and keeps its order", async () => {
    const stub = env.SESSIONS.getByName("direct/group-tables");
    await runInDurableObject(stub, async (_instance: SessionObject, state) => {
      const t = { name: "t", create: "CREATE TABLE t (n INTEGER PRIMARY KEY)" };
      const tables = new SqlTables(state.storage.sql);
      tables.defer(t, "INSERT INTO t (n) VALUES (?)", 1); // not deferring: run at once
      tables.deferring = true;
      tables.defer(t, "INSERT INTO t (n) VALUES (?)", 2);
      tables.defer(t, "INSERT INTO t (n) VALUES (?)", 3);
      expect([tables.pending, tables.writes]).toStrictEqual([true, 3]);
      expect(state.storage.sql.exec("SELECT n FROM t").toArray()).toStrictEqual([{ n: 1 }]);
      expect(tables.rows(t, "SELECT n FROM t ORDER BY n")).toStrictEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
      tables.defer(t, "INSERT INTO t (n) VALUES (?)", 4);
      expect(tables.sql.exec("SELECT count(*) AS n FROM t").one().n).toBe(4);
      tables.defer(t, "INSERT INTO t (n) VALUES (?)", 5);
      tables.drop(t);
      expect([tables.pending, tables.has(t)]).toStrictEqual([false, false]);
    });
  });
});

describe("the Worker's request context (src/hosts/workers/context.ts)", () => {
  it("streams bodies through workerd's IdentityTransformStream, a write settling once the reader took the chunk, and waits on the ExecutionContext", async () => {
    const waited: Promise<unknown>[] = [];
    const ctx = new WorkerContext({ waitUntil: (p: Promise<unknown>) => void waited.push(p), passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext);
    const pipe = ctx.bodyPipe();
    expect(pipe).toBeInstanceOf(IdentityTransformStream);
    const writer = pipe.writable.getWriter();
    let wrote = false;
    const write = writer.write(new TextEncoder().encode("data: one\n\n")).then(() => (wrote = true));
    await new Promise((r) => setTimeout(r, 5));
    expect(wrote).toBe(false);
    const reader = pipe.readable.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: one\n\n");
    await write;
    expect(wrote).toBe(true);
    void writer.close();
    expect((await reader.read()).done).toBe(true);
    const done = Promise.resolve("x");
    ctx.waitUntil(done);
    expect(waited).toEqual([done]);
  });

  it("a paced stream through it arrives whole, its events on their schedule", async () => {
    const ctx = new WorkerContext({ waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext);
    const events = [
      { data: "role", words: 0 },
      { data: "a", words: 1 },
      { data: "b", words: 1 },
    ];
    const body = pacedStream({
      events,
      pacing: { ttftMs: 0, tokensPerSecond: 0, chunkDelayMs: 10, chunkWords: 1, jitterMs: 0, seed: 0 },
      end: { kind: "close" },
      waitUntil: () => {},
      pipe: () => ctx.bodyPipe(),
    });
    if (!(body instanceof ReadableStream)) throw new Error("a paced stream on the Worker is a web stream");
    expect(await new Response(body).text()).toBe("data: role\n\ndata: a\n\ndata: b\n\n");
  });
});
