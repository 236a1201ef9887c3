/**
 * Ids never collide between two requests and stay deterministic (issue 37, point 4): they derive from where a
 * request sits (namespace, scenario, session, its number there), not from its content alone. On both runtimes.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { admin, call, chat, upload, userTurn } from "./helpers";
import { namespaceKey } from "../support/namespaces";

interface ResponseBody {
  id: string;
  output: { id: string }[];
  usage: { input_tokens: number };
}

function responses(body: unknown, session: string, prefix = "", headers: Record<string, string> = {}): Promise<Response> {
  return call(`${prefix}/v1/responses`, {
    method: "POST",
    headers: { authorization: "Bearer sk-test", "content-type": "application/json", "x-mock-session": session, ...headers },
    body: JSON.stringify(body),
  });
}

async function created(res: Response): Promise<ResponseBody> {
  expect(res.status).toBe(200);
  return (await res.json()) as ResponseBody;
}

function getResponse(id: string): Promise<Response> {
  return call(`/v1/responses/${id}`, { headers: { authorization: "Bearer sk-test" } });
}

const ask = (input: string, extra: Record<string, unknown> = {}) => ({ model: "gpt-4.1", input, ...extra });

describe("default responder, Responses", () => {
  it("gives two equal requests in one session, and in another session, ids of their own, the same on every run", async () => {
    const first = await created(await responses(ask("same"), "ids-one"));
    const second = await created(await responses(ask("same"), "ids-one"));
    const other = await created(await responses(ask("same"), "ids-two"));
    expect(new Set([first.id, second.id, other.id]).size).toBe(3);
    expect(new Set([first.output[0]!.id, second.output[0]!.id, other.output[0]!.id]).size).toBe(3);
    // A fresh session numbers its requests from 1: the same run replays these ids, on either runtime.
    expect([first.id, second.id]).toEqual(["resp_7a19e0c6c75ba72665116a6f365ac85af7d5c1a3bf6f9a2e6e", "resp_f0b25cbcc53aa41f23244c7dbf65b38448bcc536842c510bac"]);
    // Each is stored under its own id.
    expect(((await (await getResponse(first.id)).json()) as ResponseBody).id).toBe(first.id);
    expect(((await (await getResponse(second.id)).json()) as ResponseBody).id).toBe(second.id);
  });

  it("store: true then store: false with equal input: two ids, and previous_response_id finds the stored one's conversation", async () => {
    const stored = await created(await responses(ask("remember this"), "ids-store"));
    const unstored = await created(await responses(ask("remember this", { store: false }), "ids-store"));
    expect(unstored.id).not.toBe(stored.id);
    expect(unstored.output[0]!.id).not.toBe(stored.output[0]!.id);
    expect((await getResponse(unstored.id)).status).toBe(404);
    const found = (await (await getResponse(stored.id)).json()) as ResponseBody;
    expect(found.output).toEqual(stored.output);

    const alone = await created(await responses(ask("and then?", { store: false }), "ids-store"));
    const next = await created(await responses(ask("and then?", { previous_response_id: stored.id }), "ids-store"));
    // The conversation of `stored` (its input and its answer) came along: more input tokens than the turn alone.
    expect(next.usage.input_tokens).toBe(alone.usage.input_tokens + stored.usage.input_tokens + wordsOf(stored));
    const missing = await responses(ask("and then?", { previous_response_id: unstored.id }), "ids-store");
    expect(missing.status).toBe(404);
  });
});

/** Words of a response's output text (the default responder counts words as tokens). */
function wordsOf(r: ResponseBody): number {
  const text = (r as unknown as { output: { content?: { text?: string }[] }[] }).output
    .flatMap((o) => o.content ?? [])
    .map((c) => c.text ?? "")
    .join(" ");
  return text.split(/\s+/).filter((w) => w !== "").length;
}

describe("default responder, Anthropic message threads", () => {
  function messages(body: unknown): Promise<Response> {
    return call("/v1/messages", {
      method: "POST",
      headers: { "x-api-key": "sk-ant-test", "anthropic-version": "2023-06-01", "content-type": "application/json", "x-mock-session": "ids-thread" },
      body: JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 64, ...(body as object) }),
    });
  }
  const idOf = async (res: Response) => {
    expect(res.status).toBe(200);
    return ((await res.json()) as { id: string }).id;
  };

  it("two equal thread-creating requests in one session keep two threads under two ids", async () => {
    const create = { thread: { type: "create" }, system: "Be brief.", messages: [{ role: "user", content: "hello thread" }] };
    const first = await idOf(await messages(create));
    const second = await idOf(await messages(create));
    expect(second).not.toBe(first);
    const next = { thread: { type: "continue", previous_message_id: first }, messages: [{ role: "user", content: "more" }] };
    expect(await idOf(await messages(next))).not.toBe(first);
  });
});

describe("default responder, answers nothing keeps", () => {
  it("Chat Completions: equal messages in two sessions, or with other parameters, get other ids; the same request the same", async () => {
    const idOf = async (res: Response) => ((await res.json()) as { id: string }).id;
    const one = await idOf(await chat(userTurn("hello ids"), "", { "x-mock-session": "chat-one" }));
    const again = await idOf(await chat(userTurn("hello ids"), "", { "x-mock-session": "chat-one" }));
    const two = await idOf(await chat(userTurn("hello ids"), "", { "x-mock-session": "chat-two" }));
    const warmer = await idOf(await chat(userTurn("hello ids", { temperature: 0.5 }), "", { "x-mock-session": "chat-one" }));
    expect(new Set([one, two, warmer]).size).toBe(3);
    // Nothing looks a Chat Completions id up: the same request in the same session answers the same bytes.
    expect(again).toBe(one);
  });
});

describe("scripted answers", () => {
  beforeAll(async () => {
    await upload(
      { name: "ids-reuse", steps: [{ id: "again", consume: false, respond: { text: "Same answer." } }] },
      { name: "ids-report", onMismatch: "report", steps: [{ match: { lastUserMessage: "never" }, respond: { text: "x" } }] },
    );
  });

  it("a consume: false step answering twice in one session, and in another session, gives ids of their own", async () => {
    const a1 = await created(await responses(ask("hi"), "", "/s/ids-reuse/r1"));
    const a2 = await created(await responses(ask("hi"), "", "/s/ids-reuse/r1"));
    const b1 = await created(await responses(ask("hi"), "", "/s/ids-reuse/r2"));
    expect(new Set([a1.id, a2.id, b1.id]).size).toBe(3);
    expect(new Set([a1.output[0]!.id, a2.output[0]!.id, b1.output[0]!.id]).size).toBe(3);
  });

  it("one step answering Gemini and then Vertex in one session gives each its own response id", async () => {
    const body = JSON.stringify({ contents: [{ role: "user", parts: [{ text: "hi" }] }] });
    const gemini = await call("/s/ids-reuse/g1/v1beta/models/gemini-2.5-flash:generateContent", {
      method: "POST",
      headers: { "x-goog-api-key": "k", "content-type": "application/json" },
      body,
    });
    const vertex = await call("/s/ids-reuse/g1/v1/projects/p/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent", {
      method: "POST",
      headers: { authorization: "Bearer ya29.test", "content-type": "application/json" },
      body,
    });
    const ids = await Promise.all(
      [gemini, vertex].map(async (r) => {
        expect(r.status).toBe(200);
        return ((await r.json()) as { responseId: string }).responseId;
      }),
    );
    expect(ids[0]).not.toBe(ids[1]);
  });

  it("two onMismatch: report answers at the same turn are stored under ids of their own", async () => {
    const first = await created(await responses(ask("what?"), "", "/s/ids-report/m1"));
    const retry = await created(await responses(ask("what?"), "", "/s/ids-report/m1"));
    expect(retry.id).not.toBe(first.id);
    expect(((await (await getResponse(first.id)).json()) as ResponseBody).id).toBe(first.id);
  });

  it("the same scenario and session names in two namespaces give ids of their own", async () => {
    const keys: string[] = [];
    for (const ns of ["ids-ns-a", "ids-ns-b"]) {
      const key = await namespaceKey(admin, ns, "admin");
      const put = await call("/admin/scenarios/shared-ids", {
        method: "PUT",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ name: "shared-ids", steps: [{ respond: { text: "Hello.", toolCalls: [{ name: "f", arguments: {} }] } }] }),
      });
      expect(put.status).toBe(200);
      keys.push(key);
    }
    const answers = [];
    for (const key of keys) {
      const res = await chat(userTurn("hi"), "/s/shared-ids/run", { authorization: `Bearer ${key}` });
      expect(res.status).toBe(200);
      answers.push((await res.json()) as { id: string; choices: { message: { tool_calls: { id: string }[] } }[] });
    }
    expect(answers[0]!.id).not.toBe(answers[1]!.id);
    expect(answers[0]!.choices[0]!.message.tool_calls[0]!.id).not.toBe(answers[1]!.choices[0]!.message.tool_calls[0]!.id);
  });
});
