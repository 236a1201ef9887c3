/**
 * The Responses `file_search` tool over vector stores through the official `openai` SDK, on both runtimes: a use the
 * default responder (tool choice forcing it) or a scenario (`serverTools` entry without `results`) decided is searched
 * by the mock in the request's vector stores; `file_search_call` results (with `include`), `file_citation`
 * annotations, the streamed events in order, the 404 for a store the caller's namespace does not hold.
 */
import OpenAI, { NotFoundError, toFile } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { namespaceKey, rootAdmin } from "../support/namespaces";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const client = (path = "", apiKey = "sk-test") => new OpenAI({ apiKey, baseURL: `${h.url}${path}/v1`, maxRetries: 0 });

const CATS = "Cats are small domesticated carnivores. A cat sleeps most of the day and purrs when content.";
const DOGS = "Dogs are loyal companions. A dog barks, fetches sticks and enjoys long walks with its owner.";

const SCRIPTED = {
  name: "fs-scripted",
  steps: [{ id: "search", respond: { serverTools: [{ type: "file_search", query: "dog walks" }], text: "Dogs enjoy walks." } }],
};

async function store(c: OpenAI): Promise<{ vs: string; cats: string; dogs: string }> {
  const cats = (await c.files.create({ file: await toFile(Buffer.from(CATS), "cats.txt"), purpose: "assistants" })).id;
  const dogs = (await c.files.create({ file: await toFile(Buffer.from(DOGS), "dogs.txt"), purpose: "assistants" })).id;
  const vs = (await c.vectorStores.create({ name: "pets" })).id;
  await c.vectorStores.files.createAndPoll(vs, { file_id: cats, attributes: { kind: "cat" } });
  await c.vectorStores.files.createAndPoll(vs, { file_id: dogs });
  return { vs, cats, dogs };
}

const NO_QUERY = { name: "fs-no-query", steps: [{ id: "search", respond: { serverTools: [{ type: "file_search" }], text: "Cats purr." } }] };

beforeAll(async () => {
  h = await startHarness();
  await h.upload(SCRIPTED);
  await h.upload(NO_QUERY);
});
afterAll(() => h?.stop());

describe("responses file_search over vector stores", () => {
  it("the default responder searches the store when the tool choice forces file_search", async () => {
    const c = client();
    const { vs, cats } = await store(c);
    const r = await c.responses.create({
      model: "gpt-4.1",
      input: "Why do cats purr?",
      tools: [{ type: "file_search", vector_store_ids: [vs] }],
      tool_choice: { type: "file_search" },
      include: ["file_search_call.results"],
    });
    const call = r.output[0];
    expect(call).toMatchObject({ type: "file_search_call", status: "completed", queries: ["Why do cats purr?"] });
    if (call?.type !== "file_search_call") throw new Error("no file_search_call");
    expect(call.id).toMatch(/^fs_/);
    expect(call.results?.[0]).toMatchObject({ file_id: cats, filename: "cats.txt", text: CATS, attributes: { kind: "cat" } });
    expect(call.results?.[0]?.score).toBeGreaterThan(0);
    expect(call.results?.map((x) => x.filename)).toEqual(["cats.txt"]);
    const msg = r.output[1];
    if (msg?.type !== "message" || msg.content[0]?.type !== "output_text") throw new Error("no message");
    expect(msg.content[0].annotations).toEqual([{ type: "file_citation", file_id: cats, filename: "cats.txt", index: msg.content[0].text.length }]);

    const bare = await c.responses.create({ model: "gpt-4.1", input: "Why do cats purr?", tools: [{ type: "file_search", vector_store_ids: [vs] }], tool_choice: { type: "file_search" } });
    expect(bare.output[0]).toMatchObject({ type: "file_search_call", results: null });
    const bareMsg = bare.output[1];
    if (bareMsg?.type !== "message" || bareMsg.content[0]?.type !== "output_text") throw new Error("no message");
    expect(bareMsg.content[0].annotations.map((a) => (a.type === "file_citation" ? a.file_id : ""))).toEqual([cats]);
  });

  it("streams the file_search_call events in order, then the citation", async () => {
    const c = client();
    const { vs, cats } = await store(c);
    const stream = await c.responses.create({
      model: "gpt-4.1",
      input: "Why do cats purr?",
      tools: [{ type: "file_search", vector_store_ids: [vs] }],
      tool_choice: { type: "file_search" },
      include: ["file_search_call.results"],
      stream: true,
    });
    const types: string[] = [];
    let done: OpenAI.Responses.Response | undefined;
    let annotation: unknown;
    for await (const e of stream) {
      types.push(e.type);
      if (e.type === "response.output_text.annotation.added") annotation = e.annotation;
      if (e.type === "response.completed") done = e.response;
    }
    const fs = types.filter((t) => t.startsWith("response.file_search_call") || t === "response.output_item.added" || t === "response.output_item.done").slice(0, 5);
    expect(fs).toEqual([
      "response.output_item.added",
      "response.file_search_call.in_progress",
      "response.file_search_call.searching",
      "response.file_search_call.completed",
      "response.output_item.done",
    ]);
    expect(types.indexOf("response.output_text.annotation.added")).toBeGreaterThan(types.lastIndexOf("response.output_text.delta"));
    expect(types.indexOf("response.output_text.annotation.added")).toBeLessThan(types.indexOf("response.output_text.done"));
    expect(annotation).toMatchObject({ type: "file_citation", file_id: cats, filename: "cats.txt" });
    expect(done?.output[0]).toMatchObject({ type: "file_search_call", results: [{ file_id: cats }] });
  });

  it("a scripted file_search entry without results is searched with its query", async () => {
    const c = client("/s/fs-scripted/one");
    const { vs, dogs } = await store(c);
    const r = await c.responses.create({
      model: "gpt-4.1",
      input: "Tell me about dogs",
      tools: [{ type: "file_search", vector_store_ids: [vs], max_num_results: 1 }],
      include: ["file_search_call.results"],
    });
    expect(r.output[0]).toMatchObject({ type: "file_search_call", queries: ["dog walks"], results: [{ file_id: dogs, filename: "dogs.txt", text: DOGS, attributes: {} }] });
    expect(r.output_text).toBe("Dogs enjoy walks.");
    const msg = r.output[1];
    if (msg?.type !== "message" || msg.content[0]?.type !== "output_text") throw new Error("no message");
    expect(msg.content[0].annotations).toEqual([{ type: "file_citation", file_id: dogs, filename: "dogs.txt", index: 17 }]);
  });

  it("a scripted entry without a query searches for the last user message", async () => {
    const c = client("/s/fs-no-query/one");
    const { vs, cats } = await store(c);
    const r = await c.responses.create({ model: "gpt-4.1", input: "Do cats purr?", tools: [{ type: "file_search", vector_store_ids: [vs] }], include: ["file_search_call.results"] });
    expect(r.output[0]).toMatchObject({ type: "file_search_call", queries: ["Do cats purr?"], results: [{ file_id: cats, filename: "cats.txt" }] });
  });

  it("a store of another namespace (or none) is the API's 404", async () => {
    const admin = rootAdmin((path, init) => fetch(`${h.url}${path}`, init), h.adminToken);
    const a = client("", await namespaceKey(admin, "fs-a"));
    const b = client("", await namespaceKey(admin, "fs-b"));
    const { vs } = await store(a);
    const ask = (c: OpenAI) => c.responses.create({ model: "gpt-4.1", input: "cats", tools: [{ type: "file_search", vector_store_ids: [vs] }], tool_choice: { type: "file_search" } });
    expect((await ask(a)).output[0]).toMatchObject({ type: "file_search_call" });
    const err = await ask(b).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as NotFoundError).error).toMatchObject({ message: `No vector store found with id '${vs}'.`, type: "invalid_request_error" });
  });
});
