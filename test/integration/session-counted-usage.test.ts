/**
 * The Workers session object counts a counting scenario's reply itself (issue 58): a turn names a reply counter the
 * object's isolate has not loaded (`cl100k_base` here, loaded by nothing else in this file), the object loads it
 * before deciding — holding later calls back, so turns stay in arrival order — and journals the counted usage.
 */
import { encode } from "gpt-tokenizer/encoding/cl100k_base";
import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { NextInput, NextResult } from "../../src/session/core";
import { ScenarioSchema } from "../../src/scenario/schema";

const TEXT = "Paris is the capital of France.";
const scenario = ScenarioSchema.parse({ name: "counted", usage: "count", steps: [{ consume: false, respond: { text: TEXT } }] });

function input(i: number): NextInput {
  return {
    scenario: "counted",
    session: "s",
    version: "v1",
    document: scenario,
    request: {
      provider: "openai",
      endpoint: "chat.completions",
      model: "gpt-4-0613",
      stream: false,
      system: "",
      messages: [{ role: "user", text: `message ${i}` }],
      tools: [],
      reasoning: "disabled",
      headers: {},
    },
    wire: { method: "POST", path: "/v1/chat/completions", headers: {}, body: { i } },
    statuses: { mismatch: 400 },
    count: { input: 10 + i, output: "cl100k_base" },
  };
}

describe("SessionObject: counted usage", () => {
  it("loads the counter it lacks, counts the decided reply, journals it, in arrival order", async () => {
    const stub = env.SESSIONS.getByName("counted/s") as unknown as {
      next(i: NextInput): Promise<NextResult>;
      requests(): Promise<{ seq: number; request: { body: unknown }; canonical: { usage: { inputTokens: number; outputTokens: number } } }[]>;
    };
    const results = await Promise.all([1, 2, 3].map((i) => stub.next(input(i))));
    const output = encode(TEXT).length;
    expect(results.map((r) => [r.seq, r.outcome.kind === "reply" ? [r.outcome.reply.usage.inputTokens, r.outcome.reply.usage.outputTokens, r.outcome.reply.usageCounted] : null])).toEqual([
      [1, [11, output, true]],
      [2, [12, output, true]],
      [3, [13, output, true]],
    ]);
    const journal = await stub.requests();
    expect(journal.map((e) => [e.seq, e.request.body, e.canonical.usage.inputTokens, e.canonical.usage.outputTokens])).toEqual([
      [1, { i: 1 }, 11, output],
      [2, { i: 2 }, 12, output],
      [3, { i: 3 }, 13, output],
    ]);
  });
});
