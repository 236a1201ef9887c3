/**
 * Conversations through the official `openai` SDK: CRUD, items (create, list with pagination and order, retrieve,
 * delete), `conversation` on `/v1/responses` (the matchers see the earlier turn; the turn's input and output are
 * appended), the real errors, and namespaces keeping conversations apart. Both runtimes.
 */
import OpenAI, { BadRequestError, NotFoundError } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { namespaceKey } from "../support/namespaces";
import { openResponsesWS, responsesTurn } from "../support/responses-ws";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const SCENARIOS = [
  {
    name: "conv-chat",
    steps: [
      { id: "one", match: { turn: 1, lastUserMessage: "My name is Ada." }, respond: { text: "Hello Ada." } },
      { id: "two", match: { turn: 2, assistantMessage: "Hello Ada.", lastUserMessage: "What is my name?" }, respond: { text: "Your name is Ada." } },
    ],
  },
];

const client = (path = "") => new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}${path}/v1`, maxRetries: 0 });

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

describe("conversations CRUD", () => {
  it("creates with items and metadata, retrieves, updates and deletes", async () => {
    const c = client();
    const conv = await c.conversations.create({ items: [{ type: "message", role: "user", content: "Hi there" }], metadata: { topic: "demo" } });
    expect(conv.id).toMatch(/^conv_[0-9a-f]{48}$/);
    expect(conv.object).toBe("conversation");
    expect(conv.metadata).toEqual({ topic: "demo" });
    expect(typeof conv.created_at).toBe("number");

    expect(await c.conversations.retrieve(conv.id)).toEqual(conv);
    const updated = await c.conversations.update(conv.id, { metadata: { topic: "changed" } });
    expect(updated).toEqual({ ...conv, metadata: { topic: "changed" } });

    const items = await c.conversations.items.list(conv.id);
    expect(items.data.map((i) => i.type)).toEqual(["message"]);
    const first = items.data[0] as OpenAI.Conversations.Message;
    expect(first).toMatchObject({ type: "message", role: "user", status: "completed", content: [{ type: "input_text", text: "Hi there" }] });
    expect(first.id).toMatch(/^msg_[0-9a-f]{48}$/);

    expect(await c.conversations.delete(conv.id)).toEqual({ id: conv.id, object: "conversation.deleted", deleted: true });
    await expect(c.conversations.retrieve(conv.id)).rejects.toBeInstanceOf(NotFoundError);
  });

  it("adds, lists (paginated, both orders), retrieves and deletes items", async () => {
    const c = client();
    const conv = await c.conversations.create({});
    const added = await c.conversations.items.create(conv.id, {
      items: ["a", "b", "c"].map((text) => ({ type: "message" as const, role: "user" as const, content: text })),
    });
    expect(added.object).toBe("list");
    expect(added.data).toHaveLength(3);
    expect(added.first_id).toBe(added.data[0]!.id);
    expect(added.last_id).toBe(added.data[2]!.id);
    expect(added.has_more).toBe(false);
    const ids = added.data.map((i) => i.id);

    const desc = await c.conversations.items.list(conv.id, { limit: 2 });
    expect(desc.data.map((i) => i.id)).toEqual([ids[2], ids[1]]);
    expect(desc.has_more).toBe(true);
    const rest = await c.conversations.items.list(conv.id, { limit: 2, after: ids[1] });
    expect(rest.data.map((i) => i.id)).toEqual([ids[0]]);
    expect(rest.has_more).toBe(false);
    const all: string[] = [];
    for await (const item of c.conversations.items.list(conv.id, { limit: 1, order: "asc" })) all.push(String(item.id));
    expect(all).toEqual(ids);

    const one = await c.conversations.items.retrieve(ids[1]!, { conversation_id: conv.id });
    expect(one).toEqual(added.data[1]);
    const after = await c.conversations.items.delete(ids[1]!, { conversation_id: conv.id });
    expect(after).toEqual(conv);
    expect((await c.conversations.items.list(conv.id, { order: "asc" })).data.map((i) => i.id)).toEqual([ids[0], ids[2]]);
    await expect(c.conversations.items.retrieve(ids[1]!, { conversation_id: conv.id })).rejects.toBeInstanceOf(NotFoundError);
  });

  it("numbers an item of a type it does not know as item_…, even a type naming a property of every object", async () => {
    const conv = await client().conversations.create({ items: [{ type: "toString" }, { type: "constructor" }] as never });
    const items = await client().conversations.items.list(conv.id, { order: "asc" });
    expect(items.data.map((i) => [i.type, /^item_[0-9a-f]{48}$/.test(String(i.id))])).toEqual([
      ["toString", true],
      ["constructor", true],
    ]);
  });

  it("keeps an item past SQLite's 2 MB value limit whole", async () => {
    const c = client();
    const conv = await c.conversations.create({});
    const text = "y".repeat(3 * 1024 * 1024);
    const added = await c.conversations.items.create(conv.id, { items: [{ type: "message", role: "user", content: text }] });
    const got = (await c.conversations.items.retrieve(added.data[0]!.id!, { conversation_id: conv.id })) as OpenAI.Conversations.Message;
    expect((got.content[0] as { text: string }).text.length).toBe(text.length);
    expect((await c.conversations.items.list(conv.id)).data).toHaveLength(1);
  });

  it("refuses items of the wrong type and more than 20 items in the API's words (wave 33)", async () => {
    const c = client();
    const notArray = await c.conversations.create({ items: { role: "user", content: "x" } as never }).catch((e) => e);
    expect(notArray).toBeInstanceOf(BadRequestError);
    expect(notArray.error).toEqual({
      message: "Invalid type for 'items': expected an array of objects, but got an object instead.",
      type: "invalid_request_error",
      param: "items",
      code: "invalid_type",
    });
    const many = Array.from({ length: 21 }, () => ({ type: "message" as const, role: "user" as const, content: "x" }));
    const tooMany = await c.conversations.create({ items: many }).catch((e) => e);
    expect(tooMany.error).toEqual({
      message: "Invalid 'items': array too long. Expected an array with maximum length 20, but got an array with length 21 instead.",
      type: "invalid_request_error",
      param: "items",
      code: "array_above_max_length",
    });
  });

  it("answers an unknown conversation with the real 404", async () => {
    const res = await fetch(`${h.url}/v1/conversations/conv_${"0".repeat(48)}`, { headers: { authorization: "Bearer sk" } });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: { message: `Conversation with id 'conv_${"0".repeat(48)}' not found.`, type: "invalid_request_error", param: null, code: "not_found" },
    });
  });
});

describe("conversation on /v1/responses", () => {
  it("prepends the conversation's items so a scenario matches on the earlier turn, and appends each turn", async () => {
    const c = client("/s/conv-chat/run");
    const conv = await c.conversations.create({});
    const first = await c.responses.create({ model: "gpt-4.1", conversation: conv.id, input: "My name is Ada." });
    expect(first.output_text).toBe("Hello Ada.");
    expect((first as unknown as { conversation: unknown }).conversation).toEqual({ id: conv.id });
    const second = await c.responses.create({ model: "gpt-4.1", conversation: { id: conv.id }, input: "What is my name?" });
    expect(second.output_text).toBe("Your name is Ada.");
    expect((await h.journal("conv-chat", "run")).map((e) => e.step)).toEqual(["one", "two"]);

    const items = await c.conversations.items.list(conv.id, { order: "asc" });
    const texts = items.data.map((i) => {
      const m = i as OpenAI.Conversations.Message;
      return `${m.role}:${(m.content[0] as { text: string }).text}`;
    });
    expect(texts).toEqual(["user:My name is Ada.", "assistant:Hello Ada.", "user:What is my name?", "assistant:Your name is Ada."]);
    expect(items.data[1]!.id).toBe(first.output[0]!.id);
  });

  it("does the same over the Responses WebSocket mode", async () => {
    const c = client("/s/conv-chat/ws");
    const conv = await c.conversations.create({});
    const ws = await openResponsesWS(c);
    const first = await responsesTurn(ws, { model: "gpt-4.1", conversation: conv.id, input: "My name is Ada." });
    expect(first.at(-1)!.response).toMatchObject({ conversation: { id: conv.id }, output: [{ content: [{ text: "Hello Ada." }] }] });
    const second = await responsesTurn(ws, { model: "gpt-4.1", conversation: conv.id, input: "What is my name?" });
    expect(second.at(-1)!.response.output[0].content[0].text).toBe("Your name is Ada.");
    ws.close();
    expect((await c.conversations.items.list(conv.id)).data).toHaveLength(4);
  });

  it("refuses conversation with previous_response_id (400) and an unknown conversation (404)", async () => {
    const c = client();
    const conv = await c.conversations.create({});
    const r = await c.responses.create({ model: "gpt-4.1", input: "x" });
    const both = await c.responses.create({ model: "gpt-4.1", conversation: conv.id, previous_response_id: r.id, input: "y" }).catch((e) => e);
    expect(both).toBeInstanceOf(BadRequestError);
    expect(both.error.message).toBe("Mutually exclusive parameters: Ensure you are only providing one of: 'previous_response_id' or 'conversation'.");
    const unknown = await c.responses.create({ model: "gpt-4.1", conversation: `conv_${"1".repeat(48)}`, input: "y" }).catch((e) => e);
    expect(unknown).toBeInstanceOf(NotFoundError);
    expect(unknown.error).toMatchObject({ message: `Conversation with id 'conv_${"1".repeat(48)}' not found.`, param: "conversation" });
  });

  it("keeps each namespace's conversations apart", async () => {
    const key = await namespaceKey(h.admin, "conv-team", "run");
    const conv = await client().conversations.create({});
    const other = new OpenAI({ apiKey: key, baseURL: `${h.url}/v1`, maxRetries: 0 });
    await expect(other.conversations.retrieve(conv.id)).rejects.toBeInstanceOf(NotFoundError);
    const own = await other.conversations.create({ metadata: { team: "x" } });
    expect((await other.conversations.retrieve(own.id)).metadata).toEqual({ team: "x" });
  });
});
