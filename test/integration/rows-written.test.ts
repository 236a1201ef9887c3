/**
 * Rows written per request, as Cloudflare bills them (issue 34, the cost of a hosted URL): SQLite's `rowsWritten` of
 * every statement a Durable Object runs — each row of a table and each row of an index over it, and `AUTOINCREMENT`'s
 * `sqlite_sequence` row. Rows written are the largest item of a scripted turn's price on the paid plan
 * (docs/performance.md), so each request kind's count is pinned here. Workers only: it watches `SqlStorage.exec`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { env, runInDurableObject } from "cloudflare:test";
import { call, chat, upload, userTurn } from "./helpers";

/** Every cursor a Durable Object's `sql.exec` returned since the watch began (objects run in this isolate). */
const cursors: SqlStorageCursor<Record<string, SqlStorageValue>>[] = [];

beforeAll(async () => {
  const proto = await runInDurableObject(env.SESSIONS.getByName("rows/watch"), (_instance, state) => Object.getPrototypeOf(state.storage.sql) as SqlStorage);
  const exec = proto.exec;
  proto.exec = function (this: SqlStorage, query: string, ...bindings: unknown[]) {
    const cursor = exec.call(this, query, ...bindings);
    cursors.push(cursor);
    return cursor;
  } as SqlStorage["exec"];
  await upload(
    { name: "rows-text", steps: [{ consume: false, respond: { text: "Hello from the rows test." } }] },
    { name: "rows-new", steps: [{ consume: false, respond: { text: "Hello." } }] },
    { name: "rows-used", steps: [{ respond: { text: "one" } }, { respond: { text: "two" } }] },
    { name: "rows-fail", steps: [{ failures: [{ kind: "rate_limit", retryAfterMs: 0 }], respond: { text: "Second time." } }] },
  );
});

/** Rows written by every statement run while `send` ran, and its answer's status. */
async function rowsOf(send: () => Promise<Response>): Promise<{ status: number; rows: number }> {
  const from = cursors.length;
  const res = await send();
  await res.arrayBuffer();
  return { status: res.status, rows: cursors.slice(from).reduce((n, c) => n + c.rowsWritten, 0) };
}

function responses(prefix: string, body: Record<string, unknown>): Promise<Response> {
  return call(`${prefix}/v1/responses`, {
    method: "POST",
    headers: { authorization: "Bearer sk-test", "content-type": "application/json" },
    body: JSON.stringify({ model: "gpt-4o-mini", input: "hi", ...body }),
  });
}

// A CREATE TABLE writes 2 rows (`sqlite_master`); each table is made on its first write (src/hosts/workers/sql-tables.ts).
describe("rows written per request (Workers)", () => {
  it("a scripted turn of a running session writes one row, its journal entry; streamed or not", async () => {
    await rowsOf(() => chat(userTurn("hi"), "/s/rows-text/a"));
    expect(await rowsOf(() => chat(userTurn("hi"), "/s/rows-text/a"))).toEqual({ status: 200, rows: 1 });
    expect(await rowsOf(() => chat(userTurn("hi", { stream: true }), "/s/rows-text/a"))).toEqual({ status: 200, rows: 1 });
  });

  it("a session's first turn writes its two tables, its snapshot (one row), its entry and its line in the scenario's index", async () => {
    // The scenario's first session also makes the index's table.
    expect(await rowsOf(() => chat(userTurn("hi"), "/s/rows-new/first"))).toEqual({ status: 200, rows: 2 + 2 + 1 + 1 + 1 + 2 });
    expect(await rowsOf(() => chat(userTurn("hi"), "/s/rows-new/second"))).toEqual({ status: 200, rows: 2 + 2 + 1 + 1 + 1 });
  });

  it("a turn that consumes a step or fails as scripted is one row too: the entry carries the step used and the attempt", async () => {
    expect(await rowsOf(() => chat(userTurn("hi"), "/s/rows-used/b"))).toEqual({ status: 200, rows: 9 });
    expect(await rowsOf(() => chat(userTurn("hi"), "/s/rows-used/b"))).toEqual({ status: 200, rows: 1 });
    expect(await rowsOf(() => chat(userTurn("hi"), "/s/rows-fail/c"))).toEqual({ status: 429, rows: 9 });
    expect(await rowsOf(() => chat(userTurn("hi"), "/s/rows-fail/c"))).toEqual({ status: 200, rows: 1 });
  });

  it("a stored Responses turn writes its entry, the response, its input and answer, its output item and its pointer", async () => {
    await rowsOf(() => chat(userTurn("hi"), "/s/rows-text/d"));
    expect(await rowsOf(() => responses("/s/rows-text/d", { store: false }))).toEqual({ status: 200, rows: 1 });
    // `responses` stays a rowid table (its rowid orders the oldest out): its text key's index is a second row. The
    // pointer (`GET /v1/responses/{id}` without the prefix) is kept by one of 256 index objects, picked by the id's
    // hash: these two ids open new ones, whose table is made with the pointer (7 rows once it exists).
    const turn = 1 + 2 + 1 + 1 + 1 + (2 + 1);
    expect(await rowsOf(() => responses("/s/rows-text/d", {}))).toEqual({ status: 200, rows: turn + 3 + 2 + 2 });
    expect(await rowsOf(() => responses("/s/rows-text/d", {}))).toEqual({ status: 200, rows: turn });
  });
});
