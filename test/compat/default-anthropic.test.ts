/**
 * The default responder on the Anthropic Messages surface, through the official `@anthropic-ai/sdk`.
 */
import Anthropic from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lorem, loremLength } from "../../src/default/lorem";
import { startHarness, type Harness } from "./harness";

let h: Harness;
let client: Anthropic;

beforeAll(async () => {
  h = await startHarness({ DEFAULT_WORDS_PER_SECOND: "0" });
  client = new Anthropic({ baseURL: h.url, apiKey: "sk-ant-test", maxRetries: 0 });
});
afterAll(() => h?.stop());

const MODEL = "claude-haiku-4-5";
const instruction = (plan: unknown) => `<|instruction_start|>${JSON.stringify(plan)}<|instruction_end|>`;
const ask = (content: string): Anthropic.MessageCreateParamsNonStreaming => ({
  model: MODEL,
  max_tokens: 1024,
  messages: [{ role: "user", content }],
});

describe("default responder on /v1/messages", () => {
  it("the lorem answer, then the message echoed; end_turn", async () => {
    const message = "Tell me about Paris";
    const msg = await client.messages.create(ask(message));
    expect(msg.content).toEqual([{ type: "text", text: `${lorem(loremLength(message))}\n\n${message}` }]);
    expect(msg.stop_reason).toBe("end_turn");
    // The alias is answered by its dated snapshot, as the real API does.
    expect(msg.model).toBe("claude-haiku-4-5-20251001");
  });

  it("max_tokens: stops there with stop_reason max_tokens and output_tokens = words sent, JSON and SSE", async () => {
    const message = "Tell me about Paris";
    expect(loremLength(message)).toBeGreaterThan(100);
    const params = { ...ask(message), max_tokens: 100 };
    const msg = await client.messages.create(params);
    expect(msg.content).toEqual([{ type: "text", text: lorem(100) }]);
    expect(msg.stop_reason).toBe("max_tokens");
    expect(msg.usage.output_tokens).toBe(100);
    const streamed = await client.messages.stream(params).finalMessage();
    expect(streamed.content).toEqual(msg.content);
    expect([streamed.stop_reason, streamed.usage.output_tokens]).toEqual(["max_tokens", 100]);
  });

  it("\\nReason: a thinking block first, streamed as 5-word thinking deltas before any text delta", async () => {
    const message = "What is 2+2?\nReason: think hard";
    const events: Anthropic.MessageStreamEvent[] = [];
    const stream = client.messages.stream(ask(message));
    stream.on("streamEvent", (e) => events.push(e));
    const final = await stream.finalMessage();
    const deltas = events.flatMap((e) => (e.type === "content_block_delta" ? [e.delta] : []));
    const firstText = deltas.findIndex((d) => d.type === "text_delta");
    expect(deltas.findLastIndex((d) => d.type === "thinking_delta")).toBeLessThan(firstText);
    for (const d of deltas) if (d.type === "thinking_delta") expect(d.thinking.trim().split(/\s+/).length).toBeLessThanOrEqual(5);
    expect(final.content.map((b) => b.type)).toEqual(["thinking", "text"]);
    expect(final.content[0]).toMatchObject({ type: "thinking", thinking: `${lorem(443)}\n\n${message}` });
    expect(final.content[1]).toMatchObject({ type: "text", text: `${lorem(169)}\n\n${message}` });
  });

  it("same input twice → the same bytes, JSON and SSE", async () => {
    const body = ask("determinism please");
    const a = await (await client.messages.create(body).asResponse()).text();
    const b = await (await client.messages.create(body).asResponse()).text();
    expect(a).toBe(b);
    expect((JSON.parse(a) as { id: string }).id).toMatch(/^msg_01/);
    const s1 = await (await client.messages.create({ ...body, stream: true }).asResponse()).text();
    const s2 = await (await client.messages.create({ ...body, stream: true }).asResponse()).text();
    expect(s1).toBe(s2);
    expect(s1.trimEnd().endsWith('data: {"type":"message_stop"}')).toBe(true);
  });

  it("an instruction block: each message's blocks in order, id_message around thinking and text", async () => {
    const plan = {
      id_message: "M-2",
      reasoning: { length: 4 },
      messages: [{ text_message: { length: 6 } }, { tool_call: [{ name: "lookup", args: { q: "mock" } }] }, { text_message: { length: 2 } }],
    };
    const msg = await client.messages.create(ask(instruction(plan)));
    expect(msg.content.map((b) => b.type)).toEqual(["thinking", "text", "tool_use", "thinking", "text"]);
    expect(msg.content[0]).toMatchObject({ thinking: `M-2 ${lorem(4)} M-2` });
    expect(msg.content[1]).toMatchObject({ text: `M-2 ${lorem(6)} M-2` });
    expect(msg.content[2]).toMatchObject({ type: "tool_use", name: "lookup", input: { q: "mock" } });
    expect(msg.content[4]).toMatchObject({ text: `M-2 ${lorem(2)} M-2` });
    expect(msg.stop_reason).toBe("tool_use");
  });

  it("invalid instruction JSON falls back to the lorem answer", async () => {
    const message = `${instruction({ messages: [] }).replace("[]", "[")}`;
    const msg = await client.messages.create(ask(message));
    expect(msg.content).toEqual([{ type: "text", text: `${lorem(loremLength(message))}\n\n${message}` }]);
  });
});
