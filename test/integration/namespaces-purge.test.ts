/**
 * Deleting a namespace removes its data, not only its reach: on Workers the namespace's directory object purges every
 * Durable Object the namespace wrote to (journals, stored Responses, indexes) on its alarm; on Node the sessions,
 * uploads, stored objects (files, batches, …), webhooks and their `--persist` files go at once (webhooks' within 100 ms). A re-created name starts empty.
 */
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { admin, call, chat, RUNTIME, userTurn } from "./helpers";
import { namespaceKey, rootAdmin } from "../support/namespaces";

const said = { name: "purge-doc", steps: [{ id: "hi", consume: false, respond: { text: "kept?" } }] };

type Send = (path: string, init?: RequestInit) => Promise<Response>;

/** Creates namespace `ns` with an admin key, uploads a scenario, runs two sessions and a stored Response in it. */
async function fill(send: Send, ns: string): Promise<{ key: string; space: string }> {
  const root = rootAdmin(send, TOKEN);
  const key = await namespaceKey(root, ns, "admin");
  const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
  expect((await send(`/admin/scenarios/purge-doc`, { method: "PUT", headers, body: JSON.stringify(said) })).status).toBe(200);
  for (const session of ["p1", "p2"]) {
    const res = await send(`/s/purge-doc/${session}/v1/chat/completions`, { method: "POST", headers, body: JSON.stringify(userTurn("hi")) });
    expect(res.status).toBe(200);
  }
  const stored = await send(`/s/purge-doc/p1/v1/responses`, { method: "POST", headers, body: JSON.stringify({ model: "m", input: "hi" }) });
  expect(stored.status).toBe(200);
  const record = (await (await root(`/namespaces/${ns}`)).json()) as { space: string };
  return { key, space: record.space };
}

const TOKEN = "test-admin-token";

describe.skipIf(RUNTIME !== "workers")("deleting a namespace on Workers", () => {
  it("purges every object the namespace wrote to, and a re-created name starts empty", async () => {
    const { env, runInDurableObject, runDurableObjectAlarm } = await import("cloudflare:test");
    const sessions = (env as unknown as { SESSIONS: DurableObjectNamespace }).SESSIONS;
    const { key, space } = await fill(call, "purged");
    const prefix = `__ns/${space}/`;
    const directory = sessions.getByName(`${prefix}__index/objects`);
    const listed = await runInDurableObject(directory, (_i, state) =>
      state.storage.sql
        .exec<{ key: string }>("SELECT key FROM members ORDER BY n")
        .toArray()
        .map((r) => r.key),
    );
    expect(listed).toEqual(expect.arrayContaining([`${prefix}purge-doc/p1`, `${prefix}purge-doc/p2`, `${prefix}__index/sessions-purge-doc`]));
    expect(listed.some((n) => n.startsWith(`${prefix}__index/responses-`))).toBe(true);
    const tables = (name: string) =>
      runInDurableObject(
        sessions.getByName(name),
        (_i, state) => state.storage.sql.exec<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\'").toArray().length,
      );
    const alarm = (name: string) => runInDurableObject(sessions.getByName(name), (_i, state) => state.storage.getAlarm());
    expect(await tables(`${prefix}purge-doc/p1`)).toBeGreaterThan(0);
    expect(await alarm(`${prefix}purge-doc/p1`)).not.toBeNull();

    // The directory outlives an idle spell (its objects may still be in use).
    await runInDurableObject(directory, async (instance, state) => {
      (instance as unknown as { lastActive: number }).lastActive = Date.now() - 8 * 86_400_000;
      await state.storage.setAlarm(Date.now());
    });
    expect(await runDurableObjectAlarm(directory)).toBe(true);
    expect(await tables(`${prefix}__index/objects`)).toBeGreaterThan(0);

    const started = Date.now();
    const del = await admin("/namespaces/purged", { method: "DELETE" });
    expect(del.status).toBe(200);
    expect(await del.json()).toEqual({ name: "purged", deleted: true });
    expect(Date.now() - started).toBeLessThan(2_000);
    // The directory purges on its alarm (a batch per run), then deletes itself.
    expect(await runDurableObjectAlarm(directory)).toBe(true);
    for (const name of listed) {
      expect(await tables(name)).toBe(0);
      expect(await alarm(name)).toBeNull();
    }
    expect(await tables(`${prefix}__index/objects`)).toBe(0);
    expect(await alarm(`${prefix}__index/objects`)).toBeNull();
    expect((await chat(userTurn("hi"), "/s/purge-doc/p1", { authorization: `Bearer ${key}` })).status).toBe(401);

    const again = await fill(call, "purged");
    expect(again.space).not.toBe(space);
    const journal = await call(`/admin/sessions/purge-doc/p2/requests`, { headers: { authorization: `Bearer ${again.key}` } });
    expect(((await journal.json()) as unknown[]).length).toBe(1);
  });
});

describe.skipIf(RUNTIME !== "node")("deleting a namespace on Node", () => {
  it("removes its sessions, uploads, stored objects, webhooks and --persist files at once; a re-created name starts empty", async () => {
    const { startQuietServer } = await import("../support/server");
    const dir = mkdtempSync(join(tmpdir(), "mockllm-purge-"));
    const server = await startQuietServer({ adminToken: TOKEN, persist: dir });
    try {
      const send: Send = (path, init) => fetch(`${server.url}${path}`, init);
      const { key, space } = await fill(send, "purged");
      const upload = new FormData();
      upload.set("purpose", "user_data");
      upload.set("file", new Blob(["kept bytes"]), "kept.txt");
      const file = await send("/v1/files", { method: "POST", headers: { authorization: `Bearer ${key}` }, body: upload });
      expect(file.status).toBe(200);
      const objects = () => readdirSync(join(dir, "objects"));
      expect(objects()).toHaveLength(2); // the file's bytes and its record, written before the upload was answered
      const hook = { name: "purged", url: "http://127.0.0.1:9/hook", event_types: ["batch.completed"] };
      const endpoint = await send("/v1/webhook_endpoints", { method: "POST", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(hook) });
      expect(endpoint.status).toBe(200);
      const webhooks = () => readdirSync(join(dir, "webhooks"));
      await vi.waitFor(() => expect(webhooks()).toStrictEqual([`ns-${space}.json`]), { timeout: 2_000, interval: 10 });
      const files = () => [...readdirSync(join(dir, "sessions")), ...readdirSync(join(dir, "scenarios"))].map(decodeURIComponent);
      // Session files are written within PERSIST_DELAY_MS of a change.
      await vi.waitFor(() => expect(files().filter((f) => f.includes(space)).length).toBeGreaterThanOrEqual(5), { timeout: 2_000, interval: 10 });
      const del = await send("/admin/namespaces/purged", { method: "DELETE", headers: { authorization: `Bearer ${TOKEN}` } });
      expect(del.status).toBe(200);
      expect(files().filter((f) => f.includes(space))).toEqual([]);
      expect(objects()).toEqual([]);
      await vi.waitFor(() => expect(webhooks()).toStrictEqual([]), { timeout: 2_000, interval: 10 });
      expect(JSON.stringify([...(server.runtime.sessions as unknown as { names(): string[] }).names()])).not.toContain(space);
      const again = await fill(send, "purged");
      const journal = await send(`/admin/sessions/purge-doc/p2/requests`, { headers: { authorization: `Bearer ${again.key}` } });
      expect(((await journal.json()) as unknown[]).length).toBe(1);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
