// A namespace's `limits` from the toolkit: `mockllm ns create --limit-rpm/--limit-tpm` (and `mockllm namespace
// create`), listed by `mockllm ns list`, enforced over the namespace's requests with the provider's 429. On Node.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { captureCli } from "../support/cli";
import type { RunningServer } from "../../src/hosts/node/server";
import { startQuietServer } from "../support/server";

const TOKEN = "root-token";
let server: RunningServer;

beforeAll(async () => {
  server = await startQuietServer({ adminToken: TOKEN });
});
afterAll(async () => {
  await server?.close();
});

const cli = (argv: string[]) => captureCli(argv, { env: { MOCKLLM_URL: server.url, MOCKLLM_ADMIN_TOKEN: TOKEN } });

const chat = (key: string) =>
  fetch(`${server.url}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ model: "gpt-4o-mini", messages: [{ role: "user", content: "hi" }] }),
  });

describe("mockllm ns create --limit-rpm / --limit-tpm", () => {
  it("creates the namespace with limits, lists them, and its requests meet them", async () => {
    const created = await cli(["ns", "create", "team-l", "--limit-rpm", "2", "--limit-tpm", "5000"]);
    expect(created.code).toBe(0);
    expect(JSON.parse(created.out)).toEqual({ name: "team-l", quotas: {}, limits: { requestsPerMinute: 2, tokensPerMinute: 5000 } });
    expect((await cli(["ns", "list"])).out).toBe('team-l\t{}\tlimits {"requestsPerMinute":2,"tokensPerMinute":5000}');
    const key = (await cli(["key", "create", "team-l", "--scope", "run"])).out;
    const first = await chat(key);
    // The default responder's answer reports its usage; the namespace's token bucket goes down by it.
    const usage = ((await first.json()) as { usage: { total_tokens: number } }).usage;
    expect([first.status, first.headers.get("x-ratelimit-remaining-requests"), first.headers.get("x-ratelimit-remaining-tokens")]).toEqual([200, "1", String(5000 - usage.total_tokens)]);
    expect((await chat(key)).status).toBe(200);
    const third = await chat(key);
    expect(third.status).toBe(429);
    expect(((await third.json()) as { error: { code: string } }).error.code).toBe("rate_limit_exceeded");
  });

  it("mockllm namespace create --json prints the limits; a limit below 1 is a usage error", async () => {
    const created = await cli(["namespace", "create", "pr-l", "--limit-tpm", "100", "--json"]);
    expect(created.code).toBe(0);
    expect(JSON.parse(created.out).limits).toEqual({ tokensPerMinute: 100 });
    const bad = await cli(["ns", "create", "x", "--limit-rpm", "0"]);
    expect([bad.code, bad.err]).toEqual([2, expect.stringContaining("--limit-rpm must be a whole number (1 or more)")]);
  });
});
