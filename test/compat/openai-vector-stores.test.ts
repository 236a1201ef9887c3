/**
 * OpenAI vector stores through the official `openai` SDK (contract section 11), on both runtimes: create / list /
 * retrieve / update / delete; files attached with `createAndPoll`, `uploadAndPoll` and `fileBatches.createAndPoll`,
 * their attributes, `filter`ed listing and parsed content; `search` (exact ranking, scores, attribute filters,
 * `max_num_results`); the async clock (`async.processingMs`) and cancelling a batch; the real errors; namespace
 * isolation.
 */
import OpenAI, { BadRequestError, NotFoundError, toFile } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { namespaceKey, rootAdmin } from "../support/namespaces";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const SLOW = { name: "vs-slow", async: { processingMs: 60_000 }, steps: [{ id: "x", consume: false, respond: { text: "late" } }] };

const client = (path = "", apiKey = "sk-test") => new OpenAI({ apiKey, baseURL: `${h.url}${path}/v1`, maxRetries: 0 });

const DOCS = {
  "cats.txt": "Cats are small domesticated carnivores. A cat sleeps most of the day and purrs when content.",
  "dogs.txt": "Dogs are loyal companions. A dog barks, fetches sticks and enjoys long walks with its owner.",
  "birds.txt": "Birds have feathers and most birds can fly. Parrots can mimic speech; a cat may chase birds.",
};

async function upload(c: OpenAI, name: keyof typeof DOCS): Promise<string> {
  return (await c.files.create({ file: await toFile(Buffer.from(DOCS[name]), name), purpose: "assistants" })).id;
}

beforeAll(async () => {
  h = await startHarness();
  await h.upload(SLOW);
});
afterAll(() => h?.stop());

describe("openai vector stores", () => {
  it("create, retrieve, update, list, delete", async () => {
    const c = client();
    const cats = await upload(c, "cats.txt");
    const vs = await c.vectorStores.create({ name: "pets", file_ids: [cats], metadata: { team: "a" }, expires_after: { anchor: "last_active_at", days: 7 } });
    expect(vs).toMatchObject({
      object: "vector_store",
      name: "pets",
      metadata: { team: "a" },
      status: "completed",
      usage_bytes: DOCS["cats.txt"].length,
      file_counts: { in_progress: 0, completed: 1, failed: 0, cancelled: 0, total: 1 },
      expires_after: { anchor: "last_active_at", days: 7 },
    });
    expect(vs.id).toMatch(/^vs_[0-9a-f]{32}$/);
    expect(vs.expires_at).toBe(vs.last_active_at! + 7 * 86_400);
    expect(await c.vectorStores.retrieve(vs.id)).toMatchObject({ id: vs.id, name: "pets" });
    const renamed = await c.vectorStores.update(vs.id, { name: "animals", metadata: { team: "b" } });
    expect(renamed).toMatchObject({ id: vs.id, name: "animals", metadata: { team: "b" } });

    const other = await c.vectorStores.create({ name: "second" });
    expect(other.file_counts.total).toBe(0);
    const page = await c.vectorStores.list({ limit: 1 });
    expect(page.data.map((s) => s.id)).toEqual([other.id]);
    expect(page.has_more).toBe(true);
    const asc = await c.vectorStores.list({ order: "asc", after: vs.id, limit: 100 });
    expect(asc.data[0]?.id).toBe(other.id);

    expect(await c.vectorStores.delete(other.id)).toEqual({ id: other.id, object: "vector_store.deleted", deleted: true });
    await expect(c.vectorStores.retrieve(other.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("files: createAndPoll with attributes, uploadAndPoll, list with filter, content, update, delete", async () => {
    const c = client();
    const vs = await c.vectorStores.create({ name: "files", chunking_strategy: { type: "static", static: { max_chunk_size_tokens: 100, chunk_overlap_tokens: 0 } } });
    const cats = await upload(c, "cats.txt");
    const f = await c.vectorStores.files.createAndPoll(vs.id, { file_id: cats, attributes: { kind: "feline", legs: 4 } });
    expect(f).toMatchObject({
      id: cats,
      object: "vector_store.file",
      vector_store_id: vs.id,
      status: "completed",
      last_error: null,
      attributes: { kind: "feline", legs: 4 },
      chunking_strategy: { type: "static", static: { max_chunk_size_tokens: 100, chunk_overlap_tokens: 0 } },
    });
    const up = await c.vectorStores.files.uploadAndPoll(vs.id, await toFile(Buffer.from(DOCS["dogs.txt"]), "dogs.txt"));
    expect(up.status).toBe("completed");

    const listed = await c.vectorStores.files.list(vs.id, { filter: "completed", order: "asc" });
    expect(listed.data.map((x) => x.id)).toEqual([cats, up.id]);
    expect((await c.vectorStores.files.list(vs.id, { filter: "in_progress" })).data).toEqual([]);

    const content = await c.vectorStores.files.content(cats, { vector_store_id: vs.id });
    expect(content.data).toEqual([{ type: "text", text: DOCS["cats.txt"] }]);

    const updated = await c.vectorStores.files.update(cats, { vector_store_id: vs.id, attributes: { kind: "cat" } });
    expect(updated.attributes).toEqual({ kind: "cat" });
    expect((await c.vectorStores.files.retrieve(cats, { vector_store_id: vs.id })).attributes).toEqual({ kind: "cat" });

    expect(await c.vectorStores.files.delete(cats, { vector_store_id: vs.id })).toEqual({ id: cats, object: "vector_store.file.deleted", deleted: true });
    await expect(c.vectorStores.files.retrieve(cats, { vector_store_id: vs.id })).rejects.toBeInstanceOf(NotFoundError);
    expect((await c.vectorStores.retrieve(vs.id)).file_counts.total).toBe(1);
  });

  it("an unknown file id is the real 400; an unknown store the real 404", async () => {
    const c = client();
    const vs = await c.vectorStores.create({ name: "errors" });
    const err = await c.vectorStores.files.create(vs.id, { file_id: "file-nope" }).catch((e) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect(err.error).toMatchObject({ message: "File file-nope not found", param: "file_id" });
    await expect(c.vectorStores.create({ file_ids: ["file-nope"] })).rejects.toBeInstanceOf(BadRequestError);
    const badIds = await c.vectorStores.create({ file_ids: ["file-a", 7 as never] }).catch((e) => e);
    expect(badIds).toBeInstanceOf(BadRequestError);
    expect(badIds.error).toEqual({
      message: "Invalid type for 'file_ids[1]': expected a string, but got an integer instead.",
      type: "invalid_request_error",
      param: "file_ids[1]",
      code: "invalid_type",
    });
    const missing = await c.vectorStores.retrieve("vs_missing").catch((e) => e);
    expect(missing).toBeInstanceOf(NotFoundError);
    expect(missing.error.message).toBe("No vector store found with id 'vs_missing'.");
    const noFile = await c.vectorStores.files.retrieve("file-nope", { vector_store_id: vs.id }).catch((e) => e);
    expect(noFile).toBeInstanceOf(NotFoundError);
    expect(noFile.error.message).toBe(`No file found with id 'file-nope' in vector store '${vs.id}'.`);
    await expect(c.vectorStores.search(vs.id, { query: "x", max_num_results: 51 })).rejects.toBeInstanceOf(BadRequestError);
    const badFilter = await c.vectorStores.search(vs.id, { query: "x", filters: { type: "like", key: "k", value: 1 } as never }).catch((e) => e);
    expect(badFilter).toBeInstanceOf(BadRequestError);
    expect(badFilter.error.param).toBe("filters");
    await expect(c.vectorStores.create({ chunking_strategy: { type: "static", static: { max_chunk_size_tokens: 50, chunk_overlap_tokens: 0 } } })).rejects.toBeInstanceOf(BadRequestError);
  });

  it("file batches: createAndPoll with files and attributes, listFiles", async () => {
    const c = client();
    const vs = await c.vectorStores.create({ name: "batch" });
    const ids = [await upload(c, "cats.txt"), await upload(c, "dogs.txt")];
    const b = await c.vectorStores.fileBatches.createAndPoll(vs.id, {
      files: [
        { file_id: ids[0]!, attributes: { n: 1 } },
        { file_id: ids[1]!, attributes: { n: 2 } },
      ],
    });
    expect(b).toMatchObject({ object: "vector_store.files_batch", vector_store_id: vs.id, status: "completed", file_counts: { completed: 2, total: 2, in_progress: 0 } });
    expect(b.id).toMatch(/^vsfb_[0-9a-f]{32}$/);
    const files = await c.vectorStores.fileBatches.listFiles(b.id, { vector_store_id: vs.id, order: "asc" });
    expect(files.data.map((f) => [f.id, f.attributes])).toEqual([
      [ids[0], { n: 1 }],
      [ids[1], { n: 2 }],
    ]);
    const again = await c.vectorStores.fileBatches.createAndPoll(vs.id, { file_ids: [await upload(c, "birds.txt")] });
    expect(again.status).toBe("completed");
    expect((await c.vectorStores.retrieve(vs.id)).file_counts.total).toBe(3);
  });

  it("search: exact ranking, scores in (0, 1], filters, max_num_results, query arrays", async () => {
    const c = client();
    const vs = await c.vectorStores.create({ name: "search" });
    const ids: Record<string, string> = {};
    for (const name of Object.keys(DOCS) as (keyof typeof DOCS)[]) ids[name] = await upload(c, name);
    await c.vectorStores.fileBatches.createAndPoll(vs.id, {
      files: [
        { file_id: ids["cats.txt"]!, attributes: { kind: "mammal", legs: 4 } },
        { file_id: ids["dogs.txt"]!, attributes: { kind: "mammal", legs: 4 } },
        { file_id: ids["birds.txt"]!, attributes: { kind: "bird", legs: 2 } },
      ],
    });
    const page = await c.vectorStores.search(vs.id, { query: "cat" });
    expect(page.data.map((r) => r.filename)).toEqual(["cats.txt", "birds.txt"]);
    expect(page.data[0]).toMatchObject({ file_id: ids["cats.txt"], attributes: { kind: "mammal", legs: 4 }, content: [{ type: "text", text: DOCS["cats.txt"] }] });
    for (const r of page.data) expect(r.score > 0 && r.score <= 1).toBe(true);
    expect(page.data[0]!.score).toBeGreaterThan(page.data[1]!.score);

    const raw: any = await (
      await fetch(`${h.url}/v1/vector_stores/${vs.id}/search`, {
        method: "POST",
        headers: { authorization: "Bearer sk-test", "content-type": "application/json" },
        body: JSON.stringify({ query: ["dog", "walks"], rewrite_query: true }),
      })
    ).json();
    expect(raw).toMatchObject({ object: "vector_store.search_results.page", search_query: ["dog", "walks"], has_more: false, next_page: null });
    expect(raw.data.map((r: { filename: string }) => r.filename)).toEqual(["dogs.txt"]);

    const birdsOnly = await c.vectorStores.search(vs.id, { query: "cat", filters: { type: "eq", key: "kind", value: "bird" } });
    expect(birdsOnly.data.map((r) => r.filename)).toEqual(["birds.txt"]);
    const compound = await c.vectorStores.search(vs.id, {
      query: "cat dog birds",
      filters: {
        type: "and",
        filters: [
          { type: "gte", key: "legs", value: 4 },
          { type: "in", key: "kind", value: ["mammal"] },
        ],
      },
    });
    expect(compound.data.map((r) => r.filename).sort()).toEqual(["cats.txt", "dogs.txt"]);
    const one = await c.vectorStores.search(vs.id, { query: "cat", max_num_results: 1 });
    expect(one.data.map((r) => r.filename)).toEqual(["cats.txt"]);
    expect((await c.vectorStores.search(vs.id, { query: "zebra" })).data).toEqual([]);
  });

  it("runs on the async clock: in_progress until due, a batch cancels, a pending file is not searched", async () => {
    const c = client("/s/vs-slow");
    const vs = await c.vectorStores.create({ name: "slow" });
    const f = await c.vectorStores.files.create(vs.id, { file_id: await upload(c, "cats.txt") });
    expect(f.status).toBe("in_progress");
    const s = await c.vectorStores.retrieve(vs.id);
    expect(s).toMatchObject({ status: "in_progress", usage_bytes: 0, file_counts: { in_progress: 1, completed: 0, total: 1 } });
    expect((await c.vectorStores.search(vs.id, { query: "cat" })).data).toEqual([]);
    const b = await c.vectorStores.fileBatches.create(vs.id, { file_ids: [await upload(c, "dogs.txt")] });
    expect(b.status).toBe("in_progress");
    const cancelled = await c.vectorStores.fileBatches.cancel(b.id, { vector_store_id: vs.id });
    expect(cancelled).toMatchObject({ status: "cancelled", file_counts: { cancelled: 1, in_progress: 0, total: 1 } });
    expect((await c.vectorStores.fileBatches.retrieve(b.id, { vector_store_id: vs.id })).status).toBe("cancelled");
  });

  it("is per namespace: another key's vector store is a 404 and its files are not attachable", async () => {
    const admin = rootAdmin((path, init) => fetch(`${h.url}${path}`, init), h.adminToken);
    const a = client("", await namespaceKey(admin, "vs-a"));
    const b = client("", await namespaceKey(admin, "vs-b"));
    const file = await upload(a, "cats.txt");
    const vs = await a.vectorStores.create({ name: "mine", file_ids: [file] });
    await expect(b.vectorStores.retrieve(vs.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(b.vectorStores.search(vs.id, { query: "cat" })).rejects.toBeInstanceOf(NotFoundError);
    const theirs = await b.vectorStores.create({ name: "theirs" });
    await expect(b.vectorStores.files.create(theirs.id, { file_id: file })).rejects.toBeInstanceOf(BadRequestError);
    expect((await b.vectorStores.list()).data.map((s) => s.id)).toEqual([theirs.id]);
  });
});
