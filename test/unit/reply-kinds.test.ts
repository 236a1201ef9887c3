// The reply-kind table (src/scenario/reply-kinds.ts) is the one place a kind is declared: the scenario schema, the
// engine, the journal's canonical view and verify all loop over it. A throwaway kind added to a test-local copy of the
// table (mocked in for the real module) reaches each of them with no other file knowing its name.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import type { Reply } from "../../src/canonical/outcome";
import { wireToolCallIds } from "../../src/providers/registry";
import { resolveReply, stepReply } from "../../src/scenario/engine";
import { scenarioJsonSchema } from "../../src/scenario/json-schema";
import { kindFields, MESSAGE_KINDS, OTHER_KINDS, REPLY_KIND_LOOPS, REPLY_KINDS } from "../../src/scenario/reply-kinds";
import { ResponseSchema, ScenarioSchema, type Step } from "../../src/scenario/schema";
import { canonicalView } from "../../src/session/canonical-view";
import { describeRespond } from "../../src/session/verify";
import { req } from "./fixtures";

/** The throwaway kind: its field, the endpoint it alone answers, what the view records of it and verify's words. */
const { SPARKLE } = await vi.hoisted(async () => {
  const { z } = await import("zod");
  type Sparkle = { colour: string };
  return {
    SPARKLE: {
      fields: {
        sparkle: z
          .strictObject({ colour: z.string().describe("The sparkle's colour.") })
          .optional()
          .describe("A throwaway kind (test/unit/reply-kinds.test.ts)."),
      },
      answers: { endpoints: ["embeddings"] as const, text: (reply: object) => `sparkles in ${(reply as { sparkle?: Sparkle }).sparkle?.colour ?? "grey"}` },
      describe: { words: (s: { sparkle?: Sparkle }) => (s.sparkle === undefined ? [] : [`sparkle ${s.sparkle.colour}`]) },
    },
  };
});

vi.mock("../../src/scenario/reply-kinds", async (importOriginal) => {
  const real = await importOriginal<typeof import("../../src/scenario/reply-kinds")>();
  const OTHER_KINDS = { ...real.OTHER_KINDS, sparkle: SPARKLE };
  const REPLY_KINDS = { ...real.MESSAGE_KINDS, ...OTHER_KINDS };
  return { ...real, OTHER_KINDS, REPLY_KINDS, REPLY_KIND_LOOPS: real.kindLoops(REPLY_KINDS) };
});

/** The reply's own options, declared in src/scenario/schema.ts between the message's kinds and the others. */
const OPTIONS = ["finishReason", "stopSequences", "usage", "model", "latencyMs", "stream", "headers"];

function respondProperties(): string[] {
  const defs = scenarioJsonSchema() as { properties: { steps: { items: { properties: { respond: { properties: Record<string, unknown> } } } } } };
  return Object.keys(defs.properties.steps.items.properties.respond.properties);
}

describe("the reply-kind table", () => {
  it("`respond` is built from it: the message's kinds, the reply's options, the other kinds, in table order, and nothing else", () => {
    const message = Object.values(MESSAGE_KINDS).flatMap((k) => Object.keys(k.fields));
    const other = Object.values(OTHER_KINDS).flatMap((k) => Object.keys(k.fields));
    expect(message).toEqual(["text", "json", "reasoning", "reasoningField", "toolCalls", "refusal"]);
    expect(respondProperties()).toEqual([...message, ...OPTIONS, ...other]);
    expect(Object.keys(ResponseSchema.shape)).toEqual([...message, ...OPTIONS, ...other]);
    expect(Object.keys(kindFields(REPLY_KINDS))).toEqual([...message, ...other]);
  });

  it("every kind the schema accepts has one entry, and every entry's page exists", () => {
    const owner = new Map(Object.entries(REPLY_KINDS).flatMap(([name, k]) => Object.keys(k.fields).map((f) => [f, name] as const)));
    for (const field of respondProperties()) expect(OPTIONS.includes(field) || owner.has(field), field).toBe(true);
    for (const [name, k] of Object.entries(REPLY_KINDS)) {
      expect(Object.keys(k.fields)[0], `${name}: its own field comes first`).toBe(name);
      if (k.doc !== undefined) expect(existsSync(join(import.meta.dirname, "../../docs", k.doc)), `${name}: docs/${k.doc}`).toBe(true);
    }
  });

  it("each endpoint is answered by at most one kind, and only the message's kinds make its text", () => {
    const endpoints = Object.values(REPLY_KINDS).flatMap((k) => k.answers?.endpoints ?? []);
    expect(new Set(endpoints).size).toBe(endpoints.length);
    expect(REPLY_KIND_LOOPS.answeredBy.size).toBe(endpoints.length);
    const real = Object.entries(REPLY_KINDS).filter(([name]) => name !== "sparkle");
    expect(real.flatMap(([, k]) => k.answers?.endpoints ?? []).sort()).toEqual(["decisions", "images", "moderations", "rerank", "speech", "transcriptions"]);
    for (const k of Object.values(OTHER_KINDS)) expect(k.text).toBeUndefined();
  });

  it("verify words lead with the compaction and the tool calls, then the table's order", () => {
    const step: Step = {
      respond: { text: "Hi", refusal: "No", toolCalls: [{ name: "f", arguments: { a: 1 } }], compaction: { summary: "S" }, rerank: { order: [1, 0] }, embeddings: [[1]] },
    };
    expect(describeRespond(step)).toBe('compaction "S" + tool call f {"a":1} + text "Hi" + refusal "No" + 1 embedding(s) + rerank [1, 0]');
  });
});

describe("a kind added to the table reaches every place that loops over it", () => {
  const doc = { name: "sparkly", steps: [{ id: "shine", respond: { sparkle: { colour: "red" } } }] };

  it("the scenario schema accepts it, and the JSON Schema lists it with its description", () => {
    const scenario = ScenarioSchema.parse(doc);
    expect(scenario.steps[0]!.respond).toEqual({ sparkle: { colour: "red" } });
    expect(ScenarioSchema.safeParse({ ...doc, steps: [{ respond: { sparkle: { color: "red" } } }] }).success).toBe(false);
    expect(respondProperties().at(-1)).toBe("sparkle");
  });

  it("the engine puts it on the reply; the endpoint it answers journals its text; verify names it", () => {
    const scenario = ScenarioSchema.parse(doc);
    const step = scenario.steps[0]!;
    const reply = stepReply(scenario, step, req({ endpoint: "embeddings" }), "seed", "s1") as Reply & { sparkle?: unknown };
    expect(reply.sparkle).toEqual({ colour: "red" });
    expect(reply.text).toBe("");
    const view = (endpoint: "embeddings" | "chat.completions", r: Reply) => canonicalView(req({ endpoint }), { kind: "reply", reply: r }, wireToolCallIds).answered;
    expect(view("embeddings", reply)).toEqual({ text: "sparkles in red", toolCalls: [] });
    expect(view("embeddings", resolveReply(undefined, undefined, req(), "seed"))).toEqual({ text: "sparkles in grey", toolCalls: [] });
    expect(view("chat.completions", reply)).toEqual({ text: null, toolCalls: [] });
    expect(describeRespond(step)).toBe("sparkle red");
  });
});
