/**
 * OpenAI Files and Batches through the official `openai` SDK (contract section 11), on both runtimes: files
 * create/list/retrieve/content/delete; batches of chat, responses and embeddings lines scripted per `custom_id` (one
 * line failing with a scripted 429), polled to `completed`, their output and error files read line by line; the
 * async clock (`async.processingMs`); cancel; a malformed input file → `failed` with `errors.data`; the journal's
 * `batch` on each line; namespace isolation.
 */
import OpenAI, { NotFoundError, toFile } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { namespaceKey, rootAdmin } from "../support/namespaces";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const SCENARIO = {
  name: "batch-sdk",
  steps: [
    { id: "a", match: { customId: "a", endpoint: "chat.completions" }, respond: { text: "Answer A", usage: { inputTokens: 10, outputTokens: 3 } } },
    { id: "b", match: { customId: "b" }, failures: [{ kind: "rate_limit" }], respond: { text: "never seen" } },
    { id: "r", match: { customId: "r", endpoint: "responses" }, respond: { text: "Answer R" } },
    { id: "e", match: { customId: "e", endpoint: "embeddings" }, respond: { embeddings: [[0.5, 0.25, -1]] } },
  ],
};
const SLOW = { name: "batch-slow", async: { processingMs: 60_000 }, steps: [{ id: "x", consume: false, respond: { text: "late" } }] };

const client = (path = "", apiKey = "sk-test") => new OpenAI({ apiKey, baseURL: `${h.url}${path}/v1`, maxRetries: 0 });

function jsonl(lines: unknown[]): string {
  return `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
}

async function lines(c: OpenAI, id: string): Promise<any[]> {
  const text = await (await c.files.content(id)).text();
  return text
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l));
}

beforeAll(async () => {
  h = await startHarness();
  await h.upload(SCENARIO, SLOW);
});
afterAll(() => h?.stop());

describe("openai files", () => {
  it("create, retrieve, content (exact bytes), list, delete", async () => {
    const c = client();
    const bytes = new Uint8Array([0, 1, 2, 250, 255, 10, 13]);
    const f = await c.files.create({ file: await toFile(bytes, "data.bin"), purpose: "user_data" });
    expect(f).toMatchObject({ object: "file", purpose: "user_data", filename: "data.bin", bytes: 7, status: "processed", expires_at: null });
    expect(f.id).toMatch(/^file-[0-9A-Za-z]{22}$/);
    expect(await c.files.retrieve(f.id)).toEqual(f);
    const content = new Uint8Array(await (await c.files.content(f.id)).arrayBuffer());
    expect([...content]).toEqual([...bytes]);

    const g = await c.files.create({ file: await toFile(Buffer.from("{}\n"), "in.jsonl"), purpose: "batch", expires_after: { anchor: "created_at", seconds: 3600 } });
    expect(g.expires_at).toBe(g.created_at + 3600);
    const all = [];
    for await (const x of c.files.list()) all.push(x.id);
    expect(all.indexOf(g.id)).toBeLessThan(all.indexOf(f.id)); // newest first
    const asc = await c.files.list({ order: "asc", purpose: "user_data" });
    expect(asc.data.map((x) => x.id)).toContain(f.id);
    expect(asc.data.map((x) => x.id)).not.toContain(g.id);
    const page = await c.files.list({ limit: 1 });
    expect(page.data).toHaveLength(1);
    expect(page.has_more).toBe(true);

    expect(await c.files.delete(f.id)).toEqual({ id: f.id, object: "file", deleted: true });
    await expect(c.files.retrieve(f.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(c.files.content(f.id)).rejects.toMatchObject({ status: 404, error: { message: `No such File object: ${f.id}` } });
  });

  it("refuses a bad purpose and a batch file that is not .jsonl", async () => {
    const c = client();
    await expect(c.files.create({ file: await toFile(Buffer.from("x"), "a.txt"), purpose: "nope" as "batch" })).rejects.toMatchObject({ status: 400, error: { param: "purpose" } });
    await expect(c.files.create({ file: await toFile(Buffer.from("x"), "a.txt"), purpose: "batch" })).rejects.toMatchObject({
      status: 400,
      error: { message: "Invalid file format for Batch API. Must be .jsonl" },
    });
  });
});

describe("openai batches", () => {
  it("chat lines scripted per custom_id: one answered, one a 429 in the error file; the journal marks each line", async () => {
    const c = client("/s/batch-sdk/chat");
    const input = jsonl([
      { custom_id: "a", method: "POST", url: "/v1/chat/completions", body: { model: "gpt-4o-mini", messages: [{ role: "user", content: "first" }] } },
      { custom_id: "b", method: "POST", url: "/v1/chat/completions", body: { model: "gpt-4o-mini", messages: [{ role: "user", content: "second" }] } },
    ]);
    const file = await c.files.create({ file: await toFile(Buffer.from(input), "chat.jsonl"), purpose: "batch" });
    const created = await c.batches.create({ input_file_id: file.id, endpoint: "/v1/chat/completions", completion_window: "24h", metadata: { job: "nightly" } });
    expect(created).toMatchObject({
      object: "batch",
      status: "validating",
      endpoint: "/v1/chat/completions",
      input_file_id: file.id,
      completion_window: "24h",
      metadata: { job: "nightly" },
      output_file_id: null,
    });
    expect(created.id).toMatch(/^batch_[0-9A-Za-z]{32}$/);

    const done = await c.batches.retrieve(created.id);
    expect(done.status).toBe("completed");
    expect(done.request_counts).toEqual({ total: 2, completed: 1, failed: 1 });
    expect(done.usage).toMatchObject({ input_tokens: 10, output_tokens: 3, total_tokens: 13 });
    expect(done.completed_at).toBeTypeOf("number");

    const out = await lines(c, done.output_file_id!);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ custom_id: "a", error: null, response: { status_code: 200 } });
    expect(out[0].id).toMatch(/^batch_req_[0-9a-f]{32}$/);
    expect(out[0].response.body.choices[0].message.content).toBe("Answer A");
    expect(out[0].response.request_id).toMatch(/^req_/);
    const err = await lines(c, done.error_file_id!);
    expect(err).toHaveLength(1);
    expect(err[0]).toMatchObject({ custom_id: "b", error: null, response: { status_code: 429, body: { error: { type: "requests", code: "rate_limit_exceeded" } } } });
    expect((await c.files.retrieve(done.output_file_id!)).purpose).toBe("batch_output");

    const journal = await h.journal("batch-sdk", "chat");
    expect(journal.map((e) => [e.step, e.outcome, e.batch])).toEqual([
      ["a", "response", { id: created.id, customId: "a" }],
      ["b", "failure", { id: created.id, customId: "b" }],
    ]);
    // Polling again runs nothing twice.
    expect((await c.batches.retrieve(created.id)).request_counts).toEqual({ total: 2, completed: 1, failed: 1 });
    expect(await h.journal("batch-sdk", "chat")).toHaveLength(2);
  });

  it("verify and coverage count batch lines", async () => {
    await h.upload({
      name: "batch-verify",
      steps: [
        { id: "one", match: { customId: "one" }, respond: { text: "1" } },
        { id: "two", match: { customId: "two" }, respond: { text: "2" } },
      ],
    });
    const c = client("/s/batch-verify/v");
    const input = jsonl(["one", "two"].map((id) => ({ custom_id: id, method: "POST", url: "/v1/chat/completions", body: { model: "gpt-4o", messages: [{ role: "user", content: id }] } })));
    const file = await c.files.create({ file: await toFile(Buffer.from(input), "v.jsonl"), purpose: "batch" });
    const batch = await c.batches.create({ input_file_id: file.id, endpoint: "/v1/chat/completions", completion_window: "24h" });
    expect((await c.batches.retrieve(batch.id)).status).toBe("completed");
    const verify = (await (await h.admin("/sessions/batch-verify/v/verify")).json()) as { ok: boolean };
    expect(verify.ok).toBe(true);
    const coverage = (await (await h.admin("/scenarios/batch-verify/coverage")).json()) as { sessions: number; steps: { id: string; sessions: number }[] };
    expect(coverage.sessions).toBe(1);
    expect(coverage.steps.map((st) => [st.id, st.sessions])).toEqual([
      ["one", 1],
      ["two", 1],
    ]);
  });

  it("responses and embeddings batches", async () => {
    const c = client("/s/batch-sdk/other");
    const rFile = await c.files.create({
      file: await toFile(Buffer.from(jsonl([{ custom_id: "r", method: "POST", url: "/v1/responses", body: { model: "gpt-4o", input: "hi" } }])), "r.jsonl"),
      purpose: "batch",
    });
    const rBatch = await c.batches.create({ input_file_id: rFile.id, endpoint: "/v1/responses", completion_window: "24h" });
    const rDone = await c.batches.retrieve(rBatch.id);
    expect(rDone).toMatchObject({ status: "completed", request_counts: { total: 1, completed: 1, failed: 0 }, error_file_id: null });
    const [r] = await lines(c, rDone.output_file_id!);
    expect(r.response.body.output[0].content[0].text).toBe("Answer R");

    const eFile = await c.files.create({
      file: await toFile(Buffer.from(jsonl([{ custom_id: "e", method: "POST", url: "/v1/embeddings", body: { model: "text-embedding-3-small", input: "hi" } }])), "e.jsonl"),
      purpose: "batch",
    });
    const eBatch = await c.batches.create({ input_file_id: eFile.id, endpoint: "/v1/embeddings", completion_window: "24h" });
    const eDone = await c.batches.retrieve(eBatch.id);
    const [e] = await lines(c, eDone.output_file_id!);
    expect(e.response.body.data[0].embedding).toEqual([0.5, 0.25, -1]);

    const listed = await c.batches.list({ limit: 1 });
    expect(listed.data.map((b) => b.id)).toEqual([eBatch.id]);
  });

  it("no scenario: the default responder answers each line", async () => {
    const c = client();
    const file = await c.files.create({
      file: await toFile(
        Buffer.from(jsonl([1, 2, 3].map((n) => ({ custom_id: `n${n}`, method: "POST", url: "/v1/chat/completions", body: { model: "gpt-4o-mini", messages: [{ role: "user", content: `q${n}` }] } })))),
        "d.jsonl",
      ),
      purpose: "batch",
    });
    const batch = await c.batches.create({ input_file_id: file.id, endpoint: "/v1/chat/completions", completion_window: "24h" });
    const done = await c.batches.retrieve(batch.id);
    expect(done.request_counts).toEqual({ total: 3, completed: 3, failed: 0 });
    expect((await lines(c, done.output_file_id!)).map((l) => l.custom_id)).toEqual(["n1", "n2", "n3"]);
  });

  it("async.processingMs: in_progress until due; a cancel then ends it cancelled, with no line run", async () => {
    const c = client("/s/batch-slow/s1");
    const file = await c.files.create({
      file: await toFile(Buffer.from(jsonl([{ custom_id: "x", method: "POST", url: "/v1/chat/completions", body: { model: "gpt-4o", messages: [{ role: "user", content: "x" }] } }])), "s.jsonl"),
      purpose: "batch",
    });
    const batch = await c.batches.create({ input_file_id: file.id, endpoint: "/v1/chat/completions", completion_window: "24h" });
    expect((await c.batches.retrieve(batch.id)).status).toBe("in_progress");
    const cancelling = await c.batches.cancel(batch.id);
    expect(cancelling.status).toBe("cancelling");
    expect(cancelling.cancelling_at).toBeTypeOf("number");
    const cancelled = await c.batches.retrieve(batch.id);
    expect(cancelled).toMatchObject({ status: "cancelled", request_counts: { total: 1, completed: 0, failed: 0 }, output_file_id: null });
    const journal = await h.journal("batch-slow", "s1"); // no line ran: an empty journal, or a session that never ran
    expect(Array.isArray(journal) ? journal : []).toEqual([]);
    await expect(client().batches.cancel("batch_missing")).rejects.toBeInstanceOf(NotFoundError);
  });

  it("a malformed input file: failed with the real errors", async () => {
    const c = client();
    const text = [
      JSON.stringify({ custom_id: "1", method: "POST", url: "/v1/chat/completions", body: { model: "gpt-4o", messages: [] } }),
      "{not json",
      JSON.stringify({ custom_id: "1", method: "POST", url: "/v1/chat/completions", body: { model: "gpt-4o", messages: [] } }),
      JSON.stringify({ custom_id: "3", method: "POST", url: "/v1/embeddings", body: { model: "gpt-4o", input: "x" } }),
      JSON.stringify({ custom_id: "4", method: "POST", url: "/v1/chat/completions", body: { model: "gpt-4o-mini", messages: [] } }),
    ].join("\n");
    const file = await c.files.create({ file: await toFile(Buffer.from(text), "bad.jsonl"), purpose: "batch" });
    const batch = await c.batches.create({ input_file_id: file.id, endpoint: "/v1/chat/completions", completion_window: "24h" });
    expect(batch.status).toBe("validating");
    const failed = await c.batches.retrieve(batch.id);
    expect(failed.status).toBe("failed");
    expect(failed.failed_at).toBeTypeOf("number");
    expect(failed.errors!.data!.map((e) => [e.code, e.line])).toEqual([
      ["invalid_json_line", 2],
      ["duplicate_custom_id", 3],
      ["invalid_url", 4],
      ["mismatched_model", 5],
    ]);
    await expect(c.batches.cancel(batch.id)).rejects.toMatchObject({ status: 409 });
    await expect(c.batches.create({ input_file_id: "file-nope", endpoint: "/v1/chat/completions", completion_window: "24h" })).rejects.toMatchObject({ status: 404 });
    await expect(c.batches.create({ input_file_id: file.id, endpoint: "/v1/nope" as "/v1/responses", completion_window: "24h" })).rejects.toMatchObject({ status: 400, error: { param: "endpoint" } });
  });
});

describe("namespaces", () => {
  it("another team's key gets the real 404 for a file and a batch", async () => {
    const admin = rootAdmin((path, init) => fetch(`${h.url}${path}`, init), h.adminToken);
    const keyA = await namespaceKey(admin, "files-a");
    const keyB = await namespaceKey(admin, "files-b");
    const a = client("", keyA);
    const b = client("", keyB);
    const file = await a.files.create({
      file: await toFile(Buffer.from(jsonl([{ custom_id: "1", method: "POST", url: "/v1/chat/completions", body: { model: "m", messages: [{ role: "user", content: "x" }] } }])), "ns.jsonl"),
      purpose: "batch",
    });
    const batch = await a.batches.create({ input_file_id: file.id, endpoint: "/v1/chat/completions", completion_window: "24h" });
    await expect(b.files.retrieve(file.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(b.files.content(file.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(b.batches.retrieve(batch.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(b.batches.create({ input_file_id: file.id, endpoint: "/v1/chat/completions", completion_window: "24h" })).rejects.toBeInstanceOf(NotFoundError);
    expect((await b.files.list()).data).toEqual([]);
    expect((await client().files.list()).data.map((f) => f.id)).not.toContain(file.id);
    expect((await a.batches.retrieve(batch.id)).status).toBe("completed");
  });

  it("quotas files and fileBytes: an upload past either is the namespace's 429", async () => {
    const admin = rootAdmin((path, init) => fetch(`${h.url}${path}`, init), h.adminToken);
    const c = client("", await namespaceKey(admin, "files-q", "admin", { files: 2, fileBytes: 10 }));
    const up = async (n: number) => c.files.create({ file: await toFile(Buffer.alloc(n), "q.bin"), purpose: "user_data" });
    const first = await up(4);
    await expect(up(7)).rejects.toMatchObject({ status: 429 });
    await up(6);
    const refused = await up(0).catch((e) => e);
    expect(refused).toMatchObject({ status: 429 });
    expect(refused.headers.get("x-mockllm-outcome")).toBe("quota");
    await c.files.delete(first.id);
    await up(0);
  });

  it("a deleted namespace's files go with it: re-created, it starts empty", async () => {
    const admin = rootAdmin((path, init) => fetch(`${h.url}${path}`, init), h.adminToken);
    const c = client("", await namespaceKey(admin, "files-gone"));
    await c.files.create({ file: await toFile(Buffer.from("x"), "x.txt"), purpose: "user_data" });
    expect((await admin("/namespaces/files-gone", { method: "DELETE" })).status).toBe(200);
    const again = client("", await namespaceKey(admin, "files-gone"));
    expect((await again.files.list()).data).toEqual([]);
  });
});

describe("garbage", () => {
  it("malformed ids and bodies get the provider's 4xx, never a 500", async () => {
    const auth = { authorization: "Bearer sk-test" };
    for (const [method, path, body] of [
      ["GET", "/v1/files/%E0%A4%A", undefined],
      ["GET", "/v1/files/%2e%2e%2fbatches%2fx/content", undefined],
      ["DELETE", "/v1/files/nope", undefined],
      ["POST", "/v1/files", "not a form"],
      ["POST", "/v1/batches", "{"],
      ["POST", "/v1/batches", JSON.stringify({ input_file_id: 1, endpoint: "/v1/chat/completions", completion_window: "24h" })],
      ["GET", "/v1/batches/%E0%A4%A", undefined],
      ["GET", "/v1/batches?limit=0", undefined],
      ["PUT", "/v1/batches/x", undefined],
    ] as const) {
      const res = await fetch(`${h.url}${path}`, { method, headers: { ...auth, "content-type": "application/json" }, ...(body !== undefined ? { body } : {}) });
      expect([400, 404, 405], `${method} ${path}`).toContain(res.status);
      expect(((await res.json()) as { error: { type: string } }).error.type).toBe("invalid_request_error");
    }
  });

  it("an id longer than any object key (R2 names at most 1,024 bytes) is an unknown id: the 404, never a 500", async () => {
    const long = "file-".padEnd(1100, "x");
    const openai = { authorization: "Bearer sk-test", "content-type": "application/json" };
    const anthropic = { "x-api-key": "k", "anthropic-version": "2023-06-01", "anthropic-beta": "files-api-2025-04-14" };
    const answers: string[] = [];
    for (const [method, path, headers, body] of [
      ["GET", `/v1/files/${long}`, openai, undefined],
      ["GET", `/v1/files/${long}/content`, openai, undefined],
      ["DELETE", `/v1/files/${long}`, openai, undefined],
      ["POST", "/v1/batches", openai, JSON.stringify({ input_file_id: long, endpoint: "/v1/chat/completions", completion_window: "24h" })],
      ["GET", `/v1/batches/${long}`, openai, undefined],
      ["POST", `/v1/batches/${long}/cancel`, openai, undefined],
      ["POST", "/v1/vector_stores", openai, JSON.stringify({ name: "v", file_ids: [long] })],
      ["GET", `/v1/messages/batches/${long}`, anthropic, undefined],
      ["GET", `/v1/messages/batches/${long}/results`, anthropic, undefined],
      ["GET", `/v1/files/${long}`, anthropic, undefined],
    ] as const) {
      const res = await fetch(`${h.url}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
      const json = (await res.json()) as { error: { type: string } };
      answers.push(`${method} ${path.replace(long, "{long}")} ${res.status} ${json.error.type}`);
    }
    expect(answers).toEqual([
      "GET /v1/files/{long} 404 invalid_request_error",
      "GET /v1/files/{long}/content 404 invalid_request_error",
      "DELETE /v1/files/{long} 404 invalid_request_error",
      "POST /v1/batches 404 invalid_request_error",
      "GET /v1/batches/{long} 404 invalid_request_error",
      "POST /v1/batches/{long}/cancel 404 invalid_request_error",
      "POST /v1/vector_stores 400 invalid_request_error",
      "GET /v1/messages/batches/{long} 404 not_found_error",
      "GET /v1/messages/batches/{long}/results 404 not_found_error",
      "GET /v1/files/{long} 404 not_found_error",
    ]);
  });
});
