/**
 * OpenAI compaction through the official `openai` SDK, on both runtimes (protocols.md 10.1): `responses.compact`
 * (default and scripted compactions, prefixes, namespace keys, the 400 without `model`), `responses.inputTokens.count`,
 * a compaction item sent back (the engine sees the compacted conversation), and `context_management` thresholds.
 */
import OpenAI, { APIError } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";
import { namespaceKey } from "../support/namespaces";

let h: Harness;

const SCENARIOS = [
  {
    name: "cmp-script",
    steps: [
      { id: "first", match: { compacted: false, turn: 1 }, respond: { text: "Kyoto in May is lovely." } },
      { id: "squash", respond: { compaction: { summary: "The user plans a trip to Kyoto in May." }, usage: { inputTokens: 1200, outputTokens: 80 } } },
      { id: "after", match: { compacted: true, turn: 1, lastUserMessage: "Book it." }, respond: { text: "Booked." } },
    ],
  },
  { name: "cmp-steps", steps: [{ id: "only", respond: { text: "A turn, not a compaction." } }] },
];

const client = (path = "", apiKey = "sk-test") => new OpenAI({ apiKey, baseURL: `${h.url}${path}/v1`, maxRetries: 0 });

const CONVERSATION: OpenAI.Responses.ResponseInputItem[] = [
  { role: "user", content: "Plan a trip to Kyoto." },
  { role: "assistant", content: "Which month?" },
  { role: "user", content: "In May." },
];

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

describe("POST /v1/responses/compact (client.responses.compact)", () => {
  it("answers the response.compaction object: the user messages, then one compaction item; deterministic", async () => {
    const c = client();
    const compacted = await c.responses.compact({ model: "gpt-5", input: CONVERSATION });
    expect(compacted.object).toBe("response.compaction");
    expect(compacted.id).toMatch(/^cmp_[0-9a-f]{48}$/);
    expect(compacted.output.map((o) => o.type)).toEqual(["message", "message", "compaction"]);
    expect(compacted.output.slice(0, 2)).toEqual([
      expect.objectContaining({ type: "message", role: "user", status: "completed", content: [{ type: "input_text", text: "Plan a trip to Kyoto." }] }),
      expect.objectContaining({ type: "message", role: "user", status: "completed", content: [{ type: "input_text", text: "In May." }] }),
    ]);
    const item = compacted.output[2] as OpenAI.Responses.ResponseCompactionItem;
    expect(item.id).toMatch(/^cmp_[0-9a-f]{50}$/);
    expect(item.encrypted_content).toMatch(/^gAAAAAB[A-Za-z0-9_-]+$/);
    expect(compacted.usage).toEqual({
      input_tokens: 9,
      input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
      output_tokens: expect.any(Number),
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: 9 + compacted.usage.output_tokens,
    });
    const again = await c.responses.compact({ model: "gpt-5", input: CONVERSATION });
    expect(again).toEqual(compacted);
  });

  it("needs model: the real 400, not a 405", async () => {
    const err = await client()
      .responses.compact({ input: CONVERSATION } as never)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(APIError);
    expect((err as APIError).status).toBe(400);
    expect((err as APIError).error).toEqual({
      message: "Missing required parameter: 'model'.",
      type: "invalid_request_error",
      param: "model",
      code: "missing_required_parameter",
    });
  });

  it("a scripted compaction step answers it; a compaction item sent back is the compacted conversation", async () => {
    const c = client("/s/cmp-script/trip");
    const first = await c.responses.create({ model: "gpt-5", input: "Plan a trip to Kyoto." });
    expect(first.output_text).toBe("Kyoto in May is lovely.");
    const compacted = await c.responses.compact({ model: "gpt-5", previous_response_id: first.id, input: [{ role: "user", content: "In May." }] });
    expect(compacted.output.map((o) => o.type)).toEqual(["message", "message", "compaction"]);
    expect(compacted.usage.input_tokens).toBe(1200);
    const window = compacted.output as OpenAI.Responses.ResponseInputItem[];
    const after = await c.responses.create({ model: "gpt-5", input: [...window, { role: "user", content: "Book it." }] });
    expect(after.output_text).toBe("Booked.");
    const journal = await h.journal("cmp-script", "trip");
    expect(journal.map((e) => [e.step, e.outcome])).toEqual([
      ["first", "response"],
      ["squash", "response"],
      ["after", "response"],
    ]);
    // The journal's canonical view: the compaction asked for and answered, then carried back.
    expect(journal.map((e) => [e.canonical.compactionRequested ?? null, e.canonical.answered.compaction ?? null, e.canonical.compaction ?? null])).toEqual([
      [null, null, null],
      [true, { summary: "The user plans a trip to Kyoto in May." }, null],
      [null, null, { summary: "The user plans a trip to Kyoto in May." }],
    ]);
    const verify = (await (await h.admin("/sessions/cmp-script/trip/verify")).json()) as Record<string, unknown>;
    expect([verify.ok, verify.compactions]).toEqual([true, { answered: 1, carried: 1 }]);
    expect(verify.summary).toBe(
      `mockllm verify: ok: scenario "cmp-script" session "trip" (version ${String(verify.version)}): 3 requests, all 3 steps used, 1 compaction answered (1 carried back), no mismatches`,
    );
    const coverage = (await (await h.admin("/scenarios/cmp-script/coverage")).json()) as Record<string, unknown>;
    expect(coverage.compactions).toEqual({ answered: 1, carried: 1 });
  });

  it("takes no turn step: without a compaction step the default compaction answers, under a namespace key too", async () => {
    const c = client("/s/cmp-steps/one");
    const compacted = await c.responses.compact({ model: "gpt-5", input: CONVERSATION });
    expect(compacted.output.at(-1)?.type).toBe("compaction");
    const turn = await c.responses.create({ model: "gpt-5", input: "hi" });
    expect(turn.output_text).toBe("A turn, not a compaction.");
    const journal = await h.journal("cmp-steps", "one");
    expect(journal.map((e) => [e.step ?? null, e.outcome])).toEqual([
      [null, "response"],
      ["only", "response"],
    ]);

    const key = await namespaceKey(h.admin, "cmp-team", "run");
    const scoped = await client("", key).responses.compact({ model: "gpt-5", input: CONVERSATION });
    expect(scoped.output.map((o) => o.type)).toEqual(["message", "message", "compaction"]);
  });

  it("is served under /responses/compact too (base URL without /v1)", async () => {
    const res = await fetch(`${h.url}/s/cmp-steps/raw/responses/compact`, {
      method: "POST",
      headers: { authorization: "Bearer sk", "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-5", input: "hello there" }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { object: string; output: { type: string }[] };
    expect([body.object, body.output.map((o) => o.type)]).toEqual(["response.compaction", ["message", "compaction"]]);
  });
});

describe("POST /v1/responses/input_tokens (client.responses.inputTokens.count)", () => {
  it("counts input tokens as the default responder reports them", async () => {
    const c = client();
    const body = { model: "gpt-5", instructions: "Be brief.", input: CONVERSATION };
    const count = await c.responses.inputTokens.count(body);
    expect(count).toEqual({ object: "response.input_tokens", input_tokens: 11 });
    const created = await c.responses.create(body);
    expect(created.usage?.input_tokens).toBe(11);
    expect(await c.responses.inputTokens.count()).toEqual({ object: "response.input_tokens", input_tokens: 1 });
  });
});

describe("function_call_output without its call", () => {
  it("gets the real 400 over HTTP; with the call in the input it is accepted", async () => {
    const c = client();
    const err = await c.responses
      .create({
        model: "gpt-5",
        input: [
          { role: "user", content: "Weather?" },
          { type: "function_call_output", call_id: "call_nope", output: "18C" },
        ],
      })
      .catch((e: unknown) => e);
    expect((err as APIError).status).toBe(400);
    expect((err as APIError).error).toEqual({
      message: "No tool call found for function call output with call_id call_nope.",
      type: "invalid_request_error",
      param: "input",
      code: null,
    });
    const ok = await c.responses.create({
      model: "gpt-5",
      input: [
        { role: "user", content: "Weather?" },
        { type: "function_call", call_id: "call_ok", name: "get_weather", arguments: "{}" },
        { type: "function_call_output", call_id: "call_ok", output: "18C" },
      ],
    });
    expect(ok.status).toBe("completed");
  });
});
