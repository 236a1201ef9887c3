// Session by role (issue 30): one table of member kinds drives every wrapper; a namespace's sessions carry the caller
// on the journaled inputs and charge them in one place; Node's pending session creates nothing on a read.
import { describe, expect, it, vi } from "vitest";
import { wireToolCallIds } from "../../src/providers/registry";
import { emptySessionData, MemoryResponsesStorage, MemorySessionStorage } from "../../src/hosts/node/memory";
import { MemoryMcpStorage } from "../../src/hosts/node/memory-mcp";
import { MemoryRecordingStorage } from "../../src/hosts/node/memory-recording";
import { NodeSessionStore } from "../../src/hosts/node/sessions";
import type { Runtime } from "../../src/runtime/types";
import { ScenarioSchema } from "../../src/scenario/schema";
import type { ScenarioStore } from "../../src/scenario/store";
import { ABSENT } from "../../src/session/absent";
import type { Caller } from "../../src/session/caller";
import type { NextInput } from "../../src/session/core";
import { sessionHost } from "../../src/session/host";
import { MEMBERS, sessionByKind } from "../../src/session/members";
import type { Session, SessionStore } from "../../src/session/types";
import { QuotaError } from "../../src/tenancy/quota";
import { scopeRuntime } from "../../src/tenancy/scope";
import type { Tenancy, Usage } from "../../src/tenancy/types";
import { req } from "./fixtures";

const document = ScenarioSchema.parse({ name: "weather", steps: [{ id: "hi", respond: { text: "Hello." } }] });
const wire = { method: "POST", path: "/v1/chat/completions", headers: { "content-type": "application/json" }, body: { n: 1 } };
const input = (over: Partial<NextInput> = {}): NextInput => ({
  scenario: "weather",
  session: "s1",
  version: "v1",
  request: req(),
  wire,
  statuses: { mismatch: 400 },
  ...over,
});
const caller: Caller = {
  namespace: { name: "team", quotas: { sessions: 5 }, createdAt: "2026-01-01T00:00:00.000Z", space: "team.1" },
  keyId: "0123456789ab",
  scope: "run",
};

function host() {
  const data = emptySessionData();
  return sessionHost(
    { session: new MemorySessionStorage(data), responses: new MemoryResponsesStorage(data), recording: new MemoryRecordingStorage(data), mcp: new MemoryMcpStorage(data) },
    wireToolCallIds,
  );
}

describe("member kinds (session/members.ts)", () => {
  it("the host answers every member of the table, and ABSENT every read", () => {
    const sorted = (xs: string[]) => [...xs].sort();
    // Members live on the prototype (one set of functions for every session, not ~25 closures each).
    const members = (o: object) => Object.getOwnPropertyNames(Object.getPrototypeOf(o)).filter((k) => k !== "constructor");
    expect(sorted(members(host()))).toEqual(sorted(Object.keys(MEMBERS)));
    expect(Object.keys(host()).filter((k) => k in MEMBERS)).toEqual([]);
    expect(sorted(Object.keys(ABSENT))).toEqual(
      sorted(
        Object.entries(MEMBERS)
          .filter(([, k]) => k === "read")
          .map(([m]) => m),
      ),
    );
    expect(
      Object.entries(MEMBERS)
        .filter(([, k]) => k === "journal")
        .map(([m]) => m),
    ).toEqual(["next", "record", "mcp"]);
  });
});

describe("the caller on the input (session/caller.ts)", () => {
  it("journals the caller's key id among the request's headers; without one, the headers as sent", () => {
    const s = host();
    s.next(input({ document }));
    s.next(input({ document, caller }));
    const [plain, keyed] = s.requests();
    expect(plain!.request.headers).toEqual({ "content-type": "application/json" });
    expect(keyed!.request.headers).toEqual({ "content-type": "application/json", "x-mockllm-key-id": "0123456789ab" });
  });
});

/** A session store that records every call its sessions get, answering `next` with `needsDocument` until sent one. */
function recordingStore() {
  const calls: [string, string, unknown[]][] = [];
  const store: SessionStore = {
    get: (name): Session =>
      sessionByKind({
        read: (member, args) => {
          calls.push([name, member, args]);
          return member === "requests" ? [] : undefined;
        },
        write: (member, args) => {
          calls.push([name, member, args]);
          const first = args[0];
          return member === "next" && typeof first === "object" && first !== null && !("document" in first) ? { needsDocument: true } : undefined;
        },
      }),
    connect: () => Promise.reject(new Error("no sockets here")),
  };
  return { store, calls };
}

function scoped(store: SessionStore, charge: (usage: Usage) => { ok: true } | { ok: false; quota: "sessions"; retryAfterSeconds: number }) {
  const registry = { charge: vi.fn((_ns: string, _q: unknown, usage: Usage) => charge(usage)) };
  const scenarios = {} as ScenarioStore;
  const tenancy = { registry, scenarios: () => scenarios, dropSpace: async () => {} } as unknown as Tenancy;
  const rt: Runtime = { sessions: store, scenarios, vars: {}, tenancy };
  return { rt: scopeRuntime(rt, caller), registry };
}

describe("a namespace's sessions (tenancy/scope.ts)", () => {
  it("charge a journaled request once, before it runs, and hand it on with the caller under the namespace's name", async () => {
    const { store, calls } = recordingStore();
    const { rt, registry } = scoped(store, () => ({ ok: true }));
    const session = rt.sessions.get("weather/s1");
    expect(await session.next(input())).toEqual({ needsDocument: true });
    await session.next(input({ document }));
    expect(registry.charge.mock.calls.map((c) => c[2])).toEqual([{ session: "weather/s1", journalBytes: JSON.stringify(wire).length }]);
    const nexts = calls.filter(([, m]) => m === "next");
    expect(nexts.map(([name]) => name)).toEqual(["__ns/team.1/weather/s1", "__ns/team.1/weather/s1"]);
    expect(nexts.map(([, , args]) => args[0])).toEqual([
      { ...input(), caller },
      { ...input({ document }), caller },
    ]);
    // The write noted the object in the namespace's directory (once per isolate).
    expect(calls.filter(([, m]) => m === "noteMember")).toEqual([["__ns/team.1/__index/objects", "noteMember", ["__ns/team.1/weather/s1", 100_000]]]);
  });

  it("refuse a request over quota before the session sees it; reads are never charged", async () => {
    const { store, calls } = recordingStore();
    const { rt, registry } = scoped(store, () => ({ ok: false, quota: "sessions", retryAfterSeconds: 7 }));
    const session = rt.sessions.get("weather/s2");
    await expect(session.next(input())).rejects.toBeInstanceOf(QuotaError);
    expect(await session.requests()).toEqual([]);
    expect(registry.charge).toHaveBeenCalledTimes(1);
    expect(calls.map(([name, m]) => [name, m])).toEqual([["__ns/team.1/weather/s2", "requests"]]);
  });

  it("pass on the inner store's sendsBodyText, and charge a body sent as text the bytes its object would cost", async () => {
    const { store, calls } = recordingStore();
    expect(scoped(store, () => ({ ok: true })).rt.sessions.sendsBodyText).toBe(false);
    const texts = { ...store, sendsBodyText: true };
    const { rt, registry } = scoped(texts, () => ({ ok: true }));
    expect(rt.sessions.sendsBodyText).toBe(true);
    const body = { model: "gpt-4o", messages: [{ role: "user", content: 'é \u2028 "q" </x>' }], n: 1.5 };
    const asObject = { ...wire, body };
    const asText = { ...wire, body: undefined };
    const pretty = JSON.stringify(body, null, 2);
    await rt.sessions.get("weather/a").next(input({ wire: asObject }));
    await rt.sessions.get("weather/b").next(input({ wire: asText, wireText: JSON.stringify(body) }));
    await rt.sessions.get("weather/c").next(input({ wire: asText, wireText: pretty }));
    const charged = registry.charge.mock.calls.map((c) => (c[2] as Usage).journalBytes);
    // Compact text (as the SDKs send it) costs what the object's JSON costs; other spacing is charged as sent.
    expect(charged).toEqual([JSON.stringify(asObject).length, JSON.stringify(asObject).length, JSON.stringify(asObject).length + pretty.length - JSON.stringify(body).length]);
    // The text goes on to the session with the caller, the body left out of the wire.
    const sent = calls.filter(([, m]) => m === "next").map(([, , args]) => args[0] as NextInput);
    expect(sent.map((n) => [n.wireText, n.wire.body, n.caller?.keyId])).toEqual([
      [undefined, body, "0123456789ab"],
      [JSON.stringify(body), undefined, "0123456789ab"],
      [pretty, undefined, "0123456789ab"],
    ]);
  });

  it("do not charge internal objects (`__responses/…`, `__index/…`)", async () => {
    const { store, calls } = recordingStore();
    const { rt, registry } = scoped(store, () => ({ ok: true }));
    await rt.sessions.get("__responses/s3").next(input({ document }));
    expect(registry.charge).not.toHaveBeenCalled();
    expect(calls.find(([, m]) => m === "next")?.[0]).toBe("__ns/team.1/__responses/s3");
  });
});

describe("Node's pending session (hosts/node/pending-session.ts)", () => {
  it("answers reads of a name never written from ABSENT and creates nothing; the first write creates it", async () => {
    const store = new NodeSessionStore();
    const session = store.get("weather/typo");
    expect(await session.exists()).toBe(false);
    expect(await session.requests()).toEqual([]);
    expect(await session.reset()).toEqual({ reset: true });
    expect(await session.responseById("resp_1")).toBeNull();
    await session.forgetMember("x");
    expect(store.names()).toEqual([]);
    await session.next(input({ document }));
    expect(store.names()).toEqual(["weather/typo"]);
    expect(await session.exists()).toBe(true);
    expect((await store.get("weather/typo").requests()).map((e) => e.step)).toEqual(["hi"]);
  });
});
