/**
 * A long agent conversation's journal entry, on both runtimes: turn, step, canonical view, the body as sent and a
 * default compaction's counts, and what a session still running an earlier version of its scenario answers after an
 * upload. What a change to how a turn reaches its session (wave 18 measured sending the Durable Object a slim
 * request, `bench/rpc-payload.ts`) must leave as it is.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { admin, call, chat, upload } from "./helpers";

const call_ = (i: number) => ({ id: `call_${i}`, type: "function", function: { name: i % 2 === 0 ? "read_file" : "grep", arguments: JSON.stringify({ path: `src/file${i}.ts` }) } });

/** System, the first request, five rounds of a tool call, its result and a follow-up, then a call whose result is pending. */
const BODY = {
  model: "gpt-4o",
  tools: ["read_file", "grep"].map((name) => ({ type: "function", function: { name, parameters: { type: "object" } } })),
  messages: [
    { role: "system", content: "You are a careful agent." },
    { role: "user", content: "first: find the bug" },
    ...Array.from({ length: 5 }, (_, i) => [
      { role: "assistant", content: i === 2 ? "Done with the reading." : null, tool_calls: [call_(i)] },
      { role: "tool", tool_call_id: `call_${i}`, content: `contents of file ${i}` },
      { role: "user", content: `follow-up ${i}` },
    ]).flat(),
    { role: "assistant", content: null, tool_calls: [call_(6), call_(7)] },
    { role: "tool", tool_call_id: "call_6", content: "the pending result" },
    { role: "tool", tool_call_id: "call_7", content: "the other pending result" },
  ],
};

async function entries(scenario: string, session: string): Promise<Record<string, unknown>[]> {
  const res = await admin(`/sessions/${scenario}/${session}/requests`);
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>[];
}

beforeAll(async () => {
  await upload(
    {
      name: "long-journal",
      steps: [
        { id: "too-early", match: { turn: 2 }, respond: { text: "no" } },
        {
          id: "agent",
          match: {
            turn: 7,
            firstUserMessage: { contains: "first" },
            assistantMessage: { contains: "Done" },
            toolCall: { name: "grep", arguments: { path: "src/file3.ts" } },
            toolResult: { name: "grep" },
          },
          respond: { text: "turn {{request.turn}} after {{request.lastUserMessage}}" },
        },
      ],
    },
    { name: "long-compaction", steps: [{ id: "any", consume: false, respond: { text: "ok" } }] },
  );
});

describe("a long conversation's journal entry", () => {
  it("journals the turn, step, canonical view and body the whole request does", async () => {
    const res = await chat(BODY, "/s/long-journal/long");
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { choices: { message: { content: string } }[] };
    expect(answer.choices[0]!.message.content).toBe("turn 7 after follow-up 4");
    const [entry] = await entries("long-journal", "long");
    expect(entry).toMatchObject({ turn: 7, step: "agent", outcome: "response", status: 200, reasons: [] });
    expect((entry!.request as { body: unknown }).body).toStrictEqual(BODY);
    expect(entry!.canonical).toStrictEqual({
      tools: ["read_file", "grep"],
      toolResults: [
        { name: "read_file", toolCallId: "call_6", content: "the pending result" },
        { name: "grep", toolCallId: "call_7", content: "the other pending result" },
      ],
      lastUserMessage: "follow-up 4",
      answered: { text: "turn 7 after follow-up 4", toolCalls: [] },
      model: "gpt-4o",
      stream: false,
      usage: { inputTokens: 64, outputTokens: 32, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
    });
  });

  it("counts every message in a default compaction's summary (Responses, compact_threshold)", async () => {
    const input = [
      { role: "user", content: "first: compact me" },
      ...Array.from({ length: 4 }, (_, i) => [
        { type: "function_call", call_id: `fc_${i}`, name: "read_file", arguments: "{}" },
        { type: "function_call_output", call_id: `fc_${i}`, output: `output ${i}` },
        { role: "user", content: `next ${i}` },
      ]).flat(),
      { type: "function_call", call_id: "fc_9", name: "read_file", arguments: "{}" },
      { type: "function_call_output", call_id: "fc_9", output: "last output" },
    ];
    const res = await call("/s/long-compaction/long/v1/responses", {
      method: "POST",
      headers: { authorization: "Bearer sk-test", "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-5", input, context_management: [{ type: "compaction", compact_threshold: 1 }] }),
    });
    expect(res.status).toBe(200);
    const [entry] = await entries("long-compaction", "long");
    const summary = 'Summary of 15 earlier messages (5 from the user). Last user message: "next 3".';
    expect((entry!.canonical as { answered: { compaction?: { summary: string } } }).answered.compaction).toStrictEqual({ summary });
  });

  it("a session running an earlier version whose matchers read assistant messages still gets them after an upload whose do not", async () => {
    const v1 = { name: "long-version", steps: [{ id: "reads", consume: false, match: { assistantMessage: { contains: "Done" } }, respond: { text: "v1 read turn {{request.turn}}" } }] };
    await upload(v1);
    const first = await chat(BODY, "/s/long-version/run");
    expect(((await first.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe("v1 read turn 7");
    await upload({ name: "long-version", steps: [{ id: "any", consume: false, respond: { text: "v2 turn {{request.turn}}" } }] });
    const second = await chat(BODY, "/s/long-version/run");
    expect(((await second.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe("v1 read turn 7");
    const fresh = await chat(BODY, "/s/long-version/other");
    expect(((await fresh.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe("v2 turn 7");
    expect((await entries("long-version", "run")).map((e) => [e.turn, e.step])).toStrictEqual([
      [7, "reads"],
      [7, "reads"],
    ]);
  });
});
