/**
 * The OpenAI Agents SDK (`@openai/agents`) keeping its history in a Conversation (`OpenAIConversationsSession`): two
 * runner turns, the second scripted to match on the first turn's question and answer, which only the conversation
 * holds; the conversation then lists both turns. Both runtimes. Tracing is disabled, so no call leaves the machine.
 */
import { Agent, OpenAIProvider, Runner, setTracingDisabled } from "@openai/agents";
import { OpenAIConversationsSession } from "@openai/agents-openai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const SCENARIOS = [
  {
    name: "agent-memory",
    steps: [
      { id: "first", match: { turn: 1, lastUserMessage: "My favourite colour is green." }, respond: { text: "Noted: green." } },
      {
        id: "second",
        match: { turn: 2, firstUserMessage: "My favourite colour is green.", assistantMessage: "Noted: green.", lastUserMessage: "What is my favourite colour?" },
        respond: { text: "Your favourite colour is green." },
      },
    ],
  },
];

beforeAll(async () => {
  setTracingDisabled(true);
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

describe("Agents SDK with OpenAIConversationsSession", () => {
  it("remembers the first turn through the conversation over two runner turns", async () => {
    const client = new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}/s/agent-memory/run/v1`, maxRetries: 0 });
    const runner = new Runner({ modelProvider: new OpenAIProvider({ openAIClient: client, useResponses: true }), tracingDisabled: true });
    const agent = new Agent({ name: "Memory agent", instructions: "You remember things.", model: "gpt-4.1" });
    const session = new OpenAIConversationsSession({ client });

    const first = await runner.run(agent, "My favourite colour is green.", { session });
    expect(first.finalOutput).toBe("Noted: green.");
    const second = await runner.run(agent, "What is my favourite colour?", { session });
    expect(second.finalOutput).toBe("Your favourite colour is green.");
    expect((await h.journal("agent-memory", "run")).map((e) => e.step)).toEqual(["first", "second"]);

    const conversationId = await session.getSessionId();
    expect(conversationId).toMatch(/^conv_/);
    const items = await client.conversations.items.list(conversationId, { order: "asc" });
    const texts = items.data.map((i) => {
      const m = i as OpenAI.Conversations.Message;
      return `${m.role}:${(m.content[0] as { text: string }).text}`;
    });
    expect(texts).toEqual(["user:My favourite colour is green.", "assistant:Noted: green.", "user:What is my favourite colour?", "assistant:Your favourite colour is green."]);
  });
});
