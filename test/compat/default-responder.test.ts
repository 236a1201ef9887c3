/**
 * The default responder (contract section 7) through the official OpenAI SDK, against a real local Worker.
 */
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { lorem, loremLength } from "../../src/default/lorem";
import { stableHash } from "../../src/util/hash";
import { startHarness, type Harness } from "./harness";

let h: Harness;
let client: OpenAI;

beforeAll(async () => {
  h = await startHarness({ DEFAULT_WORDS_PER_SECOND: "0" });
  client = new OpenAI({ baseURL: `${h.url}/v1`, apiKey: "sk-test", maxRetries: 0 });
});
afterAll(() => h?.stop());

const MODEL = "gpt-4o-mini";
const instruction = (plan: unknown) => `<|instruction_start|>${JSON.stringify(plan)}<|instruction_end|>`;

/** Every chunk of a streamed default answer, as the SDK parsed them. */
async function chunks(content: string) {
  const stream = await client.chat.completions.create({
    model: MODEL,
    stream: true,
    messages: [{ role: "user", content }],
  });
  const out: OpenAI.Chat.Completions.ChatCompletionChunk[] = [];
  for await (const c of stream) out.push(c);
  return out;
}

type Delta = Record<string, unknown>;
const delta = (c: OpenAI.Chat.Completions.ChatCompletionChunk) => (c.choices[0]?.delta ?? {}) as Delta;

describe("default responder: lorem answer", () => {
  it("JSON: lorem of 5 + |hash| % 496 words, then the message echoed verbatim", async () => {
    const message = "Tell me about Paris";
    const res = await client.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: message }] });
    expect(res.object).toBe("chat.completion");
    expect(res.model).toBe("gpt-4o-mini-2024-07-18"); // the alias's dated snapshot, as the real API answers
    expect(res.choices).toHaveLength(1);
    const text = res.choices[0]!.message.content!;
    expect(text).toBe(`${lorem(loremLength(message))}\n\n${message}`);
    expect(text.split("\n\n")[0]!.split(" ")).toHaveLength(loremLength(message));
    expect(res.choices[0]!.finish_reason).toBe("stop");
  });

  it("answers the last user message", async () => {
    const res = await client.chat.completions.create({
      model: MODEL,
      messages: [
        { role: "user", content: "first question" },
        { role: "assistant", content: "first answer" },
        { role: "user", content: "second question" },
      ],
    });
    expect(res.choices[0]!.message.content).toBe(`${lorem(loremLength("second question"))}\n\nsecond question`);
  });

  it("SSE: 5-word content chunks, then the finish chunk and [DONE]; content equals the JSON answer", async () => {
    const message = "ping";
    const all = await chunks(message);
    expect(delta(all[0]!)).toMatchObject({ role: "assistant", content: "" });
    const pieces = all.map((c) => delta(c).content).filter((p): p is string => typeof p === "string" && p !== "");
    expect(pieces.join("")).toBe(`${lorem(430)}\n\nping`);
    expect(pieces).toHaveLength(Math.ceil(431 / 5));
    for (const p of pieces.slice(0, -1)) expect(p.trim().split(/\s+/)).toHaveLength(5);
    const last = all.at(-1)!;
    expect(last.choices[0]!.finish_reason).toBe("stop");
    expect(delta(last)).toEqual({});
  });

  it("\\nReason: streams `reasoning` deltas first (never reasoning_content), each stream ending with the echo", async () => {
    const message = "What is 2+2?\nReason: think hard";
    const all = await chunks(message);
    const kinds = all.flatMap((c) => {
      const d = delta(c);
      if (typeof d.reasoning === "string") return ["reasoning"];
      if (typeof d.content === "string" && d.content !== "") return ["content"];
      return [];
    });
    const firstContent = kinds.indexOf("content");
    expect(kinds.lastIndexOf("reasoning")).toBeLessThan(firstContent);
    expect(all.some((c) => "reasoning_content" in delta(c))).toBe(false);
    const reasoning = all
      .map((c) => delta(c).reasoning)
      .filter((p) => typeof p === "string")
      .join("");
    expect(reasoning).toBe(`${lorem(loremLength(`reasoning\n${message}`))}\n\n${message}`);
    const content = all.map((c) => delta(c).content ?? "").join("");
    expect(content).toBe(`${lorem(169)}\n\n${message}`);
    expect(content.endsWith(message)).toBe(true);

    const json = await client.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: message }] });
    const msg = json.choices[0]!.message as unknown as Record<string, unknown>;
    expect(msg.reasoning).toBe(reasoning);
    expect(msg.reasoning_content).toBeUndefined();
    expect(json.usage?.completion_tokens_details?.reasoning_tokens).toBe(443 + 6);
  });

  it("same input twice → the same bytes, JSON and SSE (ids and created included)", async () => {
    const body = { model: MODEL, messages: [{ role: "user" as const, content: "determinism please" }] };
    const a = await (await client.chat.completions.create(body).asResponse()).text();
    const b = await (await client.chat.completions.create(body).asResponse()).text();
    expect(a).toBe(b);
    const parsed = JSON.parse(a) as { id: string; created: number };
    expect(parsed.id).toMatch(/^chatcmpl-[0-9A-Za-z]{29}$/);
    expect(parsed.created).toBeGreaterThanOrEqual(1_704_067_200);

    const streamBody = { ...body, stream: true as const, stream_options: { include_usage: true } };
    const s1 = await (await client.chat.completions.create(streamBody).asResponse()).text();
    const s2 = await (await client.chat.completions.create(streamBody).asResponse()).text();
    expect(s1).toBe(s2);
    expect(s1.endsWith("data: [DONE]\n\n")).toBe(true);
  });
});

describe("default responder: instruction block", () => {
  const plan = {
    id_message: "MSG-1",
    reasoning: { length: 3 },
    messages: [{ text_message: { length: 12 } }, { tool_call: [{ name: "get_weather", args: { city: "Oslo" } }] }],
  };

  it("JSON: one choice per message; id_message around reasoning and text; the tool call on choice 1", async () => {
    const res = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: "user", content: `Do as told.\n${instruction(plan)}` }],
    });
    expect(res.choices.map((c) => c.index)).toEqual([0, 1]);
    const [first, second] = res.choices;
    expect(first!.message.content).toBe(`MSG-1 ${lorem(12)} MSG-1`);
    expect((first!.message as unknown as Record<string, unknown>).reasoning).toBe("MSG-1 lorem ipsum dolor MSG-1");
    expect(first!.finish_reason).toBe("stop");
    expect(second!.message.content).toBeNull();
    expect(second!.message.tool_calls).toHaveLength(1);
    const call = second!.message.tool_calls![0]!;
    expect(call.type).toBe("function");
    expect(call.id).toMatch(/^call_/);
    if (call.type !== "function") throw new Error("not a function call");
    expect(call.function.name).toBe("get_weather");
    expect(JSON.parse(call.function.arguments)).toEqual({ city: "Oslo" });
    expect(second!.finish_reason).toBe("tool_calls");
  });

  it("SSE: the choices interleave token by token, every finish chunk at the end; the SDK assembles both", async () => {
    const content = instruction(plan);
    const all = await chunks(content);
    for (const index of [0, 1]) {
      const mine = all.filter((c) => c.choices[0]?.index === index);
      expect(delta(mine[0]!).role).toBe("assistant");
      expect(mine.filter((c) => c.choices[0]!.finish_reason !== null)).toHaveLength(1);
      expect(mine.at(-1)!.choices[0]!.finish_reason).toBe(index === 0 ? "stop" : "tool_calls");
    }
    // As real n > 1 streams: choice 1 starts before choice 0 is done, and both finish chunks come last, so a client
    // that stops reading at the first finish_reason still has every choice's content.
    const firstOf1 = all.findIndex((c) => c.choices[0]?.index === 1);
    const lastContentOf0 = all.findLastIndex((c) => c.choices[0]?.index === 0 && c.choices[0].finish_reason === null);
    expect(firstOf1).toBeLessThan(lastContentOf0);
    const choiceChunks = all.filter((c) => c.choices.length > 0);
    expect(choiceChunks.slice(-2).map((c) => [c.choices[0]!.index, c.choices[0]!.finish_reason])).toEqual([
      [0, "stop"],
      [1, "tool_calls"],
    ]);
    expect(choiceChunks.slice(0, -2).every((c) => c.choices[0]!.finish_reason === null)).toBe(true);
    expect(all.every((c) => (c as unknown as { service_tier: string }).service_tier === "default")).toBe(true);
    expect(all.every((c) => typeof (c as unknown as { obfuscation: unknown }).obfuscation === "string")).toBe(true);

    const final = await client.chat.completions.stream({ model: MODEL, messages: [{ role: "user", content }] }).finalChatCompletion();
    expect(final.choices).toHaveLength(2);
    expect(final.choices[0]!.message.content).toBe(`MSG-1 ${lorem(12)} MSG-1`);
    expect(final.choices[1]!.message.tool_calls?.[0]).toMatchObject({
      type: "function",
      function: { name: "get_weather", arguments: '{"city":"Oslo"}' },
    });
  });

  it("invalid instruction JSON falls back to the lorem answer", async () => {
    const message = 'x <|instruction_start|>{"messages": [{"text_message": <|instruction_end|>';
    const res = await client.chat.completions.create({ model: MODEL, messages: [{ role: "user", content: message }] });
    expect(res.choices).toHaveLength(1);
    expect(res.choices[0]!.message.content).toBe(`${lorem(loremLength(message))}\n\n${message}`);
  });
});

describe("default responder: n choices (issue 19)", () => {
  const message = "Name three colours";
  const hash = stableHash(message);
  const expected = [`${lorem(loremLength(message))}\n\n${message}`, lorem(loremLength(`choice 1\n${hash}`), 1), lorem(loremLength(`choice 2\n${hash}`), 2)];

  it("JSON: n = 3 gives three choices, indexes 0…2, each its own deterministic text; usage adds them up", async () => {
    const res = await client.chat.completions.create({ model: MODEL, n: 3, messages: [{ role: "user", content: message }] });
    expect(res.choices.map((c) => [c.index, c.message.role, c.message.content, c.finish_reason])).toEqual(expected.map((text, i) => [i, "assistant", text, "stop"]));
    expect(res.usage?.completion_tokens).toBe(expected.reduce((n, t) => n + t.split(/\s+/).filter((w) => w !== "").length, 0));
  });

  it("SSE: the three choices interleave chunk by chunk, and the SDK's stream helper assembles the same texts", async () => {
    const stream = await client.chat.completions.create({ model: MODEL, n: 3, stream: true, messages: [{ role: "user", content: message }] });
    const order: number[] = [];
    const texts = ["", "", ""];
    for await (const c of stream) {
      for (const ch of c.choices) {
        order.push(ch.index);
        texts[ch.index] += ch.delta?.content ?? "";
      }
    }
    expect(texts).toEqual(expected);
    expect(order.slice(0, 9)).toEqual([0, 0, 1, 1, 2, 2, 0, 1, 2]); // role chunk + first token of each, then round-robin
    expect(order.slice(-3)).toEqual([0, 1, 2]);
    const helper = client.chat.completions.stream({ model: MODEL, n: 3, messages: [{ role: "user", content: message }] });
    const final = await helper.finalChatCompletion();
    expect(final.choices.map((c) => c.message.content)).toEqual(expected);
  });

  it("n above 128 is the real API's 400 (param n, integer_above_max_value); n = 128 answers 128 choices", async () => {
    const err = await client.chat.completions.create({ model: MODEL, n: 129, messages: [{ role: "user", content: message }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    const e = err as InstanceType<typeof OpenAI.BadRequestError>;
    expect([e.status, e.code, e.param, (e.error as { message?: string }).message]).toEqual([
      400,
      "integer_above_max_value",
      "n",
      "Invalid 'n': integer above maximum value. Expected a value <= 128, but got 129 instead.",
    ]);
    const res = await client.chat.completions.create({ model: MODEL, n: 128, messages: [{ role: "user", content: message }] });
    expect(res.choices.map((c) => c.index)).toEqual(Array.from({ length: 128 }, (_, i) => i));
  });
});
