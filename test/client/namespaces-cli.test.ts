// Teams from the toolkit: `mockllm ns` and `mockllm key`, AdminClient's namespace methods, and `--persist` keeping
// namespaces, keys (hashes only), revocations and namespace uploads across a restart. On the Node runtime.
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AdminClient } from "../../src/client/admin/index";
import { captureCli } from "../support/cli";
import type { RunningServer } from "../../src/hosts/node/server";
import { startQuietServer } from "../support/server";

const TOKEN = "root-token";
let dir: string;
let server: RunningServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "mockllm-ns-"));
  server = await startQuietServer({ adminToken: TOKEN, persist: dir });
});
afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const cli = (argv: string[]) => captureCli(argv, { env: { MOCKLLM_URL: server.url, MOCKLLM_ADMIN_TOKEN: TOKEN }, cwd: dir });

function chat(key: string, prefix = ""): Promise<Response> {
  return fetch(`${server.url}${prefix}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] }),
  });
}

describe("mockllm ns / key", () => {
  it("creates a namespace and a run key, lists and revokes it", async () => {
    const created = await cli(["ns", "create", "team-a", "--rpm", "100"]);
    expect(created.code).toBe(0);
    expect(JSON.parse(created.out)).toEqual({ name: "team-a", quotas: { requestsPerMinute: 100 } });
    expect((await cli(["ns", "list"])).out).toBe('team-a\t{"requestsPerMinute":100}');
    const minted = await cli(["key", "create", "team-a", "--scope", "run", "--label", "preview"]);
    expect(minted.code).toBe(0);
    const key = minted.out;
    expect(key).toMatch(/^mk_[0-9a-f]{12}_[0-9a-f]{48}$/);
    expect(minted.err).toContain("shown only now");
    expect((await chat(key)).status).toBe(200);
    const id = key.slice(3, 15);
    const listed = await cli(["key", "list", "team-a"]);
    expect(listed.out.split("\t").slice(0, 3)).toEqual([id, "run", "preview"]);
    expect(listed.out).not.toContain(key);
    expect((await cli(["key", "revoke", "team-a", id])).out).toBe(`revoked ${id}`);
    expect((await chat(key)).status).toBe(401);
    expect((await cli(["key", "create", "team-a", "--scope", "owner"])).code).toBe(2);
    expect((await cli(["ns", "create", "x", "--rpm", "-1"])).code).toBe(2);
    expect((await cli(["key", "revoke", "team-a", id])).code).toBe(1);
  });

  it("AdminClient: namespaces, keys, audit; a namespace key drives the same client inside its namespace", async () => {
    const root = new AdminClient({ url: server.url, token: TOKEN });
    await root.createNamespace("team-b", { sessions: 10 });
    expect((await root.namespaces()).map((n) => n.name)).toEqual(["team-a", "team-b"]);
    const k = await root.createKey("team-b", "admin", "ci");
    expect(k).toMatchObject({ scope: "admin", label: "ci" });
    const team = new AdminClient({ url: server.url, token: k.key });
    await team.upload({ name: "mine", steps: [{ id: "a", consume: false, respond: { text: "B says hi" } }] });
    expect((await team.list()).filter((s) => s.source === "kv").map((s) => s.name)).toEqual(["mine"]);
    expect((await root.list()).some((s) => s.name === "mine")).toBe(false);
    expect((await root.keys("team-b")).map((x) => x.id)).toEqual([k.id]);
    expect((await root.audit("team-b")).map((e) => e.action)).toEqual(["namespace.create", "key.create", "scenario.put"]);
    const res = await chat(k.key, "/s/mine/r1");
    expect(((await res.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe("B says hi");
  });

  it("the official SDKs select the namespace by their API key alone", async () => {
    const root = new AdminClient({ url: server.url, token: TOKEN });
    const run = await root.createKey("team-b", "run", "sdk");
    const { default: OpenAI } = await import("openai");
    const { default: Anthropic } = await import("@anthropic-ai/sdk");
    const { GoogleGenAI } = await import("@google/genai");
    const openai = new OpenAI({ apiKey: run.key, baseURL: `${server.url}/s/mine/sdk/v1` });
    const chat = await openai.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] });
    expect(chat.choices[0]!.message.content).toBe("B says hi");
    const anthropic = new Anthropic({ apiKey: run.key, baseURL: `${server.url}/s/mine/sdk` });
    const msg = await anthropic.messages.create({ model: "claude-sonnet-4-5", max_tokens: 50, messages: [{ role: "user", content: "hi" }] });
    expect(msg.content[0]).toMatchObject({ type: "text", text: "B says hi" });
    const gemini = new GoogleGenAI({ apiKey: run.key, httpOptions: { baseUrl: `${server.url}/s/mine/sdk` } });
    const gen = await gemini.models.generateContent({ model: "gemini-2.0-flash", contents: "hi" });
    expect(gen.text).toBe("B says hi");
    const refused = new OpenAI({ apiKey: `mk_${"0".repeat(12)}_${"0".repeat(48)}`, baseURL: `${server.url}/s/mine/sdk/v1`, maxRetries: 0 });
    await expect(refused.chat.completions.create({ model: "m", messages: [{ role: "user", content: "hi" }] })).rejects.toMatchObject({ status: 401 });
    const journal = (await (await fetch(`${server.url}/admin/sessions/mine/sdk/requests`, { headers: { authorization: `Bearer ${(await root.createKey("team-b", "read")).key}` } })).json()) as {
      request: { headers: Record<string, string> };
    }[];
    expect(journal.map((e) => e.request.headers["x-mockllm-key-id"])).toEqual([run.id, run.id, run.id]);
  });

  it("--persist keeps namespaces, key hashes, revocations and uploads across a restart", async () => {
    const root = new AdminClient({ url: server.url, token: TOKEN });
    const k = await root.createKey("team-b", "run");
    await server.close();
    const onDisk = await readFile(join(dir, "registry.json"), "utf8");
    expect(onDisk).toContain(k.id);
    expect(onDisk).not.toContain(k.key.slice(16));
    server = await startQuietServer({ adminToken: TOKEN, persist: dir });
    const res = await chat(k.key, "/s/mine/r1");
    expect(res.status).toBe(200);
    expect(((await res.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe("B says hi");
    const journal = await (await fetch(`${server.url}/admin/sessions/mine/r1/requests`, { headers: { authorization: `Bearer ${k.key}` } })).status;
    expect(journal).toBe(403); // a run key
    const admin = new AdminClient({ url: server.url, token: TOKEN });
    expect((await admin.namespaces()).map((n) => n.name)).toEqual(["team-a", "team-b"]);
    await admin.deleteNamespace("team-b");
    expect((await chat(k.key, "/s/mine/r1")).status).toBe(401);
  });
});
