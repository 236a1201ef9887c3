/**
 * Codex 0.169's remote compaction as it reaches the wire (measured by `npm run test:agent-clis -- codex`; see
 * docs/agent-clis/codex.md#compaction-walkthrough), replayed through the official `openai` SDK on both runtimes, so it
 * holds without Codex installed: over HTTP a streamed `POST /v1/responses` whose input is the whole history ending in
 * `compaction_trigger`; over the WebSocket a `response.create` chained by `previous_response_id` carrying only the
 * tool output and the trigger. Then the turn with the developer and user messages (with Codex's
 * `internal_chat_message_metadata_passthrough`) and the compaction item (with its `id`): `compacted: true` answers it.
 */
import OpenAI from "openai";
import { ResponsesWS } from "openai/resources/responses/ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const PROMPT = "Run the echo command in the shell and tell me what it printed.";
const SUMMARY = "The user asked to run the echo command; it printed ok.";
const SCENARIO = {
  name: "cmp-codex-wire",
  steps: [
    {
      id: "run",
      match: { compacted: false },
      respond: { toolCalls: [{ id: "call_echo", name: "exec_command", arguments: { cmd: "echo ok" } }], usage: { inputTokens: 300000 } },
    },
    { id: "squash", respond: { compaction: { summary: SUMMARY } } },
    { id: "final", match: { compacted: true, lastUserMessage: PROMPT }, respond: { text: "After compaction: it printed ok." } },
  ],
};
const TOOLS = [{ type: "function", name: "exec_command", strict: false, parameters: { type: "object", properties: { cmd: { type: "string" } } } }];
const passthrough = { turn_id: "t-1", create_time: 1795695769.1136, content_item_kinds: ["user.text"] };
const CONTEXT = [
  { type: "message", role: "developer", content: [{ type: "input_text", text: "You are Codex." }] },
  { type: "message", role: "user", content: [{ type: "input_text", text: "<environment_context>\n  <shell>bash</shell>\n</environment_context>" }] },
  { type: "message", role: "user", content: [{ type: "input_text", text: PROMPT }], internal_chat_message_metadata_passthrough: passthrough },
];
const BODY = { model: "gpt-5.5", stream: true, store: false, tools: TOOLS, tool_choice: "auto", parallel_tool_calls: true, include: ["reasoning.encrypted_content"] };

type Item = { type: string; [k: string]: unknown };
type Event = { type: string; [k: string]: any };

const client = (session: string) => new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}/s/cmp-codex-wire/${session}/v1`, maxRetries: 0 });

async function http(session: string, input: unknown[]): Promise<Item[]> {
  const stream = await client(session).responses.create({ ...BODY, input } as never);
  let output: Item[] = [];
  for await (const e of stream as unknown as AsyncIterable<Event>) if (e.type === "response.completed") output = e.response.output;
  return output;
}

function turn(ws: ResponsesWS, body: Record<string, unknown>): Promise<Event> {
  return new Promise((resolve) => {
    const onEvent = (e: Event) => {
      if (["response.completed", "response.failed", "error"].includes(e.type)) {
        ws.off("event", onEvent);
        resolve(e);
      }
    };
    ws.on("event", onEvent);
    ws.send({ type: "response.create", ...BODY, ...body } as never);
  });
}

/** The journal after the run: steps, and what the final turn carried in the canonical view. */
async function expectCompacted(session: string): Promise<void> {
  const journal = await h.journal("cmp-codex-wire", session);
  expect(journal.map((e) => [e.step, e.status])).toEqual([
    ["run", 200],
    ["squash", 200],
    ["final", 200],
  ]);
  expect(journal[1]!.canonical.compactionRequested).toBe(true);
  const final = journal[2]!.canonical;
  expect([final.compaction, final.lastUserMessage, final.toolResults]).toEqual([{ summary: SUMMARY }, PROMPT, []]);
}

beforeAll(async () => {
  h = await startHarness();
  await h.upload(SCENARIO);
});
afterAll(() => h?.stop());

describe("Codex 0.169 remote compaction on the wire", () => {
  it("HTTP: the whole history ending in compaction_trigger gets one compaction item; the compacted turn matches compacted: true", async () => {
    const run = await http("http", CONTEXT);
    expect(run.map((o) => [o.type, o.call_id])).toEqual([["function_call", "call_echo"]]);
    const history = [...CONTEXT, ...run, { type: "function_call_output", call_id: "call_echo", output: "ok\n" }];
    const squash = await http("http", [...history, { type: "compaction_trigger" }]);
    expect(squash.map((o) => o.type)).toEqual(["compaction"]);
    const final = await http("http", [...CONTEXT, squash[0]]);
    expect(final.map((o) => o.type)).toEqual(["message"]);
    expect(final[0]!.content).toEqual([expect.objectContaining({ type: "output_text", text: "After compaction: it printed ok." })]);
    await expectCompacted("http");
  });

  it("WebSocket: the trigger chained by previous_response_id with only the tool output, then the full compacted input", async () => {
    const ws = new ResponsesWS(client("ws"));
    await new Promise((resolve, reject) => {
      ws.socket.on("open", resolve);
      ws.socket.on("error", reject);
    });
    const run = await turn(ws, { input: CONTEXT });
    expect(run.response.output.map((o: Item) => o.type)).toEqual(["function_call"]);
    const squash = await turn(ws, {
      previous_response_id: run.response.id,
      input: [{ type: "function_call_output", call_id: "call_echo", output: "ok\n" }, { type: "compaction_trigger" }],
    });
    expect(squash.response.output.map((o: Item) => o.type)).toEqual(["compaction"]);
    const item = squash.response.output[0] as Item;
    expect([typeof item.id, typeof item.encrypted_content]).toEqual(["string", "string"]);
    const final = await turn(ws, { input: [...CONTEXT, item] });
    ws.close();
    expect(final.response.output[0].content[0].text).toBe("After compaction: it printed ok.");
    await expectCompacted("ws");
  });
});
