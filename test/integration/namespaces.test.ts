/**
 * Namespaces (contract section 9), tried as a curious neighbour would: another namespace's scenario names, session
 * names and response ids; a run key on admin routes; a read key writing; conflicting keys; unknown and revoked keys.
 * On both runtimes.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { admin, call, chat, upload, userTurn } from "./helpers";
import { openSocket, until } from "./socket-helpers";
import { mintKey, type MintedKey } from "../support/namespaces";

async function createNamespace(name: string, quotas?: unknown): Promise<Response> {
  return admin("/namespaces", { method: "POST", body: JSON.stringify({ name, ...(quotas ? { quotas } : {}) }) });
}

const mint = (ns: string, scope: string, label?: string) => mintKey(admin, ns, scope, label);

/** An admin call with a namespace key as the bearer. */
function keyAdmin(key: string, path: string, init: RequestInit = {}): Promise<Response> {
  return call(`/admin${path}`, { ...init, headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...init.headers } });
}

function putScenario(key: string, doc: { name: string }): Promise<Response> {
  return keyAdmin(key, `/scenarios/${doc.name}`, { method: "PUT", body: JSON.stringify(doc) });
}

const said = (text: string, name = "shared") => ({ name, steps: [{ id: "hi", consume: false, respond: { text } }] });

function chatAs(key: string, prefix: string, text = "hello"): Promise<Response> {
  return chat(userTurn(text), prefix, { authorization: `Bearer ${key}` });
}

async function textOf(res: Response): Promise<string> {
  expect(res.status).toBe(200);
  return ((await res.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content;
}

let a: { admin: MintedKey; read: MintedKey; run: MintedKey };
let b: { admin: MintedKey; run: MintedKey };

beforeAll(async () => {
  expect((await createNamespace("team-a")).status).toBe(201);
  expect((await createNamespace("team-b")).status).toBe(201);
  a = { admin: await mint("team-a", "admin", "ci"), read: await mint("team-a", "read"), run: await mint("team-a", "run", "preview") };
  b = { admin: await mint("team-b", "admin"), run: await mint("team-b", "run") };
  expect((await putScenario(a.admin.key, said("from A"))).status).toBe(200);
  expect((await putScenario(b.admin.key, said("from B"))).status).toBe(200);
  expect((await putScenario(a.admin.key, said("A only", "only-a"))).status).toBe(200);
});

describe("namespace management (root)", () => {
  it("creates namespaces once, with valid names, and lists them", async () => {
    const created = await createNamespace("team-c", { sessions: 5 });
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ name: "team-c", quotas: { sessions: 5 } });
    expect((await createNamespace("team-c")).status).toBe(409);
    expect((await createNamespace("Bad Name")).status).toBe(400);
    expect((await createNamespace("default")).status).toBe(409);
    const bad = await admin("/namespaces", { method: "POST", body: JSON.stringify({ name: "x1", quotas: { sessions: -1 } }) });
    expect(bad.status).toBe(400);
    const list = (await (await admin("/namespaces")).json()) as { name: string }[];
    expect(list.map((n) => n.name)).toEqual(expect.arrayContaining(["team-a", "team-b", "team-c"]));
  });

  it("mints keys as mk_{id}_{secret}, shown once, listed without secret or hash", async () => {
    expect(a.admin.key).toMatch(/^mk_[0-9a-f]{12}_[0-9a-f]{48}$/);
    expect(a.admin.key.startsWith(`mk_${a.admin.id}_`)).toBe(true);
    expect(a.admin).toMatchObject({ scope: "admin", label: "ci" });
    const listed = (await (await admin("/namespaces/team-a/keys")).json()) as Record<string, unknown>[];
    expect(listed.map((k) => k.id).sort()).toEqual([a.admin.id, a.read.id, a.run.id].sort());
    const text = JSON.stringify(listed);
    expect(text).not.toContain(a.admin.key.split("_")[2]);
    expect(listed.every((k) => !("key" in k) && !("hash" in k))).toBe(true);
    expect((await admin("/namespaces/team-a/keys", { method: "POST", body: JSON.stringify({ scope: "owner" }) })).status).toBe(400);
    expect((await admin("/namespaces/nope/keys", { method: "POST", body: JSON.stringify({ scope: "run" }) })).status).toBe(404);
  });
});

describe("isolation on provider routes", () => {
  it("the same scenario name answers each namespace its own document; default does not see either", async () => {
    expect(await textOf(await chatAs(a.run.key, "/s/shared/s1"))).toBe("from A");
    expect(await textOf(await chatAs(b.run.key, "/s/shared/s1"))).toBe("from B");
    const plain = await chat(userTurn("hello"), "/s/shared/s1");
    expect(plain.status).toBe(404);
    expect(plain.headers.get("x-mockllm-outcome")).toBe("error");
  });

  it("without a key, a scenario not found says that namespaces select by key, naming none (issue 51)", async () => {
    const plain = await chat(userTurn("hello"), "/s/only-a/s1");
    expect(plain.status).toBe(404);
    const msg = ((await plain.json()) as { error: { message: string } }).error.message;
    expect(msg).toBe(`mockllm: scenario "only-a" not found; this server has namespaces: a namespace's scenarios are selected by one of its keys (mk_…) sent as the API key`);
    // A key's request gets no hint: its namespace was searched.
    const keyed = ((await (await chatAs(b.run.key, "/s/only-z/s1")).json()) as { error: { message: string } }).error.message;
    expect(keyed).toBe('mockllm: scenario "only-z" not found');
  });

  it("another namespace's scenario is not found, exactly like one that never existed", async () => {
    const theirs = await chatAs(b.run.key, "/s/only-a/s1");
    const never = await chatAs(b.run.key, "/s/only-z/s1");
    expect(theirs.status).toBe(404);
    expect(never.status).toBe(404);
    const msg = ((await theirs.json()) as { error: { message: string } }).error.message;
    expect(msg).toMatch(/^mockllm: scenario "only-a" not found/);
    expect(msg).not.toContain("A only");
    // Selection by header and by first user message also stays inside the namespace.
    const byHeader = await chat(userTurn("hi"), "", { authorization: `Bearer ${b.run.key}`, "x-mock-scenario": "only-a" });
    expect(byHeader.status).toBe(404);
    const byMessage = await chat(userTurn("only-a"), "", { authorization: `Bearer ${b.run.key}` });
    expect(byMessage.headers.get("x-mockllm-outcome")).toBe("default");
  });

  it("bundled scenarios answer in every namespace (read-only defaults)", async () => {
    const list = (await (await keyAdmin(a.read.key, "/scenarios")).json()) as { name: string; source: string }[];
    expect(list.some((s) => s.source === "bundled")).toBe(true);
    expect(list.filter((s) => s.source === "kv").map((s) => s.name)).toEqual(["only-a", "shared"]);
  });

  it("sessions of the same name are separate: journals, state and listings", async () => {
    await textOf(await chatAs(a.run.key, "/s/shared/same"));
    await textOf(await chatAs(a.run.key, "/s/shared/same"));
    await textOf(await chatAs(b.run.key, "/s/shared/same"));
    const journalA = (await (await keyAdmin(a.read.key, "/sessions/shared/same/requests")).json()) as unknown[];
    const journalB = (await (await keyAdmin(b.admin.key, "/sessions/shared/same/requests")).json()) as unknown[];
    expect(journalA).toHaveLength(2);
    expect(journalB).toHaveLength(1);
    const rootView = await admin("/sessions/shared/same");
    expect(rootView.status).toBe(404); // default has no "shared" and no such session
    const listedB = (await (await keyAdmin(b.admin.key, "/sessions")).json()) as { scenario: string; session: string }[];
    expect(
      listedB
        .filter((s) => s.scenario === "shared")
        .map((s) => s.session)
        .sort(),
    ).toEqual(["s1", "same"]);
    const listedRoot = (await (await admin("/sessions?scenario=shared")).json()) as unknown[];
    expect(listedRoot).toEqual([]);
    // A session of a scenario only A has: 404 for B, as for a typo.
    await textOf(await chatAs(a.run.key, "/s/only-a/x"));
    expect((await keyAdmin(b.admin.key, "/sessions/only-a/x")).status).toBe(404);
    expect((await keyAdmin(b.admin.key, "/sessions/only-a/x/verify")).status).toBe(404);
    expect((await keyAdmin(b.admin.key, "/scenarios/only-a/coverage")).status).toBe(404);
    expect((await keyAdmin(b.admin.key, "/scenarios/only-a")).status).toBe(404);
    // Contract section 10: a session that never ran in the caller's namespace is a 404, as for a typo.
    expect((await keyAdmin(b.admin.key, "/sessions/only-a/x/requests")).status).toBe(404);
    // B resetting "shared/same" resets only B's.
    expect((await keyAdmin(b.admin.key, "/sessions/shared/same/reset", { method: "POST" })).status).toBe(200);
    expect(await (await keyAdmin(a.read.key, "/sessions/shared/same/requests")).json()).toHaveLength(2);
  });

  it("stored Responses: another namespace's response id is not found, by GET or previous_response_id", async () => {
    const headers = (key: string) => ({ authorization: `Bearer ${key}`, "content-type": "application/json" });
    const created = await call("/v1/responses", { method: "POST", headers: headers(a.run.key), body: JSON.stringify({ model: "gpt-4o-mini", input: "remember me" }) });
    expect(created.status).toBe(200);
    const id = ((await created.json()) as { id: string }).id;
    expect((await call(`/v1/responses/${id}`, { headers: headers(a.run.key) })).status).toBe(200);
    const theirs = await call(`/v1/responses/${id}`, { headers: headers(b.run.key) });
    expect(theirs.status).toBe(404);
    expect((await call(`/v1/responses/${id}`, { headers: { authorization: "Bearer sk-test" } })).status).toBe(404);
    const chained = await call("/v1/responses", {
      method: "POST",
      headers: headers(b.run.key),
      body: JSON.stringify({ model: "gpt-4o-mini", input: "and now?", previous_response_id: id }),
    });
    expect(chained.status).toBe(404);
    expect(((await chained.json()) as { error: { code: string } }).error.code).toBe("previous_response_not_found");
    const own = await call("/v1/responses", {
      method: "POST",
      headers: headers(a.run.key),
      body: JSON.stringify({ model: "gpt-4o-mini", input: "and now?", previous_response_id: id }),
    });
    expect(own.status).toBe(200);
  });

  it("the key is read where each SDK sends it: x-api-key, x-goog-api-key, ?key=", async () => {
    const anth = await call("/s/shared/anth/v1/messages", {
      method: "POST",
      headers: { "x-api-key": a.run.key, "anthropic-version": "2023-06-01", "content-type": "application/json" },
      body: JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 100, messages: [{ role: "user", content: "hi" }] }),
    });
    expect(anth.status).toBe(200);
    expect(((await anth.json()) as { content: { text: string }[] }).content[0]!.text).toBe("from A");
    const gem = (init: RequestInit, q = "") =>
      call(`/s/shared/gem/v1beta/models/gemini-2.0-flash:generateContent${q}`, {
        method: "POST",
        ...init,
        body: JSON.stringify({ contents: [{ role: "user", parts: [{ text: "hi" }] }] }),
      });
    const byHeader = await gem({ headers: { "x-goog-api-key": b.run.key, "content-type": "application/json" } });
    expect(byHeader.status).toBe(200);
    expect(JSON.stringify(await byHeader.json())).toContain("from B");
    const byQuery = await gem({ headers: { "content-type": "application/json" } }, `?key=${a.run.key}`);
    expect(byQuery.status).toBe(200);
    expect(JSON.stringify(await byQuery.json())).toContain("from A");
  });
});

describe("WebSockets in a namespace", () => {
  const create = { type: "response.create", model: "gpt-4.1", input: "hello" };
  const done = (m: any) => ["response.completed", "response.failed", "error"].includes(m?.type);

  it("a socket's turns run in the key's namespace: its scenario, its session, its journal", async () => {
    for (const [key, text] of [
      [a.run.key, "from A"],
      [b.run.key, "from B"],
    ] as const) {
      const s = await openSocket("/s/shared/ws1/v1/responses", { authorization: `Bearer ${key}` });
      if (s instanceof Response) throw new Error(`refused: ${s.status} ${await s.text()}`);
      s.send(create);
      const events = await until(s, done);
      expect(events.at(-1).type).toBe("response.completed");
      expect(events.at(-1).response.output[0].content[0].text).toBe(text);
      s.close();
    }
    const journal = async (key: string) => (await keyAdmin(key, "/sessions/shared/ws1/requests")).json() as Promise<any[]>;
    expect((await journal(a.admin.key)).map((e) => [e.step, e.request.method, e.request.headers["x-mockllm-key-id"]])).toEqual([["hi", "WS", a.run.id]]);
    expect((await journal(b.admin.key)).map((e) => [e.step, e.request.method, e.request.headers["x-mockllm-key-id"]])).toEqual([["hi", "WS", b.run.id]]);
    expect((await admin("/sessions/shared/ws1")).status).toBe(404); // default has no "shared" and no such session
    expect((await admin("/sessions/shared/ws1/requests")).status).toBe(404); // contract section 10: never ran here
  });

  it("a socket turn over the namespace's sessions quota is the protocol's 429 error event, and a known session goes on", async () => {
    expect((await createNamespace("team-wsq", { sessions: 1 })).status).toBe(201);
    const key = (await mint("team-wsq", "admin")).key;
    expect((await putScenario(key, said("within quota", "wsq"))).status).toBe(200);
    const turn = async (session: string) => {
      const s = await openSocket(`/s/wsq/${session}/v1/responses`, { authorization: `Bearer ${key}` });
      if (s instanceof Response) throw new Error(`refused: ${s.status}`);
      s.send(create);
      const last = (await until(s, done)).at(-1);
      s.close();
      return last;
    };
    expect((await turn("one")).response.output[0].content[0].text).toBe("within quota");
    const over = await turn("two");
    expect([over.type, over.status]).toEqual(["error", 429]);
    expect(over.error.message).toContain('namespace "team-wsq" is over its sessions quota');
    expect((await turn("one")).type).toBe("response.completed");
  });

  it("another namespace's scenario is not found over a socket either; an unknown key is refused before the upgrade", async () => {
    const s = await openSocket("/s/only-a/ws2/v1/responses", { authorization: `Bearer ${b.run.key}` });
    if (s instanceof Response) throw new Error(`refused: ${s.status}`);
    s.send(create);
    const events = await until(s, done);
    expect([events.at(-1).type, events.at(-1).status, events.at(-1).error?.code]).toEqual(["error", 404, "not_found"]);
    s.close();
    const refused = await openSocket("/s/shared/ws3/v1/responses", { authorization: "Bearer mk_nope_nope" });
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).status).toBe(401);
  });
});

describe("MCP in a namespace", () => {
  const tool = (text: string, name = "shared-mcp") => ({
    name,
    steps: [],
    mcp: { tools: [{ name: "whoami" }], calls: [{ id: "who", consume: false, match: { tool: "whoami" }, result: { content: [{ type: "text", text }] } }] },
  });
  const rpc = (key: string, path: string, method: string, params: unknown = {}) =>
    call(path, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });

  it("a tools/call answers from the key's namespace and is journalled there only", async () => {
    expect((await putScenario(a.admin.key, tool("team A's tool"))).status).toBe(200);
    expect((await putScenario(b.admin.key, tool("team B's tool"))).status).toBe(200);
    for (const [key, text] of [
      [a.run.key, "team A's tool"],
      [b.run.key, "team B's tool"],
    ] as const) {
      const res = await rpc(key, "/s/shared-mcp/m1/mcp", "tools/call", { name: "whoami", arguments: {} });
      expect(res.status).toBe(200);
      expect(((await res.json()) as any).result.content).toEqual([{ type: "text", text }]);
    }
    const journal = (await (await keyAdmin(a.admin.key, "/sessions/shared-mcp/m1/requests")).json()) as any[];
    expect(journal.map((e) => [e.surface, e.step, e.request.headers["x-mockllm-key-id"]])).toEqual([["mcp", "who", a.run.id]]);
    expect((await admin("/sessions/shared-mcp/m1/requests")).status).toBe(404); // contract section 10: never ran here
  });

  it("another namespace's MCP scenario is not found; an unknown key is a 401", async () => {
    expect((await putScenario(a.admin.key, tool("A only", "mcp-only-a"))).status).toBe(200);
    const theirs = await rpc(b.run.key, "/s/mcp-only-a/m2/mcp", "tools/list");
    const never = await rpc(b.run.key, "/s/mcp-only-z/m2/mcp", "tools/list");
    expect([theirs.status, never.status]).toEqual([404, 404]);
    expect((await rpc("mk_nope_nope", "/s/shared-mcp/m2/mcp", "tools/list")).status).toBe(401);
  });
});

describe("streams and garbage in a namespace", () => {
  it("a streamed answer runs in the key's namespace", async () => {
    const res = await chat(userTurn("hello", { stream: true }), "/s/shared/stream", { authorization: `Bearer ${b.run.key}` });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const text = await res.text();
    const said = text
      .split("\n")
      .filter((l) => l.startsWith("data: {"))
      .map((l) => (JSON.parse(l.slice(6)) as { choices: { delta: { content?: string } }[] }).choices[0]?.delta.content ?? "")
      .join("");
    expect(said).toBe("from B");
    expect(text.trimEnd().endsWith("data: [DONE]")).toBe(true);
  });

  it("malformed requests with a valid, an unknown or a malformed key are 4xx, never 5xx", async () => {
    const routes = [
      "/v1/chat/completions",
      "/s/shared/g/v1/chat/completions",
      "/v1/messages",
      "/v1/responses",
      "/v1/responses/resp_x",
      "/api/chat",
      "/v1beta/models/m:generateContent",
      "/v1/models",
      "/s/shared",
      "/admin/scenarios",
      "/admin/sessions/shared/g/requests",
    ];
    const bodies = ["", "{", "[]", '{"model":1}', "null", '{"messages":"x"}'];
    const keys = [a.run.key, a.admin.key, a.read.key, "mk_", `mk_${a.run.id}_`, `mk_${"0".repeat(12)}_${"0".repeat(48)}`];
    for (const route of routes) {
      for (const key of keys) {
        for (const method of ["GET", "POST", "DELETE"]) {
          const res = await call(route, {
            method,
            headers: { authorization: `Bearer ${key}`, "x-api-key": key, "content-type": "application/json", "anthropic-version": "2023-06-01" },
            ...(method === "POST" ? { body: bodies[(route.length + key.length) % bodies.length] } : {}),
          });
          expect(res.status, `${method} ${route}`).toBeLessThan(500);
          expect(await res.text()).not.toContain(key.length > 20 ? key : "\u0000");
        }
      }
    }
  });
});

describe("credentials refused", () => {
  const unknown = `mk_${"ab".repeat(6)}_${"cd".repeat(24)}`;

  it("an unknown, malformed or wrong-secret key: 401 in each surface's own shape, the key never echoed", async () => {
    const wrongSecret = `mk_${a.run.id}_${"0".repeat(48)}`;
    for (const key of [unknown, "mk_short", wrongSecret]) {
      const res = await chatAs(key, "/s/shared/x");
      expect(res.status).toBe(401);
      const text = await res.text();
      expect(text).not.toContain(key);
      expect(JSON.parse(text)).toMatchObject({ error: { type: "invalid_request_error" } });
    }
    const anth = await call("/v1/messages", {
      method: "POST",
      headers: { "x-api-key": unknown, "anthropic-version": "2023-06-01", "content-type": "application/json" },
      body: JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 10, messages: [{ role: "user", content: "hi" }] }),
    });
    expect(anth.status).toBe(401);
    expect(await anth.json()).toMatchObject({ type: "error", error: { type: "authentication_error" } });
    const gem = await call(`/v1beta/models/gemini-2.0-flash:generateContent?key=${unknown}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ contents: [{ role: "user", parts: [{ text: "hi" }] }] }),
    });
    expect(gem.status).toBe(401);
    expect(await gem.json()).toMatchObject({ error: { code: 401, status: "UNAUTHENTICATED" } });
    const ollama = await call("/api/chat", {
      method: "POST",
      headers: { authorization: `Bearer ${unknown}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "llama3.2", stream: false, messages: [{ role: "user", content: "hi" }] }),
    });
    expect(ollama.status).toBe(401);
    expect(typeof ((await ollama.json()) as { error: unknown }).error).toBe("string");
    expect((await keyAdmin(unknown, "/scenarios")).status).toBe(401);
  });

  it("two credentials that disagree: 401", async () => {
    const res = await chat(userTurn("hi"), "/s/shared/x", { authorization: `Bearer ${a.run.key}`, "x-api-key": b.run.key });
    expect(res.status).toBe(401);
    const mixed = await chat(userTurn("hi"), "/s/shared/x", { authorization: `Bearer ${a.run.key}`, "x-api-key": "sk-other" });
    expect(mixed.status).toBe(401);
    const same = await chat(userTurn("hi"), "/s/shared/x", { authorization: `Bearer ${a.run.key}`, "x-api-key": a.run.key });
    expect(same.status).toBe(200);
    expect((await keyAdmin(a.admin.key, "/scenarios", { headers: { "x-api-key": b.admin.key } })).status).toBe(401);
  });

  it("a revoked key is refused at once; the other keys go on", async () => {
    const k = await mint("team-a", "run", "leaked");
    expect(await textOf(await chatAs(k.key, "/s/shared/rv"))).toBe("from A");
    const revoked = await admin(`/namespaces/team-a/keys/${k.id}`, { method: "DELETE" });
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toEqual({ id: k.id, revoked: true });
    expect((await chatAs(k.key, "/s/shared/rv")).status).toBe(401);
    expect((await admin(`/namespaces/team-a/keys/${k.id}`, { method: "DELETE" })).status).toBe(404);
    expect((await admin(`/namespaces/team-b/keys/${a.run.id}`, { method: "DELETE" })).status).toBe(404);
    expect(await textOf(await chatAs(a.run.key, "/s/shared/rv"))).toBe("from A");
  });
});

describe("scopes on admin routes", () => {
  it("run: 403 on every admin route", async () => {
    expect((await keyAdmin(a.run.key, "/scenarios")).status).toBe(403);
    expect((await keyAdmin(a.run.key, "/sessions/shared/s1/requests")).status).toBe(403);
    expect((await putScenario(a.run.key, said("evil"))).status).toBe(403);
  });

  it("read: GETs only", async () => {
    expect((await keyAdmin(a.read.key, "/scenarios/shared")).status).toBe(200);
    expect((await putScenario(a.read.key, said("evil"))).status).toBe(403);
    expect((await keyAdmin(a.read.key, "/scenarios/shared", { method: "DELETE" })).status).toBe(403);
    expect((await keyAdmin(a.read.key, "/sessions/shared/s1/reset", { method: "POST" })).status).toBe(403);
    expect(await textOf(await chatAs(a.run.key, "/s/shared/s9"))).toBe("from A");
  });

  it("namespace keys never reach namespace management; other namespaces answer 404", async () => {
    expect((await keyAdmin(a.admin.key, "/namespaces")).status).toBe(404);
    expect((await keyAdmin(a.admin.key, "/namespaces", { method: "POST", body: JSON.stringify({ name: "mine" }) })).status).toBe(404);
    expect((await keyAdmin(a.admin.key, "/namespaces/team-a/keys")).status).toBe(404);
    expect((await keyAdmin(a.admin.key, "/namespaces/team-b/audit")).status).toBe(404);
    expect((await keyAdmin(a.admin.key, "/namespaces/no-such/audit")).status).toBe(404);
    expect((await keyAdmin(a.admin.key, "/namespaces/team-a/audit")).status).toBe(200);
  });
});

describe("hygiene and audit", () => {
  it("the journal notes the key id and never holds the key", async () => {
    await textOf(await chatAs(a.run.key, "/s/shared/hyg"));
    const journal = (await (await keyAdmin(a.read.key, "/sessions/shared/hyg/requests")).json()) as { request: { headers: Record<string, string>; body: unknown } }[];
    expect(journal).toHaveLength(1);
    // The request as sent (on the Worker its body crosses to the session as text and is spliced in: same entry).
    expect(Object.keys(journal[0]!.request)).toEqual(["method", "path", "headers", "body"]);
    expect(journal[0]!.request.body).toEqual(userTurn("hello"));
    expect(journal[0]!.request.headers["x-mockllm-key-id"]).toBe(a.run.id);
    expect(journal[0]!.request.headers.authorization).toBe("[redacted]");
    const text = JSON.stringify(journal);
    expect(text).not.toContain(a.run.key);
    expect(text).not.toContain(a.run.key.slice(-48));
  });

  it("a client cannot claim a key id in the default namespace", async () => {
    await upload({ name: "plain", steps: [{ id: "p", respond: { text: "ok" } }] });
    const res = await chat(userTurn("hi"), "/s/plain/spoof", { "x-mockllm-key-id": a.run.id });
    expect(res.status).toBe(200);
    const journal = (await (await admin("/sessions/plain/spoof/requests")).json()) as { request: { headers: Record<string, string> } }[];
    expect(journal[0]!.request.headers["x-mockllm-key-id"]).toBeUndefined();
  });

  it("the audit log lists who changed what, in order", async () => {
    const log = (await (await admin("/namespaces/team-a/audit")).json()) as { at: string; keyId: string; action: string; target: string }[];
    expect(log[0]).toMatchObject({ keyId: "root", action: "namespace.create", target: "team-a" });
    expect(log).toContainEqual(expect.objectContaining({ keyId: a.admin.id, action: "scenario.put", target: "shared" }));
    expect(log).toContainEqual(expect.objectContaining({ keyId: "root", action: "key.create", target: a.run.id }));
    expect(log.every((e) => !Number.isNaN(Date.parse(e.at)))).toBe(true);
    expect(JSON.stringify(log)).not.toContain(a.admin.key);
    const logB = (await (await admin("/namespaces/team-b/audit")).json()) as { action: string; target: string }[];
    expect(logB).toContainEqual(expect.objectContaining({ action: "session.reset", target: "shared/same" }));
  });
});

describe("deleting a namespace", () => {
  it("revokes its keys at once and a re-created name starts empty", async () => {
    expect((await createNamespace("gone")).status).toBe(201);
    const k = await mint("gone", "admin");
    expect((await putScenario(k.key, said("old data"))).status).toBe(200);
    expect(await textOf(await chatAs(k.key, "/s/shared/g1"))).toBe("old data");
    const del = await admin("/namespaces/gone", { method: "DELETE" });
    expect(del.status).toBe(200);
    expect((await chatAs(k.key, "/s/shared/g1")).status).toBe(401);
    expect((await admin("/namespaces/gone", { method: "DELETE" })).status).toBe(404);
    expect((await createNamespace("gone")).status).toBe(201);
    const k2 = await mint("gone", "admin");
    const list = (await (await keyAdmin(k2.key, "/scenarios")).json()) as { source: string }[];
    expect(list.filter((s) => s.source === "kv")).toEqual([]);
    expect(await (await keyAdmin(k2.key, "/sessions/shared/g1/requests")).json()).toEqual({ error: { message: 'scenario "shared" not found' } });
    expect((await chatAs(k2.key, "/s/shared/g1")).status).toBe(404);
  });
});
