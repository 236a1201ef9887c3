import { describe, expect, it } from "vitest";
import { admin, call, chat, isUploaded, RUNTIME, userTurn } from "./helpers";

const doc = (name: string, text = "hi") => ({ name, description: `says ${text}`, steps: [{ respond: { text } }] });

describe("admin auth", () => {
  it.each([
    { name: "missing token", headers: {} as Record<string, string> },
    { name: "wrong token", headers: { authorization: "Bearer nope" } },
    { name: "not bearer", headers: { authorization: "Basic dGVzdA==" } },
  ])("$name → 401 with no detail", async ({ headers }) => {
    const res = await call("/admin/scenarios", { headers });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: { message: "unauthorized" } });
  });

  it("the right token passes", async () => {
    expect((await admin("/scenarios")).status).toBe(200);
  });
});

describe("scenarios in KV", () => {
  it("PUT stores, returns the content-hash version, GET returns it with an ETag", async () => {
    const put = await admin("/scenarios/greeter", { method: "PUT", body: JSON.stringify(doc("greeter")) });
    expect(put.status).toBe(200);
    const { name, version } = (await put.json()) as { name: string; version: string };
    expect(name).toBe("greeter");
    expect(version).toMatch(/^[0-9a-f]{16}$/);
    const again = await admin("/scenarios/greeter", { method: "PUT", body: JSON.stringify(doc("greeter")) });
    expect(((await again.json()) as { version: string }).version).toBe(version);
    const get = await admin("/scenarios/greeter");
    expect(get.headers.get("etag")).toBe(`"${version}"`);
    expect(await get.json()).toEqual(doc("greeter"));
    const notModified = await admin("/scenarios/greeter", { headers: { "if-none-match": `"${version}"` } });
    expect(notModified.status).toBe(304);
  });

  it("an invalid upload is 400 with every issue's JSON path, and nothing is stored", async () => {
    const bad = { name: "broken", steps: [{ respond: { txt: "x" } }, { failures: [{ kind: "rate_limit", retryAfterMs: -1 }] }], extra: true };
    const res = await admin("/scenarios/broken", { method: "PUT", body: JSON.stringify(bad) });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { message: string; issues: { path: string }[] } };
    expect(body.error.issues.map((i) => i.path).sort()).toEqual(["$.extra", "$.steps[0].respond.txt", "$.steps[1].failures[0].retryAfterMs"].sort());
    expect((await admin("/scenarios/broken")).status).toBe(404);
    expect(await isUploaded("broken")).toBe(false);
  });

  it("PUT with a body name that differs from the URL is rejected", async () => {
    const res = await admin("/scenarios/one", { method: "PUT", body: JSON.stringify(doc("two")) });
    expect(res.status).toBe(400);
    expect(await isUploaded("one")).toBe(false);
  });

  it("PUT with malformed JSON is 400", async () => {
    const res = await admin("/scenarios/x", { method: "PUT", body: "{nope" });
    expect(res.status).toBe(400);
  });

  it("bulk upload is all-or-nothing", async () => {
    const res = await admin("/scenarios", {
      method: "POST",
      body: JSON.stringify([doc("bulk-a"), { name: "bulk-b", steps: "no" }, doc("bulk-c")]),
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { error: { issues: { path: string }[] } };
    expect(body.error.issues.map((i) => i.path)).toEqual(["$[1].steps"]);
    for (const n of ["bulk-a", "bulk-b", "bulk-c"]) expect(await isUploaded(n)).toBe(false);

    const dup = await admin("/scenarios", { method: "POST", body: JSON.stringify([doc("bulk-a"), doc("bulk-a")]) });
    expect(dup.status).toBe(400);
    expect(await isUploaded("bulk-a")).toBe(false);

    const ok = await admin("/scenarios", { method: "POST", body: JSON.stringify([doc("bulk-a"), doc("bulk-c")]) });
    expect(ok.status).toBe(200);
    expect(((await ok.json()) as { name: string }[]).map((r) => r.name)).toEqual(["bulk-a", "bulk-c"]);
  });

  it("lists KV and bundled scenarios; a KV twin overrides a bundled one until deleted", async () => {
    const list = async () => (await (await admin("/scenarios")).json()) as { name: string; source: string; version: string }[];
    const bundled = (await list()).find((s) => s.name === "weather-agent");
    expect(bundled?.source).toBe("bundled");
    await admin("/scenarios/weather-agent", { method: "PUT", body: JSON.stringify(doc("weather-agent", "override")) });
    expect((await list()).filter((s) => s.name === "weather-agent").map((s) => s.source)).toEqual(["kv"]);
    const answer = await chat(userTurn("x"), "/s/weather-agent/override-check");
    expect(((await answer.json()) as any).choices[0].message.content).toBe("override");
    const del = await admin("/scenarios/weather-agent", { method: "DELETE" });
    expect(await del.json()).toEqual({ name: "weather-agent", deleted: true, now: { source: "bundled", version: bundled!.version } });
    expect((await list()).find((s) => s.name === "weather-agent")?.source).toBe("bundled");
    expect((await admin("/scenarios/weather-agent", { method: "DELETE" })).status).toBe(404);
  });

  it("serves the JSON Schema", async () => {
    const res = await admin("/schema");
    const schema = (await res.json()) as { $id: string; properties: Record<string, unknown> };
    expect(schema.$id).toBe("https://mockllm.dev/scenario.schema.json");
    expect(Object.keys(schema.properties)).toContain("steps");
  });
});

describe("sessions", () => {
  it("state, journal and reset; a session keeps its version until reset", async () => {
    await admin("/scenarios/counter", {
      method: "PUT",
      body: JSON.stringify({
        name: "counter",
        steps: [
          { id: "first", respond: { text: "v1-a" } },
          { id: "second", respond: { text: "v1-b" } },
        ],
      }),
    });
    const text = async () => ((await (await chat(userTurn("x"), "/s/counter/run")).json()) as any).choices?.[0]?.message?.content;
    expect(await text()).toBe("v1-a");
    await admin("/scenarios/counter", {
      method: "PUT",
      body: JSON.stringify({
        name: "counter",
        steps: [
          { id: "first", respond: { text: "v2-a" } },
          { id: "second", respond: { text: "v2-b" } },
        ],
      }),
    });
    expect(await text()).toBe("v1-b");
    const state = (await (await admin("/sessions/counter/run")).json()) as any;
    expect(state.steps).toEqual([
      { id: "first", used: true, attempts: 1, attemptsByProvider: { openai: 1 } },
      { id: "second", used: true, attempts: 1, attemptsByProvider: { openai: 1 } },
    ]);
    expect(state.requests).toBe(2);
    const journal = (await (await admin("/sessions/counter/run/requests")).json()) as any[];
    expect(journal.map((j) => [j.seq, j.step, j.outcome, j.status])).toEqual([
      [1, "first", "response", 200],
      [2, "second", "response", 200],
    ]);
    expect(journal[0].request.headers.authorization).toBe("[redacted]");
    expect(await (await admin("/sessions/counter/run/reset", { method: "POST" })).json()).toEqual({ reset: true });
    expect(await text()).toBe("v2-a");
    expect(((await (await admin("/sessions/counter/run/requests")).json()) as any[]).map((j) => j.seq)).toEqual([1]);
  });

  it("a session that never ran is a 404 saying so (contract section 10), not an empty state", async () => {
    await admin("/scenarios/fresh", { method: "PUT", body: JSON.stringify(doc("fresh")) });
    const res = await admin("/sessions/fresh/never");
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { message: `session "never" of scenario "fresh" has not run: no request reached /s/fresh/never`, code: "session_not_run" } });
  });

  it("invalid session names are 400, named decoded", async () => {
    const res = await admin("/sessions/fresh/Bad%20Name");
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { message: 'invalid name "Bad Name": names match [a-z0-9][a-z0-9._-]{0,63}' } });
  });
});

describe("names outside [a-z0-9][a-z0-9._-]{0,63} (issue 10)", () => {
  const long = "a".repeat(2017);
  const bad = [long, "a".repeat(65), "Bad%20Name", "-lead", "%E2%9C%93", "%"];
  const routes = (name: string): [string, string][] => [
    ["GET", `/scenarios/${name}`],
    ["PUT", `/scenarios/${name}`],
    ["DELETE", `/scenarios/${name}`],
    ["GET", `/sessions/${name}/default`],
    ["GET", `/sessions/ok/${name}`],
    ["GET", `/sessions/${name}/default/requests`],
    ["POST", `/sessions/ok/${name}/reset`],
  ];

  it.each(bad.flatMap((name) => routes(name).map(([method, path]) => ({ method, path, label: `${method} ${path.slice(0, 40)}` }))))("$label → 400/404 with a message", async ({ method, path }) => {
    const res = await admin(path, { method, ...(method === "PUT" ? { body: JSON.stringify({ name: "x", steps: [] }) } : {}) });
    expect([400, 404]).toContain(res.status);
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/^(invalid name "|scenario ")/);
    expect(body.error.message.length).toBeLessThan(200);
  });

  it("DELETE of a 2,017-character name is 400 naming the rule, and shows the name cut short", async () => {
    const res = await admin(`/scenarios/${long}`, { method: "DELETE" });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: { message: `invalid name "${"a".repeat(80)}… (2017 characters)": names match [a-z0-9][a-z0-9._-]{0,63}` },
    });
  });
});

describe("non-ASCII descriptions (issue 10)", () => {
  const description = 'Wetter-Agent ☀️🌦 — 天気エージェント\nzweite Zeile\t100% "sicher" \\o/';

  it.each([
    ["PUT", (d: unknown) => admin("/scenarios/unicode-desc", { method: "PUT", body: JSON.stringify(d) })],
    ["bulk POST", (d: unknown) => admin("/scenarios", { method: "POST", body: JSON.stringify([d]) })],
  ])("round-trip unchanged through %s then the list, with ASCII-only KV metadata", async (_how, put) => {
    const doc = { name: "unicode-desc", description, steps: [{ respond: { text: "hi" } }] };
    expect((await put(doc)).status).toBe(200);
    const list = (await (await admin("/scenarios")).json()) as { name: string; description?: string }[];
    expect(list.find((s) => s.name === "unicode-desc")?.description).toBe(description);
    expect(((await (await admin("/scenarios/unicode-desc")).json()) as { description: string }).description).toBe(description);
    if (RUNTIME === "workers") {
      // What workerd sends as the CF-KV-Metadata header: printable ASCII only, so it has nothing to warn about.
      const { env } = await import("cloudflare:test");
      const { keys } = await env.SCENARIOS.list({ prefix: "scenario:unicode-desc" });
      expect(keys).toHaveLength(1);
      expect(JSON.stringify(keys[0]!.metadata)).toMatch(/^[\x20-\x7e]+$/);
    }
  });
});
