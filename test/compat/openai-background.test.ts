/**
 * Background responses and a response's input items through the official `openai` SDK: `background: true` answers
 * `queued`, a retrieve polls it to `completed` on the scenario's `async.processingMs` clock (0: the first retrieve),
 * `responses.cancel` (a synchronous response: the real 400), a streamed background response resumed from
 * `starting_after` (`responses.retrieve(id, { stream, starting_after })` and `responses.stream({ response_id })`),
 * and `responses.inputItems.list`. Both runtimes.
 */
import OpenAI, { BadRequestError } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const SCENARIOS = [
  { name: "bg-now", steps: [{ consume: false, respond: { text: "Done in the background." } }] },
  { name: "bg-slow", async: { processingMs: 3_600_000 }, steps: [{ consume: false, respond: { text: "Takes an hour." } }] },
  { name: "bg-fail", steps: [{ failures: [{ kind: "model_error", message: "The model crashed." }], respond: { text: "Second try works." } }] },
  { name: "bg-cut", steps: [{ consume: false, respond: { text: "Cut short here", finishReason: "length" } }] },
];

const client = (path = "") => new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}${path}/v1`, maxRetries: 0 });

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

describe("background responses", () => {
  it("answers queued, then a retrieve finds it completed (processingMs 0)", async () => {
    const c = client("/s/bg-now/poll");
    const created = await c.responses.create({ model: "gpt-4.1", input: "Work on it.", background: true });
    expect(created).toMatchObject({ status: "queued", background: true, output: [], usage: null, completed_at: null });
    const polled = await c.responses.retrieve(created.id);
    expect(polled).toMatchObject({ id: created.id, status: "completed", background: true });
    expect(polled.output_text).toBe("Done in the background.");
    expect(polled.usage).not.toBeNull();
  });

  it("stays in_progress until processingMs have passed, and cancels", async () => {
    const c = client("/s/bg-slow/cancel");
    const created = await c.responses.create({ model: "gpt-4.1", input: "Slow work.", background: true });
    expect(created.status).toBe("queued");
    expect((await c.responses.retrieve(created.id)).status).toBe("in_progress");
    const cancelled = await c.responses.cancel(created.id);
    expect(cancelled).toMatchObject({ id: created.id, status: "cancelled", background: true, output: [] });
    expect((await c.responses.retrieve(created.id)).status).toBe("cancelled");
    expect((await c.responses.cancel(created.id)).status).toBe("cancelled");
    await c.responses.delete(created.id);
    await expect(c.responses.retrieve(created.id)).rejects.toMatchObject({ status: 404 });
  });

  it("ends incomplete as scripted, and a finished one is answered as it is by cancel", async () => {
    const c = client("/s/bg-cut/run");
    const created = await c.responses.create({ model: "gpt-4.1", input: "Go.", background: true });
    const done = await c.responses.retrieve(created.id);
    expect(done).toMatchObject({ status: "incomplete", incomplete_details: { reason: "max_output_tokens" } });
    expect((await c.responses.cancel(created.id)).status).toBe("incomplete");
  });

  it("fails as scripted: accepted queued, then failed with the failure's error", async () => {
    const c = client("/s/bg-fail/run");
    const created = await c.responses.create({ model: "gpt-4.1", input: "Go.", background: true });
    expect(created.status).toBe("queued");
    const failed = await c.responses.retrieve(created.id);
    expect(failed).toMatchObject({ status: "failed", error: { code: "server_error", message: "The model crashed." }, output: [], usage: null });
    const retried = await c.responses.create({ model: "gpt-4.1", input: "Go.", background: true });
    expect((await c.responses.retrieve(retried.id)).output_text).toBe("Second try works.");
    expect((await h.journal("bg-fail", "run")).map((e) => e.outcome)).toEqual(["failure", "response"]);
  });

  it("refuses to cancel a synchronous response and background without store", async () => {
    const c = client("/s/bg-now/sync");
    const sync = await c.responses.create({ model: "gpt-4.1", input: "Now." });
    const err = await c.responses.cancel(sync.id).catch((e) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err.error.message).toBe("Cannot cancel a synchronous response.");
    const unstored = await c.responses.create({ model: "gpt-4.1", input: "x", background: true, store: false }).catch((e) => e);
    expect(unstored).toBeInstanceOf(BadRequestError);
    expect(unstored.error.param).toBe("background");
  });

  it("streams a background response from queued, and resumes it after a sequence number", async () => {
    const c = client("/s/bg-now/stream");
    const stream = await c.responses.create({ model: "gpt-4.1", input: "Stream it.", background: true, stream: true });
    const events: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const e of stream) events.push(e);
    expect(events.slice(0, 3).map((e) => e.type)).toEqual(["response.created", "response.queued", "response.in_progress"]);
    expect(events[0]).toMatchObject({ sequence_number: 0, response: { status: "queued", background: true } });
    expect(events.at(-1)!.type).toBe("response.completed");
    const id = (events[0] as OpenAI.Responses.ResponseCreatedEvent).response.id;

    const resumed = await c.responses.retrieve(id, { stream: true, starting_after: 3 });
    const after: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const e of resumed) after.push(e);
    expect(after).toEqual(events.slice(4));

    const helper = c.responses.stream({ response_id: id, starting_after: 5 });
    const viaHelper: OpenAI.Responses.ResponseStreamEvent[] = [];
    for await (const e of helper) viaHelper.push(e);
    expect(viaHelper.map((e) => e.sequence_number)).toEqual(events.slice(6).map((e) => e.sequence_number));
    expect((await helper.finalResponse()).output_text).toBe("Done in the background.");
  });
});

describe("input items", () => {
  it("lists a stored response's own input items, newest first, paginated", async () => {
    const c = client("/s/bg-now/items");
    const r = await c.responses.create({
      model: "gpt-4.1",
      instructions: "Be brief.",
      input: [
        { role: "user", content: "one" },
        { role: "user", content: [{ type: "input_text", text: "two" }] },
        { role: "user", content: "three" },
      ],
    });
    const all = await c.responses.inputItems.list(r.id);
    const texts = all.data.map((i) => ((i as OpenAI.Responses.ResponseInputMessageItem).content[0] as { text: string }).text);
    expect(texts).toEqual(["three", "two", "one"]);
    expect(all.data[0]).toMatchObject({ type: "message", role: "user", status: "completed", content: [{ type: "input_text", text: "three" }] });
    expect(all.data[0]!.id).toMatch(/^msg_[0-9a-f]{48}$/);
    const asc = await c.responses.inputItems.list(r.id, { order: "asc", limit: 2 });
    expect(asc.data.map((i) => i.id)).toEqual([all.data[2]!.id, all.data[1]!.id]);
    expect(asc.has_more).toBe(true);
    expect((await c.responses.inputItems.list(r.id, { order: "asc", after: asc.data[1]!.id })).data.map((i) => i.id)).toEqual([all.data[0]!.id]);
  });
});
