/**
 * Anthropic Message Batches through the official `@anthropic-ai/sdk` (contract section 11), on both runtimes: create →
 * poll → `results()` (succeeded and errored lines, scripted per `custom_id`), list, cancel, delete, the journal's
 * `batch`, namespace isolation; the Files API (beta): upload, metadata, list, a message whose document block names
 * the file, an unknown id, download refused, delete.
 */
import Anthropic, { NotFoundError, toFile } from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { namespaceKey, rootAdmin } from "../support/namespaces";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const SCENARIO = {
  name: "msgbatch-sdk",
  steps: [
    { id: "ok", match: { customId: "ok" }, respond: { text: "Batched hello", usage: { inputTokens: 7, outputTokens: 2 } } },
    { id: "busy", match: { customId: { regex: "^busy" } }, failures: [{ kind: "overloaded" }], respond: { text: "never" } },
  ],
};
const SLOW = { name: "msgbatch-slow", async: { processingMs: 60_000 }, steps: [{ consume: false, respond: { text: "late" } }] };

const client = (path = "", apiKey = "sk-ant-test") => new Anthropic({ apiKey, baseURL: `${h.url}${path}`, maxRetries: 0 });
const params = (text: string) => ({ model: "claude-sonnet-4-6", max_tokens: 100, messages: [{ role: "user" as const, content: text }] });

beforeAll(async () => {
  h = await startHarness();
  await h.upload(SCENARIO, SLOW);
});
afterAll(() => h?.stop());

async function untilEnded(c: Anthropic, id: string) {
  for (let i = 0; i < 5; i++) {
    const b = await c.messages.batches.retrieve(id);
    if (b.processing_status === "ended") return b;
  }
  throw new Error("the batch did not end");
}

describe("anthropic message batches", () => {
  it("create → poll → results(): succeeded and errored lines, journaled with their batch", async () => {
    const c = client("/s/msgbatch-sdk/run");
    const created = await c.messages.batches.create({
      requests: [
        { custom_id: "ok", params: params("hello") },
        { custom_id: "busy-1", params: params("again") },
      ],
    });
    expect(created).toMatchObject({
      type: "message_batch",
      processing_status: "in_progress",
      request_counts: { processing: 2, succeeded: 0, errored: 0, canceled: 0, expired: 0 },
      results_url: null,
      ended_at: null,
    });
    expect(created.id).toMatch(/^msgbatch_01[0-9A-Za-z]{24}$/);
    const ended = await untilEnded(c, created.id);
    expect(ended.request_counts).toEqual({ processing: 0, succeeded: 1, errored: 1, canceled: 0, expired: 0 });
    expect(ended.results_url).toBe(`${h.url}/s/msgbatch-sdk/run/v1/messages/batches/${created.id}/results`);
    expect(ended.ended_at).toEqual(expect.any(String));

    const results = [];
    for await (const r of await c.messages.batches.results(created.id)) results.push(r);
    expect(results.map((r) => [r.custom_id, r.result.type])).toEqual([
      ["ok", "succeeded"],
      ["busy-1", "errored"],
    ]);
    const [ok, busy] = results;
    if (ok!.result.type !== "succeeded" || busy!.result.type !== "errored") throw new Error("unexpected result types");
    expect(ok!.result.message.content).toEqual([{ type: "text", text: "Batched hello" }]);
    expect(ok!.result.message.usage).toMatchObject({ input_tokens: 7, output_tokens: 2 });
    expect(busy!.result.error).toMatchObject({ type: "error", error: { type: "overloaded_error" } });

    const journal = await h.journal("msgbatch-sdk", "run");
    expect(journal.map((e) => [e.step, e.endpoint, e.batch])).toEqual([
      ["ok", "messages", { id: created.id, customId: "ok" }],
      ["busy", "messages", { id: created.id, customId: "busy-1" }],
    ]);

    const listed = await c.messages.batches.list({ limit: 10 });
    expect(listed.data.map((b) => b.id)).toContain(created.id);
    expect(await c.messages.batches.delete(created.id)).toEqual({ id: created.id, type: "message_batch_deleted" });
    await expect(c.messages.batches.retrieve(created.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("cancel before the batch is due: canceling, then ended with every request canceled", async () => {
    const c = client("/s/msgbatch-slow/c1");
    const created = await c.messages.batches.create({ requests: [{ custom_id: "a", params: params("x") }] });
    expect((await c.messages.batches.retrieve(created.id)).processing_status).toBe("in_progress");
    await expect(c.messages.batches.delete(created.id)).rejects.toMatchObject({ status: 400 });
    const canceling = await c.messages.batches.cancel(created.id);
    expect(canceling.processing_status).toBe("canceling");
    expect(canceling.cancel_initiated_at).toEqual(expect.any(String));
    const ended = await untilEnded(c, created.id);
    expect(ended.request_counts).toEqual({ processing: 0, succeeded: 0, errored: 0, canceled: 1, expired: 0 });
    const results = [];
    for await (const r of await c.messages.batches.results(created.id)) results.push(r);
    expect(results).toEqual([{ custom_id: "a", result: { type: "canceled" } }]);
  });

  it("refuses duplicate custom_ids; another namespace gets the real 404", async () => {
    const c = client();
    await expect(
      c.messages.batches.create({
        requests: [
          { custom_id: "d", params: params("x") },
          { custom_id: "d", params: params("y") },
        ],
      }),
    ).rejects.toMatchObject({ status: 400, error: { type: "error", error: { type: "invalid_request_error" } } });
    const admin = rootAdmin((path, init) => fetch(`${h.url}${path}`, init), h.adminToken);
    const a = client("", await namespaceKey(admin, "mb-a"));
    const b = client("", await namespaceKey(admin, "mb-b"));
    const created = await a.messages.batches.create({ requests: [{ custom_id: "n", params: params("x") }] });
    await expect(b.messages.batches.retrieve(created.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await b.messages.batches.list()).data).toEqual([]);
    expect((await untilEnded(a, created.id)).request_counts.succeeded).toBe(1);
  });
});

describe("anthropic files (beta)", () => {
  it("upload, metadata, list, a document block naming the file, delete", async () => {
    const admin = rootAdmin((path, init) => fetch(`${h.url}${path}`, init), h.adminToken);
    const key = await namespaceKey(admin, "af-a");
    const c = client("", key);
    const up = await c.beta.files.upload({ file: await toFile(Buffer.from("%PDF-1.4 tiny"), "paper.pdf", { type: "application/pdf" }) });
    expect(up).toMatchObject({ type: "file", filename: "paper.pdf", mime_type: "application/pdf", size_bytes: 13, downloadable: false });
    expect(up.id).toMatch(/^file_011C[0-9A-Za-z]{20}$/);
    // The type from the name's extension, own keys only: `.constructor` is no known extension.
    const odd = await c.beta.files.upload({ file: await toFile(Buffer.from("x"), "x.constructor", { type: "application/octet-stream" }) });
    expect(odd.mime_type).toBe("application/octet-stream");
    await c.beta.files.delete(odd.id);
    expect(await c.beta.files.retrieveMetadata(up.id)).toEqual(up);
    expect((await c.beta.files.list()).data.map((f) => f.id)).toEqual([up.id]);
    // OpenAI's client on the same path and namespace sees its own files only.
    expect((await new OpenAI({ apiKey: key, baseURL: `${h.url}/v1`, maxRetries: 0 }).files.list()).data).toEqual([]);

    const doc = (file_id: string) => ({
      model: "claude-sonnet-4-6",
      max_tokens: 50,
      messages: [
        {
          role: "user" as const,
          content: [
            { type: "document" as const, source: { type: "file" as const, file_id } },
            { type: "text" as const, text: "Summarise." },
          ],
        },
      ],
      betas: ["files-api-2025-04-14"],
    });
    const answer = await c.beta.messages.create(doc(up.id));
    expect(answer.content[0]).toMatchObject({ type: "text" });
    await expect(c.beta.messages.create(doc("file_011Cnope"))).rejects.toMatchObject({ status: 404, error: { error: { type: "not_found_error", message: "File not found: file_011Cnope" } } });
    await expect(client("", await namespaceKey(admin, "af-b")).beta.messages.create(doc(up.id))).rejects.toBeInstanceOf(NotFoundError);

    await expect(c.beta.files.download(up.id)).rejects.toMatchObject({ status: 400 });
    expect(await c.beta.files.delete(up.id)).toEqual({ id: up.id, type: "file_deleted" });
    await expect(c.beta.files.retrieveMetadata(up.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("uploads count toward the namespace's file quotas, with OpenAI's", async () => {
    const admin = rootAdmin((path, init) => fetch(`${h.url}${path}`, init), h.adminToken);
    const key = await namespaceKey(admin, "af-q", "admin", { files: 1 });
    const c = client("", key);
    await c.beta.files.upload({ file: await toFile(Buffer.from("a"), "a.txt", { type: "text/plain" }) });
    await expect(c.beta.files.upload({ file: await toFile(Buffer.from("b"), "b.txt", { type: "text/plain" }) })).rejects.toMatchObject({ status: 429 });
    const openai = new OpenAI({ apiKey: key, baseURL: `${h.url}/v1`, maxRetries: 0 });
    await expect(openai.files.create({ file: new File(["c"], "c.txt"), purpose: "user_data" })).rejects.toMatchObject({ status: 429 });
  });
});
