/**
 * Workers only: the session Durable Object holds WebSockets with the hibernation API. A socket's init and protocol
 * state live in the object's `sockets` table, so a socket whose in-memory protocol is gone (as after hibernation)
 * carries on from its row; the row goes when the socket closes. A state, or a recorded step, past SQLite's value
 * limit is kept in parts.
 */
import { env, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { SessionObject } from "../../src/hosts/workers/session-object";
import { upload } from "./helpers";
import { openSocket, until, type TestSocket } from "./socket-helpers";
import { until as poll } from "../support/until";

await upload(
  {
    name: "sock-hib",
    steps: [
      { id: "hello", match: { turn: 1, lastUserMessage: "Hello there" }, respond: { text: "Hi." } },
      { id: "again", match: { turn: 2 }, respond: { text: "Again." } },
    ],
  },
  { name: "sock-big", steps: [{ id: "big", match: { lastUserMessage: { regex: "^é{5000000}$" } }, respond: { text: "Got it all." } }] },
);

type Inside = { sockets: { live: Map<unknown, unknown> } };

async function forget(name: string): Promise<number> {
  return runInDurableObject(env.SESSIONS.getByName(name) as unknown as DurableObjectStub<SessionObject>, (instance, state) => {
    (instance as unknown as Inside).sockets.live.clear();
    return state.storage.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM sockets`).one().n;
  });
}

async function rows(name: string): Promise<number> {
  return runInDurableObject(
    env.SESSIONS.getByName(name) as unknown as DurableObjectStub<SessionObject>,
    (_i, state) => state.storage.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM sockets`).one().n,
  );
}

describe("sockets across hibernation", () => {
  it("a Realtime conversation carries on from the stored state, and the row goes with the socket", async () => {
    const s = (await openSocket("/s/sock-hib/h/v1/realtime?model=gpt-realtime", { authorization: "Bearer sk" })) as TestSocket;
    expect((await s.next()).type).toBe("session.created");
    s.send({ type: "conversation.item.create", item: { type: "message", role: "user", content: [{ type: "input_text", text: "Hello there" }] } });
    await until(s, (m) => m.type === "conversation.item.done");
    expect(await forget("sock-hib/h")).toBe(1);
    s.send({ type: "response.create" });
    const events = await until(s, (m) => m.type === "response.done" || m.type === "error");
    expect(events.at(-1).response.output[0].content[0].text).toBe("Hi.");
    // Event ids keep counting from the stored counter: none repeats across the "hibernation".
    const ids = s.received.map((m) => m.event_id);
    expect(new Set(ids).size).toBe(ids.length);
    s.close();
    await s.closed;
    expect(
      await poll(
        () => rows("sock-hib/h"),
        (n) => n === 0,
        { every: 10 },
      ),
    ).toBe(0);
  });

  it("a state past SQLite's value limit (a 10 MB Realtime item) is kept in parts and carries on", async () => {
    const s = (await openSocket("/s/sock-big/b/v1/realtime?model=gpt-realtime", { authorization: "Bearer sk" })) as TestSocket;
    expect((await s.next()).type).toBe("session.created");
    s.send({ type: "conversation.item.create", item: { type: "message", role: "user", content: [{ type: "input_text", text: "é".repeat(5_000_000) }] } });
    await until(s, (m) => m.type === "conversation.item.done");
    const parts = await runInDurableObject(
      env.SESSIONS.getByName("sock-big/b") as unknown as DurableObjectStub<SessionObject>,
      (_i, state) => state.storage.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM socket_state`).one().n,
    );
    expect(parts).toBe(11);
    expect(await forget("sock-big/b")).toBe(1);
    s.send({ type: "response.create" });
    const events = await until(s, (m) => m.type === "response.done" || m.type === "error");
    expect(events.at(-1).response.output[0].content[0].text).toBe("Got it all.");
    s.close();
  });
});

describe("recordings past SQLite's value limit", () => {
  it("a recorded step whose matcher quotes a 10 MB message is kept in parts and read back whole", async () => {
    const { SqlRecordingStorage } = await import("../../src/hosts/workers/sql-recording");
    const { SqlTables } = await import("../../src/hosts/workers/sql-tables");
    const message = "é".repeat(5_000_000);
    const read = await runInDurableObject(env.SESSIONS.getByName("rec-big/r") as unknown as DurableObjectStub<SessionObject>, (_i, state) => {
      const storage = new SqlRecordingStorage(new SqlTables(state.storage.sql));
      storage.add(
        { id: "rec-1", seq: 1, match: { endpoint: "chat.completions", lastUserMessage: message }, frames: { status: 200, headers: {}, frames: [{ at: 0, data: "x😀".repeat(400_000) }] } },
        10,
      );
      return new SqlRecordingStorage(new SqlTables(state.storage.sql)).steps();
    });
    expect(read).toHaveLength(1);
    expect(read[0]!.match.lastUserMessage).toBe(message);
    expect(read[0]!.frames.frames[0]!.data).toBe("x😀".repeat(400_000));
  });
});
