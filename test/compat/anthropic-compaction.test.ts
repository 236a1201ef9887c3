/**
 * Anthropic threshold compaction (beta `compact-2026-01-12`, protocols.md 10.2.1) through `@anthropic-ai/sdk` beta
 * messages, on both runtimes: the `compaction` block first when the input reaches the trigger (JSON and SSE), the
 * block echoed back as the compacted conversation, scripted compactions, Bedrock InvokeModel and Vertex rawPredict.
 */
import Anthropic, { type APIError } from "@anthropic-ai/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const SCENARIOS = [
  {
    name: "ac-big",
    steps: [
      { id: "big", match: { compacted: false }, respond: { text: "Here is the plan.", usage: { inputTokens: 180000, outputTokens: 12 } } },
      { id: "small", match: { compacted: true, turn: 2, lastUserMessage: "Go on." }, respond: { text: "Continuing.", usage: { inputTokens: 900 } } },
    ],
  },
  { name: "ac-script", steps: [{ id: "squash", respond: { compaction: { summary: "<summary>The user plans Kyoto.</summary>" } } }] },
];

const EDIT = { edits: [{ type: "compact_20260112" as const, trigger: { type: "input_tokens" as const, value: 150000 } }] };
const client = (path: string) => new Anthropic({ apiKey: "sk-ant-test", baseURL: `${h.url}${path}`, maxRetries: 0 });

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

describe("compact_20260112 with @anthropic-ai/sdk beta messages", () => {
  it("JSON: the answer starts with the compaction block past the trigger; echoed back, it is the compacted conversation", async () => {
    const c = client("/s/ac-big/json");
    const messages: Anthropic.Beta.BetaMessageParam[] = [{ role: "user", content: "Plan the refactor." }];
    const first = await c.beta.messages.create({ model: "claude-opus-4-6", max_tokens: 1024, betas: ["compact-2026-01-12"], context_management: EDIT, messages });
    expect(first.content.map((b) => b.type)).toEqual(["compaction", "text"]);
    expect(first.content[0]).toEqual({ type: "compaction", content: 'Summary of 1 earlier messages (1 from the user). Last user message: "Plan the refactor.".', encrypted_content: null });
    expect(first.stop_reason).toBe("end_turn");
    expect(first.context_management).toEqual({ applied_edits: [] });
    expect(first.usage.iterations).toEqual([
      { type: "compaction", input_tokens: 180000, output_tokens: 15, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, cache_creation: null },
      { type: "message", input_tokens: 180000, output_tokens: 12, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, cache_creation: null, model: first.model },
    ]);
    const next = await c.beta.messages.create({
      model: "claude-opus-4-6",
      max_tokens: 1024,
      betas: ["compact-2026-01-12"],
      context_management: EDIT,
      messages: [...messages, { role: "assistant", content: first.content as Anthropic.Beta.BetaContentBlockParam[] }, { role: "user", content: "Go on." }],
    });
    expect(next.content).toEqual([{ type: "text", text: "Continuing." }]);
    const journal = await h.journal("ac-big", "json");
    expect(journal.map((e) => [e.step, e.canonical.answered.compaction !== undefined, e.canonical.compaction ?? null])).toEqual([
      ["big", true, null],
      ["small", false, { summary: first.content[0]!.type === "compaction" ? first.content[0]!.content : null }],
    ]);
  });

  it("stream: one compaction_delta with the whole summary; finalMessage() has the block and the iterations", async () => {
    const c = client("/s/ac-big/sse");
    const stream = c.beta.messages.stream({
      model: "claude-opus-4-6",
      max_tokens: 1024,
      betas: ["compact-2026-01-12"],
      context_management: EDIT,
      messages: [{ role: "user", content: "Plan the refactor." }],
    });
    const events: Anthropic.Beta.BetaRawMessageStreamEvent[] = [];
    const compactions: string[] = [];
    stream.on("streamEvent", (e) => events.push(e));
    stream.on("compaction", (content) => compactions.push(content));
    const final = await stream.finalMessage();
    // (The SDK's `streamEvent` skips `ping`.)
    expect(events.slice(1, 5).map((e) => [e.type, "content_block" in e ? e.content_block.type : "delta" in e && "type" in e.delta ? e.delta.type : null])).toEqual([
      ["content_block_start", "compaction"],
      ["content_block_delta", "compaction_delta"],
      ["content_block_stop", null],
      ["content_block_start", "text"],
    ]);
    expect(final.content.map((b) => b.type)).toEqual(["compaction", "text"]);
    expect(compactions).toEqual([(final.content[0] as Anthropic.Beta.BetaCompactionBlock).content]);
    expect(final.usage.iterations?.map((i) => i.type)).toEqual(["compaction", "message"]);
    expect(final.context_management).toEqual({ applied_edits: [] });
  });

  it("a scripted compaction alone stops with stop_reason compaction; below the trigger nothing changes", async () => {
    const scripted = await client("/s/ac-script/one").beta.messages.create({ model: "claude-opus-4-6", max_tokens: 64, messages: [{ role: "user", content: "Long story." }] });
    expect([scripted.content, scripted.stop_reason]).toEqual([[{ type: "compaction", content: "<summary>The user plans Kyoto.</summary>", encrypted_content: null }], "compaction"]);
    const plain = await client("").messages.create({ model: "claude-opus-4-6", max_tokens: 64, messages: [{ role: "user", content: "Hello there." }] });
    const below = await client("").beta.messages.create({
      model: "claude-opus-4-6",
      max_tokens: 64,
      betas: ["compact-2026-01-12"],
      context_management: EDIT,
      messages: [{ role: "user", content: "Hello there." }],
    });
    expect(below.content).toEqual(plain.content);
    expect(below.usage).toEqual(plain.usage);
  });

  it("a trigger below 50000 gets a 400", async () => {
    const err = await client("")
      .beta.messages.create({
        model: "claude-opus-4-6",
        max_tokens: 64,
        betas: ["compact-2026-01-12"],
        context_management: { edits: [{ type: "compact_20260112", trigger: { type: "input_tokens", value: 1000 } }] },
        messages: [{ role: "user", content: "hi" }],
      })
      .catch((e: unknown) => e);
    expect((err as APIError).status).toBe(400);
    expect((err as APIError).error).toMatchObject({
      type: "error",
      error: { type: "invalid_request_error", message: "context_management.edits.0.trigger.value: Input should be greater than or equal to 50000" },
    });
  });
});

describe("Bedrock InvokeModel and Vertex rawPredict take the same body", () => {
  const body = (extra: Record<string, unknown>) => JSON.stringify({ max_tokens: 64, context_management: EDIT, messages: [{ role: "user", content: "Plan the refactor." }], ...extra });

  it("Bedrock InvokeModel: the compaction block first", async () => {
    const res = await fetch(`${h.url}/s/ac-big/bedrock/model/anthropic.claude-opus-4-6-v1:0/invoke`, {
      method: "POST",
      headers: { authorization: "AWS4-HMAC-SHA256 Credential=x", "content-type": "application/json" },
      body: body({ anthropic_version: "bedrock-2023-05-31", anthropic_beta: ["compact-2026-01-12"] }),
    });
    expect(res.status).toBe(200);
    const json = (await res.json()) as { content: { type: string }[] };
    expect(json.content.map((b) => b.type)).toEqual(["compaction", "text"]);
  });

  it("Vertex rawPredict: the compaction block first", async () => {
    const res = await fetch(`${h.url}/s/ac-big/vertex/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-opus-4-6:rawPredict`, {
      method: "POST",
      headers: { authorization: "Bearer ya29.x", "content-type": "application/json" },
      body: body({ anthropic_version: "vertex-2023-10-16" }),
    });
    expect(res.status).toBe(200);
    const json = (await res.json()) as { content: { type: string }[] };
    expect(json.content.map((b) => b.type)).toEqual(["compaction", "text"]);
  });
});
