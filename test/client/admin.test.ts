// The admin client against the real Worker, started once for the file by startMockLLM.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AdminClient, MockLLMAdminError, scenario, startMockLLM, type MockLLM } from "../../src/client/index";

let mock: MockLLM;
beforeAll(async () => {
  mock = await startMockLLM({
    scenarios: [
      scenario("preloaded")
        .description("from start")
        .step((s) => s.text("pre")),
    ],
  });
});
afterAll(async () => {
  await mock?.stop();
});

async function chat(base: string, content: string): Promise<Response> {
  return fetch(`${base}/chat/completions`, {
    method: "POST",
    headers: { authorization: "Bearer sk-test", "content-type": "application/json" },
    body: JSON.stringify({ model: "gpt-4o", messages: [{ role: "user", content }] }),
  });
}

async function rejection(p: Promise<unknown>): Promise<MockLLMAdminError> {
  const err: unknown = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof MockLLMAdminError)) throw new Error(`expected MockLLMAdminError, got ${String(err)}`);
  return err;
}

describe("AdminClient against the Worker", () => {
  it("lists what startMockLLM uploaded, next to the bundled scenarios", async () => {
    const list = await mock.admin.list();
    const pre = list.find((s) => s.name === "preloaded");
    expect(pre).toMatchObject({ name: "preloaded", source: "kv", description: "from start" });
    expect(pre?.version).toMatch(/^[0-9a-f]{16}$/);
    expect(list.find((s) => s.name === "weather-agent")?.source).toBe("bundled");
  });

  it("upload → get returns the document as written; re-upload keeps the version", async () => {
    const doc = scenario("round").step((s) => s.match({ turn: 1 }).text("one"));
    const first = await mock.admin.upload(doc);
    expect(first.name).toBe("round");
    expect(await mock.admin.get("round")).toStrictEqual({ name: "round", steps: [{ match: { turn: 1 }, respond: { text: "one" } }] });
    expect((await mock.admin.upload(doc)).version).toBe(first.version);
    const changed = await mock.admin.upload(doc.step((s) => s.text("two")));
    expect(changed.version).not.toBe(first.version);
  });

  it("an invalid upload is a 400 with every issue's JSON path, and nothing is stored", async () => {
    const bad = { name: "broken", steps: [{ respond: { text: 5 } }, { colour: "red" }] };
    const err = await rejection(mock.admin.upload(bad as never));
    expect(err.status).toBe(400);
    expect(err.code).toBe("invalid");
    expect(err.issues.map((i) => i.path)).toStrictEqual(["$.steps[0].respond.text", "$.steps[1].colour"]);
    expect((await rejection(mock.admin.get("broken"))).status).toBe(404);
  });

  it("bulk upload is all or nothing", async () => {
    const err = await rejection(
      mock.admin.uploadMany([
        { name: "bulk-ok", steps: [] },
        { name: "Bulk Bad", steps: [] },
      ]),
    );
    expect(err.status).toBe(400);
    expect(err.issues.map((i) => i.path)).toStrictEqual(["$[1].name"]);
    expect((await mock.admin.list()).some((s) => s.name === "bulk-ok")).toBe(false);
    const ok = await mock.admin.uploadMany([{ name: "bulk-a", steps: [] }, scenario("bulk-b").step((s) => s.text("b"))]);
    expect(ok.map((r) => r.name)).toStrictEqual(["bulk-a", "bulk-b"]);
  });

  it("delete removes an uploaded scenario; deleting again is a 404", async () => {
    await mock.admin.upload({ name: "doomed", steps: [] });
    await mock.admin.delete("doomed");
    expect((await mock.admin.list()).some((s) => s.name === "doomed")).toBe(false);
    const err = await rejection(mock.admin.delete("doomed"));
    expect([err.status, err.code, err.serverMessage]).toStrictEqual([404, "not_found", 'scenario "doomed" not found']);
  });

  it("session, journal and reset follow a real request", async () => {
    await mock.admin.upload(scenario("sess").step("hello", (s) => s.fail("overloaded").text("hi")));
    const base = mock.openaiBaseURL("sess", "s1");
    expect((await chat(base, "a")).status).toBe(503);
    expect((await chat(base, "b")).status).toBe(200);

    const state = await mock.admin.session("sess", "s1");
    expect(state.requests).toBe(2);
    expect(state.steps).toMatchObject([{ id: "hello", used: true, attempts: 2 }]);

    const journal = await mock.admin.journal("sess", "s1");
    expect(journal.map((e) => [e.seq, e.outcome, e.status, e.step, e.provider, e.endpoint])).toStrictEqual([
      [1, "failure", 503, "hello", "openai", "chat.completions"],
      [2, "response", 200, "hello", "openai", "chat.completions"],
    ]);
    // A session no request reached is an error naming it, not an empty journal (contract section 10).
    await expect(mock.admin.journal("sess", "other")).rejects.toMatchObject({ code: "session_not_run", status: 404 });

    await mock.admin.reset("sess", "s1");
    expect(await mock.admin.journal("sess", "s1")).toStrictEqual([]);
    expect((await mock.admin.session("sess", "s1")).steps).toMatchObject([{ id: "hello", used: false, attempts: 0 }]);
  });

  it("schema is the scenario JSON Schema", async () => {
    const schema = (await mock.admin.schema()) as { type?: string; required?: string[] };
    expect(schema.type).toBe("object");
    expect(schema.required).toContain("name");
  });

  it("a wrong token gets 401 with no detail", async () => {
    const wrong = new AdminClient({ url: mock.url, token: "not-the-token" });
    const err = await rejection(wrong.list());
    expect([err.status, err.code]).toStrictEqual([401, "unauthorized"]);
    expect(err.message).toBe(`GET ${mock.url}/admin/scenarios → 401 unauthorized: the admin token is wrong or missing (set --token or MOCKLLM_ADMIN_TOKEN)`);
  });
});
