/**
 * SESSION_TTL: a session idle for longer is deleted (a Durable Object alarm on Workers, a sweep on Node), counted
 * once even if the alarm fires twice. The clock is moved, not waited for.
 */
import { describe, expect, it } from "vitest";
import { admin, chat, RUNTIME, upload, userTurn } from "./helpers";

const doc = { name: "ttl-doc", steps: [{ id: "a", consume: false, respond: { text: "ok" } }] };
const WEEK_MS = 604_800_000;

async function journalLength(session: string): Promise<number> {
  return ((await (await admin(`/sessions/ttl-doc/${session}/requests`)).json()) as unknown[]).length;
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
    expect(await journalLength("idle")).toBe(0);
  });
});

describe.skipIf(RUNTIME !== "node")("SESSION_TTL on Node", () => {
  it("the sweep forgets sessions idle for the TTL, each once", async () => {
    const { startServer } = await import("../../src/runtime/node/server");
    const { NodeSessionStore } = await import("../../src/runtime/node/sessions");
    const server = await startServer({ adminToken: "t", vars: { DEFAULT_WORDS_PER_SECOND: "0", SESSION_TTL: "60" } });
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
      const journal = await fetch(`${server.url}/admin/sessions/ttl-doc/old/requests`, { headers });
      expect(await journal.json()).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
