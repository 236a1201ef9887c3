/**
 * A namespace's `limits` (issue 58, contract section 11) on both runtimes: requests and tokens per minute counted over
 * all the namespace's sessions (and its default-responder requests), answered with the provider's own 429 and
 * rate-limit headers; the stricter of the scenario's and the namespace's limit applies and the headers show the
 * binding bucket. Also: a limits 429 carries only the headers of the buckets that exist.
 */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const step = { consume: false, respond: { text: "ok", usage: { inputTokens: 64, outputTokens: 32 } } };
const user = [{ role: "user" as const, content: "hi" }];

interface Team {
  run: string;
  admin: string;
}

/** Creates a namespace with `limits`, its keys, and uploads `scenarios` into it. */
async function team(name: string, limits: Record<string, number>, scenarios: unknown[]): Promise<Team> {
  const res = await h.admin("/namespaces", { method: "POST", body: JSON.stringify({ name, limits }) });
  expect(res.status).toBe(201);
  expect(((await res.json()) as { limits: unknown }).limits).toEqual(limits);
  const key = async (scope: string) => ((await (await h.admin(`/namespaces/${name}/keys`, { method: "POST", body: JSON.stringify({ scope }) })).json()) as { key: string }).key;
  const t = { run: await key("run"), admin: await key("admin") };
  if (scenarios.length > 0) {
    const up = await fetch(`${h.url}/admin/scenarios`, { method: "POST", headers: { authorization: `Bearer ${t.admin}`, "content-type": "application/json" }, body: JSON.stringify(scenarios) });
    expect(up.status).toBe(200);
  }
  return t;
}

const journal = async (t: Team, scenario: string, session: string) =>
  (await (await fetch(`${h.url}/admin/sessions/${scenario}/${session}/requests`, { headers: { authorization: `Bearer ${t.admin}` } })).json()) as {
    status: number;
    outcome: string;
    reasons: string[];
  }[];

const openai = (t: Team, prefix = "") => new OpenAI({ apiKey: t.run, baseURL: `${h.url}${prefix}/v1`, maxRetries: 0 });
const buckets = (headers: Headers, names: string[]) => names.map((n) => headers.get(n)).join(" ");
const RPM = ["x-ratelimit-limit-requests", "x-ratelimit-remaining-requests"];
const TPM = ["x-ratelimit-limit-tokens", "x-ratelimit-remaining-tokens"];

beforeAll(async () => {
  h = await startHarness();
  await h.upload({ name: "only-rpm", limits: { requestsPerMinute: 1 }, steps: [step] });
});
afterAll(() => h?.stop());

describe("namespace limits: counted over all its sessions", () => {
  it("requestsPerMinute 3 over two sessions: the 4th request is OpenAI's 429 with the namespace's bucket", async () => {
    const t = await team("nl-rpm", { requestsPerMinute: 3 }, [{ name: "nl", steps: [step] }]);
    const seen: string[] = [];
    for (const session of ["a", "a", "b"]) {
      const { response } = await openai(t, `/s/nl/${session}`).chat.completions.create({ model: "gpt-4o-mini", messages: user }).withResponse();
      seen.push(buckets(response.headers, RPM));
      expect(response.headers.get("x-ratelimit-limit-tokens")).toBeNull();
    }
    expect(seen).toEqual(["3 2", "3 1", "3 0"]);
    const err = (await openai(t, "/s/nl/b")
      .chat.completions.create({ model: "gpt-4o-mini", messages: user })
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.RateLimitError>;
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    expect([err.status, err.code, err.type]).toEqual([429, "rate_limit_exceeded", "requests"]);
    expect(buckets(err.headers, RPM)).toBe("3 0");
    expect(err.headers.get("x-ratelimit-reset-requests")).toMatch(/^(5\d(\.\d+)?s|1m0s)$/);
    // Only the bucket the namespace has: no tokens headers with fixed figures.
    expect(err.headers.get("x-ratelimit-limit-tokens")).toBeNull();
    expect(Number(err.headers.get("retry-after"))).toBeGreaterThanOrEqual(55);
    const b = await journal(t, "nl", "b");
    expect(b.map((e) => [e.outcome, e.status])).toEqual([
      ["response", 200],
      ["failure", 429],
    ]);
    expect(b[1]!.reasons[0]).toMatch(/^namespace limits: requestsPerMinute 3 reached; retry in \d+ ms$/);
  });

  it("the stricter of scenario and namespace applies; the headers show the binding bucket", async () => {
    const t = await team("nl-mix", { requestsPerMinute: 5, tokensPerMinute: 250 }, [
      { name: "strict", limits: { requestsPerMinute: 2 }, steps: [step] },
      { name: "loose", steps: [step] },
    ]);
    const call = async (scenario: string, session: string) => {
      const { response } = await openai(t, `/s/${scenario}/${session}`).chat.completions.create({ model: "gpt-4o-mini", messages: user }).withResponse();
      return `${buckets(response.headers, RPM)} | ${buckets(response.headers, TPM)}`;
    };
    expect(await call("loose", "x")).toBe("5 4 | 250 154");
    // The scenario's 2 requests bind (1 left) over the namespace's 5 (3 left); the namespace's tokens bind.
    expect(await call("strict", "y")).toBe("2 1 | 250 58");
    expect(await call("strict", "y")).toBe("2 0 | 250 0");
    // 288 tokens used in the namespace: the next request, in any session, is over its tokensPerMinute.
    const err = (await openai(t, "/s/loose/z")
      .chat.completions.create({ model: "gpt-4o-mini", messages: user })
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.RateLimitError>;
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    expect(`${buckets(err.headers, RPM)} | ${buckets(err.headers, TPM)}`).toBe("5 2 | 250 0");
    expect((await journal(t, "loose", "z"))[0]!.reasons[0]).toMatch(/^namespace limits: tokensPerMinute 250 reached; retry in \d+ ms$/);
  });

  it("a refused request does not count: after the scenario's 429, the namespace's bucket is unchanged", async () => {
    const t = await team("nl-refused", { requestsPerMinute: 3 }, [
      { name: "one", limits: { requestsPerMinute: 1 }, steps: [step] },
      { name: "free", steps: [step] },
    ]);
    await openai(t, "/s/one/s").chat.completions.create({ model: "gpt-4o-mini", messages: user });
    const err = await openai(t, "/s/one/s")
      .chat.completions.create({ model: "gpt-4o-mini", messages: user })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    const { response } = await openai(t, "/s/free/s").chat.completions.create({ model: "gpt-4o-mini", messages: user }).withResponse();
    expect(buckets(response.headers, RPM)).toBe("3 1");
  });

  it("the default responder's requests count too, and answer with the namespace's buckets", async () => {
    const t = await team("nl-default", { requestsPerMinute: 2 }, []);
    const seen: string[] = [];
    for (let i = 0; i < 2; i++) {
      const { response } = await openai(t).chat.completions.create({ model: "gpt-4o-mini", messages: user }).withResponse();
      seen.push(buckets(response.headers, RPM));
    }
    expect(seen).toEqual(["2 1", "2 0"]);
    const err = (await openai(t)
      .chat.completions.create({ model: "gpt-4o-mini", messages: user })
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.RateLimitError>;
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    expect(buckets(err.headers, RPM)).toBe("2 0");
  });

  it("Anthropic: rate_limit_error with anthropic-ratelimit-requests-* from the namespace, no token buckets", async () => {
    const t = await team("nl-claude", { requestsPerMinute: 1 }, [{ name: "nl", steps: [step] }]);
    const c = (session: string) => new Anthropic({ apiKey: t.run, baseURL: `${h.url}/s/nl/${session}`, maxRetries: 0 });
    const { response } = await c("a").messages.create({ model: "claude-sonnet-4-5", max_tokens: 64, messages: user }).withResponse();
    expect(response.headers.get("anthropic-ratelimit-requests-remaining")).toBe("0");
    const err = (await c("b")
      .messages.create({ model: "claude-sonnet-4-5", max_tokens: 64, messages: user })
      .catch((e: unknown) => e)) as InstanceType<typeof Anthropic.RateLimitError>;
    expect(err).toBeInstanceOf(Anthropic.RateLimitError);
    expect((err.error as { error: { type: string } }).error.type).toBe("rate_limit_error");
    expect(err.headers?.get("anthropic-ratelimit-requests-limit")).toBe("1");
    expect(err.headers?.get("anthropic-ratelimit-tokens-limit")).toBeNull();
  });

  it("limits on create are validated (a 400 naming the field)", async () => {
    const bad = await h.admin("/namespaces", { method: "POST", body: JSON.stringify({ name: "nl-bad", limits: { requestsPerMinute: 0 } }) });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(await bad.json())).toContain("$.limits.requestsPerMinute");
  });
});

describe("a limits 429 carries only the buckets that exist", () => {
  it("scenario requestsPerMinute only: OpenAI's 429 has no x-ratelimit-*-tokens", async () => {
    const c = new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}/s/only-rpm/oa/v1`, maxRetries: 0 });
    await c.chat.completions.create({ model: "gpt-4o-mini", messages: user });
    const err = (await c.chat.completions.create({ model: "gpt-4o-mini", messages: user }).catch((e: unknown) => e)) as InstanceType<typeof OpenAI.RateLimitError>;
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    expect(buckets(err.headers, RPM)).toBe("1 0");
    expect([...err.headers.keys()].filter((k) => k.includes("ratelimit") && k.includes("tokens"))).toEqual([]);
  });

  it("Anthropic: no anthropic-ratelimit-*tokens* headers", async () => {
    const c = new Anthropic({ apiKey: "sk-ant-test", baseURL: `${h.url}/s/only-rpm/claude`, maxRetries: 0 });
    await c.messages.create({ model: "claude-sonnet-4-5", max_tokens: 64, messages: user });
    const err = (await c.messages.create({ model: "claude-sonnet-4-5", max_tokens: 64, messages: user }).catch((e: unknown) => e)) as InstanceType<typeof Anthropic.RateLimitError>;
    expect(err).toBeInstanceOf(Anthropic.RateLimitError);
    expect(err.headers?.get("anthropic-ratelimit-requests-remaining")).toBe("0");
    expect([...(err.headers?.keys() ?? [])].filter((k) => k.startsWith("anthropic-ratelimit") && k.includes("tokens"))).toEqual([]);
  });

  it("a scripted rate_limit failure keeps the surface's full set", async () => {
    await h.upload({ name: "scripted-429", steps: [{ failures: [{ kind: "rate_limit", retryAfterMs: 2000 }], respond: { text: "x" } }] });
    const err = (await new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}/s/scripted-429/x/v1`, maxRetries: 0 }).chat.completions
      .create({ model: "gpt-4o-mini", messages: user })
      .catch((e: unknown) => e)) as InstanceType<typeof OpenAI.RateLimitError>;
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    expect(buckets(err.headers, TPM)).toBe("150000 0");
  });
});
