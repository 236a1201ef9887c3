/**
 * OpenAI Evals through the official `openai` SDK (`client.evals`, `…runs`, `…runs.outputItems`): an eval's data
 * source config and testing criteria as the API answers them; a `completions` run whose samples and judge verdicts the
 * scenario scripts (each item a live turn of the run's session, matched by `customId`), graded by every grader kind;
 * a `jsonl` run of given samples from a file; a run on the async clock, cancelled; the refusals of what the API
 * refuses. Also `client.fineTuning.alpha.graders` (validate, run) and a reinforcement job's grader, on the same graders.
 */
import OpenAI, { toFile } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;
let client: OpenAI;
let scripted: OpenAI;

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: InstanceType<typeof OpenAI.APIError>) => [e.status, (e.error as { message: string }).message],
  );

const ITEM_SCHEMA = { type: "object", properties: { question: { type: "string" }, answer: { type: "string" } }, required: ["question", "answer"] };

beforeAll(async () => {
  h = await startHarness();
  await h.upload({
    name: "evals-run",
    steps: [
      // The evaluated model: item 0 right, item 1 wrong.
      { id: "a0", match: { customId: { regex: "^evalrun_[0-9A-Za-z]+/0$" } }, respond: { text: "Paris", usage: { inputTokens: 20, outputTokens: 1 } } },
      { id: "a1", match: { customId: { regex: "^evalrun_[0-9A-Za-z]+/1$" } }, respond: { text: "Lyon", usage: { inputTokens: 21, outputTokens: 1 } } },
      // The judges: the label grader is criterion 2, the score grader criterion 3.
      // A bare label (here as a JSON string) is read as the schema's `{"result": …}` is.
      { id: "label0", match: { customId: { regex: "/0/2$" } }, respond: { text: '"correct"', usage: { inputTokens: 50, outputTokens: 5 } } },
      { id: "label1", match: { customId: { regex: "/1/2$" } }, respond: { text: '{"result": "incorrect"}', usage: { inputTokens: 50, outputTokens: 5 } } },
      { id: "rate", consume: false, match: { customId: { regex: "^graderrun_" } }, respond: { text: "7", usage: { inputTokens: 30, outputTokens: 1 } } },
      { id: "score", consume: false, match: { customId: { regex: "/[01]/3$" } }, respond: { text: '{"result": 7}', usage: { inputTokens: 40, outputTokens: 4 } } },
    ],
  });
  await h.upload({ name: "evals-slow", async: { processingMs: 600_000 }, steps: [{ consume: false, respond: { text: "x" } }] });
  client = new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}/v1`, maxRetries: 0 });
  scripted = new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}/s/evals-run/one/v1`, maxRetries: 0 });
});
afterAll(() => h?.stop());

const criteria = [
  { type: "string_check" as const, name: "exact", input: "{{sample.output_text}}", reference: "{{item.answer}}", operation: "eq" as const },
  { type: "text_similarity" as const, name: "close", input: "{{sample.output_text}}", reference: "{{item.answer}}", evaluation_metric: "fuzzy_match" as const, pass_threshold: 0.8 },
  {
    type: "label_model" as const,
    name: "judge",
    model: "gpt-4o-mini",
    input: [
      { role: "developer" as const, content: "Is the answer correct?" },
      { role: "user" as const, content: "Q: {{item.question}} A: {{sample.output_text}} Expected: {{item.answer}}" },
    ],
    labels: ["correct", "incorrect"],
    passing_labels: ["correct"],
  },
  { type: "score_model" as const, name: "score", model: "o4-mini", input: [{ role: "user" as const, content: "Score {{sample.output_text}}" }], range: [0, 10], pass_threshold: 5 },
];

describe("openai evals", () => {
  it("an eval answers its config's schema, criteria with ids; lists, updates and deletes", async () => {
    const e = await client.evals.create({
      name: "Capitals",
      metadata: { team: "geo" },
      data_source_config: { type: "custom", item_schema: ITEM_SCHEMA, include_sample_schema: true },
      testing_criteria: criteria,
    });
    expect(e.id).toMatch(/^eval_[0-9A-Za-z]{24,}$/);
    expect(e).toMatchObject({ object: "eval", name: "Capitals", metadata: { team: "geo" } });
    expect(e.data_source_config).toMatchObject({ type: "custom", schema: { type: "object", properties: { item: ITEM_SCHEMA }, required: ["item", "sample"] } });
    expect(e.testing_criteria.map((c) => [c.type, c.name])).toEqual([
      ["string_check", "exact"],
      ["text_similarity", "close"],
      ["label_model", "judge"],
      ["score_model", "score"],
    ]);
    for (const c of e.testing_criteria) expect((c as { id?: string }).id).toMatch(new RegExp(`^${c.name}-[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$`));

    expect(await client.evals.retrieve(e.id)).toEqual(e);
    const updated = await client.evals.update(e.id, { name: "Capitals v2", metadata: { team: "maps" } });
    expect(updated).toMatchObject({ id: e.id, name: "Capitals v2", metadata: { team: "maps" } });
    const listed = await client.evals.list();
    expect(listed.data.map((x) => x.id)).toContain(e.id);
    // By update time the updated eval comes after one made before the update; by creation before it.
    const later = await client.evals.create({ name: "Later", data_source_config: { type: "custom", item_schema: ITEM_SCHEMA }, testing_criteria: [] });
    await client.evals.update(e.id, { name: "Capitals v3" });
    const ids = async (order_by: "created_at" | "updated_at") => (await client.evals.list({ order_by, order: "asc", limit: 100 })).data.map((x) => x.id).filter((id) => id === e.id || id === later.id);
    expect(await ids("created_at")).toEqual([e.id, later.id]);
    expect(await ids("updated_at")).toEqual([later.id, e.id]);
    expect(await client.evals.delete(e.id)).toEqual({ object: "eval.deleted", deleted: true, eval_id: e.id });
    expect(await refusal(client.evals.retrieve(e.id))).toEqual([404, `Eval with id '${e.id}' not found.`]);
  });

  it("a completions run samples each item through the scenario and grades it with every grader", async () => {
    const e = await scripted.evals.create({ name: "Capitals", data_source_config: { type: "custom", item_schema: ITEM_SCHEMA, include_sample_schema: true }, testing_criteria: criteria });
    const run = await scripted.evals.runs.create(e.id, {
      name: "mini",
      data_source: {
        type: "completions",
        model: "gpt-4.1-mini",
        input_messages: { type: "template", template: [{ role: "user", content: "Capital of {{item.question}}?" }] },
        sampling_params: { temperature: 0.2, seed: 7 },
        source: {
          type: "file_content",
          content: [{ item: { question: "France", answer: "Paris" } }, { item: { question: "France (again)", answer: "Paris" } }],
        },
      },
    });
    expect(run).toMatchObject({
      object: "eval.run",
      eval_id: e.id,
      status: "queued",
      model: "gpt-4.1-mini",
      name: "mini",
      result_counts: { total: 0, errored: 0, failed: 0, passed: 0 },
      per_model_usage: null,
      error: null,
    });
    expect(run.id).toMatch(/^evalrun_[0-9A-Za-z]{24,}$/);
    expect(run.report_url).toBe(`https://platform.openai.com/evaluations/${e.id}?run_id=${run.id}`);
    expect((run.data_source.source as { content: unknown[] }).content).toHaveLength(2);

    const done = await scripted.evals.runs.retrieve(run.id, { eval_id: e.id });
    expect(done.status).toBe("completed");
    expect(done.result_counts).toEqual({ total: 2, errored: 0, failed: 1, passed: 1 });
    const ids = e.testing_criteria.map((c) => (c as unknown as { id: string }).id);
    expect(done.per_testing_criteria_results).toEqual([
      { testing_criteria: ids[0], passed: 1, failed: 1 },
      { testing_criteria: ids[1], passed: 1, failed: 1 },
      { testing_criteria: ids[2], passed: 1, failed: 1 },
      { testing_criteria: ids[3], passed: 2, failed: 0 },
    ]);
    expect(done.per_model_usage).toEqual([
      { model_name: "gpt-4.1-mini-2025-04-14", invocation_count: 2, prompt_tokens: 41, completion_tokens: 2, total_tokens: 43, cached_tokens: 0 },
      { model_name: "gpt-4o-mini-2024-07-18", invocation_count: 2, prompt_tokens: 100, completion_tokens: 10, total_tokens: 110, cached_tokens: 0 },
      { model_name: "o4-mini-2025-04-16", invocation_count: 2, prompt_tokens: 80, completion_tokens: 8, total_tokens: 88, cached_tokens: 0 },
    ]);

    const items = await scripted.evals.runs.outputItems.list(run.id, { eval_id: e.id });
    expect(items.data.map((i) => [i.datasource_item_id, i.status])).toEqual([
      [0, "pass"],
      [1, "fail"],
    ]);
    const [first, second] = items.data;
    expect(first!.sample).toMatchObject({
      input: [{ role: "user", content: "Capital of France?", tool_call_id: null, tool_calls: null, function_call: null }],
      output: [{ role: "assistant", content: "Paris", tool_call_id: null, tool_calls: null, function_call: null }],
      finish_reason: "stop",
      model: "gpt-4.1-mini-2025-04-14",
      usage: { prompt_tokens: 20, completion_tokens: 1, total_tokens: 21, cached_tokens: 0 },
      temperature: 0.2,
      seed: 7,
      error: null,
    });
    expect(second!.results.map((r) => [r.name, r.passed, r.score])).toEqual([
      [ids[0], false, 0],
      [ids[1], false, 0],
      [ids[2], false, 0],
      [ids[3], true, 7],
    ]);
    expect(second!.results[2]).toMatchObject({
      type: "label-model-grader",
      label: "incorrect",
      sample: {
        input: [
          { role: "developer", content: "Is the answer correct?" },
          { role: "user", content: "Q: France (again) A: Lyon Expected: Paris" },
        ],
      },
    });
    expect(await scripted.evals.runs.outputItems.retrieve(second!.id, { eval_id: e.id, run_id: run.id })).toEqual(second);
    const failing = await scripted.evals.runs.outputItems.list(run.id, { eval_id: e.id, status: "fail" });
    expect(failing.data.map((i) => i.id)).toEqual([second!.id]);

    // Each sample and each judge was a turn of the run's session, named by the run, the item and the criterion.
    const journal = await h.journal("evals-run", "one");
    expect(journal.map((j) => j.batch.customId.slice(run.id.length))).toEqual(["/0", "/0/2", "/0/3", "/1", "/1/2", "/1/3"]);

    const listed = await scripted.evals.runs.list(e.id);
    expect(listed.data.map((r) => [r.id, r.status])).toEqual([[run.id, "completed"]]);
    expect(await scripted.evals.runs.delete(run.id, { eval_id: e.id })).toEqual({ object: "eval.run.deleted", deleted: true, run_id: run.id });
    expect(await refusal(scripted.evals.runs.retrieve(run.id, { eval_id: e.id }))).toEqual([404, `Eval run with id '${run.id}' not found.`]);
  });

  it("a responses run samples through the Responses surface, its messages taken from the item (item_reference)", async () => {
    const two = new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}/s/evals-run/two/v1`, maxRetries: 0 });
    const e = await two.evals.create({
      data_source_config: { type: "custom", item_schema: { type: "object", properties: { messages: { type: "array" }, answer: { type: "string" } } }, include_sample_schema: true },
      testing_criteria: [criteria[0]!],
    });
    const messages = [
      { role: "system", content: "Answer with a city." },
      { role: "user", content: "Capital of France?" },
    ];
    const run = await two.evals.runs.create(e.id, {
      data_source: {
        type: "responses",
        model: "gpt-4.1",
        input_messages: { type: "item_reference", item_reference: "item.messages" },
        source: { type: "file_content", content: [{ item: { messages, answer: "Paris" } }] },
      },
    });
    const [item] = (await two.evals.runs.outputItems.list(run.id, { eval_id: e.id })).data;
    expect(item).toMatchObject({
      status: "pass",
      sample: { input: messages, output: [{ role: "assistant", content: "Paris" }], model: "gpt-4.1-2025-04-14", usage: { prompt_tokens: 20, completion_tokens: 1 } },
    });
    expect((await h.journal("evals-run", "two")).map((j) => [j.endpoint, j.batch.customId])).toEqual([["responses", `${run.id}/0`]]);
  });

  it("a stored_completions source takes the caller's stored completions (newest first, filtered) as its items", async () => {
    const ask = (content: string, app: string) => client.chat.completions.create({ model: "gpt-4o-mini", store: true, metadata: { app }, messages: [{ role: "user", content }] });
    const older = await ask("Say A", "evals-stored");
    await ask("Say X", "elsewhere");
    const newer = await ask("Say B", "evals-stored");
    const three = new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}/s/evals-run/three/v1`, maxRetries: 0 });
    const e = await three.evals.create({
      data_source_config: { type: "stored_completions", metadata: { app: "evals-stored" } },
      testing_criteria: [criteria[0]!].map((c) => ({ ...c, reference: "Paris" })),
    });
    expect(e.data_source_config).toMatchObject({ type: "stored_completions", metadata: { app: "evals-stored" }, schema: { required: ["item", "sample"] } });
    const run = await three.evals.runs.create(e.id, {
      data_source: {
        type: "completions",
        model: "gpt-4.1-mini",
        input_messages: { type: "item_reference", item_reference: "item.input" },
        source: { type: "stored_completions", metadata: { app: "evals-stored" } },
      },
    });
    expect(run.data_source.source).toEqual({ type: "stored_completions", metadata: { app: "evals-stored" } });
    const items = (await three.evals.runs.outputItems.list(run.id, { eval_id: e.id })).data;
    expect(items.map((i) => [i.datasource_item.completion_id, (i.datasource_item.input as { content: string }[])[0]!.content, i.sample.output[0]!.content, i.status])).toEqual([
      [newer.id, "Say B", "Paris", "pass"],
      [older.id, "Say A", "Lyon", "fail"],
    ]);
  });

  it("a jsonl run grades the samples its file gives; a bad line is an errored item; python graders are errors", async () => {
    const e = await client.evals.create({
      name: "Given samples",
      data_source_config: { type: "custom", item_schema: ITEM_SCHEMA, include_sample_schema: true },
      testing_criteria: [
        { type: "string_check", name: "has", input: "{{sample.output_text}}", reference: "{{item.answer}}", operation: "ilike" },
        { type: "text_similarity", name: "rouge", input: "{{sample.output_text}}", reference: "{{item.answer}}", evaluation_metric: "rouge_1", pass_threshold: 0.5 },
      ],
    });
    const lines = [
      { item: { question: "q1", answer: "the cat sat" }, sample: { output_text: "The cat sat down" } },
      { item: { question: "q2", answer: "blue" }, sample: { output_text: "red" } },
      { item: { question: "q3" } },
      "not json",
    ].map((l) => (typeof l === "string" ? l : JSON.stringify(l)));
    const file = await client.files.create({ file: await toFile(new TextEncoder().encode(`${lines.join("\n")}\n`), "items.jsonl"), purpose: "evals" });
    const run = await client.evals.runs.create(e.id, { data_source: { type: "jsonl", source: { type: "file_id", id: file.id } } });
    expect(run).toMatchObject({ status: "queued", model: null, name: "jsonl-run", data_source: { type: "jsonl", source: { type: "file_id", id: file.id } } });
    const done = await client.evals.runs.retrieve(run.id, { eval_id: e.id });
    expect(done).toMatchObject({ status: "completed", result_counts: { total: 4, errored: 2, failed: 1, passed: 1 }, per_model_usage: [] });
    const items = (await client.evals.runs.outputItems.list(run.id, { eval_id: e.id })).data;
    expect(items.map((i) => [i.datasource_item_id, i.status, i.results.map((r) => r.score)])).toEqual([
      [0, "pass", [1, 0.8571]],
      [1, "fail", [0, 0]],
      [2, "error", []],
      [3, "error", []],
    ]);
    expect(items[2]!.sample.error).toEqual({ code: "invalid_item", message: "The item must have required property 'answer' (the eval's item_schema)." });
    expect(items[3]!.sample.error).toEqual({ code: "invalid_item", message: "Line 4 of the data source is not a JSON object." });

    const py = await client.evals.create({
      name: "Python",
      data_source_config: { type: "custom", item_schema: ITEM_SCHEMA },
      testing_criteria: [{ type: "python", name: "py", source: "def grade(sample, item):\n    return 1.0" }],
    });
    const pyRun = await client.evals.runs.create(py.id, { data_source: { type: "jsonl", source: { type: "file_content", content: [{ item: { question: "q", answer: "a" } }] } } });
    const pyItems = (await client.evals.runs.outputItems.list(pyRun.id, { eval_id: py.id })).data;
    expect(pyItems[0]).toMatchObject({ status: "error", results: [{ type: "python-grader", passed: false, score: 0, error: { code: "python_grader_server_error" } }] });
  });

  it("without a script the default responder answers a judge one of its labels; the same run grades the same way again", async () => {
    const e = await client.evals.create({
      name: "Default",
      data_source_config: { type: "custom", item_schema: ITEM_SCHEMA, include_sample_schema: true },
      testing_criteria: [criteria[2]!],
    });
    const source = { type: "file_content" as const, content: [{ item: { question: "France", answer: "Paris" } }] };
    const input_messages = { type: "template" as const, template: [{ role: "user" as const, content: "{{item.question}}" }] };
    const verdicts: string[] = [];
    for (let i = 0; i < 2; i++) {
      const run = await client.evals.runs.create(e.id, { data_source: { type: "completions", model: "gpt-4o", input_messages, source } });
      const item = (await client.evals.runs.outputItems.list(run.id, { eval_id: e.id })).data[0]!;
      const label = item.results[0]!.label as string;
      expect(["correct", "incorrect"]).toContain(label);
      expect(item.status).toBe(label === "correct" ? "pass" : "fail");
      verdicts.push(label);
    }
    expect(verdicts[1]).toBe(verdicts[0]);
  });

  it("a read grades a bounded amount of comparing: a run of long texts goes on at the next read; items page", async () => {
    const e = await client.evals.create({
      data_source_config: { type: "custom", item_schema: ITEM_SCHEMA, include_sample_schema: true },
      testing_criteria: [{ type: "text_similarity", name: "fuzzy", input: "{{sample.output_text}}", reference: "{{item.answer}}", evaluation_metric: "fuzzy_match", pass_threshold: 0.9 }],
    });
    // 20,000 characters each side: 12.5 million word operations an item, eight items to a read's 100 million.
    const long = (c: string) => c.repeat(20_000);
    const content = Array.from({ length: 10 }, (_, i) => ({ item: { question: `q${i}`, answer: long("a") }, sample: { output_text: long(i % 2 === 0 ? "a" : "b") } }));
    const run = await client.evals.runs.create(e.id, { data_source: { type: "jsonl", source: { type: "file_content", content } } });
    const first = await client.evals.runs.retrieve(run.id, { eval_id: e.id });
    expect(first).toMatchObject({ status: "in_progress", result_counts: { total: 8, passed: 4, failed: 4, errored: 0 } });
    const second = await client.evals.runs.retrieve(run.id, { eval_id: e.id });
    expect(second).toMatchObject({ status: "completed", result_counts: { total: 10, passed: 5, failed: 5, errored: 0 } });
    const page = await client.evals.runs.outputItems.list(run.id, { eval_id: e.id, limit: 3, order: "desc" });
    expect(page.data.map((i) => i.datasource_item_id)).toEqual([9, 8, 7]);
    expect(page.hasNextPage()).toBe(true);
    const next = await client.evals.runs.outputItems.list(run.id, { eval_id: e.id, limit: 3, order: "desc", after: page.data[2]!.id });
    expect(next.data.map((i) => [i.datasource_item_id, i.status])).toEqual([
      [6, "pass"],
      [5, "fail"],
      [4, "pass"],
    ]);
  });

  it("a run on the scenario's clock is queued, then cancelled before its items are graded", async () => {
    const slow = new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}/s/evals-slow/c/v1`, maxRetries: 0 });
    const e = await slow.evals.create({
      data_source_config: { type: "custom", item_schema: ITEM_SCHEMA },
      testing_criteria: [{ type: "string_check", name: "exact", input: "{{item.question}}", reference: "{{item.answer}}", operation: "eq" }],
    });
    const run = await slow.evals.runs.create(e.id, { data_source: { type: "jsonl", source: { type: "file_content", content: [{ item: { question: "a", answer: "a" } }] } } });
    expect((await slow.evals.runs.retrieve(run.id, { eval_id: e.id })).status).toBe("queued");
    const cancelled = await slow.evals.runs.cancel(run.id, { eval_id: e.id });
    expect(cancelled).toMatchObject({ status: "canceled", result_counts: { total: 0 } });
    expect((await slow.evals.runs.outputItems.list(run.id, { eval_id: e.id })).data).toEqual([]);
    expect(await refusal(slow.evals.runs.cancel(run.id, { eval_id: e.id }))).toEqual([400, `Cannot cancel eval run ${run.id}: it is already canceled.`]);
  });

  it("refuses what the API refuses, at its path", async () => {
    const config = { type: "custom" as const, item_schema: ITEM_SCHEMA };
    const make = (testing_criteria: unknown[], data_source_config: unknown = config) => refusal(client.evals.create({ data_source_config, testing_criteria } as never));
    expect(await make([], { type: "files" })).toEqual([400, "Invalid value: 'files'. Supported values are: 'custom', 'logs', and 'stored_completions'."]);
    expect(await make([{ type: "string_check", name: "x", input: "{{sample.output_text}}", reference: "a", operation: "eq" }])).toEqual([
      400,
      "Invalid 'testing_criteria[0].input': the template variable '{{sample.output_text}}' must start with 'item'.",
    ]);
    expect(await make([{ type: "string_check", name: "x", input: "a", reference: "b", operation: "contains" }])).toEqual([
      400,
      "Invalid value: 'contains'. Supported values are: 'eq', 'ne', 'like', and 'ilike'.",
    ]);
    expect(await make([{ type: "text_similarity", name: "x", input: "a", reference: "b", evaluation_metric: "rouge_1" }])).toEqual([
      400,
      "Missing required parameter: 'testing_criteria[0].pass_threshold'.",
    ]);
    expect(await make([{ ...criteria[2]!, passing_labels: ["maybe"] }], { ...config, include_sample_schema: true })).toEqual([
      400,
      "Invalid 'testing_criteria[0].passing_labels': 'maybe' is not one of the grader's labels.",
    ]);
    expect(await make([{ type: "python", name: "p", source: "print(1)" }])).toEqual([400, "Invalid 'testing_criteria[0].source': the Python grader must define a function 'grade(sample, item)'."]);
    expect(await make([{ type: "multi", name: "m", graders: {}, calculate_output: "1" }])).toEqual([
      400,
      "Invalid value: 'multi'. Supported values are: 'label_model', 'string_check', 'text_similarity', 'python', and 'score_model'.",
    ]);

    const e = await client.evals.create({ data_source_config: config, testing_criteria: [] });
    const run = (data_source: unknown) => refusal(client.evals.runs.create(e.id, { data_source } as never));
    expect(await run({ type: "jsonl", source: { type: "file_content", content: [{ item: { question: "q" } }] } })).toEqual([
      400,
      "Invalid 'data_source.source.content[0]': the item must have required property 'answer' (the eval's item_schema).",
    ]);
    expect(await run({ type: "completions", source: { type: "file_content", content: [] }, input_messages: { type: "template", template: [] } })).toEqual([
      400,
      "Missing required parameter: 'data_source.model'.",
    ]);
    expect(await run({ type: "responses", model: "gpt-4o", source: { type: "responses" }, input_messages: { type: "item_reference", item_reference: "item.input" } })).toEqual([
      400,
      "mockllm: a run's source 'responses' (the caller's stored responses) is not served; give the items as 'file_content' or 'file_id'.",
    ]);
    expect(await run({ type: "completions", model: "gpt-4o", source: { type: "stored_completions", limit: 1.5 }, input_messages: { type: "item_reference", item_reference: "item.input" } })).toEqual([
      400,
      "Invalid type for 'data_source.source.limit': expected an integer, but got a decimal number instead.",
    ]);
    expect(await run({ type: "jsonl", source: { type: "file_id", id: "file-nope" } })).toEqual([404, "No such File object: file-nope"]);
    const sampled = (input_messages: unknown) => run({ type: "completions", model: "gpt-4o", source: { type: "file_content", content: [] }, input_messages });
    expect(await sampled({ type: "template", template: [{ role: "user", content: "{{sample.output_text}}" }] })).toEqual([
      400,
      "Invalid 'data_source.input_messages.template[0].content': the template variable '{{sample.output_text}}' must start with 'item'.",
    ]);
    expect(
      await run({
        type: "completions",
        model: "gpt-4o",
        source: { type: "file_content", content: [] },
        input_messages: { type: "template", template: [{ role: "user", content: "x" }] },
        sampling_params: { temperature: "hot" },
      }),
    ).toEqual([400, "Invalid type for 'data_source.sampling_params.temperature': expected a number, but got a string instead."]);
    expect(await sampled({ type: "template", template: [{ role: "user" }] })).toEqual([400, "Missing required parameter: 'data_source.input_messages.template[0].content'."]);
    expect(await sampled({ type: "item_reference", item_reference: "sample.messages" })).toEqual([
      400,
      "Invalid 'data_source.input_messages.item_reference': the template variable '{{sample.messages}}' must start with 'item'.",
    ]);
    expect(await refusal(client.evals.runs.retrieve("evalrun_nope", { eval_id: e.id }))).toEqual([404, "Eval run with id 'evalrun_nope' not found."]);
    expect(await refusal(client.evals.runs.list("eval_nope"))).toEqual([404, "Eval with id 'eval_nope' not found."]);
  });
});

describe("openai fine-tuning graders", () => {
  const multi = {
    type: "multi" as const,
    name: "blend",
    graders: {
      exact: { type: "string_check" as const, name: "exact", input: "{{sample.output_json.city}}", reference: "{{item.city}}", operation: "eq" as const },
      near: { type: "text_similarity" as const, name: "near", input: "{{sample.output_text}}", reference: "{{item.reference}}", evaluation_metric: "rouge_l" as const },
    },
    calculate_output: "0.5 * exact + 0.5 * near",
  };

  it("validate answers the grader; run answers the reward, sub-rewards and error flags", async () => {
    expect(await client.fineTuning.alpha.graders.validate({ grader: multi as never })).toEqual({ grader: multi });
    const r = await client.fineTuning.alpha.graders.run({ grader: multi as never, model_sample: '{"city": "Paris"}', item: { city: "Paris", reference: '{"city": "Paris"}' } });
    expect(r).toMatchObject({ reward: 1, sub_rewards: { exact: 1, near: 1 }, model_grader_token_usage_per_model: {} });
    expect(r.metadata).toMatchObject({ name: "blend", type: "multi", token_usage: null, sampled_model_name: null });
    expect(Object.values(r.metadata.errors).filter((v) => v === true)).toEqual([]);

    const missing = await client.fineTuning.alpha.graders.run({ grader: multi as never, model_sample: "Paris", item: {} });
    expect(missing.reward).toBe(0);
    expect(missing.metadata.errors).toMatchObject({ invalid_variable_error: true, formula_parse_error: false });

    const scored = await scripted.fineTuning.alpha.graders.run({
      grader: { type: "score_model", name: "judge", model: "o4-mini", input: [{ role: "user", content: "Rate {{sample.output_text}}" }], range: [0, 10] },
      model_sample: "Paris",
    });
    expect(scored.metadata).toMatchObject({ type: "score_model", sampled_model_name: "o4-mini-2025-04-16", token_usage: 31 });
    expect(scored.reward).toBe(7);
  });

  it("refuses a grader the API refuses", async () => {
    expect(await refusal(client.fineTuning.alpha.graders.validate({ grader: { ...multi, calculate_output: "exact + far" } as never }))).toEqual([
      400,
      "Invalid 'grader.calculate_output': 'far' names none of the grader's graders.",
    ]);
    expect(await refusal(client.fineTuning.alpha.graders.validate({ grader: { ...multi, calculate_output: "exact +" } as never }))).toEqual([
      400,
      expect.stringMatching(/^Invalid 'grader.calculate_output': /),
    ]);
    expect(await refusal(client.fineTuning.alpha.graders.run({ grader: multi as never } as never))).toEqual([400, "Missing required parameter: 'model_sample'."]);
  });

  it("a reinforcement fine-tuning job's grader is checked as validate checks it", async () => {
    const lines = Array.from({ length: 10 }, (_, i) => JSON.stringify({ messages: [{ role: "user", content: `City ${i}?` }], city: "Paris", reference: "Paris" }));
    const file = await client.files.create({ file: await toFile(new TextEncoder().encode(`${lines.join("\n")}\n`), "rft.jsonl"), purpose: "fine-tune" });
    const job = (reinforcement: unknown) => client.fineTuning.jobs.create({ model: "o4-mini-2025-04-16", training_file: file.id, method: { type: "reinforcement", reinforcement } as never });
    expect(await refusal(job({}))).toEqual([400, "Missing required parameter: 'method.reinforcement.grader'."]);
    expect(await refusal(job({ grader: { ...multi, calculate_output: "exact + far" } }))).toEqual([
      400,
      "Invalid 'method.reinforcement.grader.calculate_output': 'far' names none of the grader's graders.",
    ]);
    const made = await job({ grader: multi });
    expect(made.method).toMatchObject({ type: "reinforcement", reinforcement: { grader: multi } });
  });
});
