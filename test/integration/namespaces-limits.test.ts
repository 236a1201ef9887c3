/**
 * Namespaces under limits: ANONYMOUS=deny, quotas (requests per minute, sessions, journal bytes, scenario bytes),
 * each answered in the surface's own 429 with retry-after and x-mockllm-outcome: quota, other namespaces unaffected.
 * On both runtimes: the Worker with ANONYMOUS=deny in its env, a Node server started with it.
 */
import { describe, expect, it } from "vitest";
import { ADMIN_TOKEN, RUNTIME } from "./helpers";
import { namespaceKey, rootAdmin } from "../support/namespaces";

type Fetch = (path: string, init?: RequestInit) => Promise<Response>;

const fetchDenying: Fetch = await (async (): Promise<Fetch> => {
  if (RUNTIME === "workers") {
    const { env, createExecutionContext, waitOnExecutionContext } = await import("cloudflare:test");
    const { default: worker } = await import("../../src/index");
    return async (path, init) => {
      const ctx = createExecutionContext();
      const res = await worker.fetch(new Request(`http://mock.test${path}`, init) as never, { ...(env as object), ANONYMOUS: "deny" } as never, ctx);
      await waitOnExecutionContext(ctx);
      return res;
    };
  }
  const { startQuietServer } = await import("../support/server");
  const server = await startQuietServer({ adminToken: ADMIN_TOKEN, vars: { ANONYMOUS: "deny" } });
  const { afterAll } = await import("vitest");
  afterAll(() => server.close());
  return (path, init) => fetch(`${server.url}${path}`, init);
})();

const root = { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" };

const namespaceWithKey = (name: string, quotas: Record<string, number> = {}, scope = "admin") => namespaceKey(rootAdmin(fetchDenying, ADMIN_TOKEN), name, scope, quotas);

function chat(key: string | undefined, prefix = "", text = "hello"): Promise<Response> {
  return fetchDenying(`${prefix}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) },
    body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: text }] }),
  });
}

function messages(key: string | undefined): Promise<Response> {
  return fetchDenying("/v1/messages", {
    method: "POST",
    headers: { "content-type": "application/json", "anthropic-version": "2023-06-01", ...(key ? { "x-api-key": key } : {}) },
    body: JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 10, messages: [{ role: "user", content: "hi" }] }),
  });
}

describe("ANONYMOUS=deny", () => {
  it("refuses provider requests without a namespace key, in each surface's 401", async () => {
    const plain = await chat("sk-test");
    expect(plain.status).toBe(401);
    expect(plain.headers.get("x-mockllm-outcome")).toBe("error");
    expect(((await plain.json()) as { error: { message: string } }).error.message).toContain("ANONYMOUS=deny");
    const none = await messages(undefined);
    expect(none.status).toBe(401);
    expect(await none.json()).toMatchObject({ type: "error", error: { type: "authentication_error" } });
    expect((await fetchDenying("/v1/models", { headers: { authorization: "Bearer sk-test" } })).status).toBe(401);
  });

  it("keeps health, the inspector and admin open; a namespace key goes through", async () => {
    expect((await fetchDenying("/healthz")).status).toBe(200);
    expect((await fetchDenying("/")).status).toBe(200);
    expect((await fetchDenying("/admin/scenarios", { headers: root })).status).toBe(200);
    const key = await namespaceWithKey("anon-ok", {}, "run");
    const res = await chat(key);
    expect(res.status).toBe(200);
    expect(res.headers.get("x-mockllm-outcome")).toBe("default");
  });
});

async function expectQuota(res: Response, quota: string): Promise<void> {
  expect(res.status).toBe(429);
  expect(res.headers.get("x-mockllm-outcome")).toBe("quota");
  expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  const body = (await res.json()) as { error: { message: string } };
  expect(body.error.message).toContain(`${quota} quota`);
}

describe("quotas", () => {
  it("requests per minute: exact, in the surface's 429; another namespace unaffected", async () => {
    const key = await namespaceWithKey("q-rpm", { requestsPerMinute: 2 });
    const other = await namespaceWithKey("q-other");
    expect((await chat(key)).status).toBe(200);
    expect((await messages(key)).status).toBe(200);
    await expectQuota(await chat(key), "requestsPerMinute");
    const anth = await messages(key);
    expect(anth.status).toBe(429);
    expect(anth.headers.get("x-mockllm-outcome")).toBe("quota");
    expect(await anth.json()).toMatchObject({ type: "error", error: { type: "rate_limit_error" } });
    // Gemini's body carries the same hint as retry-after (RetryInfo.retryDelay), as the real API's 429 does.
    const gemini = await fetchDenying("/v1beta/models/gemini-2.5-flash:generateContent", {
      method: "POST",
      headers: { "x-goog-api-key": key, "content-type": "application/json" },
      body: JSON.stringify({ contents: [{ role: "user", parts: [{ text: "hi" }] }] }),
    });
    const retryAfter = gemini.headers.get("retry-after");
    const details = ((await gemini.json()) as { error: { status: string; details: { "@type": string; retryDelay?: string }[] } }).error;
    expect([gemini.status, details.status]).toEqual([429, "RESOURCE_EXHAUSTED"]);
    expect(details.details.find((d) => d["@type"].endsWith("RetryInfo"))?.retryDelay).toBe(`${retryAfter}s`);
    expect((await chat(other)).status).toBe(200);
  });

  it("sessions: a new session over the quota is refused, a known one goes on", async () => {
    const key = await namespaceWithKey("q-sessions", { sessions: 1 });
    const doc = { name: "qs", steps: [{ id: "a", consume: false, respond: { text: "ok" } }] };
    const put = await fetchDenying("/admin/scenarios/qs", { method: "PUT", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(doc) });
    expect(put.status).toBe(200);
    expect((await chat(key, "/s/qs/one")).status).toBe(200);
    await expectQuota(await chat(key, "/s/qs/two"), "sessions");
    expect((await chat(key, "/s/qs/one")).status).toBe(200);
  });

  it("journal bytes: requests are refused once the journal would pass the quota", async () => {
    const key = await namespaceWithKey("q-journal", { journalBytes: 1200 });
    const doc = { name: "qj", steps: [{ id: "a", consume: false, respond: { text: "ok" } }] };
    await fetchDenying("/admin/scenarios/qj", { method: "PUT", headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: JSON.stringify(doc) });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await chat(key, "/s/qj/j", "x".repeat(200))).status);
    expect(statuses[0]).toBe(200);
    expect(statuses).toContain(429);
    expect(statuses.slice(statuses.indexOf(429)).every((s) => s === 429)).toBe(true);
  });

  it("scenario bytes: an upload over the quota is refused with the admin API's 429", async () => {
    const key = await namespaceWithKey("q-bytes", { scenarioBytes: 300 });
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const small = { name: "small", steps: [{ id: "a", respond: { text: "ok" } }] };
    const big = { name: "big", steps: [{ id: "a", respond: { text: "y".repeat(400) } }] };
    expect((await fetchDenying("/admin/scenarios/small", { method: "PUT", headers, body: JSON.stringify(small) })).status).toBe(200);
    await expectQuota(await fetchDenying("/admin/scenarios/big", { method: "PUT", headers, body: JSON.stringify(big) }), "scenarioBytes");
    const list = (await (await fetchDenying("/admin/scenarios", { headers })).json()) as { name: string; source: string }[];
    expect(list.filter((s) => s.source === "kv").map((s) => s.name)).toEqual(["small"]);
  });
});
