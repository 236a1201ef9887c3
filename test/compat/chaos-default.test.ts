/**
 * `mockllm serve --chaos` / Worker var `CHAOS` (issue 58): the default responder's requests draw faults per session,
 * the same sequence on both runtimes and across runs, another session another one.
 */
import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ CHAOS: "seed=42,rate=0.5,kinds=rate_limit+overloaded+empty_response" });
});
afterAll(() => h?.stop());

/** What each of `n` requests of `session` got: `{status} {chaos kind}`, or `{status} default`. */
async function sequence(session: string, n: number): Promise<string[]> {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${h.url}/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "sk-ant-test", "anthropic-version": "2023-06-01", "x-mock-session": session },
      body: JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 64, messages: [{ role: "user", content: "hi" }] }),
    });
    await res.text();
    out.push(`${res.status} ${res.headers.get("x-mockllm-outcome") === "chaos" ? res.headers.get("x-mockllm-chaos")!.split(";")[0] : res.headers.get("x-mockllm-outcome")}`);
  }
  return out;
}

describe("CHAOS on the default responder", () => {
  const EXPECTED = ["200 default", "200 empty_response", "200 default", "200 default", "429 rate_limit", "200 empty_response", "429 rate_limit", "200 empty_response"];

  it("numbers each session's requests: the same sequence on either runtime", async () => {
    expect(await sequence("run-1", 8)).toEqual(EXPECTED);
    expect(await sequence("run-2", 8)).not.toEqual(EXPECTED);
  });

  it("reaches the Anthropic SDK as its own errors", async () => {
    const client = new Anthropic({ apiKey: "sk-ant-test", baseURL: h.url, maxRetries: 0, defaultHeaders: { "x-mock-session": "sdk" } });
    const got: string[] = [];
    for (let i = 0; i < 6; i++) {
      const r = await client.messages.create({ model: "claude-sonnet-4-5", max_tokens: 64, messages: [{ role: "user", content: "hi" }] }).catch((e: unknown) => e);
      got.push(
        r instanceof Anthropic.APIError
          ? `${r.status} ${(r.error as { error: { type: string } }).error.type}`
          : `200 ${JSON.stringify((r as Anthropic.Message).content.map((b) => (b.type === "text" ? b.text.length : b.type)))}`,
      );
    }
    expect(got).toEqual(["200 [405]", "429 rate_limit_error", "200 [405]", "200 [0]", "529 overloaded_error", "200 [405]"]);
  });
});
