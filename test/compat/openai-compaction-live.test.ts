/**
 * Server-side compaction on `/v1/responses` through the official `openai` SDK, on both runtimes (protocols.md 10.1.2,
 * 10.1.4, 10.1.5): `context_management` thresholds (JSON, stream, `ResponsesWS`), Codex's `compaction_trigger`, and
 * the WebSocket's connection-local continuation of `store: false` chains.
 */
import OpenAI, { type APIError } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";
import { openResponsesWS, responsesTurn as turn, type WsEvent as Event } from "../support/responses-ws";

let h: Harness;

const SCENARIOS = [
  {
    name: "cmp-big",
    steps: [
      { id: "big", match: { compacted: false }, respond: { text: "Here is the plan.", usage: { inputTokens: 250000, outputTokens: 5 } } },
      { id: "small", match: { compacted: true, lastUserMessage: "Go on." }, respond: { text: "Continuing.", usage: { inputTokens: 900 } } },
    ],
  },
  {
    name: "cmp-codex",
    steps: [
      { id: "work", match: { compacted: false }, consume: false, respond: { text: "Working." } },
      { id: "squash", respond: { compaction: { summary: "Codex worked on the parser." } } },
      { id: "resume", match: { compacted: true }, respond: { text: "Resumed after compaction." } },
    ],
  },
];

const client = (path = "") => new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}${path}/v1`, maxRetries: 0 });
const THRESHOLD = [{ type: "compaction" as const, compact_threshold: 200000 }];

const open = (path = "") => openResponsesWS(client(path));

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

describe("context_management: [{ type: 'compaction', compact_threshold }]", () => {
  it("JSON: the compaction item comes first when the input tokens reach the threshold; the next turn sees the compacted conversation", async () => {
    const c = client("/s/cmp-big/json");
    const first = await c.responses.create({ model: "gpt-5", input: "Plan the refactor.", context_management: THRESHOLD });
    expect(first.output.map((o) => o.type)).toEqual(["compaction", "message"]);
    expect(first.output[0]).toEqual({ id: expect.stringMatching(/^cmp_[0-9a-f]{50}$/), type: "compaction", encrypted_content: expect.stringMatching(/^gAAAAAB/) });
    expect(first.output_text).toBe("Here is the plan.");
    // Stored with its compaction item: retrieved as JSON and replayed as the stream it was.
    expect((await c.responses.retrieve(first.id)).output).toEqual(first.output);
    const replayed: Event[] = [];
    for await (const e of await c.responses.retrieve(first.id, { stream: true })) replayed.push(e);
    expect(replayed.filter((e) => e.type === "response.output_item.done").map((e) => e.item.type)).toEqual(["compaction", "message"]);
    const next = await c.responses.create({
      model: "gpt-5",
      input: [{ role: "user", content: "Plan the refactor." }, ...(first.output as OpenAI.Responses.ResponseInputItem[]), { role: "user", content: "Go on." }],
      context_management: THRESHOLD,
    });
    expect(next.output.map((o) => o.type)).toEqual(["message"]);
    expect(next.output_text).toBe("Continuing.");
  });

  it("below the threshold, or without context_management, the answer is exactly today's", async () => {
    const plain = await client().responses.create({ model: "gpt-5", input: "Hello there." });
    const below = await client().responses.create({ model: "gpt-5", input: "Hello there.", context_management: THRESHOLD });
    // Ids are numbered per stored answer (issue 37.4), so two requests never share one; everything else is equal.
    const withoutIds = (o: unknown) => JSON.parse(JSON.stringify(o, (k, v: unknown) => (k === "id" ? undefined : v)));
    expect(withoutIds(below.output)).toEqual(withoutIds(plain.output));
    expect(below.output.map((o) => o.type)).toEqual(["message"]);
    expect(below.output_text).toBe(plain.output_text);
    expect(below.id).not.toBe(plain.id);
  });

  it("stream: output_item.added (empty encrypted_content) then done for the compaction, before the message; finalResponse has it", async () => {
    const stream = client().responses.stream({ model: "gpt-5", input: "Hello there.", context_management: [{ type: "compaction", compact_threshold: 1 }] });
    const events: Event[] = [];
    for await (const e of stream) events.push(e);
    expect(events.slice(0, 5).map((e) => [e.type, e.output_index ?? null, e.item?.type ?? null])).toEqual([
      ["response.created", null, null],
      ["response.in_progress", null, null],
      ["response.output_item.added", 0, "compaction"],
      ["response.output_item.done", 0, "compaction"],
      ["response.output_item.added", 1, "message"],
    ]);
    expect(events[2]!.item.encrypted_content).toBe("");
    expect(events[3]!.item.encrypted_content).toMatch(/^gAAAAAB/);
    const final = await stream.finalResponse();
    expect(final.output.map((o) => o.type)).toEqual(["compaction", "message"]);
    expect(final.output[0]).toEqual(events[3]!.item);
  });

  it("rejects an unknown context_management type with a 400", async () => {
    const err = await client()
      .responses.create({ model: "gpt-5", input: "hi", context_management: [{ type: "trim" }] })
      .catch((e: unknown) => e);
    expect((err as APIError).status).toBe(400);
    expect((err as APIError).error).toMatchObject({ param: "context_management[0].type", type: "invalid_request_error" });
  });
});

describe("the Responses WebSocket", () => {
  it("context_management over ResponsesWS: the compaction item streams before the reply", async () => {
    const ws = await open("/s/cmp-big/ws");
    const events = await turn(ws, { model: "gpt-5", input: "Plan the refactor.", context_management: THRESHOLD });
    ws.close();
    const done = events.filter((e) => e.type === "response.output_item.done").map((e) => e.item.type);
    expect(done).toEqual(["compaction", "message"]);
    expect(events.at(-1)!.response.output.map((o: Event) => o.type)).toEqual(["compaction", "message"]);
  });

  it("compaction_trigger (Codex remote compaction v2): exactly one compaction output item, then the compacted history resumes", async () => {
    const ws = await open("/s/cmp-codex/run");
    const history = [{ role: "user", content: "Fix the parser." }];
    const work = await turn(ws, { model: "gpt-5", store: false, input: history });
    const reply = work.at(-1)!.response.output;
    const compact = await turn(ws, { model: "gpt-5", store: false, input: [...history, ...reply, { type: "compaction_trigger" }] });
    expect(compact.map((e) => e.type)).toEqual(["response.created", "response.in_progress", "response.output_item.added", "response.output_item.done", "response.completed"]);
    const output = compact.at(-1)!.response.output;
    expect(output.map((o: Event) => o.type)).toEqual(["compaction"]);
    const resumed = await turn(ws, { model: "gpt-5", store: false, input: [...history, output[0], { role: "user", content: "Continue." }] });
    expect(resumed.at(-1)!.response.output[0].content[0].text).toBe("Resumed after compaction.");
    ws.close();
    expect((await h.journal("cmp-codex", "run")).map((e) => e.step)).toEqual(["work", "squash", "resume"]);
  });

  it("a compaction_trigger that is not the last input item gets a 400 error event", async () => {
    const ws = await open();
    const events = await turn(ws, { model: "gpt-5", input: [{ type: "compaction_trigger" }, { role: "user", content: "hi" }] });
    ws.close();
    expect(events).toEqual([
      {
        type: "error",
        status: 400,
        error: { type: "invalid_request_error", code: null, message: "The 'compaction_trigger' item must be the final input item.", param: "input" },
      },
    ]);
  });

  it("continues a store: false chain on the same connection; a new connection does not see it", async () => {
    const ws = await open();
    const first = await turn(ws, { model: "gpt-5", store: false, input: "My name is Ada." });
    const id = first.at(-1)!.response.id;
    const second = await turn(ws, { model: "gpt-5", store: false, previous_response_id: id, input: "What is my name?" });
    expect(second.at(-1)!.type).toBe("response.completed");
    // The default responder echoes the conversation's last user message; the request carried the earlier turn too.
    expect(second.at(-1)!.response.usage.input_tokens).toBeGreaterThan(first.at(-1)!.response.usage.input_tokens + 3);
    ws.close();
    const other = await open();
    const lost = await turn(other, { model: "gpt-5", store: false, previous_response_id: second.at(-1)!.response.id, input: "Again?" });
    other.close();
    expect(lost).toEqual([
      {
        type: "error",
        status: 404,
        error: { type: "invalid_request_error", code: "previous_response_not_found", message: `Previous response with id '${second.at(-1)!.response.id}' not found.`, param: "previous_response_id" },
      },
    ]);
  });

  it("a failed continuation evicts the connection-local response", async () => {
    const ws = await open();
    const first = await turn(ws, { model: "gpt-5", store: false, input: "Weather?" });
    const id = first.at(-1)!.response.id;
    const bad = await turn(ws, { model: "gpt-5", store: false, previous_response_id: id, input: [{ type: "function_call_output", call_id: "call_nope", output: "18C" }] });
    expect(bad[0]).toMatchObject({ type: "error", status: 400, error: { message: "No tool call found for function call output with call_id call_nope.", param: "input" } });
    const after = await turn(ws, { model: "gpt-5", store: false, previous_response_id: id, input: "Again?" });
    ws.close();
    expect(after[0]).toMatchObject({ type: "error", error: { code: "previous_response_not_found" } });
  });
});
