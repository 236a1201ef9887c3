/**
 * Regressions found by driving the mock with clients outside this repo (docs/acceptance.md), reproduced with the
 * clients the repo has: `@anthropic-ai/sdk`'s `beta.messages.toolRunner()` runs over a message thread
 * (`thread: { type: "create" }`, then `{ type: "continue", previous_message_id }` with only the new messages and no
 * `system`/`tools`), so the mock must keep the conversation under the reply's id; a lost or already continued thread
 * is refused with the `error.details.error_code` on which the SDK replays the conversation under a new thread.
 */
import Anthropic from "@anthropic-ai/sdk";
import { betaZodTool } from "@anthropic-ai/sdk/helpers/beta/zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const SCENARIOS = [
  {
    name: "acc-thread",
    steps: [
      { id: "ask", match: { turn: 1 }, expect: { tools: ["get_weather"] }, respond: { toolCalls: [{ name: "get_weather", arguments: { city: "Paris" } }] } },
      {
        id: "answer",
        match: { turn: 2, toolResult: { name: "get_weather", content: { contains: "sunny" } } },
        expect: { tools: ["get_weather"], systemPromptMustInclude: ["weather bot"] },
        respond: { text: "Sunny in Paris." },
      },
    ],
  },
  { name: "acc-once", steps: [{ consume: false, respond: { text: "ok" } }] },
];

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

const client = (session: string) => new Anthropic({ apiKey: "sk-test", baseURL: `${h.url}/s/acc-thread/${session}`, maxRetries: 0 });

const weather = betaZodTool({
  name: "get_weather",
  description: "Current weather",
  inputSchema: z.object({ city: z.string() }),
  run: async ({ city }) => `sunny in ${city}`,
});

describe("message threads", () => {
  it.each([false, true])("toolRunner (stream: %s) continues the thread with only the tool result", async (stream) => {
    const session = `runner-${stream}`;
    const final = await client(session).beta.messages.toolRunner({
      model: "claude-sonnet-4-5",
      max_tokens: 256,
      system: "You are a weather bot.",
      messages: [{ role: "user", content: "Weather in Paris?" }],
      tools: [weather],
      ...(stream ? { stream: true as const } : {}),
    });
    expect(final.content).toEqual([{ type: "text", text: "Sunny in Paris." }]);
    const journal = await h.journal("acc-thread", session);
    expect(journal.map((e) => e.outcome)).toEqual(["response", "response"]);
    const second = journal[1]!.request.body;
    expect(second.thread).toEqual({ type: "continue", previous_message_id: expect.stringMatching(/^msg_01/) });
    expect(second.tools).toBeUndefined();
    expect(second.messages).toHaveLength(1);
  });

  it("answers a continue from an unknown message id with a 404 not_found_error", async () => {
    const res = await fetch(`${h.url}/s/acc-thread/unknown/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": "sk-test", "anthropic-version": "2023-06-01", "content-type": "application/json" },
      body: JSON.stringify({
        model: "claude-sonnet-4-5",
        max_tokens: 64,
        thread: { type: "continue", previous_message_id: "msg_01nope" },
        messages: [{ role: "user", content: "hi" }],
      }),
    });
    expect(res.status).toBe(404);
    const body = (await res.json()) as { type: string; error: { type: string; message: string } };
    expect(body.type).toBe("error");
    expect(body.error).toEqual({ type: "not_found_error", message: "Thread message with id 'msg_01nope' not found.", details: { error_code: "thread_not_found" } });
    // The SDK reads `details.error_code` into its own class, on which a thread replays the whole conversation.
    const err = await client("unknown")
      .beta.messages.create({ model: "claude-sonnet-4-5", max_tokens: 64, thread: { type: "continue", previous_message_id: "msg_01nope" }, messages: [{ role: "user", content: "hi" }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.ThreadNotFoundError);
    expect(err).toMatchObject({ status: 404, errorCode: "thread_not_found" });
  });

  it("a reply is continued once (400 thread_already_continued); the SDK's thread then replays the conversation under a new thread", async () => {
    const c = new Anthropic({ apiKey: "sk-test", baseURL: `${h.url}/s/acc-once/twice`, maxRetries: 0 });
    const thread = c.beta.messages.thread({ model: "claude-sonnet-4-5", max_tokens: 64, system: "Be brief." });
    const first = await thread.send({ role: "user", content: "one" });
    const elsewhere = { model: "claude-sonnet-4-5", max_tokens: 64, thread: { type: "continue" as const, previous_message_id: first.id }, messages: [{ role: "user" as const, content: "elsewhere" }] };
    const taken = await c.beta.messages.create(elsewhere);
    expect(taken.content).toEqual([{ type: "text", text: "ok" }]);
    const again = await c.beta.messages.create(elsewhere).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(Anthropic.ThreadAlreadyContinuedError);
    expect(again).toMatchObject({
      status: 400,
      errorCode: "thread_already_continued",
      error: {
        type: "error",
        error: {
          type: "invalid_request_error",
          message: `Thread message with id '${first.id}' has already been continued; each message can be continued only once. Continue from the thread's most recent message id.`,
          details: { error_code: "thread_already_continued" },
        },
      },
    });
    // The thread's next turn continues from `first`, is refused, and is sent again whole under `thread: create`.
    const second = await thread.send({ role: "user", content: "two" });
    expect(second.content).toEqual([{ type: "text", text: "ok" }]);
    const bodies = (await h.journal("acc-once", "twice")).map((e) => e.request.body as { thread: unknown; messages: { content: unknown }[] });
    expect(bodies.map((b) => [b.thread, b.messages.map((m) => m.content)])).toStrictEqual([
      [{ type: "create" }, ["one"]],
      [{ type: "continue", previous_message_id: first.id }, ["elsewhere"]],
      [{ type: "create" }, ["one", [{ type: "text", text: "ok" }], "two"]],
    ]);
    // The new thread goes on as threads do.
    const third = await thread.send({ role: "user", content: "three" });
    expect(third.id).not.toBe(second.id);
    const last = (await h.journal("acc-once", "twice")).at(-1)!.request.body as { thread: unknown; messages: unknown[] };
    expect(last).toMatchObject({ thread: { type: "continue", previous_message_id: second.id }, messages: [{ role: "user", content: "three" }] });
  });
});
