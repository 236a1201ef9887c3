/**
 * A batch bigger than `BATCH_LINES_PER_READ` (here 2) runs over several reads, on both runtimes: `in_progress` with
 * growing counts, then `completed` / `ended` with every line once and in input order; a cancel half-way keeps the
 * lines already run (OpenAI: the partial output file; Anthropic: the rest `canceled`). An eval run's reads are bounded
 * the same way, counting each item's sample and judge turns.
 */
import Anthropic from "@anthropic-ai/sdk";
import OpenAI, { toFile } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;
const SCENARIO = { name: "slices", steps: [{ id: "any", consume: false, respond: { text: "ok" } }] };

beforeAll(async () => {
  h = await startHarness({ BATCH_LINES_PER_READ: "2" });
  await h.upload(SCENARIO);
});
afterAll(() => h?.stop());

const openai = (session: string) => new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}/s/slices/${session}/v1`, maxRetries: 0 });
const anthropic = (session: string) => new Anthropic({ apiKey: "sk-ant-test", baseURL: `${h.url}/s/slices/${session}`, maxRetries: 0 });
const chatLines = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    JSON.stringify({ custom_id: `c${i}`, method: "POST", url: "/v1/chat/completions", body: { model: "gpt-4o", messages: [{ role: "user", content: `q${i}` }] } }),
  ).join("\n");
const params = { model: "claude-sonnet-4-6", max_tokens: 20, messages: [{ role: "user" as const, content: "hi" }] };

describe("batches over several reads", () => {
  it("openai: in_progress 2, 4, then completed 5, each line once in order", async () => {
    const c = openai("o1");
    const file = await c.files.create({ file: await toFile(Buffer.from(chatLines(5)), "five.jsonl"), purpose: "batch" });
    const batch = await c.batches.create({ input_file_id: file.id, endpoint: "/v1/chat/completions", completion_window: "24h" });
    const seen = [];
    for (let i = 0; i < 3; i++) {
      const b = await c.batches.retrieve(batch.id);
      seen.push([b.status, b.request_counts!.completed]);
    }
    expect(seen).toEqual([
      ["in_progress", 2],
      ["in_progress", 4],
      ["completed", 5],
    ]);
    const done = await c.batches.retrieve(batch.id);
    const text = await (await c.files.content(done.output_file_id!)).text();
    expect(
      text
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).custom_id),
    ).toEqual(["c0", "c1", "c2", "c3", "c4"]);
    expect((await h.journal("slices", "o1")).map((e) => e.batch.customId)).toEqual(["c0", "c1", "c2", "c3", "c4"]);
  });

  it("openai: a cancel half-way keeps the partial output", async () => {
    const c = openai("o2");
    const file = await c.files.create({ file: await toFile(Buffer.from(chatLines(5)), "five.jsonl"), purpose: "batch" });
    const batch = await c.batches.create({ input_file_id: file.id, endpoint: "/v1/chat/completions", completion_window: "24h" });
    expect((await c.batches.retrieve(batch.id)).request_counts!.completed).toBe(2);
    expect((await c.batches.cancel(batch.id)).status).toBe("cancelling");
    let b = await c.batches.retrieve(batch.id);
    for (let i = 0; i < 3 && b.status !== "cancelled"; i++) b = await c.batches.retrieve(batch.id);
    expect(b).toMatchObject({ status: "cancelled", request_counts: { total: 5, completed: 2, failed: 0 } });
    const text = await (await c.files.content(b.output_file_id!)).text();
    expect(
      text
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).custom_id),
    ).toEqual(["c0", "c1"]);
  });

  it("anthropic: processing counts fall, results in order; a cancel half-way cancels the rest", async () => {
    const c = anthropic("a1");
    const requests = Array.from({ length: 5 }, (_, i) => ({ custom_id: `r${i}`, params }));
    const batch = await c.messages.batches.create({ requests });
    const first = await c.messages.batches.retrieve(batch.id);
    expect([first.processing_status, first.request_counts.processing, first.request_counts.succeeded]).toEqual(["in_progress", 3, 2]);
    let b = first;
    for (let i = 0; i < 3 && b.processing_status !== "ended"; i++) b = await c.messages.batches.retrieve(batch.id);
    expect(b.request_counts).toEqual({ processing: 0, succeeded: 5, errored: 0, canceled: 0, expired: 0 });
    const ids = [];
    for await (const r of await c.messages.batches.results(batch.id)) ids.push(r.custom_id);
    expect(ids).toEqual(["r0", "r1", "r2", "r3", "r4"]);

    const c2 = anthropic("a2");
    const other = await c2.messages.batches.create({ requests });
    await c2.messages.batches.retrieve(other.id);
    await c2.messages.batches.cancel(other.id);
    let o = await c2.messages.batches.retrieve(other.id);
    for (let i = 0; i < 3 && o.processing_status !== "ended"; i++) o = await c2.messages.batches.retrieve(other.id);
    expect(o.request_counts).toEqual({ processing: 0, succeeded: 2, errored: 0, canceled: 3, expired: 0 });
  });

  it("openai evals: a read runs at most 2 turns — an item sampled and judged is 2, so one item a read", async () => {
    const c = openai("e1");
    const e = await c.evals.create({
      data_source_config: { type: "custom", item_schema: { type: "object" }, include_sample_schema: true },
      testing_criteria: [
        { type: "string_check", name: "ok", input: "{{sample.output_text}}", reference: "ok", operation: "eq" },
        { type: "label_model", name: "judge", model: "gpt-4o-mini", input: [{ role: "user", content: "{{sample.output_text}}" }], labels: ["yes", "no"], passing_labels: ["yes"] },
      ],
    });
    const content = [{ item: { q: "a" } }, { item: { q: "b" } }, { item: { q: "c" } }];
    const run = await c.evals.runs.create(e.id, {
      data_source: { type: "completions", model: "gpt-4o", input_messages: { type: "template", template: [{ role: "user", content: "{{item.q}}" }] }, source: { type: "file_content", content } },
    });
    const seen: [string, number][] = [];
    for (let i = 0; i < 4; i++) {
      const r = await c.evals.runs.retrieve(run.id, { eval_id: e.id });
      seen.push([r.status, r.result_counts.total]);
    }
    expect(seen).toEqual([
      ["in_progress", 1],
      ["in_progress", 2],
      ["completed", 3],
      ["completed", 3],
    ]);
    // The judge answered "ok", no label: each item an error, its string check still passed.
    const items = (await c.evals.runs.outputItems.list(run.id, { eval_id: e.id })).data;
    expect(items.map((i) => [i.status, i.results.map((r) => [r.passed, (r.error as { code?: string } | undefined)?.code ?? null])])).toEqual(
      Array.from({ length: 3 }, () => [
        "error",
        [
          [true, null],
          [false, "model_grader_parse_error"],
        ],
      ]),
    );
    expect((await h.journal("slices", "e1")).map((j) => j.batch.customId.slice(run.id.length))).toEqual(["/0", "/0/1", "/1", "/1/1", "/2", "/2/1"]);
  });
});
