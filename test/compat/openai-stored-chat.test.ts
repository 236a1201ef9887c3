/**
 * Stored Chat Completions through the official `openai` SDK: `store: true` keeps a completion (JSON and streamed),
 * `store: false`/absent ones are not listed; list (filters `model`, `metadata`, pagination, order), retrieve, update
 * the metadata, the request's messages, delete; another namespace's key gets the 404. Both runtimes.
 */
import OpenAI, { NotFoundError } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { namespaceKey } from "../support/namespaces";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const client = (path = "") => new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}${path}/v1`, maxRetries: 0 });

beforeAll(async () => {
  h = await startHarness();
  await h.upload({ name: "stored-chat", steps: [{ consume: false, respond: { text: "Stored answer." } }] });
});
afterAll(() => h?.stop());

describe("stored chat completions", () => {
  it("keeps store: true completions with their messages and metadata; lists, filters, updates and deletes them", async () => {
    const c = client("/s/stored-chat/run");
    const kept = await c.chat.completions.create({
      model: "gpt-4o-mini",
      store: true,
      metadata: { run: "a" },
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "First?" },
      ],
    });
    await c.chat.completions.create({ model: "gpt-4o-mini", messages: [{ role: "user", content: "not kept" }] });
    await c.chat.completions.create({ model: "gpt-4o-mini", store: false, messages: [{ role: "user", content: "not kept" }] });
    const stream = await c.chat.completions.create({ model: "gpt-4.1", store: true, metadata: { run: "b" }, stream: true, messages: [{ role: "user", content: "Second?" }] });
    let streamedId = "";
    for await (const chunk of stream) streamedId = chunk.id;

    const listed = await c.chat.completions.list();
    expect(listed.data.map((x) => x.id)).toEqual([kept.id, streamedId]);
    expect(listed.data[0]).toMatchObject({ id: kept.id, object: "chat.completion", model: kept.model, metadata: { run: "a" }, choices: kept.choices, usage: kept.usage });
    expect((await c.chat.completions.list({ order: "desc" })).data.map((x) => x.id)).toEqual([streamedId, kept.id]);
    expect((await c.chat.completions.list({ model: "gpt-4.1" })).data.map((x) => x.id)).toEqual([streamedId]);
    expect((await c.chat.completions.list({ metadata: { run: "a" } })).data.map((x) => x.id)).toEqual([kept.id]);
    const firstPage = await c.chat.completions.list({ limit: 1 });
    expect(firstPage.data.map((x) => x.id)).toEqual([kept.id]);
    expect(firstPage.has_more).toBe(true);
    expect((await c.chat.completions.list({ limit: 1, after: kept.id })).data.map((x) => x.id)).toEqual([streamedId]);

    const got = await c.chat.completions.retrieve(kept.id);
    expect(got.choices[0]!.message.content).toBe("Stored answer.");
    expect(got.metadata).toEqual({ run: "a" });

    const messages = await c.chat.completions.messages.list(kept.id);
    expect(messages.data).toEqual([
      { id: `${kept.id}-0`, role: "system", content: "Be brief.", name: null, content_parts: null },
      { id: `${kept.id}-1`, role: "user", content: "First?", name: null, content_parts: null },
    ]);
    expect((await c.chat.completions.messages.list(kept.id, { order: "desc", limit: 1 })).data.map((m) => m.id)).toEqual([`${kept.id}-1`]);

    const updated = await c.chat.completions.update(kept.id, { metadata: { run: "a2" } });
    expect(updated.metadata).toEqual({ run: "a2" });
    expect((await c.chat.completions.retrieve(kept.id)).metadata).toEqual({ run: "a2" });

    expect(await c.chat.completions.delete(kept.id)).toEqual({ id: kept.id, object: "chat.completion.deleted", deleted: true });
    await expect(c.chat.completions.retrieve(kept.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(c.chat.completions.messages.list(kept.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await c.chat.completions.list()).data.map((x) => x.id)).toEqual([streamedId]);
  });

  it("answers an unknown id with the 404 and keeps namespaces apart", async () => {
    const res = await fetch(`${h.url}/v1/chat/completions/chatcmpl-unknown`, { headers: { authorization: "Bearer sk" } });
    expect(res.status).toBe(404);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe("Chat completion with id 'chatcmpl-unknown' not found.");
    const bad = async (query: string) => {
      const r = await fetch(`${h.url}/v1/chat/completions?${query}`, { headers: { authorization: "Bearer sk" } });
      return [r.status, ((await r.json()) as { error: { message: string; param: string } }).error];
    };
    expect(await bad("limit=0")).toEqual([400, expect.objectContaining({ message: "Invalid 'limit': integer below minimum value. Expected a value >= 1, but got 0 instead.", param: "limit" })]);
    expect(await bad("limit=101")).toEqual([400, expect.objectContaining({ message: "Invalid 'limit': integer above maximum value. Expected a value <= 100, but got 101 instead.", param: "limit" })]);
    expect(await bad("order=up")).toEqual([400, expect.objectContaining({ message: "Invalid value: 'up'. Supported values are: 'asc' and 'desc'.", param: "order" })]);
    const mine = await client().chat.completions.create({ model: "gpt-4o-mini", store: true, messages: [{ role: "user", content: "mine" }] });
    const key = await namespaceKey(h.admin, "chat-team", "run");
    const other = new OpenAI({ apiKey: key, baseURL: `${h.url}/v1`, maxRetries: 0 });
    await expect(other.chat.completions.retrieve(mine.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await other.chat.completions.list()).data).toEqual([]);
  });
});
