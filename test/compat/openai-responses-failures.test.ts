/**
 * Scripted failures on the Responses surface as the official `openai` SDK sees them, and the default responder's
 * instruction blocks rendered as Responses output items.
 */
import { request } from "node:http";
import OpenAI, { APIError, InternalServerError, OpenAIError, RateLimitError } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const SCENARIOS = [
  { name: "f-rate", steps: [{ failures: [{ kind: "rate_limit", message: "Slow down." }], respond: { text: "after retry" } }] },
  { name: "f-overloaded", steps: [{ failures: [{ kind: "overloaded", retryable: false }], respond: { text: "never" } }] },
  {
    name: "f-timeout",
    steps: [
      { id: "late", match: { turn: 1 }, failures: [{ kind: "timeout", delayMs: 300 }], respond: { text: "Late but here." } },
      { id: "next", match: { turn: 2, lastUserMessage: "And then?" }, respond: { text: "Continued." } },
    ],
  },
  {
    name: "f-network",
    steps: [{ consume: false, failures: [{ kind: "network_error", afterChunks: 3 }], respond: { text: "a b c d e" } }],
  },
];

const client = (scenario: string, session: string, opts: Partial<ConstructorParameters<typeof OpenAI>[0]> = {}) =>
  new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}/s/${scenario}/${session}/v1`, maxRetries: 0, ...opts });

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

describe("scripted failures", () => {
  it("rate_limit: 429 in OpenAI's shape, which the SDK retries into the response", async () => {
    const err = await client("f-rate", "no-retry")
      .responses.create({ model: "gpt-4.1", input: "x" })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RateLimitError);
    expect((err as RateLimitError).error).toMatchObject({ message: "Slow down.", type: "requests", code: "rate_limit_exceeded" });
    expect((err as RateLimitError).headers?.get("x-ratelimit-remaining-requests")).toBe("0");
    const res = await client("f-rate", "retry", { maxRetries: 2 }).responses.create({ model: "gpt-4.1", input: "x" });
    expect(res.output_text).toBe("after retry");
    expect((await h.journal("f-rate", "retry")).map((e) => [e.outcome, e.status])).toEqual([
      ["failure", 429],
      ["response", 200],
    ]);
  });

  it("overloaded: 503 server_error, not retried when x-should-retry is false", async () => {
    const err = await client("f-overloaded", "s", { maxRetries: 2 })
      .responses.create({ model: "gpt-4.1", input: "x" })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InternalServerError);
    expect((err as InternalServerError).status).toBe(503);
    expect((await h.journal("f-overloaded", "s")).length).toBe(1);
  });

  it("timeout: the late answer arrives and is stored, so previous_response_id continues from it", async () => {
    const c = client("f-timeout", "s", { timeout: 10_000 });
    const started = Date.now();
    const first = await c.responses.create({ model: "gpt-4.1", input: "Go" });
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    expect(first.output_text).toBe("Late but here.");
    const second = await c.responses.create({ model: "gpt-4.1", previous_response_id: first.id, input: "And then?" });
    expect(second.output_text).toBe("Continued.");
  });

  it("network_error: the stream breaks off and the SDK reports a connection error", async () => {
    const stream = client("f-network", "s").responses.stream({ model: "gpt-4.1", input: "x" });
    const seen: string[] = [];
    stream.on("event", (e) => seen.push(e.type));
    const err = await stream.finalResponse().catch((e: unknown) => e);
    // A broken body, not an API error: undici reports it as "terminated".
    expect(err).toBeInstanceOf(OpenAIError);
    expect(err).not.toBeInstanceOf(APIError);
    // How many of the events sent the SDK saw depends on the client's scheduling, not on the server: a fetch body
    // that errors drops the chunks its reader has not taken yet (a busy machine's client takes them late). What the
    // SDK saw is a prefix of what was sent — never an event after the break; the exact bytes are checked below.
    const sent = ["response.created", "response.in_progress", "response.output_item.added"];
    expect(seen).toEqual(sent.slice(0, seen.length));
  });

  it("network_error: exactly afterChunks events reach the socket, then the connection breaks without an end", async () => {
    // node:http hands over every byte that arrived before the break (no stream queue to drop), so this is exact.
    const { events, ended } = await new Promise<{ events: string[]; ended: boolean }>((resolve, reject) => {
      const body = JSON.stringify({ model: "gpt-4.1", input: "x", stream: true });
      const req = request(`${h.url}/s/f-network/raw/v1/responses`, { method: "POST", headers: { authorization: "Bearer sk-test", "content-type": "application/json" } }, (res) => {
        let text = "";
        let ended = false;
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (text += chunk));
        res.on("end", () => (ended = true));
        res.on("close", () => resolve({ events: [...text.matchAll(/^event: (\S+)$/gm)].map((m) => m[1]!), ended }));
      });
      req.on("error", reject);
      req.end(body);
    });
    expect(events).toEqual(["response.created", "response.in_progress", "response.output_item.added"]);
    expect(ended).toBe(false);
  });
});

describe("default responder on /v1/responses", () => {
  it("renders instruction-block messages as successive output items", async () => {
    const plan = { messages: [{ text_message: { length: 3 } }, { tool_call: [{ name: "lookup", args: { q: "x" } }] }] };
    const c = new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}/v1`, maxRetries: 0 });
    const res = await c.responses.create({
      model: "gpt-4.1",
      input: `<|instruction_start|>${JSON.stringify(plan)}<|instruction_end|>`,
    });
    expect(res.output.map((o) => o.type)).toEqual(["message", "function_call"]);
    expect(res.output_text.split(" ")).toHaveLength(3);
    expect(res.output[1]).toMatchObject({ type: "function_call", name: "lookup", arguments: '{"q":"x"}' });
    const stream = await c.responses.stream({ model: "gpt-4.1", input: `<|instruction_start|>${JSON.stringify(plan)}<|instruction_end|>` }).finalResponse();
    // The same items; each stored response has ids of its own (issue 37: two requests never share an id).
    const items = (r: typeof res) => r.output.map((o) => (o.type === "function_call" ? [o.type, o.name, o.arguments] : [o.type, r.output_text]));
    expect(items(stream)).toEqual(items(res));
    expect(stream.output.map((o) => o.id)).not.toEqual(res.output.map((o) => o.id));
  });
});
