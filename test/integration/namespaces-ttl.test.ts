/**
 * SESSION_TTL: a session idle for longer is deleted (a Durable Object alarm on Workers, a sweep on Node), counted
 * once even if the alarm fires twice. The clock is moved, not waited for.
 */
import { describe, expect, it } from "vitest";
import { admin, call, chat, RUNTIME, upload, userTurn } from "./helpers";
import { namespaceKey } from "../support/namespaces";

const doc = { name: "ttl-doc", steps: [{ id: "a", consume: false, respond: { text: "ok" } }] };
const WEEK_MS = 604_800_000;

/** The journal's length; -1 when the session does not exist (404: expired, or never ran). */
async function journalLength(session: string): Promise<number> {
  const res = await admin(`/sessions/ttl-doc/${session}/requests`);
  if (res.status === 404) return -1;
  return ((await res.json()) as unknown[]).length;
}

describe.skipIf(RUNTIME !== "workers")("SESSION_TTL on Workers", () => {
  it("an idle session's object deletes its data on the alarm, once", async () => {
    const { env, runInDurableObject, runDurableObjectAlarm } = await import("cloudflare:test");
    await upload(doc);
    expect((await chat(userTurn("hi"), "/s/ttl-doc/idle")).status).toBe(200);
    expect(await journalLength("idle")).toBe(1);
    const stub = (env as unknown as { SESSIONS: DurableObjectNamespace }).SESSIONS.getByName("ttl-doc/idle");
    const alarmAt = await runInDurableObject(stub, async (_i, state) => state.storage.getAlarm());
    expect(alarmAt).not.toBeNull();
    expect(alarmAt! - Date.now()).toBeGreaterThanOrEqual(WEEK_MS);
    // Still active: the alarm moves on instead of deleting.
    await runInDurableObject(stub, async (_i, state) => state.storage.setAlarm(Date.now()));
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await journalLength("idle")).toBe(1);
    // Idle for the whole TTL: deleted.
    await runInDurableObject(stub, async (instance, state) => {
      (instance as unknown as { lastActive: number }).lastActive = Date.now() - WEEK_MS - 1;
      await state.storage.setAlarm(Date.now());
    });
    expect(await runDurableObjectAlarm(stub)).toBe(true);
    expect(await runDurableObjectAlarm(stub)).toBe(false);
    const count = await runInDurableObject(stub, async (instance) => (instance as unknown as { expiryCount(): number }).expiryCount());
    expect(count).toBe(1);
    expect(await journalLength("idle")).toBe(-1); // deleted: reads as a session that never ran (contract section 10)
  });

  it("an expired session leaves its scenario's index (in a namespace too); listing does not re-create it", async () => {
    const { env, runInDurableObject, runDurableObjectAlarm } = await import("cloudflare:test");
    const sessions = (env as unknown as { SESSIONS: DurableObjectNamespace }).SESSIONS;
    await upload(doc);
    expect((await chat(userTurn("hi"), "/s/ttl-doc/gone1")).status).toBe(200);
    expect((await chat(userTurn("hi"), "/s/ttl-doc/stays")).status).toBe(200);
    const key = await namespaceKey(admin, "ttl-ns", "admin");
    const { space } = (await (await admin("/namespaces/ttl-ns")).json()) as { space: string };
    const asKey = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    expect((await call("/admin/scenarios/ttl-doc", { method: "PUT", headers: asKey, body: JSON.stringify(doc) })).status).toBe(200);
    expect((await chat(userTurn("hi"), "/s/ttl-doc/n1", { authorization: `Bearer ${key}` })).status).toBe(200);
    const listed = async (headers: Record<string, string>) => ((await (await call("/admin/sessions?scenario=ttl-doc", { headers })).json()) as { session: string }[]).map((s) => s.session).sort();
    const root = { authorization: "Bearer test-admin-token" };
    expect(await listed(root)).toEqual(expect.arrayContaining(["gone1", "stays"]));
    expect(await listed(asKey)).toEqual(["n1"]);
    const expire = async (name: string) => {
      const stub = sessions.getByName(name);
      await runInDurableObject(stub, async (instance, state) => {
        (instance as unknown as { lastActive: number }).lastActive = Date.now() - WEEK_MS - 1;
        await state.storage.setAlarm(Date.now());
      });
      expect(await runDurableObjectAlarm(stub)).toBe(true);
    };
    await expire("ttl-doc/gone1");
    await expire(`__ns/${space}/ttl-doc/n1`);
    expect(await listed(root)).not.toContain("gone1");
    expect(await listed(root)).toContain("stays");
    expect(await listed(asKey)).toEqual([]);
    const tables = await runInDurableObject(
      sessions.getByName("ttl-doc/gone1"),
      (_i, state) => state.storage.sql.exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\'").toArray().length,
    );
    expect(tables).toBe(0);
  });
});

describe.skipIf(RUNTIME !== "node")("SESSION_TTL on Node", () => {
  it("the sweep forgets sessions idle for the TTL, each once", async () => {
    const { startQuietServer } = await import("../support/server");
    const { NodeSessionStore } = await import("../../src/hosts/node/sessions");
    const server = await startQuietServer({ adminToken: "t", vars: { SESSION_TTL: "60" } });
    try {
      const headers = { authorization: "Bearer t", "content-type": "application/json" };
      await fetch(`${server.url}/admin/scenarios/ttl-doc`, { method: "PUT", headers, body: JSON.stringify(doc) });
      const run = (session: string) =>
        fetch(`${server.url}/s/ttl-doc/${session}/v1/chat/completions`, { method: "POST", headers: { ...headers, authorization: "Bearer sk" }, body: JSON.stringify(userTurn("hi")) });
      expect((await run("old")).status).toBe(200);
      const store = server.runtime.sessions as InstanceType<typeof NodeSessionStore>;
      const now = Date.now();
      expect(store.expireIdle(now + 30_000, 60_000)).toEqual([]);
      expect(store.expireIdle(now + 61_000, 60_000)).toContain("ttl-doc/old");
      expect(store.expireIdle(now + 62_000, 60_000)).not.toContain("ttl-doc/old");
      const listed = (await (await fetch(`${server.url}/admin/sessions?scenario=ttl-doc`, { headers })).json()) as { session: string }[];
      expect(listed).toEqual([]);
      expect(store.names()).not.toContain("ttl-doc/old");
      const journal = await fetch(`${server.url}/admin/sessions/ttl-doc/old/requests`, { headers });
      expect(journal.status).toBe(404); // forgotten: reads as a session that never ran (contract section 10)
    } finally {
      await server.close();
    }
  });
});
