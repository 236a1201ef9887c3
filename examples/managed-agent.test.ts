// A support bot on Claude Managed Agents: the app starts a session for a question, runs its order-lookup tool
// whenever the agent calls it (the SDK's tool runner), and returns the agent's last answer — tested against mockllm,
// where the script plays the agent: its tool call, then its answer from the tool's result, after one overloaded
// model request the session retries by itself.
import Anthropic from "@anthropic-ai/sdk";
import { betaTool } from "@anthropic-ai/sdk/helpers/beta/json-schema";
import { afterAll, beforeAll, expect, it } from "vitest";
import { scenario, startMockLLM, type MockLLM } from "mockllm";

const support = scenario("support-bot")
  .step("lookup", (s) => s.match({ lastUserMessage: { contains: "order" } }).toolCall("lookup_order", { order_id: "A-1042" }))
  .step("answer", (s) =>
    s
      .match({ toolResult: { name: "lookup_order" } })
      .fail("overloaded")
      .text("Your order A-1042 shipped yesterday."),
  );

/** The code under test: one question, one session; the order tool runs here; the agent's final answer comes back. */
async function ask(client: Anthropic, question: string, orders: Record<string, string>): Promise<string> {
  const agent = await client.beta.agents.create({
    name: "Support",
    model: "claude-sonnet-4-6",
    tools: [{ type: "custom", name: "lookup_order", description: "An order's status", input_schema: { type: "object", properties: { order_id: { type: "string" } } } }],
  });
  const env = await client.beta.environments.create({ name: `support-${Date.now()}` });
  const session = await client.beta.sessions.create({ agent: agent.id, environment_id: env.id, initial_events: [{ type: "user.message", content: [{ type: "text", text: question }] }] });
  const lookup = betaTool({
    name: "lookup_order",
    description: "An order's status",
    inputSchema: { type: "object", properties: { order_id: { type: "string" } }, required: ["order_id"] },
    run: async ({ order_id }) => orders[order_id] ?? "unknown order",
  });
  for await (const _call of client.beta.sessions.events.toolRunner(session.id, { tools: [lookup], maxIdleMs: 100 }));
  const last = (await client.beta.sessions.events.list(session.id, { types: ["agent.message"], order: "desc", limit: 1 })).data[0];
  return last?.type === "agent.message" ? last.content.map((b) => (b.type === "text" ? b.text : "")).join("") : "";
}

let mock: MockLLM;
beforeAll(async () => {
  mock = await startMockLLM({ scenarios: [support] });
});
afterAll(() => mock.stop());

it("looks the order up with its own tool and answers with what the agent said", async () => {
  const client = new Anthropic({ apiKey: "sk-ant-test", baseURL: mock.anthropicBaseURL("support-bot", "q-1") });
  expect(await ask(client, "Where is my order A-1042?", { "A-1042": "shipped 2026-12-06" })).toBe("Your order A-1042 shipped yesterday.");
  // The agent's model requests are the session's turns: the tool call, one overloaded attempt, then the answer.
  const journal = await mock.admin.journal("support-bot", "q-1");
  expect(journal.map((e) => [e.step, e.outcome])).toEqual([
    ["lookup", "response"],
    ["answer", "failure"],
    ["answer", "response"],
  ]);
  expect(JSON.stringify(journal[2])).toContain("shipped 2026-12-06");
});
