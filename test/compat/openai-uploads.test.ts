/**
 * OpenAI Uploads through the official `openai` SDK, on both runtimes: a file sent in parts (added out of order,
 * completed in the order named) becomes a Files API file whose bytes are the parts joined, readable at
 * `/v1/files/{id}/content`, usable as a batch's input, deleted with its parts; `md5` checked; cancel; every refusal
 * (unknown upload, bytes that do not add up, a part named twice or of another upload, a part after completion, bad
 * create bodies); namespace isolation and the `fileBytes` quota counting pending parts.
 */
import { createHash } from "node:crypto";
import OpenAI, { NotFoundError, toFile } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { namespaceKey, rootAdmin } from "../support/namespaces";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const client = (apiKey = "sk-test", path = "") => new OpenAI({ apiKey, baseURL: `${h.url}${path}/v1`, maxRetries: 0 });
const part = async (c: OpenAI, uploadId: string, bytes: Uint8Array | string) =>
  c.uploads.parts.create(uploadId, { data: await toFile(typeof bytes === "string" ? Buffer.from(bytes) : bytes, "part") });

beforeAll(async () => {
  h = await startHarness();
  await h.upload({ name: "uploads-batch", steps: [{ id: "x", consume: false, respond: { text: "from an upload" } }] });
});
afterAll(() => h?.stop());

describe("openai uploads", () => {
  it("create → parts → complete makes a file of the parts in the order named", async () => {
    const c = client();
    const bytes = new Uint8Array(300);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7 + 3) & 0xff;
    const up = await c.uploads.create({ bytes: 300, filename: "data.bin", mime_type: "application/octet-stream", purpose: "user_data" });
    expect(up).toEqual({
      id: up.id,
      object: "upload",
      bytes: 300,
      created_at: up.created_at,
      filename: "data.bin",
      purpose: "user_data",
      status: "pending",
      expires_at: up.created_at + 3600,
      file: null,
    });
    expect(up.id).toMatch(/^upload_[0-9a-f]{32}$/);
    // Parts added out of order; the completion names the order.
    const second = await part(c, up.id, bytes.subarray(100, 300));
    const first = await part(c, up.id, bytes.subarray(0, 100));
    expect(first).toEqual({ id: first.id, object: "upload.part", created_at: first.created_at, upload_id: up.id });
    expect(first.id).toMatch(/^part_[0-9a-f]{32}$/);
    const md5 = createHash("md5").update(bytes).digest("hex");
    const done = await c.uploads.complete(up.id, { part_ids: [first.id, second.id], md5 });
    expect(done).toMatchObject({ id: up.id, object: "upload", status: "completed", bytes: 300 });
    const file = done.file!;
    expect(file).toMatchObject({ object: "file", purpose: "user_data", filename: "data.bin", bytes: 300, status: "processed", expires_at: null });
    expect(file.id).toMatch(/^file-[0-9A-Za-z]{22}$/);
    expect(await c.files.retrieve(file.id)).toEqual(file);
    expect([...new Uint8Array(await (await c.files.content(file.id)).arrayBuffer())]).toEqual([...bytes]);
    expect((await c.files.list({ purpose: "user_data" })).data.map((f) => f.id)).toContain(file.id);

    // Completed: no more parts, no second completion, no cancel.
    await expect(part(c, up.id, "x")).rejects.toMatchObject({ status: 400, error: { message: `Cannot add a part to Upload ${up.id}: its status is 'completed'; only a pending Upload can be.` } });
    await expect(c.uploads.complete(up.id, { part_ids: [first.id, second.id] })).rejects.toMatchObject({ status: 400 });
    await expect(c.uploads.cancel(up.id)).rejects.toMatchObject({ status: 400 });

    // Deleting the file takes its parts: its content is gone.
    expect(await c.files.delete(file.id)).toEqual({ id: file.id, object: "file", deleted: true });
    await expect(c.files.content(file.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("a batch reads its input from an uploaded file; expires_after and batch's .jsonl rule apply", async () => {
    const c = client("sk-test", "/s/uploads-batch/u1");
    const line = (id: string) => `${JSON.stringify({ custom_id: id, method: "POST", url: "/v1/chat/completions", body: { model: "gpt-4o", messages: [{ role: "user", content: id }] } })}\n`;
    const text = line("one") + line("two");
    await expect(c.uploads.create({ bytes: text.length, filename: "in.txt", mime_type: "text/plain", purpose: "batch" })).rejects.toMatchObject({
      status: 400,
      error: { message: "Invalid file format for Batch API. Must be .jsonl", param: "filename" },
    });
    const up = await c.uploads.create({ bytes: text.length, filename: "in.jsonl", mime_type: "text/jsonl", purpose: "batch", expires_after: { anchor: "created_at", seconds: 7200 } });
    const a = await part(c, up.id, line("one"));
    const b = await part(c, up.id, line("two"));
    const done = await c.uploads.complete(up.id, { part_ids: [a.id, b.id] });
    expect(done.file!.expires_at).toBe(done.file!.created_at + 7200);
    const batch = await c.batches.create({ input_file_id: done.file!.id, endpoint: "/v1/chat/completions", completion_window: "24h" });
    const finished = await c.batches.retrieve(batch.id);
    expect(finished.status).toBe("completed");
    expect(finished.request_counts).toEqual({ total: 2, completed: 2, failed: 0 });
    const out = (await (await c.files.content(finished.output_file_id!)).text())
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(out.map((l) => [l.custom_id, l.response.body.choices[0].message.content])).toEqual([
      ["one", "from an upload"],
      ["two", "from an upload"],
    ]);
  });

  it("parts left out of the completion are dropped; an empty upload completes with no parts", async () => {
    const c = client();
    const up = await c.uploads.create({ bytes: 3, filename: "a.txt", mime_type: "text/plain", purpose: "assistants" });
    const keep = await part(c, up.id, "abc");
    await part(c, up.id, "unused");
    const done = await c.uploads.complete(up.id, { part_ids: [keep.id] });
    expect(await (await c.files.content(done.file!.id)).text()).toBe("abc");
    const empty = await c.uploads.create({ bytes: 0, filename: "empty.txt", mime_type: "text/plain", purpose: "user_data" });
    const made = await c.uploads.complete(empty.id, { part_ids: [] });
    expect(made.file).toMatchObject({ bytes: 0, filename: "empty.txt" });
    expect(await (await c.files.content(made.file!.id)).text()).toBe("");
  });

  it("cancel drops the parts; a cancelled upload takes nothing more", async () => {
    const c = client();
    const up = await c.uploads.create({ bytes: 2, filename: "c.txt", mime_type: "text/plain", purpose: "user_data" });
    const p = await part(c, up.id, "hi");
    const cancelled = await c.uploads.cancel(up.id);
    expect(cancelled).toMatchObject({ id: up.id, status: "cancelled", file: null });
    await expect(part(c, up.id, "x")).rejects.toMatchObject({ status: 400, error: { message: `Cannot add a part to Upload ${up.id}: its status is 'cancelled'; only a pending Upload can be.` } });
    await expect(c.uploads.complete(up.id, { part_ids: [p.id] })).rejects.toMatchObject({
      status: 400,
      error: { message: `Cannot complete Upload ${up.id}: its status is 'cancelled'; only a pending Upload can be.` },
    });
    await expect(c.uploads.cancel(up.id)).rejects.toMatchObject({ status: 400 });
  });

  it("refuses a completion whose parts do not add up, repeat or belong elsewhere, or whose md5 differs", async () => {
    const c = client();
    const up = await c.uploads.create({ bytes: 5, filename: "r.txt", mime_type: "text/plain", purpose: "user_data" });
    const other = await c.uploads.create({ bytes: 1, filename: "o.txt", mime_type: "text/plain", purpose: "user_data" });
    const p = await part(c, up.id, "abc");
    const q = await part(c, up.id, "de");
    const foreign = await part(c, other.id, "z");
    await expect(c.uploads.complete(up.id, { part_ids: [p.id] })).rejects.toMatchObject({
      status: 400,
      error: {
        param: "part_ids",
        message: `The parts named hold 3 bytes; Upload ${up.id} was created for 5 bytes. The number of bytes uploaded must match the number of bytes the Upload was created with.`,
      },
    });
    await expect(c.uploads.complete(up.id, { part_ids: [p.id, p.id] })).rejects.toMatchObject({ status: 400, error: { message: `Part ${p.id} is named more than once in 'part_ids'.` } });
    await expect(c.uploads.complete(up.id, { part_ids: [p.id, foreign.id] })).rejects.toMatchObject({ status: 400, error: { message: `Part ${foreign.id} is not a part of Upload ${up.id}.` } });
    await expect(c.uploads.complete(up.id, { part_ids: [p.id, q.id], md5: "0".repeat(32) })).rejects.toMatchObject({
      status: 400,
      error: { param: "md5", message: `The md5 of the parts named (${createHash("md5").update("abcde").digest("hex")}) does not match 'md5' (${"0".repeat(32)}).` },
    });
    // Nothing was lost by the refusals: the right completion still works.
    const done = await c.uploads.complete(up.id, { part_ids: [q.id, p.id], md5: createHash("md5").update("deabc").digest("hex").toUpperCase() });
    expect(await (await c.files.content(done.file!.id)).text()).toBe("deabc");
  });

  it("refuses bad create bodies and unknown uploads in OpenAI's shape", async () => {
    const c = client();
    const base = { bytes: 1, filename: "x.txt", mime_type: "text/plain", purpose: "user_data" } as const;
    const refused = async (body: Record<string, unknown>) => c.uploads.create(body as never).catch((e) => ({ status: e.status, ...e.error }));
    expect(await refused({ ...base, bytes: undefined })).toMatchObject({ status: 400, message: "Missing required parameter: 'bytes'.", param: "bytes", code: "missing_required_parameter" });
    expect(await refused({ ...base, bytes: "1" })).toMatchObject({ status: 400, message: "Invalid type for 'bytes': expected an integer, but got a string instead.", code: "invalid_type" });
    expect(await refused({ ...base, bytes: 8 * 1024 ** 3 + 1 })).toMatchObject({ status: 400, param: "bytes", code: "integer_above_max_value" });
    expect(await refused({ ...base, purpose: "nope" })).toMatchObject({ status: 400, param: "purpose", code: "invalid_value" });
    expect(await refused({ ...base, mime_type: undefined })).toMatchObject({ status: 400, message: "Missing required parameter: 'mime_type'." });
    expect(await refused({ ...base, expires_after: { anchor: "created_at", seconds: 60 } })).toMatchObject({ status: 400, param: "expires_after.seconds" });
    await expect(part(c, "upload_nope", "x")).rejects.toMatchObject({ status: 404, error: { message: "No such Upload object: upload_nope" } });
    await expect(c.uploads.complete("upload_nope", { part_ids: [] })).rejects.toBeInstanceOf(NotFoundError);
    await expect(c.uploads.cancel("upload_nope")).rejects.toBeInstanceOf(NotFoundError);
    const up = await c.uploads.create(base);
    await expect(c.uploads.complete(up.id, {} as never)).rejects.toMatchObject({ status: 400, error: { message: "Missing required parameter: 'part_ids'." } });
    await expect(c.uploads.complete(up.id, { part_ids: [1] as never })).rejects.toMatchObject({ status: 400, error: { param: "part_ids[0]", code: "invalid_type" } });
  });

  it("raw requests: a part without data, a GET, and malformed ids get 4xx, never a 500", async () => {
    const auth = { authorization: "Bearer sk-test" };
    const up = await client().uploads.create({ bytes: 1, filename: "x.txt", mime_type: "text/plain", purpose: "user_data" });
    const form = new FormData();
    form.append("other", "x");
    const noData = await fetch(`${h.url}/v1/uploads/${up.id}/parts`, { method: "POST", headers: auth, body: form });
    expect(noData.status).toBe(400);
    expect(((await noData.json()) as any).error).toMatchObject({ message: "Missing required parameter: 'data'.", param: "data" });
    // `curl -F data=…`: a plain field's text is the part.
    const text = new FormData();
    text.append("data", "q");
    const p = await fetch(`${h.url}/v1/uploads/${up.id}/parts`, { method: "POST", headers: auth, body: text });
    expect(p.status).toBe(200);
    const done = await client().uploads.complete(up.id, { part_ids: [((await p.json()) as any).id] });
    expect(await (await client().files.content(done.file!.id)).text()).toBe("q");
    const get = await fetch(`${h.url}/v1/uploads`, { headers: auth });
    expect(get.status).toBe(405);
    expect(((await get.json()) as any).error.message).toBe("Use POST for /v1/uploads.");
    for (const path of ["/v1/uploads/%E0%A4%A/cancel", "/v1/uploads/..%2F..%2Ffiles%2Fx/complete"]) {
      const r = await fetch(`${h.url}${path}`, { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: "{}" });
      expect(r.status, path).toBe(404);
    }
    const noKey = await fetch(`${h.url}/v1/uploads`, { method: "POST", body: "{}" });
    expect(noKey.status).toBe(401);
  });

  it("uploads live in the caller's namespace; pending parts count against fileBytes", async () => {
    const admin = rootAdmin((path, init) => fetch(`${h.url}${path}`, init), h.adminToken);
    const a = client(await namespaceKey(admin, "uploads-a", "admin", { fileBytes: 10 }));
    const b = client(await namespaceKey(admin, "uploads-b"));
    const up = await a.uploads.create({ bytes: 8, filename: "q.bin", mime_type: "application/octet-stream", purpose: "user_data" });
    await expect(part(b, up.id, "x")).rejects.toBeInstanceOf(NotFoundError);
    const p1 = await part(a, up.id, "12345678");
    const refused = await part(a, up.id, "123").catch((e) => e);
    expect(refused).toMatchObject({ status: 429 });
    expect(refused.headers.get("x-mockllm-outcome")).toBe("quota");
    const done = await a.uploads.complete(up.id, { part_ids: [p1.id] });
    // The file now holds those bytes: still counted once, so 2 more fit and 3 do not.
    await expect(a.files.create({ file: await toFile(Buffer.alloc(3), "x.bin"), purpose: "user_data" })).rejects.toMatchObject({ status: 429 });
    await a.files.create({ file: await toFile(Buffer.alloc(2), "x.bin"), purpose: "user_data" });
    expect((await b.files.list()).data).toEqual([]);
    await expect(b.files.content(done.file!.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});
