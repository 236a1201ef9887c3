/**
 * OpenAI containers through the official `openai` SDK, on both runtimes: create (name, memory limit, expiry, files
 * copied in), retrieve, list (order, name, cursor), delete; container files uploaded or copied from the Files API,
 * listed, read back byte for byte, deleted; Code Interpreter runs scripted in a named container or an `auto` one,
 * the files its code wrote kept there and cited on the text (`container_file_citation`, JSON and stream) so the
 * client downloads them; refusals in OpenAI's shape; namespace isolation.
 */
import OpenAI, { NotFoundError, toFile } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { namespaceKey, rootAdmin } from "../support/namespaces";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const CHART = "month,sales\njan,3\nfeb,5\n";
const TEXT = "Here is [the data](sandbox:/mnt/data/sales.csv).";

const client = (path = "", apiKey = "sk-test") => new OpenAI({ apiKey, baseURL: `${h.url}${path}/v1`, maxRetries: 0 });

beforeAll(async () => {
  h = await startHarness();
  await h.upload({
    name: "ci-files",
    steps: [
      {
        id: "run",
        consume: false,
        match: { serverTool: "code_execution" },
        respond: { serverTools: [{ type: "code_execution", code: "df.to_csv('sales.csv')", output: "", files: [{ name: "sales.csv", content: CHART }] }], text: TEXT },
      },
    ],
  });
  await h.upload({ name: "ci-plain", steps: [{ id: "text", consume: false, respond: { text: "no code" } }] });
});
afterAll(() => h?.stop());

describe("containers", () => {
  it("create, retrieve, list (order, name, cursor), delete", async () => {
    const c = client();
    const a = await c.containers.create({ name: "alpha", memory_limit: "4g", expires_after: { anchor: "last_active_at", minutes: 30 } });
    expect(a).toEqual({
      id: a.id,
      object: "container",
      created_at: a.created_at,
      status: "running",
      expires_after: { anchor: "last_active_at", minutes: 30 },
      last_active_at: a.created_at,
      memory_limit: "4g",
      name: "alpha",
    });
    expect(a.id).toMatch(/^cntr_[0-9a-f]{48}$/);
    const b = await c.containers.create({ name: "beta", network_policy: { type: "disabled" } });
    expect(b).toMatchObject({ expires_after: { anchor: "last_active_at", minutes: 20 }, memory_limit: "1g", network_policy: { type: "disabled" } });
    expect(await c.containers.retrieve(a.id)).toEqual(a);
    const ids = (await c.containers.list()).data.map((x) => x.id);
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id)); // newest first
    expect((await c.containers.list({ name: "alpha" })).data.map((x) => x.id)).toEqual([a.id]);
    const first = await c.containers.list({ order: "asc", limit: 1 });
    expect(first.data).toHaveLength(1);
    expect(first.has_more).toBe(true);
    const deleted = await c.containers.delete(b.id).asResponse();
    expect(await deleted.json()).toEqual({ id: b.id, object: "container.deleted", deleted: true });
    await expect(c.containers.retrieve(b.id)).rejects.toMatchObject({ status: 404, error: { message: `No such Container: ${b.id}` } });
  });

  it("files: uploaded and copied from the Files API, listed, read back exactly, deleted", async () => {
    const c = client();
    const box = await c.containers.create({ name: "files" });
    const bytes = new Uint8Array([0, 1, 2, 255, 10]);
    const up = await c.containers.files.create(box.id, { file: await toFile(bytes, "raw.bin") });
    expect(up).toEqual({ id: up.id, object: "container.file", created_at: up.created_at, bytes: 5, container_id: box.id, path: up.path, source: "user" });
    expect(up.id).toMatch(/^cfile_[0-9a-f]{32}$/);
    expect(up.path).toMatch(/^\/mnt\/data\/[0-9a-f]{32}-raw\.bin$/);
    const f = await c.files.create({ file: await toFile(Buffer.from("from files"), "notes.txt"), purpose: "user_data" });
    const copied = await c.containers.files.create(box.id, { file_id: f.id });
    expect(copied).toMatchObject({ bytes: 10, container_id: box.id, source: "user" });
    expect(copied.path).toMatch(/-notes\.txt$/);
    expect((await c.containers.files.list(box.id)).data.map((x) => x.id)).toEqual([copied.id, up.id]);
    expect(await c.containers.files.retrieve(up.id, { container_id: box.id })).toEqual(up);
    const content = await c.containers.files.content.retrieve(up.id, { container_id: box.id });
    expect([...new Uint8Array(await content.arrayBuffer())]).toEqual([0, 1, 2, 255, 10]);
    expect(await (await c.containers.files.content.retrieve(copied.id, { container_id: box.id })).text()).toBe("from files");
    const gone = await c.containers.files.delete(up.id, { container_id: box.id }).asResponse();
    expect(await gone.json()).toEqual({ id: up.id, object: "container.file.deleted", deleted: true });
    await expect(c.containers.files.retrieve(up.id, { container_id: box.id })).rejects.toMatchObject({ status: 404, error: { message: `No such Container File: ${up.id}` } });
    // Deleting the container takes its files.
    await c.containers.delete(box.id);
    await expect(c.containers.files.list(box.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("create copies file_ids in; an unknown id is the 404 and leaves no container", async () => {
    const c = client();
    const f = await c.files.create({ file: await toFile(Buffer.from("abc"), "in.txt"), purpose: "user_data" });
    const box = await c.containers.create({ name: "seeded", file_ids: [f.id] });
    const files = (await c.containers.files.list(box.id)).data;
    expect(files.map((x) => [x.bytes, x.source])).toEqual([[3, "user"]]);
    const before = (await c.containers.list({ limit: 100 })).data.length;
    await expect(c.containers.create({ name: "bad", file_ids: ["file-nope"] })).rejects.toMatchObject({ status: 404, error: { message: "No such File object: file-nope", param: "file_ids" } });
    expect((await c.containers.list({ limit: 100 })).data.length).toBe(before);
  });

  it("refuses bad bodies and unknown ids in OpenAI's shape", async () => {
    const c = client();
    const refused = (p: Promise<unknown>) => p.catch((e) => ({ status: e.status, ...e.error }));
    expect(await refused(c.containers.create({} as never))).toMatchObject({ status: 400, message: "Missing required parameter: 'name'.", param: "name" });
    expect(await refused(c.containers.create({ name: "x", memory_limit: "2g" as never }))).toMatchObject({ status: 400, param: "memory_limit", code: "invalid_value" });
    expect(await refused(c.containers.create({ name: "x", expires_after: { anchor: "created_at" as never, minutes: 5 } }))).toMatchObject({ status: 400, param: "expires_after.anchor" });
    expect(await refused(c.containers.create({ name: "x", expires_after: { anchor: "last_active_at", minutes: 0 } }))).toMatchObject({ status: 400, code: "integer_below_min_value" });
    expect(await refused(c.containers.retrieve("cntr_nope"))).toMatchObject({ status: 404, message: "No such Container: cntr_nope" });
    const box = await c.containers.create({ name: "x" });
    expect(await refused(c.containers.files.create(box.id, {}))).toMatchObject({ status: 400, param: "file_id" });
    expect(await refused(c.containers.files.create(box.id, { file_id: "file-nope" }))).toMatchObject({ status: 404, param: "file_id" });
    const auth = { authorization: "Bearer sk-test" };
    const put = await fetch(`${h.url}/v1/containers/${box.id}`, { method: "PUT", headers: auth });
    expect(put.status).toBe(405);
    expect(((await put.json()) as any).error.message).toMatch(/^Use GET or DELETE for \/v1\/containers\/cntr_/);
    for (const path of ["/v1/containers/%E0%A4%A", `/v1/containers/${box.id}/files/%E0%A4%A/content`]) {
      const r = await fetch(`${h.url}${path}`, { headers: auth });
      expect(r.status, path).toBe(404);
    }
  });

  it("containers live in the caller's namespace", async () => {
    const admin = rootAdmin((path, init) => fetch(`${h.url}${path}`, init), h.adminToken);
    const a = client("", await namespaceKey(admin, "containers-a"));
    const b = client("", await namespaceKey(admin, "containers-b"));
    const box = await a.containers.create({ name: "mine" });
    await expect(b.containers.retrieve(box.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await b.containers.list()).data).toEqual([]);
  });

  it("container files count against the namespace's fileBytes; a refused copy leaves no container", async () => {
    const admin = rootAdmin((path, init) => fetch(`${h.url}${path}`, init), h.adminToken);
    const q = client("", await namespaceKey(admin, "containers-q", "admin", { fileBytes: 10 }));
    const f = await q.files.create({ file: await toFile(Buffer.alloc(4), "four.bin"), purpose: "user_data" });
    const box = await q.containers.create({ name: "q", file_ids: [f.id] }); // 4 + 4 bytes
    const refused = await q.containers.files.create(box.id, { file: await toFile(Buffer.alloc(3), "three.bin") }).catch((e) => e);
    expect(refused).toMatchObject({ status: 429 });
    expect(refused.headers.get("x-mockllm-outcome")).toBe("quota");
    await expect(q.containers.create({ name: "over", file_ids: [f.id] })).rejects.toMatchObject({ status: 429 });
    expect((await q.containers.list()).data.map((x) => x.name)).toEqual(["q"]);
    await q.containers.files.create(box.id, { file: await toFile(Buffer.alloc(2), "two.bin") });
  });
});

describe("Code Interpreter in a container", () => {
  it("a named container: the call runs there, the written file is cited and downloadable", async () => {
    const c = client("/s/ci-files/named");
    const box = await c.containers.create({ name: "analysis" });
    const r = await c.responses.create({ model: "gpt-5", input: "chart it", tools: [{ type: "code_interpreter", container: box.id }] });
    expect(r.output[0]).toMatchObject({ type: "code_interpreter_call", container_id: box.id, code: "df.to_csv('sales.csv')" });
    const message = r.output[1]!;
    const part = message.type === "message" ? message.content[0] : undefined;
    const start = TEXT.indexOf("sandbox:");
    const annotations = part?.type === "output_text" ? part.annotations : [];
    expect(annotations).toEqual([
      {
        type: "container_file_citation",
        container_id: box.id,
        end_index: start + "sandbox:/mnt/data/sales.csv".length,
        file_id: expect.stringMatching(/^cfile_[0-9a-f]{32}$/),
        filename: "sales.csv",
        start_index: start,
      },
    ]);
    const cite = annotations[0] as { file_id: string };
    const listed = (await c.containers.files.list(box.id)).data;
    expect(listed).toEqual([
      { id: cite.file_id, object: "container.file", created_at: listed[0]!.created_at, bytes: CHART.length, container_id: box.id, path: "/mnt/data/sales.csv", source: "assistant" },
    ]);
    expect(await (await c.containers.files.content.retrieve(cite.file_id, { container_id: box.id })).text()).toBe(CHART);

    // Streamed: the citation arrives as its own annotation event after the text.
    const stream = c.responses.stream({ model: "gpt-5", input: "again", tools: [{ type: "code_interpreter", container: box.id }] });
    const added: unknown[] = [];
    for await (const e of stream) if (e.type === "response.output_text.annotation.added") added.push(e.annotation);
    expect(added).toEqual([expect.objectContaining({ type: "container_file_citation", container_id: box.id, filename: "sales.csv", start_index: start })]);
  });

  it("an auto container is made with the files asked for and the file the code wrote", async () => {
    const c = client("/s/ci-files/auto");
    const f = await c.files.create({ file: await toFile(Buffer.from("raw"), "raw.csv"), purpose: "user_data" });
    const r = await c.responses.create({ model: "gpt-5", input: "chart it", tools: [{ type: "code_interpreter", container: { type: "auto", file_ids: [f.id], memory_limit: "4g" } }] });
    const call = r.output[0] as { container_id: string };
    const box = await c.containers.retrieve(call.container_id);
    expect(box).toMatchObject({ id: call.container_id, status: "running", memory_limit: "4g" });
    const files = (await c.containers.files.list(box.id, { order: "asc" })).data;
    expect(files.map((x) => [x.source, x.bytes])).toEqual([
      ["user", 3],
      ["assistant", CHART.length],
    ]);
  });

  it("an unknown container or a tool without one is refused", async () => {
    const c = client("/s/ci-files/bad");
    await expect(c.responses.create({ model: "gpt-5", input: "x", tools: [{ type: "code_interpreter", container: "cntr_nope" }] })).rejects.toMatchObject({
      status: 404,
      error: { message: "No such Container: cntr_nope", param: "tools[0].container" },
    });
    await expect(c.responses.create({ model: "gpt-5", input: "x", tools: [{ type: "code_interpreter" } as never] })).rejects.toMatchObject({
      status: 400,
      error: { message: "Missing required parameter: 'tools[0].container'." },
    });
    // Refused on any request, whether or not the answer runs code.
    const plain = client("/s/ci-plain/p");
    await expect(
      plain.responses.create({ model: "gpt-5", input: "x", tools: [{ type: "function", name: "f", parameters: {}, strict: false }, { type: "code_interpreter" } as never] }),
    ).rejects.toMatchObject({
      status: 400,
      error: { message: "Missing required parameter: 'tools[1].container'.", param: "tools[1].container", code: "missing_required_parameter" },
    });
    expect((await plain.responses.create({ model: "gpt-5", input: "x", tools: [{ type: "code_interpreter", container: { type: "auto" } }] })).output_text).toBe("no code");
  });
});
