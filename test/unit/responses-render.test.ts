/**
 * Pure rendering of canonical replies into Responses objects and SSE transcripts, and of embedding vectors.
 */
import { describe, expect, it } from "vitest";
import type { Reply } from "../../src/canonical/outcome";
import { hashVector, promptTokens, toBase64 } from "../../src/providers/openai/embeddings/render";
import { bodyOnce, buildResponse, outputItems, renderResponseJson, renderResponseRaw, responseId, responseIdOfItem } from "../../src/providers/openai/responses/render-json";
import { replayEvents } from "../../src/providers/openai/responses/replay";
import { renderResponseEvents, renderResponseStreamError } from "../../src/providers/openai/responses/render-stream";
import type { ResponsesRequest } from "../../src/providers/openai/responses/wire";
import type { RenderContext } from "../../src/providers/types";
import type { ScenarioResponse } from "../../src/scenario/schema";
import { resolveReply } from "../../src/scenario/engine";
import { req } from "./fixtures";

const reply = (respond: ScenarioResponse, seed = "s/default/step-1/1"): Reply => resolveReply(undefined, { respond }, req({ endpoint: "responses", model: "gpt-4.1" }), seed);

const ctx = (body: Partial<ResponsesRequest["body"]> = {}): RenderContext<ResponsesRequest> => ({
  wire: { body: { model: "gpt-4.1", ...body }, items: [], history: [] },
  request: req({ endpoint: "responses" }),
  requestId: "req_1",
  created: 1_700_000_000,
});

const events = (r: Reply, c = ctx()) => renderResponseEvents(r, c).map((e) => ({ ...e, json: JSON.parse(e.data) }));

describe("outputItems and ids", () => {
  it("orders reasoning, message, calls; ids share the response's root", () => {
    const r = reply({ reasoning: "Hmm.", text: "Checking.", toolCalls: [{ name: "a" }, { id: "call_x", name: "b", arguments: "{" }] });
    const items = outputItems(r);
    expect(items.map((i) => i.type)).toEqual(["reasoning", "message", "function_call", "function_call"]);
    const id = responseId(r);
    expect(id).toMatch(/^resp_[0-9a-f]{50}$/);
    for (const item of items) expect(responseIdOfItem(item.id)).toBe(id);
    expect(items.map((i) => i.id.slice(-2))).toEqual(["00", "01", "02", "03"]);
    for (const item of items) expect(item.id.slice(item.id.indexOf("_") + 1, -2)).toBe(id.slice(5, -2));
    expect(items[3]).toMatchObject({ call_id: "call_x", arguments: "{", status: "completed" });
    expect(items[2]).toMatchObject({ call_id: expect.stringMatching(/^call_[0-9A-Za-z]{24}$/), arguments: "{}" });
    expect(responseIdOfItem("msg_abc")).toBeUndefined();
  });

  it("leaves out an empty message when the reply only calls tools", () => {
    expect(outputItems(reply({ toolCalls: [{ name: "a" }] })).map((i) => i.type)).toEqual(["function_call"]);
    expect(outputItems(reply({})).map((i) => i.type)).toEqual(["message"]);
  });

  it("gives different seeds different ids, the same seed the same", () => {
    expect(responseId(reply({}, "a"))).toBe(responseId(reply({}, "a")));
    expect(responseId(reply({}, "a"))).not.toBe(responseId(reply({}, "b")));
  });
});

describe("buildResponse", () => {
  it("echoes request settings with the real defaults", () => {
    const res = buildResponse(reply({ text: "x" }), ctx({ temperature: 0.3, store: false, instructions: "Be nice.", metadata: { k: "v" } }));
    expect(res).toMatchObject({
      object: "response",
      created_at: 1_700_000_000,
      status: "completed",
      instructions: "Be nice.",
      temperature: 0.3,
      top_p: 1,
      store: false,
      tool_choice: "auto",
      tools: [],
      parallel_tool_calls: true,
      previous_response_id: null,
      metadata: { k: "v" },
      usage: { input_tokens: 64, output_tokens: 32, total_tokens: 96 },
    });
  });

  it.each([
    ["length", "max_output_tokens"],
    ["content_filter", "content_filter"],
  ] as const)("finishReason %s → incomplete (%s)", (finishReason, reason) => {
    const res = buildResponse(reply({ text: "x", finishReason }), ctx());
    expect(res.status).toBe("incomplete");
    expect(res.incomplete_details).toEqual({ reason });
    expect(res.output[0]).toMatchObject({ type: "message", status: "incomplete" });
  });
});

describe("renderResponseEvents", () => {
  it("numbers events from 0, names each by its type, and ends with the full response", () => {
    const evs = events(reply({ text: "a b c", toolCalls: [{ name: "f", arguments: { x: "0123456789abcdef" } }] }));
    evs.forEach((e, i) => {
      expect(e.event).toBe(e.json.type);
      expect(e.json.sequence_number).toBe(i);
    });
    const last = evs.at(-1)!.json;
    expect(last.type).toBe("response.completed");
    expect(last.response.output.map((o: { type: string }) => o.type)).toEqual(["message", "function_call"]);
    expect(evs[0]!.json.response).toMatchObject({ status: "in_progress", output: [], usage: null });
    const args = evs
      .filter((e) => e.json.type === "response.function_call_arguments.delta")
      .map((e) => e.json.delta)
      .join("");
    expect(args).toBe('{"x":"0123456789abcdef"}');
  });

  it("carries words on content deltas only, for pacing", () => {
    const evs = events(reply({ text: "one two three", stream: { chunkWords: 2 } }));
    expect(evs.filter((e) => (e.words ?? 0) > 0).map((e) => [e.json.type, e.json.delta, e.words])).toEqual([
      ["response.output_text.delta", "one two", 2],
      ["response.output_text.delta", " three", 1],
    ]);
  });

  it("ends with response.incomplete when the reply was cut", () => {
    expect(events(reply({ text: "x", finishReason: "length" })).at(-1)!.json.type).toBe("response.incomplete");
  });

  it("streams a refusal through refusal.delta/done inside its content part", () => {
    const types = events(reply({ refusal: "No." })).map((e) => e.json.type);
    expect(types.slice(2, -1)).toEqual([
      "response.output_item.added",
      "response.content_part.added",
      "response.refusal.delta",
      "response.refusal.done",
      "response.content_part.done",
      "response.output_item.done",
    ]);
  });
});

describe("renderResponseStreamError", () => {
  it("sends error then response.failed, numbered after what was sent, with the finished items", () => {
    const r = reply({ reasoning: "Hmm.", text: "a b" });
    const all = renderResponseEvents(r, ctx());
    const sent = all.slice(0, 8); // up to and including the reasoning item's output_item.done
    const out = renderResponseStreamError({ kind: "stream_error", message: "boom" }, ctx(), r, sent);
    const [err, failed] = out.map((e) => JSON.parse(e.data));
    expect(out.map((e) => e.event)).toEqual(["error", "response.failed"]);
    // The live API's shape (nested under `error`), not the reference's flat one: openai-node 5+ throws on it.
    expect(err).toEqual({
      type: "error",
      sequence_number: 8,
      error: { type: "server_error", code: "server_error", message: "boom", param: null },
    });
    expect(failed.sequence_number).toBe(9);
    expect(failed.response).toMatchObject({ status: "failed", error: { code: "server_error", message: "boom" }, usage: null });
    expect(failed.response.output.map((o: { type: string }) => o.type)).toEqual(["reasoning"]);
  });
});

describe("embedding vectors", () => {
  it("are unit length, float32-exact, and shorter ones are renormalised prefixes", () => {
    const v = hashVector({ kind: "text", text: "hello" });
    expect(v).toHaveLength(1536);
    expect(Math.hypot(...v)).toBeCloseTo(1, 6);
    expect(v.every((x) => Math.fround(x) === x)).toBe(true);
    const s = hashVector({ kind: "text", text: "hello" }, 8);
    const scale = Math.hypot(...v.slice(0, 8));
    s.forEach((x, i) => expect(x).toBeCloseTo(v[i]! / scale, 6));
  });

  it("encode as base64 little-endian float32", () => {
    expect(toBase64([1, -2])).toBe(Buffer.from([0, 0, 0x80, 0x3f, 0, 0, 0, 0xc0]).toString("base64"));
  });

  it("count prompt tokens deterministically", () => {
    expect(
      promptTokens([
        { kind: "text", text: "abcdefgh" },
        { kind: "text", text: "a" },
        { kind: "tokens", tokens: [1, 2, 3] },
      ]),
    ).toBe(6);
  });
});

describe("response object fields (as recorded, March 2026)", () => {
  it("carries the recorded fields in order; service_tier auto while in progress, default when done; completed_at set when done", () => {
    const evs = events(reply({ text: "Hi there." }));
    const created = evs[0]!.json.response;
    const done = evs.at(-1)!.json.response;
    expect(Object.keys(done)).toEqual([
      "id",
      "object",
      "created_at",
      "status",
      "background",
      "completed_at",
      "error",
      "frequency_penalty",
      "incomplete_details",
      "instructions",
      "max_output_tokens",
      "max_tool_calls",
      "model",
      "output",
      "parallel_tool_calls",
      "presence_penalty",
      "previous_response_id",
      "prompt_cache_key",
      "prompt_cache_retention",
      "reasoning",
      "safety_identifier",
      "service_tier",
      "store",
      "temperature",
      "text",
      "tool_choice",
      "tools",
      "top_logprobs",
      "top_p",
      "truncation",
      "usage",
      "user",
      "metadata",
    ]);
    expect(created).toMatchObject({ status: "in_progress", completed_at: null, service_tier: "auto", frequency_penalty: 0, presence_penalty: 0, prompt_cache_retention: null });
    expect(done).toMatchObject({ status: "completed", completed_at: 1_700_000_000, service_tier: "default" });
    expect(evs[0]!.json.response).not.toHaveProperty("billing");
  });

  it("the JSON body adds billing after background", () => {
    const body = renderResponseJson(reply({ text: "x" }), ctx()) as Record<string, unknown>;
    expect(Object.keys(body).slice(0, 7)).toEqual(["id", "object", "created_at", "status", "background", "billing", "completed_at"]);
    expect(body.billing).toEqual({ payer: "developer" });
  });

  it("a body made once (bodyOnce) is the JSON body, sent for that answer only; its replay carries no billing and keeps the key order", () => {
    const r = reply({ text: "x" });
    const c = ctx();
    const made = bodyOnce(r, c);
    expect(made.text).toBe(JSON.stringify(renderResponseJson(r, c)));
    expect(renderResponseRaw(r, c)).toEqual({ body: made.text, contentType: "application/json" });
    expect(renderResponseRaw(r, ctx())).toBeUndefined(); // another request's context
    expect(renderResponseRaw(reply({ text: "x" }), c)).toBeUndefined(); // another reply
    // Replayed as a response stored without it (an older mockllm's) is.
    const replayed = replayEvents(made.text, undefined)!;
    expect(JSON.parse(replayed.at(-1)!.data).response).not.toHaveProperty("billing");
    expect(replayed).toEqual(replayEvents(JSON.stringify(buildResponse(r, c)), undefined));
    // In the live stream's key order, not the validating schema's.
    expect(JSON.stringify(JSON.parse(replayed.at(-1)!.data).response)).toBe(JSON.stringify(buildResponse(r, c)));
  });

  it("*.delta events carry a deterministic obfuscation (delta + padding ≡ 0 mod 16) unless include_obfuscation is false", () => {
    const r = reply({ reasoning: "Think.", text: "Hello there world", toolCalls: [{ name: "f", arguments: { city: "Paris" } }] });
    const deltas = events(r).filter((e) => e.json.type.endsWith(".delta"));
    expect(new Set(deltas.map((e) => e.json.type))).toEqual(new Set(["response.reasoning_summary_text.delta", "response.output_text.delta", "response.function_call_arguments.delta"]));
    for (const e of deltas) expect((Array.from(e.json.delta as string).length + e.json.obfuscation.length) % 16).toBe(0);
    expect(events(r)).toEqual(events(r));
    const plain = events(r, ctx({ stream_options: { include_obfuscation: false } }));
    expect(plain.some((e) => "obfuscation" in e.json)).toBe(false);
  });

  it("a delta's padding counts code points and its text is JSON-escaped: pairs, lone surrogates, quotes, plain text", () => {
    for (const text of ["Wave 👋 hello 🌍 there", "lone \ud800 high and \udc00 low", 'say "hi" \\ back\nnow', "plain words only here"]) {
      const deltas = events(reply({ reasoning: text, text })).filter((e) => e.json.type.endsWith("_text.delta"));
      expect(deltas.map((e) => e.json.delta).join("")).toBe(text + text);
      for (const e of deltas) expect((Array.from(e.json.delta as string).length + e.json.obfuscation.length) % 16).toBe(0);
    }
  });

  it("function_call_arguments.done has no name; echoed function tools are normalised", () => {
    const c = ctx({ tools: [{ type: "function", name: "f", parameters: { type: "object" } }, { type: "web_search" }] });
    const evs = events(reply({ toolCalls: [{ name: "f", arguments: { a: 1 } }] }), c);
    const done = evs.find((e) => e.json.type === "response.function_call_arguments.done")!.json;
    expect(Object.keys(done)).toEqual(["type", "sequence_number", "item_id", "output_index", "arguments"]);
    expect(evs[0]!.json.response.tools).toEqual([{ type: "function", description: null, name: "f", parameters: { type: "object" }, strict: true }, { type: "web_search" }]);
  });

  it("reasoning items carry content: [], and encrypted_content when include asks for it", () => {
    const r = reply({ reasoning: "Hmm.", text: "x" });
    expect(buildResponse(r, ctx()).output[0]).toEqual({ id: expect.stringMatching(/^rs_/), type: "reasoning", content: [], summary: [{ type: "summary_text", text: "Hmm." }] });
    const withEnc = buildResponse(r, ctx({ include: ["reasoning.encrypted_content"] })).output[0] as Record<string, unknown>;
    expect(Object.keys(withEnc)).toEqual(["id", "type", "content", "encrypted_content", "summary"]);
    expect(withEnc.encrypted_content).toMatch(/^gAAAAAB[0-9A-Za-z]{120}$/);
    expect(buildResponse(r, ctx({ include: ["reasoning.encrypted_content"] })).output[0]).toEqual(withEnc);
  });
});
