/**
 * A namespace created with a TTL (`POST /admin/namespaces` `ttlSeconds`, what `mockllm namespace create --ttl` sends)
 * carries its `expiresAt` in the answer and the listing, on both runtimes. (Expiry itself: test/client/namespace-ttl.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h?.stop());

describe("namespace TTL", () => {
  it("ttlSeconds sets expiresAt; out of range is a 400 naming the field", async () => {
    const before = Date.now();
    const res = await h.admin("/namespaces", { method: "POST", body: JSON.stringify({ name: "pr-ttl", ttlSeconds: 3600 }) });
    const after = Date.now();
    expect(res.status).toBe(201);
    const created = (await res.json()) as { name: string; quotas: object; expiresAt: string };
    expect([created.name, created.quotas]).toEqual(["pr-ttl", {}]);
    // An hour from when the server took the request, whenever that was between sending it and its answer (a loaded
    // machine can take seconds); expiresAt has whole-second precision at most, hence the second either side.
    const expires = Date.parse(created.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + 3_600_000 - 1000);
    expect(expires).toBeLessThanOrEqual(after + 3_600_000 + 1000);
    const listed = (await (await h.admin("/namespaces")).json()) as { name: string; expiresAt?: string }[];
    expect(listed.find((n) => n.name === "pr-ttl")?.expiresAt).toBe(created.expiresAt);
    const key = (await (await h.admin("/namespaces/pr-ttl/keys", { method: "POST", body: JSON.stringify({ scope: "run" }) })).json()) as { key: string };
    const chat = await fetch(`${h.url}/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${key.key}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(chat.status).toBe(200);
    const bad = await h.admin("/namespaces", { method: "POST", body: JSON.stringify({ name: "pr-bad", ttlSeconds: 0 }) });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain("$.ttlSeconds");
  });
});
