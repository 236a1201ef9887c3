// A typed support agent on OpenAI's Agents API: the app starts a session for a question, runs its order-lookup
// function whenever the agent calls it (the SDK's `toolHandlers`), and returns the agent's answer parsed against a
// schema (`zodAgentTextFormat`) — tested against mockllm, where the script plays the agent: its function call, then
// its JSON answer from the function's result, after one rate-limited model request the session retries by itself.
import OpenAI from "openai";
import { zodAgentTextFormat } from "openai/helpers/beta/agents/zod";
import { z } from "zod";
import { afterAll, beforeAll, expect, it } from "vitest";
import { scenario, startMockLLM, type MockLLM } from "mockllm";

const Answer = z.object({ order_id: z.string(), status: z.enum(["processing", "shipped", "delivered"]), reply: z.string() });

const support = scenario("order-agent")
  .step("lookup", (s) => s.match({ lastUserMessage: { contains: "order" } }).toolCall("lookup_order", { order_id: "A-1042" }))
  .step("answer", (s) =>
    s
      .match({ toolResult: { name: "lookup_order" } })
      .fail("rate_limit")
      .text(JSON.stringify({ order_id: "A-1042", status: "shipped", reply: "Your order shipped yesterday." })),
  );

/** The code under test: one question, one session; the lookup runs here; the agent's typed answer comes back. */
async function ask(client: OpenAI, question: string, orders: Record<string, string>): Promise<z.infer<typeof Answer>> {
  const stream = await client.beta.agents.sessions.create({
    agent: {
      model: "gpt-5.5",
      instructions: "Answer order questions. Look the order up first.",
      tools: [{ type: "function", name: "lookup_order", description: "An order's status", parameters: { type: "object", properties: { order_id: { type: "string" } }, required: ["order_id"] } }],
      text: { format: zodAgentTextFormat(Answer) },
    },
    environment: { type: "none" },
    input: question,
    stream: true,
    toolHandlers: { lookup_order: async ({ order_id }) => orders[String(order_id)] ?? "unknown order" },
  });
  return (await stream.finalResult()).output_parsed;
}

let mock: MockLLM;
beforeAll(async () => {
  mock = await startMockLLM({ scenarios: [support] });
});
afterAll(() => mock.stop());

it("looks the order up with its own function and answers in the app's schema", async () => {
  const client = new OpenAI({ apiKey: "sk-test", baseURL: mock.openaiBaseURL("order-agent", "q-1") });
  expect(await ask(client, "Where is my order A-1042?", { "A-1042": "shipped 2026-12-06" })).toEqual({ order_id: "A-1042", status: "shipped", reply: "Your order shipped yesterday." });
  // The agent's model requests are the session's Responses turns: the call, one rate-limited attempt, then the answer.
  const journal = (await mock.admin.journal("order-agent", "q-1")) as { step: string; outcome: string; request: { path: string; body: any } }[];
  expect(journal.map((e) => [e.step, e.outcome, e.request.path])).toEqual([
    ["lookup", "response", "/v1/responses"],
    ["answer", "failure", "/v1/responses"],
    ["answer", "response", "/v1/responses"],
  ]);
  expect(journal[2]!.request.body.text.format).toMatchObject({ type: "json_schema", strict: true });
  expect(JSON.stringify(journal[2]!.request.body.input)).toContain("shipped 2026-12-06");
});
