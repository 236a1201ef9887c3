// `mockllm namespace` (the full name of `ns`): a namespace per pull request with its keys and base URLs, and a TTL
// after which its keys are refused and the namespace is deleted when next listed. On the Node runtime, in process.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { captureCli } from "../support/cli";
import type { RunningServer } from "../../src/hosts/node/server";
import { startQuietServer } from "../support/server";

const TOKEN = "root-token";
let server: RunningServer;

beforeAll(async () => {
  server = await startQuietServer({ adminToken: TOKEN });
});
afterAll(() => server?.close());
afterEach(() => vi.useRealTimers());

const cli = (argv: string[]) => captureCli(argv, { env: { MOCKLLM_URL: server.url, MOCKLLM_ADMIN_TOKEN: TOKEN } });

function chat(key: string): Promise<Response> {
  return fetch(`${server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] }),
  });
}

describe("mockllm namespace", () => {
  it("create --ttl 7d --json: the namespace, an admin and a run key, the base URLs", async () => {
    const before = Date.now();
    const created = await cli(["namespace", "create", "pr-57", "--ttl", "7d", "--json"]);
    const after = Date.now();
    expect(created.code).toBe(0);
    const out = JSON.parse(created.out) as Record<string, any>;
    expect(Object.keys(out)).toEqual(["name", "quotas", "expiresAt", "url", "adminKey", "runKey", "baseUrls"]);
    expect([out.name, out.quotas, out.url]).toEqual(["pr-57", {}, server.url]);
    // Seven days from when the server took the request, somewhere between running the command and its exit.
    const expires = Date.parse(out.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(before + 7 * 86400_000 - 1000);
    expect(expires).toBeLessThanOrEqual(after + 7 * 86400_000 + 1000);
    expect(out.adminKey).toMatch(/^mk_[0-9a-f]{12}_[0-9a-f]{48}$/);
    expect(out.runKey).toMatch(/^mk_[0-9a-f]{12}_[0-9a-f]{48}$/);
    expect(out.baseUrls).toEqual({ OPENAI_BASE_URL: `${server.url}/v1`, ANTHROPIC_BASE_URL: server.url, GOOGLE_GEMINI_BASE_URL: server.url, OLLAMA_HOST: server.url });
    expect((await chat(out.runKey)).status).toBe(200);
    const put = await fetch(`${server.url}/admin/scenarios/preview`, {
      method: "PUT",
      headers: { authorization: `Bearer ${out.adminKey}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "preview", steps: [{ respond: { text: "hi" } }] }),
    });
    expect(put.status).toBe(200);
    expect((await cli(["namespace", "list"])).out).toBe(`pr-57\t{}\texpires ${out.expiresAt}`);
    expect(JSON.parse((await cli(["namespace", "list", "--json"])).out)).toMatchObject([{ name: "pr-57", expiresAt: out.expiresAt }]);
    expect((await cli(["namespace", "delete", "pr-57"])).out).toBe("deleted pr-57");
    expect((await chat(out.runKey)).status).toBe(401);
  });

  it("without --json: lines a CI job appends to its environment", async () => {
    const created = await cli(["namespace", "create", "pr-58"]);
    expect(created.code).toBe(0);
    const lines = created.out.split("\n");
    expect(lines.map((l) => l.split("=")[0])).toEqual(["MOCKLLM_NAMESPACE", "MOCKLLM_ADMIN_KEY", "MOCKLLM_RUN_KEY", "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL", "GOOGLE_GEMINI_BASE_URL", "OLLAMA_HOST"]);
    expect(lines[0]).toBe("MOCKLLM_NAMESPACE=pr-58");
    expect(created.err).toContain("shown only now");
    expect((await cli(["namespace", "list"])).out).toBe("pr-58\t{}");
    await cli(["namespace", "delete", "pr-58"]);
  });

  it("a namespace past its TTL: keys refused, deleted when next listed, and the name free again", async () => {
    const out = JSON.parse((await cli(["namespace", "create", "pr-59", "--ttl", "1h", "--json"])).out) as Record<string, any>;
    expect((await chat(out.runKey)).status).toBe(200);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.parse(out.expiresAt) + 1);
    const refused = await chat(out.runKey);
    expect(refused.status).toBe(401);
    expect((await cli(["namespace", "list", "--json"])).out).toBe("[]");
    const again = JSON.parse((await cli(["namespace", "create", "pr-59", "--json"])).out) as Record<string, any>;
    expect(again.expiresAt).toBeNull();
    expect((await chat(out.runKey)).status).toBe(401);
    expect((await chat(again.runKey)).status).toBe(200);
    await cli(["namespace", "delete", "pr-59"]);
  });

  it("refuses a malformed --ttl (exit 2)", async () => {
    for (const ttl of ["7 days", "0s", "400d", "-1"]) {
      const res = await cli(["namespace", "create", "pr-x", "--ttl", ttl]);
      expect([ttl, res.code]).toEqual([ttl, 2]);
    }
    expect((await cli(["namespace", "list"])).out).toBe("");
  });

  it("ns create keeps its output (the namespace only) and takes --ttl too", async () => {
    const created = await cli(["ns", "create", "team-ttl", "--ttl", "2w"]);
    expect(Object.keys(JSON.parse(created.out))).toEqual(["name", "quotas", "expiresAt"]);
    await cli(["ns", "delete", "team-ttl"]);
  });
});
