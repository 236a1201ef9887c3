/**
 * Every answer of the admin API parsed through `AdminClient`, on both runtimes: each route the client calls, as the
 * root token and as a namespace key, with each kind of scenario the runtime has (Workers: uploaded to KV and bundled;
 * Node: files from `--scenarios`, uploads and bundled). The client parses with its own schemas, so an answer it would
 * refuse (issue 37: `source: "file"`) fails here; src/admin/answers.ts catches the same drift at compile time.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AdminClient, MockLLMAdminError } from "../../src/client/admin";
import { ADMIN_TOKEN, call, RUNTIME } from "./helpers";

type Fetch = typeof fetch;

const FILE_DOC = { name: "ac-file", description: "from a file", steps: [{ id: "f", respond: { text: "from the file" } }] };
const UPLOADED = {
  name: "ac-up",
  description: "uploaded",
  steps: [
    { id: "u1", respond: { text: "one" } },
    { id: "u2", respond: { text: "two" } },
  ],
};

/** Where the client's requests go: the test Worker, or a Node server with a `--scenarios` directory. */
let send: Fetch;
let base = "http://mock.test";
let close = async (): Promise<void> => {};

beforeAll(async () => {
  if (RUNTIME === "workers") {
    send = (input, init) => call(new URL(String(input)).pathname + new URL(String(input)).search, init);
    return;
  }
  const dir = mkdtempSync(join(tmpdir(), "mockllm-admin-client-"));
  writeFileSync(join(dir, "ac-file.json"), JSON.stringify(FILE_DOC));
  const { startQuietServer } = await import("../support/server");
  const server = await startQuietServer({ adminToken: ADMIN_TOKEN, scenarios: [dir], watch: false });
  base = server.url;
  send = fetch;
  close = async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  };
});
afterAll(() => close());

function client(token: string): AdminClient {
  return new AdminClient({ url: base, token, fetch: send });
}

async function chat(session: string, text: string, key = "sk-test"): Promise<void> {
  const res = await send(`${base}/s/ac-up/${session}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: text }] }),
  });
  expect(res.status).toBe(200);
  await res.text();
}

/** Every scenario and session route the client has, through `admin`; the same calls whatever the credential. */
async function everyRoute(admin: AdminClient, session: string, run: () => Promise<void>): Promise<void> {
  const up = await admin.upload(UPLOADED);
  await run();
  expect(up).toEqual({ name: "ac-up", version: expect.stringMatching(/^[0-9a-f]{16}$/) });
  expect(await admin.uploadMany([{ name: "ac-gone", steps: [{ respond: { text: "x" } }] }])).toEqual([{ name: "ac-gone", version: expect.any(String) }]);

  const list = await admin.list();
  const sources = new Map(list.map((s) => [s.name, s.source]));
  expect(sources.get("ac-up")).toBe("kv");
  expect(sources.get("ac-gone")).toBe("kv");
  expect(list.filter((s) => s.source === "bundled").length).toBeGreaterThan(0);
  expect(list.find((s) => s.name === "ac-up")!.description).toBe("uploaded");

  expect(await admin.get("ac-up")).toEqual(UPLOADED);
  const bundled = list.find((s) => s.source === "bundled")!;
  expect(typeof (await admin.get(bundled.name))).toBe("object");
  await admin.delete("ac-gone");

  expect(await admin.session("ac-up", session)).toMatchObject({
    version: up.version,
    steps: [
      { id: "u1", used: true, attempts: 1 },
      { id: "u2", used: false, attempts: 0 },
    ],
    requests: 1,
  });
  const journal = await admin.journal("ac-up", session);
  expect(journal.map((e) => [e.seq, e.step, e.outcome, e.status, e.canonical?.answered?.text])).toEqual([[1, "u1", "response", 200, "one"]]);
  expect(await admin.journal("ac-up", session, { since: 1 })).toEqual([]);
  const v = await admin.verify("ac-up", session);
  expect([v.ok, v.requests, v.unusedSteps.map((s) => s.id)]).toEqual([false, 1, ["u2"]]);
  expect((await admin.verify("ac-up", session, { allowUnused: ["u2"] })).ok).toBe(true);
  expect((await admin.sessions("ac-up")).map((s) => [s.scenario, s.session, s.requests])).toEqual([["ac-up", session, 1]]);
  expect((await admin.sessions()).some((s) => s.session === session)).toBe(true);
  const cov = await admin.coverage("ac-up");
  expect(cov.steps.map((s) => [s.id, s.sessions])).toEqual([
    ["u1", 1],
    ["u2", 0],
  ]);
  expect(await admin.recording("ac-up", session, "ac-rec")).toMatchObject({ name: "ac-rec", steps: [] });
  expect(await admin.schema()).toMatchObject({ $id: "https://mockllm.dev/scenario.schema.json" });
  await admin.reset("ac-up", session);
  expect((await admin.session("ac-up", session)).requests).toBe(0);

  // A session that never ran: a 404 the client names, on every read (contract section 10).
  for (const read of [() => admin.session("ac-up", "never"), () => admin.journal("ac-up", "never"), () => admin.verify("ac-up", "never")]) {
    const err = await read().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(MockLLMAdminError);
    expect((err as MockLLMAdminError).code).toBe("session_not_run");
    expect((err as MockLLMAdminError).message).toContain('session "never" of scenario "ac-up" has not run');
  }
}

describe("AdminClient parses every admin answer", () => {
  it("as the root token, with every kind of scenario this runtime has", async () => {
    const admin = client(ADMIN_TOKEN);
    await everyRoute(admin, "root-1", () => chat("root-1", "hi"));
    const sources = new Set((await admin.list()).map((s) => s.source));
    expect([...sources].sort()).toEqual(RUNTIME === "node" ? ["bundled", "file", "kv"] : ["bundled", "kv"]);
    if (RUNTIME === "node") {
      expect((await admin.list()).find((s) => s.name === "ac-file")).toEqual({ name: "ac-file", version: expect.any(String), description: "from a file", source: "file" });
      expect(await admin.get("ac-file")).toEqual(FILE_DOC);
    }
  });

  it("the namespace routes, and every route again as a namespace key", async () => {
    const root = client(ADMIN_TOKEN);
    expect(await root.createNamespace("ac-team", { requestsPerMinute: 600 })).toEqual({ name: "ac-team", quotas: { requestsPerMinute: 600 } });
    expect((await root.namespaces()).find((n) => n.name === "ac-team")).toMatchObject({ name: "ac-team", quotas: { requestsPerMinute: 600 } });
    const created = await root.createKey("ac-team", "admin", "ci");
    expect(created).toEqual({ id: expect.stringMatching(/^[0-9a-f]{12}$/), key: expect.stringMatching(/^mk_/), scope: "admin", label: "ci" });
    const run = await root.createKey("ac-team", "run");
    expect((await root.keys("ac-team")).map((k) => [k.id, k.scope, k.label ?? null])).toEqual([
      [created.id, "admin", "ci"],
      [run.id, "run", null],
    ]);

    const keyed = client(created.key);
    await everyRoute(keyed, "ns-1", () => chat("ns-1", "hi", run.key));
    expect((await keyed.audit("ac-team")).map((e) => e.action)).toContain("scenario.put");
    expect((await root.audit("ac-team"))[0]).toMatchObject({ keyId: "root", action: "namespace.create", target: "ac-team" });

    await root.revokeKey("ac-team", run.id);
    await root.deleteNamespace("ac-team");
    expect((await root.namespaces()).some((n) => n.name === "ac-team")).toBe(false);
  });
});
