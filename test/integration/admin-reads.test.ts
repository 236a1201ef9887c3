/**
 * Admin reads (contract section 10): a session that never received a request answers 404 in the admin error shape on
 * every per-session GET, the same whether its name is used in another namespace or nowhere; no read creates state
 * (no Durable Object storage on Workers, no session object on Node), and the session listing stays as it was.
 * On both runtimes.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { admin, call, chat, RUNTIME, upload, userTurn } from "./helpers";
import { namespaceKey } from "../support/namespaces";

const doc = { name: "reads-doc", steps: [{ id: "hi", consume: false, respond: { text: "hello" } }] };
const READS = ["", "/requests", "/requests?step=hi", "/verify", "/verify?allowUnused=hi", "/recording"];

function notRun(session: string, hint = ""): unknown {
  return {
    error: {
      message: `session "${session}" of scenario "reads-doc" has not run: no request reached /s/reads-doc/${session}${hint}`,
      code: "session_not_run",
    },
  };
}

async function listing(): Promise<unknown> {
  const res = await admin("/sessions?scenario=reads-doc");
  expect(res.status).toBe(200);
  return res.json();
}

/** Workers: the tables and keys the session's Durable Object holds (none for an object nothing wrote to). */
async function stored(name: string): Promise<{ tables: string[]; alarm: number | null }> {
  const { env, runInDurableObject } = await import("cloudflare:test");
  const stub = (env as unknown as { SESSIONS: DurableObjectNamespace }).SESSIONS.getByName(name);
  return runInDurableObject(stub, async (_instance, state) => ({
    tables: state.storage.sql
      .exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")
      .toArray()
      .map((r) => r.name),
    alarm: await state.storage.getAlarm(),
  }));
}

beforeAll(async () => {
  await upload(doc);
  expect((await chat(userTurn("hi"), "/s/reads-doc/ran-1")).status).toBe(200);
});

describe("a session that never ran", () => {
  it.each(READS)("GET …/reads-doc/nobody%s is 404 session_not_run", async (route) => {
    const res = await admin(`/sessions/reads-doc/nobody${route}`);
    expect(res.status).toBe(404);
    expect(res.headers.get("content-type")).toBe("application/json");
    expect(await res.json()).toEqual(notRun("nobody"));
  });

  it("names the session that did run when the name is one typo from it", async () => {
    const res = await admin("/sessions/reads-doc/ran-2/verify");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual(notRun("ran-2", '; did you mean "ran-1"?'));
  });

  it("of a scenario that does not exist either: the scenario is named as not found", async () => {
    const res = await admin("/sessions/reads-dox/nobody/requests");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { message: 'scenario "reads-dox" not found; did you mean "reads-doc"?' } });
  });

  it("a bad query is still 400 before the session is looked at", async () => {
    expect((await admin("/sessions/reads-doc/nobody/requests?outcome=ok")).status).toBe(400);
  });

  it("reading creates nothing: the listing stays as it was, and the session still never ran", async () => {
    const before = await listing();
    expect(before).toEqual([{ scenario: "reads-doc", session: "ran-1", requests: 1, lastAt: expect.any(String) }]);
    for (const route of READS) expect((await admin(`/sessions/reads-doc/ghost${route}`)).status).toBe(404);
    expect(await listing()).toEqual(before);
    expect((await admin("/sessions/reads-doc/ghost")).status).toBe(404);
  });

  it("reset of a session that never ran answers as today (200) and creates nothing", async () => {
    const res = await admin("/sessions/reads-doc/fresh/reset", { method: "POST" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ reset: true });
    expect(await admin("/sessions/reads-doc/fresh").then((r) => r.json())).toEqual(notRun("fresh"));
    expect((await listing()) as unknown[]).toHaveLength(1);
  });

  it("a reset session did run: it reads as empty, not as never run", async () => {
    expect((await chat(userTurn("hi"), "/s/reads-doc/ran-reset")).status).toBe(200);
    expect((await admin("/sessions/reads-doc/ran-reset/reset", { method: "POST" })).status).toBe(200);
    const state = await admin("/sessions/reads-doc/ran-reset");
    expect(state.status).toBe(200);
    expect(await state.json()).toMatchObject({ version: null, requests: 0, lastAt: null, exists: true });
    expect(await admin("/sessions/reads-doc/ran-reset/requests").then((r) => r.json())).toEqual([]);
    const v = (await admin("/sessions/reads-doc/ran-reset/verify").then((r) => r.json())) as { ok: boolean; requests: number };
    expect([v.ok, v.requests]).toEqual([false, 0]);
  });
});

describe.skipIf(RUNTIME !== "workers")("no Durable Object state on Workers", () => {
  it("reads, a reset and the listing leave the never-run session's object and its scenario's index empty", async () => {
    for (const route of READS) expect((await admin(`/sessions/reads-doc/untouched${route}`)).status).toBe(404);
    expect((await admin("/sessions/reads-doc/untouched/reset", { method: "POST" })).status).toBe(200);
    expect((await admin("/sessions/reads-none/untouched/verify")).status).toBe(404);
    expect((await admin("/sessions?scenario=reads-none")).status).toBe(200);
    expect(await stored("reads-doc/untouched")).toEqual({ tables: [], alarm: null });
    expect(await stored("reads-none/untouched")).toEqual({ tables: [], alarm: null });
    // The index of a scenario with no session, read for the listing and for "did you mean": nothing created either.
    expect(await stored("__index/sessions-reads-none")).toEqual({ tables: [], alarm: null });
    // A session that ran has its tables: the check above can fail.
    expect((await stored("reads-doc/ran-1")).tables).toContain("journal");
  });
});

describe.skipIf(RUNTIME !== "node")("no session object on Node", () => {
  it("reads and a reset create no session, and a request afterwards still starts one", async () => {
    const { startQuietServer } = await import("../support/server");
    const { NodeSessionStore } = await import("../../src/hosts/node/sessions");
    const server = await startQuietServer({ adminToken: "t" });
    try {
      const headers = { authorization: "Bearer t", "content-type": "application/json" };
      const get = (path: string, init: RequestInit = {}) => fetch(`${server.url}/admin${path}`, { headers, ...init });
      expect((await get("/scenarios", { method: "POST", body: JSON.stringify([doc]) })).status).toBe(200);
      const store = server.runtime.sessions;
      if (!(store instanceof NodeSessionStore)) throw new Error("not a NodeSessionStore");
      for (const route of READS) expect((await get(`/sessions/reads-doc/untouched${route}`)).status).toBe(404);
      expect((await get("/sessions/reads-doc/untouched/reset", { method: "POST" })).status).toBe(200);
      expect((await get("/sessions/reads-none/untouched/verify")).status).toBe(404);
      expect(await (await get("/sessions")).json()).toEqual([]);
      expect(store.names()).toEqual([]);
      const run = await fetch(`${server.url}/s/reads-doc/untouched/v1/chat/completions`, { method: "POST", headers, body: JSON.stringify(userTurn("hi")) });
      expect(run.status).toBe(200);
      expect(store.names().sort()).toEqual(["__index/sessions-reads-doc", "reads-doc/untouched"]);
      expect((await get("/sessions/reads-doc/untouched/requests")).status).toBe(200);
    } finally {
      await server.close();
    }
  });
});

describe("namespaces: a name used elsewhere reads as one used nowhere", () => {
  let keyA: string;
  let keyB: string;

  beforeAll(async () => {
    keyA = await namespaceKey(admin, "reads-a", "admin");
    keyB = await namespaceKey(admin, "reads-b", "admin");
    for (const key of [keyA, keyB]) {
      const put = await call("/admin/scenarios/reads-doc", { method: "PUT", headers: { authorization: `Bearer ${key}` }, body: JSON.stringify(doc) });
      expect(put.status).toBe(200);
    }
    expect((await chat(userTurn("hi"), "/s/reads-doc/a-only", { authorization: `Bearer ${keyA}` })).status).toBe(200);
  });

  it.each(READS)("…%s: B reading A's session and a name nowhere get the same 404", async (route) => {
    const asB = (session: string) => call(`/admin/sessions/reads-doc/${session}${route}`, { headers: { authorization: `Bearer ${keyB}` } });
    const [elsewhere, nowhere] = await Promise.all([asB("a-only"), asB("a-onlz")]);
    expect([elsewhere.status, nowhere.status]).toEqual([404, 404]);
    const [e, n] = [await elsewhere.text(), await nowhere.text()];
    expect(e.replaceAll("a-only", "NAME")).toBe(n.replaceAll("a-onlz", "NAME"));
    expect(JSON.parse(e)).toEqual(notRun("a-only"));
    // A, whose session it is, reads it; the default namespace does not have it either.
    const asA = await call(`/admin/sessions/reads-doc/a-only${route}`, { headers: { authorization: `Bearer ${keyA}` } });
    expect(asA.status).toBe(200);
    expect((await admin(`/sessions/reads-doc/a-only${route}`)).status).toBe(404);
  });
});
