/**
 * Namespace keys and the registry's logic: key format, hashing, constant-time comparison, the per-isolate cache
 * bound (a revoked key is refused within the revocation window), quotas counted exactly.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { hashKey, isNamespaceKey, keyIdOf, mintKey, NO_HASH, sameHash } from "../../src/tenancy/keys";
import { MapStore, RegistryCore, AUDIT_LIMIT } from "../../src/tenancy/registry-core";
import { credentialValues, forgetKeys, KEY_CACHE_MS, resolveCaller, UNKNOWN_LIMIT } from "../../src/tenancy/resolve";
import type { Runtime } from "../../src/runtime/types";
import type { Tenancy } from "../../src/tenancy/types";

describe("keys", () => {
  it("mints mk_{12 hex id}_{48 hex secret}, each different", () => {
    const a = mintKey();
    const b = mintKey();
    expect(a.key).toMatch(/^mk_[0-9a-f]{12}_[0-9a-f]{48}$/);
    expect(a.key.slice(3, 15)).toBe(a.id);
    expect(a.key).not.toBe(b.key);
    expect(keyIdOf(a.key)).toBe(a.id);
    expect(keyIdOf("mk_short")).toBeUndefined();
    expect(keyIdOf(`${a.key}x`)).toBeUndefined();
    expect(isNamespaceKey("mk_anything")).toBe(true);
    expect(isNamespaceKey("sk-test")).toBe(false);
  });

  it("hashes with SHA-256 (hex) and compares equal lengths in full", async () => {
    expect(await hashKey("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const h = await hashKey("mk_x");
    expect(sameHash(h, h)).toBe(true);
    expect(sameHash(h, NO_HASH)).toBe(false);
    expect(sameHash(h, `${h.slice(0, 63)}${h[63] === "0" ? "1" : "0"}`)).toBe(false);
    expect(sameHash(h, h.slice(0, 10))).toBe(false);
  });

  it("reads every place an SDK puts a key, each distinct value once", () => {
    const req = new Request("http://x/v1beta/models/m:generateContent?key=k3", {
      headers: { authorization: "Bearer k1", "x-api-key": "k2", "x-goog-api-key": "k1" },
    });
    expect(credentialValues(req)).toEqual(["k1", "k2", "k3"]);
    expect(credentialValues(new Request("http://x/v1/chat/completions"))).toEqual([]);
    const ws = new Request("http://x/v1/realtime?model=m", { headers: { "sec-websocket-protocol": "realtime, openai-insecure-api-key.mk_k4" } });
    expect(credentialValues(ws)).toEqual(["mk_k4"]);
  });
});

function runtimeOver(core: RegistryCore, lookups: string[]): Runtime {
  const registry = new Proxy(core, {
    get(target, prop, receiver) {
      if (prop === "lookupKey")
        return (id: string) => {
          lookups.push(id);
          return target.lookupKey(id);
        };
      return Reflect.get(target, prop, receiver);
    },
  });
  const tenancy = { registry, scenarios: () => undefined as never, dropSpace: async () => {} } as Tenancy;
  return { sessions: { get: () => undefined as never, connect: () => undefined as never }, scenarios: undefined as never, vars: {}, tenancy };
}

describe("resolving a caller", () => {
  afterEach(() => {
    vi.useRealTimers();
    forgetKeys();
  });

  async function setUp() {
    const core = new RegistryCore(new MapStore());
    core.createNamespace("team", {}, "team.1");
    const minted = mintKey();
    core.addKey({ id: minted.id, namespace: "team", scope: "run", createdAt: "2026-01-01T00:00:00Z", hash: await hashKey(minted.key) });
    const lookups: string[] = [];
    return { core, minted, lookups, rt: runtimeOver(core, lookups) };
  }

  it("a valid key resolves to its namespace and scope; unknown ids and wrong secrets take the same path", async () => {
    const { minted, lookups, rt } = await setUp();
    const ok = await resolveCaller(rt, [minted.key]);
    expect(ok).toMatchObject({ kind: "caller", caller: { keyId: minted.id, scope: "run", namespace: { name: "team", space: "team.1" } } });
    const wrong = await resolveCaller(rt, [`mk_${minted.id}_${"0".repeat(48)}`]);
    const unknown = await resolveCaller(rt, [`mk_${"f".repeat(12)}_${"0".repeat(48)}`]);
    expect(wrong).toEqual({ kind: "refused", message: "invalid or revoked mockllm key" });
    expect(unknown).toEqual(wrong);
    // The wrong secret's id is the valid key's: its record is cached, so no second lookup.
    expect(lookups).toEqual([minted.id, "f".repeat(12)]);
    expect(await resolveCaller(rt, ["sk-test"])).toEqual({ kind: "default" });
    expect((await resolveCaller(rt, [minted.key, "sk-test"])).kind).toBe("refused");
  });

  it("a verified key is trusted from the cache for less than the revocation window, then asked again", async () => {
    vi.useFakeTimers({ now: 1_000_000 });
    const { core, minted, lookups, rt } = await setUp();
    expect((await resolveCaller(rt, [minted.key])).kind).toBe("caller");
    core.revokeKey("team", minted.id); // in another isolate: this cache is not told
    vi.setSystemTime(1_000_000 + KEY_CACHE_MS - 1);
    expect((await resolveCaller(rt, [minted.key])).kind).toBe("caller");
    expect(lookups).toHaveLength(1);
    vi.setSystemTime(1_000_000 + KEY_CACHE_MS);
    expect((await resolveCaller(rt, [minted.key])).kind).toBe("refused");
    expect(lookups).toHaveLength(2);
    expect(KEY_CACHE_MS).toBeLessThan(5_000);
  });

  it("a secret that matched its cached record is compared, not hashed again; any other secret is hashed and refused", async () => {
    vi.useFakeTimers({ now: 2_000_000 });
    const { minted, lookups, rt } = await setUp();
    const digest = vi.spyOn(crypto.subtle, "digest");
    try {
      const first = await resolveCaller(rt, [minted.key]);
      expect(first).toMatchObject({ kind: "caller", caller: { keyId: minted.id, scope: "run" } });
      expect(await resolveCaller(rt, [minted.key])).toEqual(first);
      expect(await resolveCaller(rt, [minted.key])).toEqual(first);
      expect(digest).toHaveBeenCalledTimes(1);
      // Same id, one character of the secret changed: hashed, refused, and the verified secret still answers.
      const last = minted.key.at(-1) === "0" ? "1" : "0";
      expect((await resolveCaller(rt, [`${minted.key.slice(0, -1)}${last}`])).kind).toBe("refused");
      expect(digest).toHaveBeenCalledTimes(2);
      expect(await resolveCaller(rt, [minted.key])).toEqual(first);
      expect(digest).toHaveBeenCalledTimes(2);
      // A new registry answer (the window passed) is verified afresh, once.
      vi.setSystemTime(2_000_000 + KEY_CACHE_MS);
      expect(await resolveCaller(rt, [minted.key])).toEqual(first);
      expect(await resolveCaller(rt, [minted.key])).toEqual(first);
      expect(digest).toHaveBeenCalledTimes(3);
      expect(lookups).toEqual([minted.id, minted.id]);
    } finally {
      digest.mockRestore();
    }
  });
});

describe("a flood of keys", () => {
  afterEach(() => {
    vi.useRealTimers();
    forgetKeys();
  });

  const randomKey = () => mintKey().key;

  it("malformed keys never reach the registry; N distinct well-formed unknown keys cost N lookups, repeats none within the window", async () => {
    vi.useFakeTimers({ now: 5_000_000 });
    const core = new RegistryCore(new MapStore());
    core.createNamespace("team", {}, "team.1");
    const valid = mintKey();
    core.addKey({ id: valid.id, namespace: "team", scope: "run", createdAt: "2026-01-01T00:00:00Z", hash: await hashKey(valid.key) });
    const lookups: string[] = [];
    const rt = runtimeOver(core, lookups);
    expect((await resolveCaller(rt, [valid.key])).kind).toBe("caller");
    expect(lookups).toHaveLength(1);

    for (const bad of ["mk_", "mk_123", `mk_${"g".repeat(12)}_${"0".repeat(48)}`, `${valid.key}0`, `mk_${valid.id}_short`]) {
      expect((await resolveCaller(rt, [bad])).kind).toBe("refused");
    }
    expect(lookups).toHaveLength(1);

    const N = 2_000;
    const flood = Array.from({ length: N }, randomKey);
    for (const k of flood) expect((await resolveCaller(rt, [k])).kind).toBe("refused");
    expect(lookups).toHaveLength(1 + N);
    for (const k of flood) await resolveCaller(rt, [k]);
    expect(lookups).toHaveLength(1 + N);
    // The same unknown ids with other secrets: still no lookup.
    for (const k of flood.slice(0, 100)) await resolveCaller(rt, [`${k.slice(0, 16)}${"1".repeat(48)}`]);
    expect(lookups).toHaveLength(1 + N);
    // The flood did not evict the valid key's record.
    expect((await resolveCaller(rt, [valid.key])).kind).toBe("caller");
    expect(lookups).toHaveLength(1 + N);
    // After the window, each is asked again once.
    vi.setSystemTime(5_000_000 + KEY_CACHE_MS);
    for (const k of flood.slice(0, 10)) await resolveCaller(rt, [k]);
    expect(lookups).toHaveLength(1 + N + 10);
  });

  it("the unknown-id memory is bounded: beyond UNKNOWN_LIMIT the oldest ids are asked again", async () => {
    vi.useFakeTimers({ now: 6_000_000 });
    const core = new RegistryCore(new MapStore());
    const lookups: string[] = [];
    const rt = runtimeOver(core, lookups);
    const flood = Array.from({ length: UNKNOWN_LIMIT + 1 }, randomKey);
    for (const k of flood) await resolveCaller(rt, [k]);
    expect(lookups).toHaveLength(UNKNOWN_LIMIT + 1);
    await resolveCaller(rt, [flood[flood.length - 1]!]);
    expect(lookups).toHaveLength(UNKNOWN_LIMIT + 1);
    await resolveCaller(rt, [flood[0]!]);
    expect(lookups).toHaveLength(UNKNOWN_LIMIT + 2);
  });
});

describe("registry quotas and audit", () => {
  it("counts requests per minute exactly in fixed windows", () => {
    const core = new RegistryCore(new MapStore());
    const q = { requestsPerMinute: 3 };
    const t0 = 10_000_000;
    expect([0, 1, 2, 3].map((i) => core.charge("n", q, { request: true }, t0 + i, 1e9).ok)).toEqual([true, true, true, false]);
    expect(core.charge("n", q, { request: true }, t0 + 30_000, 1e9)).toEqual({ ok: false, quota: "requestsPerMinute", retryAfterSeconds: 30 });
    expect(core.charge("n", q, { request: true }, t0 + 60_000, 1e9).ok).toBe(true);
    expect(core.charge("other", q, { request: true }, t0 + 1, 1e9).ok).toBe(true);
  });

  it("counts sessions used within the TTL, and scenario bytes per name", () => {
    const core = new RegistryCore(new MapStore());
    const q = { sessions: 2, scenarioBytes: 100 };
    expect(core.charge("n", q, { session: "a/1" }, 0, 1000).ok).toBe(true);
    expect(core.charge("n", q, { session: "a/2" }, 1, 1000).ok).toBe(true);
    expect(core.charge("n", q, { session: "a/3" }, 2, 1000)).toMatchObject({ ok: false, quota: "sessions" });
    expect(core.charge("n", q, { session: "a/1" }, 3, 1000).ok).toBe(true);
    expect(core.charge("n", q, { session: "a/3" }, 1002, 1000).ok).toBe(true); // a/2 idle past the TTL
    expect(core.charge("n", q, { scenario: { name: "s", bytes: 80 } }, 0, 1000).ok).toBe(true);
    expect(core.charge("n", q, { scenario: { name: "s", bytes: 90 } }, 0, 1000).ok).toBe(true); // replaces itself
    expect(core.charge("n", q, { scenario: { name: "t", bytes: 20 } }, 0, 1000)).toMatchObject({ ok: false, quota: "scenarioBytes" });
    expect(core.charge("n", q, { scenario: { name: "s", bytes: 0 } }, 0, 1000).ok).toBe(true);
    expect(core.charge("n", q, { scenario: { name: "t", bytes: 20 } }, 0, 1000).ok).toBe(true);
  });

  it("keeps the newest AUDIT_LIMIT audit entries; deleting a namespace drops its keys, usage and audit", () => {
    const core = new RegistryCore(new MapStore());
    core.createNamespace("n", {}, "n.1");
    for (let i = 0; i < AUDIT_LIMIT + 3; i++) core.audit("n", { at: String(i), keyId: "root", action: "x", target: String(i) });
    const log = core.auditLog("n");
    expect(log).toHaveLength(AUDIT_LIMIT);
    expect(log[0]!.target).toBe("3");
    core.addKey({ id: "k1", namespace: "n", scope: "admin", createdAt: "t", hash: NO_HASH });
    expect(core.lookupKey("k1")?.namespace.name).toBe("n");
    expect(core.deleteNamespace("n")?.space).toBe("n.1");
    expect(core.lookupKey("k1")).toBeNull();
    expect(core.auditLog("n")).toEqual([]);
    expect(core.createNamespace("n", {}, "n.2")?.space).toBe("n.2");
  });
});

describe("the recording proxy never sends a namespace key upstream", () => {
  it("drops mk_ credentials from headers and ?key=, keeps ordinary keys", async () => {
    const { forwardHeaders, upstreamUrl } = await import("../../src/turn/record");
    const key = `mk_${"a".repeat(12)}_${"b".repeat(48)}`;
    const out = forwardHeaders(new Headers({ authorization: `Bearer ${key}`, "x-api-key": key, "x-goog-api-key": "real-key", "x-mockllm-key-id": "a".repeat(12), "content-type": "application/json" }));
    expect(out.has("authorization")).toBe(false);
    expect(out.has("x-api-key")).toBe(false);
    expect(out.has("x-mockllm-key-id")).toBe(false);
    expect(out.get("x-goog-api-key")).toBe("real-key");
    expect(upstreamUrl("https://up.example", "/v1beta/models/m:generateContent", `http://mock/x?alt=sse&key=${key}`)).toBe("https://up.example/v1beta/models/m:generateContent?alt=sse");
    expect(upstreamUrl("https://up.example", "/p", "http://mock/x?key=real")).toBe("https://up.example/p?key=real");
  });
});
