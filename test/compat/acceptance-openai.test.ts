/**
 * Regressions found by driving the mock with clients outside this repo (docs/acceptance.md), reproduced here with
 * the clients the repo has and with exact assertions on the bytes.
 */
import OpenAI, { APIError } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const SCENARIOS = [
  {
    name: "acc-broken",
    steps: [{ consume: false, failures: [{ kind: "stream_error", afterChunks: 2, message: "boom" }], respond: { text: "a b c" } }],
  },
];

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

describe("Responses stream_error", () => {
  it("sends the live API's error event, its fields nested under `error`, each event ending in a blank line", async () => {
    const res = await fetch(`${h.url}/s/acc-broken/raw/v1/responses`, {
      method: "POST",
      headers: { authorization: "Bearer sk-test", "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-4.1", input: "Go", stream: true }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const body = await res.text();
    expect(body.endsWith("\n\n")).toBe(true);
    const events = body.slice(0, -2).split("\n\n");
    expect(events.map((e) => e.split("\n")[0])).toEqual(["event: response.created", "event: response.in_progress", "event: error", "event: response.failed"]);
    expect(events[2]).toBe('event: error\ndata: {"type":"error","sequence_number":2,"error":{"type":"server_error","code":"server_error","message":"boom","param":null}}');
    const failed = JSON.parse(events[3]!.split("\n")[1]!.slice("data: ".length));
    expect(failed.response).toMatchObject({ status: "failed", error: { code: "server_error", message: "boom" } });
  });

  it("makes openai-node's raw stream throw APIError, as the live API does (a flat event is yielded, not thrown)", async () => {
    const c = new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}/s/acc-broken/sdk/v1`, maxRetries: 0 });
    const stream = await c.responses.create({ model: "gpt-4.1", input: "Go", stream: true });
    const seen: string[] = [];
    const err = await (async () => {
      for await (const e of stream) seen.push(e.type);
    })().catch((e: unknown) => e);
    expect(seen).toEqual(["response.created", "response.in_progress"]);
    expect(err).toBeInstanceOf(APIError);
    expect((err as APIError).message).toContain("boom");
  });
});
