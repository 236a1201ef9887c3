/**
 * Regressions found by driving the mock with clients outside this repo (docs/acceptance.md), reproduced with the
 * clients the repo has: `@anthropic-ai/sdk`'s `beta.messages.toolRunner()` runs over a message thread
 * (`thread: { type: "create" }`, then `{ type: "continue", previous_message_id }` with only the new messages and no
 * `system`/`tools`), so the mock must keep the conversation under the reply's id.
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
    expect(body.error).toEqual({ type: "not_found_error", message: "Thread message with id 'msg_01nope' not found." });
  });
});
