// The admin client's request building and error reading, against a scripted fetch:
// exact wire shapes for cases the real Worker can't easily produce (503, garbage bodies, timeouts).
import { describe, expect, it } from "vitest";
import { AdminClient, MockLLMAdminError, scenario, ScenarioValidationError } from "../../src/client/index";
import { closedPort } from "../support/ports";

interface Seen {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

function scripted(status: number, body: string, seen: Seen[] = []): typeof fetch {
  return async (input, init) => {
    seen.push({
      url: String(input),
      method: init?.method ?? "GET",
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      body: typeof init?.body === "string" ? init.body : undefined,
    });
    return new Response(body, { status, headers: { "content-type": "application/json" } });
  };
}

async function caught(p: Promise<unknown>): Promise<MockLLMAdminError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof MockLLMAdminError) return err;
    throw err;
  }
  throw new Error("expected a MockLLMAdminError");
}

/** A port nothing listens on: bind one, note it, close it. */
describe("AdminClient requests", () => {
  it.each([
    { call: (a: AdminClient) => a.list(), method: "GET", path: "/admin/scenarios", answer: "[]" },
    { call: (a: AdminClient) => a.get("w.1"), method: "GET", path: "/admin/scenarios/w.1", answer: '{"name":"w.1","steps":[]}' },
    { call: (a: AdminClient) => a.delete("w"), method: "DELETE", path: "/admin/scenarios/w", answer: '{"name":"w","deleted":true}' },
    { call: (a: AdminClient) => a.session("w"), method: "GET", path: "/admin/sessions/w/default", answer: '{"version":null,"steps":[],"requests":0}' },
    { call: (a: AdminClient) => a.journal("w", "run-1"), method: "GET", path: "/admin/sessions/w/run-1/requests", answer: "[]" },
    { call: (a: AdminClient) => a.reset("w", "run-1"), method: "POST", path: "/admin/sessions/w/run-1/reset", answer: '{"reset":true}' },
    { call: (a: AdminClient) => a.schema(), method: "GET", path: "/admin/schema", answer: '{"type":"object"}' },
  ])("$method $path sends the bearer token to the right route", async ({ call, method, path, answer }) => {
    const seen: Seen[] = [];
    const admin = new AdminClient({ url: "http://mock.test:1234/", token: "s3cret", fetch: scripted(200, answer, seen) });
    await call(admin);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ url: `http://mock.test:1234${path}`, method, body: undefined });
    expect(seen[0]?.headers.authorization).toBe("Bearer s3cret");
  });

  it("upload builds a builder and PUTs it under its name", async () => {
    const seen: Seen[] = [];
    const admin = new AdminClient({ url: "http://x", token: "t", fetch: scripted(200, '{"name":"hi","version":"abc"}', seen) });
    const result = await admin.upload(scenario("hi").step((s) => s.text("Hello")));
    expect(result).toStrictEqual({ name: "hi", version: "abc" });
    expect(seen[0]?.method).toBe("PUT");
    expect(seen[0]?.url).toBe("http://x/admin/scenarios/hi");
    expect(seen[0]?.headers["content-type"]).toBe("application/json");
    expect(seen[0]?.body).toBe('{"name":"hi","steps":[{"respond":{"text":"Hello"}}]}');
  });

  it("upload of an invalid builder throws locally, before any request", async () => {
    const seen: Seen[] = [];
    const admin = new AdminClient({ url: "http://x", token: "t", fetch: scripted(200, "{}", seen) });
    await expect(admin.upload(scenario("NO").step((s) => s.text("x")))).rejects.toBeInstanceOf(ScenarioValidationError);
    expect(seen).toHaveLength(0);
  });

  it("uploadMany POSTs one array", async () => {
    const seen: Seen[] = [];
    const answer = '[{"name":"a","version":"1"},{"name":"b","version":"2"}]';
    const admin = new AdminClient({ url: "http://x", token: "t", fetch: scripted(200, answer, seen) });
    const out = await admin.uploadMany([{ name: "a", steps: [] }, scenario("b").step((s) => s.text("b"))]);
    expect(out).toStrictEqual([
      { name: "a", version: "1" },
      { name: "b", version: "2" },
    ]);
    expect(seen[0]?.method).toBe("POST");
    expect(seen[0]?.url).toBe("http://x/admin/scenarios");
    expect(JSON.parse(seen[0]?.body ?? "")).toStrictEqual([
      { name: "a", steps: [] },
      { name: "b", steps: [{ respond: { text: "b" } }] },
    ]);
  });
});

describe("AdminClient errors", () => {
  it("400 with issues carries status, the server's message and every JSON path", async () => {
    const body = JSON.stringify({
      error: {
        message: "invalid scenario: 2 issue(s)",
        issues: [
          { path: "$.steps[0].respond.text", message: "Invalid input: expected string, received number" },
          { path: "$.steps[1].colour", message: 'unknown key "colour"' },
        ],
      },
    });
    const admin = new AdminClient({ url: "http://x", token: "t", fetch: scripted(400, body) });
    const err = await caught(admin.upload({ name: "w", steps: [] }));
    expect(err.code).toBe("invalid");
    expect(err.status).toBe(400);
    expect(err.serverMessage).toBe("invalid scenario: 2 issue(s)");
    expect(err.issues.map((i) => i.path)).toStrictEqual(["$.steps[0].respond.text", "$.steps[1].colour"]);
    expect(err.message).toBe(
      [
        "PUT http://x/admin/scenarios/w → 400: invalid scenario: 2 issue(s)",
        "  $.steps[0].respond.text: Invalid input: expected string, received number",
        '  $.steps[1].colour: unknown key "colour"',
      ].join("\n"),
    );
  });

  it("401 says the token is wrong, without server detail", async () => {
    const admin = new AdminClient({ url: "http://x", token: "bad", fetch: scripted(401, "") });
    const err = await caught(admin.list());
    expect(err.code).toBe("unauthorized");
    expect(err.status).toBe(401);
    expect(err.message).toBe("GET http://x/admin/scenarios → 401 unauthorized: the admin token is wrong or missing (set --token or MOCKLLM_ADMIN_TOKEN)");
  });

  it("503 admin disabled is named as such", async () => {
    const admin = new AdminClient({ url: "http://x", token: "t", fetch: scripted(503, '{"error":{"message":"admin disabled"}}') });
    const err = await caught(admin.list());
    expect(err.code).toBe("admin_disabled");
    expect(err.status).toBe(503);
    expect(err.message).toBe("GET http://x/admin/scenarios → 503 admin disabled: the server has no ADMIN_TOKEN configured");
  });

  it("404 and other statuses keep the server's message; a non-JSON body is quoted", async () => {
    const nf = new AdminClient({ url: "http://x", token: "t", fetch: scripted(404, '{"error":{"message":"scenario \\"w\\" not found"}}') });
    const e404 = await caught(nf.get("w"));
    expect([e404.code, e404.status, e404.serverMessage]).toStrictEqual(["not_found", 404, 'scenario "w" not found']);
    const html = new AdminClient({ url: "http://x", token: "t", fetch: scripted(502, "<html>Bad Gateway</html>") });
    const e502 = await caught(html.list());
    expect(e502.code).toBe("http");
    expect(e502.message).toBe("GET http://x/admin/scenarios → 502: <html>Bad Gateway</html>");
  });

  it("a 200 with a body of the wrong shape is a bad_response, not a crash later", async () => {
    const admin = new AdminClient({ url: "http://x", token: "t", fetch: scripted(200, '{"scenarios":"nope"}') });
    const err = await caught(admin.list());
    expect(err.code).toBe("bad_response");
    expect(err.message).toMatch(/^GET http:\/\/x\/admin\/scenarios → 200: unexpected shape: /);
    const notJson = new AdminClient({ url: "http://x", token: "t", fetch: scripted(200, "hello") });
    expect((await caught(notJson.schema())).message).toBe("GET http://x/admin/schema → 200: not JSON: hello");
  });

  it("an unreachable URL gives a clear error naming the URL", async () => {
    const port = await closedPort();
    const admin = new AdminClient({ url: `http://127.0.0.1:${port}`, token: "t" });
    const err = await caught(admin.list());
    expect(err.code).toBe("unreachable");
    expect(err.status).toBe(0);
    expect(err.message).toBe(`cannot reach mockllm: GET http://127.0.0.1:${port}/admin/scenarios failed (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:${port}); is the server running at that URL?`);
  });

  it("a server that never answers times out with the URL named", async () => {
    const hang: typeof fetch = (_input, init) => new Promise((_resolve, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal?.reason)));
    const admin = new AdminClient({ url: "http://slow.test", token: "t", timeoutMs: 20, fetch: hang });
    const err = await caught(admin.list());
    expect(err.code).toBe("unreachable");
    expect(err.message).toBe("cannot reach mockllm: GET http://slow.test/admin/scenarios failed (timed out); is the server running at that URL?");
  });
});
