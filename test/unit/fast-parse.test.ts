import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { anthropicWire } from "../../src/providers/anthropic/wire";
import { converseWire } from "../../src/providers/bedrock/wire";
import { rerankWire } from "../../src/providers/cohere/wire";
import { geminiWire } from "../../src/providers/gemini/wire";
import { ollamaWire } from "../../src/providers/ollama/wire";
import { chatWire } from "../../src/providers/openai/chat/wire";
import { embeddingsWire } from "../../src/providers/openai/embeddings/wire";
import { responsesWire } from "../../src/providers/openai/responses/wire";
import { handedToZod, safeParseFast } from "../../src/util/fast-parse";

const { ChatRequestSchema } = chatWire();
const { EmbeddingsRequestSchema } = embeddingsWire();
const { ResponsesRequestSchema } = responsesWire();
const { MessagesRequestSchema } = anthropicWire();
const { ConverseRequestSchema } = converseWire();
const { RerankV2Schema } = rerankWire();
const { GenerateContentRequestSchema } = geminiWire();
const { ChatRequestSchema: OllamaChatSchema } = ollamaWire();

/**
 * A value with its keys in order, `undefined` and any prototype other than Object's shown: what "zod's output,
 * exactly" is compared by (a `__proto__` key assigned rather than skipped would change an object's prototype).
 */
function show(v: unknown): string {
  if (v === undefined) return "undefined";
  if (Array.isArray(v)) return `[${v.map(show).join(",")}]`;
  if (typeof v === "object" && v !== null) {
    const proto = Object.getPrototypeOf(v) === Object.prototype ? "" : `proto ${show(Object.getPrototypeOf(v))} `;
    return `${proto}{${Object.keys(v)
      .map((k) => `${JSON.stringify(k)}:${show((v as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  }
  return typeof v === "number" && !Number.isFinite(v) ? String(v) : JSON.stringify(v);
}

/**
 * Runs `fn` as on Workers, where zod cannot compile: the parts `safeParseFast` hands to zod are interpreted there (and
 * where such a part calls `safeParseFast` again, as an Anthropic content block does, its parts too).
 */
function asWorkers<T>(fn: () => T): T {
  const allowsEval = z.core.util.allowsEval;
  Object.defineProperty(allowsEval, "value", { value: false, configurable: true });
  try {
    return fn();
  } finally {
    delete (allowsEval as { value?: boolean }).value;
  }
}

const SCHEMAS: [string, z.ZodType, unknown][] = [
  [
    "OpenAI Chat",
    ChatRequestSchema,
    {
      model: "gpt-4o",
      stream: true,
      stream_options: { include_usage: true },
      n: 1,
      max_tokens: 10,
      temperature: 0.5,
      tools: [{ type: "function", function: { name: "get_weather", parameters: { type: "object" } } }],
      messages: [
        { role: "system", content: "be brief" },
        { role: "user", content: [{ type: "text", text: "hi" }] },
        { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "get_weather", arguments: "{}" } }] },
        { role: "tool", tool_call_id: "c1", content: "sunny" },
      ],
    },
  ],
  [
    "OpenAI Responses",
    ResponsesRequestSchema,
    {
      model: "gpt-5",
      instructions: "be brief",
      stream: false,
      store: true,
      reasoning: { effort: "low", summary: "auto" },
      tools: [{ type: "function", name: "read", parameters: { type: "object" } }],
      input: [
        { role: "user", content: [{ type: "input_text", text: "hi" }] },
        { type: "function_call", call_id: "c1", name: "read", arguments: "{}" },
        { type: "function_call_output", call_id: "c1", output: "ok" },
      ],
    },
  ],
  [
    "Anthropic Messages",
    MessagesRequestSchema,
    {
      model: "claude-sonnet-4-5",
      max_tokens: 100,
      system: [{ type: "text", text: "be brief" }],
      thinking: { type: "enabled", budget_tokens: 1024 },
      tools: [{ name: "read", input_schema: { type: "object" } }],
      messages: [
        { role: "user", content: "hi" },
        {
          role: "assistant",
          content: [
            { type: "thinking", thinking: "hm", signature: "s" },
            { type: "tool_use", id: "t1", name: "read", input: { path: "a" } },
          ],
        },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: [{ type: "text", text: "ok" }] }] },
      ],
    },
  ],
  [
    "Gemini",
    GenerateContentRequestSchema,
    {
      contents: [
        { role: "user", parts: [{ text: "hi" }] },
        { role: "model", parts: [{ functionCall: { name: "read", args: { path: "a" } } }] },
        { role: "user", parts: [{ functionResponse: { name: "read", response: { ok: true } } }] },
      ],
      systemInstruction: { parts: [{ text: "be brief" }] },
      generationConfig: { temperature: 0.2, maxOutputTokens: 10 },
      tools: [{ functionDeclarations: [{ name: "read" }] }],
    },
  ],
  [
    "Bedrock Converse",
    ConverseRequestSchema,
    {
      messages: [
        { role: "user", content: [{ text: "hi" }] },
        { role: "assistant", content: [{ toolUse: { toolUseId: "t1", name: "read", input: {} } }] },
        { role: "user", content: [{ toolResult: { toolUseId: "t1", content: [{ text: "ok" }] } }] },
      ],
      system: [{ text: "be brief" }],
      inferenceConfig: { maxTokens: 10 },
      toolConfig: { tools: [{ toolSpec: { name: "read", inputSchema: { json: {} } } }] },
    },
  ],
  ["Ollama chat", OllamaChatSchema, { model: "llama3", stream: false, messages: [{ role: "user", content: "hi" }], options: { temperature: 0 } }],
  ["OpenAI embeddings", EmbeddingsRequestSchema, { model: "text-embedding-3-small", input: ["a", "b"], dimensions: 8 }],
  ["Cohere rerank", RerankV2Schema, { model: "rerank-v3.5", query: "q", documents: ["a", "b"], top_n: 1 }],
];

/** Replacement values a mutation draws from: every JSON kind, edge numbers, a non-finite one (`1e400`). */
const ODD: unknown[] = [null, 0, -1, 1.5, 2 ** 60, JSON.parse("1e400"), "", "x", "user", "text", true, false, [], [1], {}, { type: "text" }];

function mutate(value: unknown, rand: () => number): unknown {
  const pick = <T>(xs: T[]) => xs[Math.floor(rand() * xs.length)]!;
  if (Array.isArray(value)) {
    const out = value.map((x) => (rand() < 0.3 ? mutate(x, rand) : x));
    const r = rand();
    if (r < 0.1) out.pop();
    else if (r < 0.2 && out.length > 0) out.push(out[0]);
    else if (r < 0.25) out.push(pick(ODD));
    return out;
  }
  if (typeof value === "object" && value !== null) {
    // Built by JSON.parse, so `__proto__` is an own key as a client's JSON makes it.
    const out = JSON.parse(JSON.stringify(value)) as Record<string, unknown>;
    for (const key of Object.keys(out)) {
      const r = rand();
      if (r < 0.08) delete out[key];
      else if (r < 0.16) out[key] = pick(ODD);
      else if (r < 0.5) out[key] = mutate(out[key], rand);
    }
    const r = rand();
    if (r < 0.1) out[`extra_${Math.floor(rand() * 3)}`] = pick(ODD);
    if (r > 0.95) return { ...JSON.parse('{"__proto__":{"polluted":1}}'), ...out };
    return out;
  }
  return rand() < 0.5 ? pick(ODD) : value;
}

describe("safeParseFast", () => {
  it("answers by the closures on Node too, where zod could compile its own parsers; zod only for input they refuse (wave 29)", () => {
    const input = { model: "gpt-4o", messages: [{ role: "user", content: "hi", extra: 1 }], z: 2 };
    expect(z.core.util.allowsEval.value).toBe(true);
    const schema = chatWire().ChatRequestSchema;
    const zods = vi.spyOn(schema, "safeParse");
    try {
      expect(show(safeParseFast(schema, input).data)).toBe('{"model":"gpt-4o","messages":[{"role":"user","content":"hi","extra":1}],"z":2}');
      expect(zods).toHaveBeenCalledTimes(0);
      expect(safeParseFast(schema, { model: "gpt-4o", messages: [{ role: "robot" }] }).success).toBe(false);
      expect(zods).toHaveBeenCalledTimes(1);
    } finally {
      zods.mockRestore();
    }
    expect(show(safeParseFast(ChatRequestSchema, input).data)).toBe(show(ChatRequestSchema.safeParse(input).data));
  });

  it.each(SCHEMAS)("%s: answers as zod does (success, and the output with its key order) on 1,500 seeded mutations, zod compiled and interpreted", (_name, schema, base) => {
    let seed = 11;
    const rand = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    let accepted = 0;
    for (let n = 0; n < 1500; n++) {
      const input = n === 0 ? base : mutate(base, rand);
      // As Node runs it (the parts handed to zod compiled) and as Workers do (interpreted), against zod both ways.
      const fasts = [safeParseFast(schema, input), asWorkers(() => safeParseFast(schema, input))];
      for (const fast of fasts) {
        for (const jitless of [false, true]) {
          const slow = schema.safeParse(input, { jitless } as z.core.ParseContext<z.core.$ZodIssue>);
          expect([show(input), fast.success]).toEqual([show(input), slow.success]);
          if (slow.success) expect(show(fast.data)).toBe(show(slow.data));
          else expect(fast.error?.issues).toEqual(slow.error.issues);
        }
      }
      if (fasts[0]!.success) accepted++;
    }
    // Both sides of the comparison are exercised.
    expect(accepted).toBeGreaterThan(150);
    expect(accepted).toBeLessThan(1500);
  });

  it("models every part of the request schemas but transforms and the like, which zod parses itself", () => {
    expect(Object.fromEntries(SCHEMAS.map(([name, schema]) => [name, handedToZod(schema)]))).toEqual({
      "OpenAI Chat": [],
      "OpenAI Responses": [],
      // Content blocks are a transform of any value (src/providers/anthropic/wire.ts ContentBlockSchema): the closures
      // call it, and it parses each known block with the closures again.
      "Anthropic Messages": [],
      Gemini: [],
      "Bedrock Converse": [],
      "Ollama chat": [],
      "OpenAI embeddings": [],
      "Cohere rerank": [],
    });
  });

  it("hands what it does not model to zod: a transform, a default, a refinement", () => {
    const schema = z.looseObject({ n: z.string().transform(Number), d: z.string().default("x"), r: z.number().refine((v) => v > 1) });
    expect(safeParseFast(schema, { n: "2", r: 2, k: 1 })).toEqual(schema.safeParse({ n: "2", r: 2, k: 1 }));
    expect(safeParseFast(schema, { n: "2", r: 0 }).success).toBe(false);
    const optionalDefault = z.looseObject({ o: z.string().default("d").optional(), e: z.exactOptional(z.string()) });
    expect(safeParseFast(optionalDefault, {})).toEqual(optionalDefault.safeParse({}));
    expect(handedToZod(optionalDefault)).toEqual([""]); // a default in the shape: the whole object
    expect(handedToZod(z.looseObject({ e: z.exactOptional(z.string()) }))).toEqual([".e"]);
    const part = z.looseObject({ a: z.string(), t: z.string().transform((s) => s.length) });
    expect(safeParseFast(part, { a: "x", t: "abc" })).toEqual({ success: true, data: { a: "x", t: 3 } });
  });

  it("runs a transform of any value as zod does, and hands the input to zod when the transform adds an issue", () => {
    const block = z.unknown().transform((input, ctx) => {
      if (typeof input !== "number") {
        ctx.addIssue({ code: "custom", message: "not a number" });
        return z.NEVER;
      }
      return input * 2;
    });
    const schema = z.looseObject({ b: z.array(block) });
    expect(handedToZod(schema)).toEqual([]);
    expect(safeParseFast(schema, { b: [1, 2] })).toEqual({ success: true, data: { b: [2, 4] } });
    const refused = safeParseFast(schema, { b: [1, "x"] });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues).toEqual(schema.safeParse({ b: [1, "x"] }).error?.issues);
    // A transform of a typed value is zod's: the value is checked before the function runs.
    expect(handedToZod(z.looseObject({ t: z.string().transform((s) => s.length) }))).toEqual([".t"]);
  });

  it("parses a record of string keys as zod does: keys in order, `__proto__` skipped, odd objects handed to zod", () => {
    const schema = z.looseObject({ r: z.record(z.string(), z.number()) });
    const same = (input: unknown) => {
      const fast = safeParseFast(schema, input);
      const slow = schema.safeParse(input);
      expect([fast.success, show(fast.data)]).toEqual([slow.success, show(slow.data)]);
      return fast;
    };
    expect(same(JSON.parse('{"r":{"b":1,"2":2,"a":3,"__proto__":7}}')).data).toEqual({ r: { "2": 2, b: 1, a: 3 } });
    // With values of any kind, a `__proto__` key copied would set the output's prototype.
    const open = z.record(z.string(), z.unknown());
    const polluting = JSON.parse('{"a":1,"__proto__":{"polluted":1}}');
    expect(show(safeParseFast(open, polluting).data)).toBe(show(open.safeParse(polluting).data));
    expect(show(safeParseFast(open, polluting).data)).toBe('{"a":1}');
    expect(same({ r: { a: "1" } }).success).toBe(false);
    expect(same({ r: [1] }).success).toBe(false);
    expect(same({ r: null }).success).toBe(false);
    const bare = Object.create(null) as Record<string, number>;
    bare.n = 1;
    expect(same({ r: bare }).success).toBe(true);
    const hidden = { a: 1 };
    Object.defineProperty(hidden, "h", { value: "not a number", enumerable: false });
    expect(same({ r: hidden }).data).toEqual({ r: { a: 1 } });
    // Handed to zod (a symbol key, an own `constructor`, a class instance): zod's own answer, whatever it is.
    same({ r: { a: 1, [Symbol("s")]: 2 } });
    same({ r: { constructor: 1 } });
    class Point {
      x = 1;
    }
    same({ r: new Point() });
    // A key type of its own (an enum, a check) is zod's to parse.
    expect(handedToZod(z.record(z.enum(["a", "b"]), z.number()))).toEqual([""]);
    expect(handedToZod(z.record(z.string().min(2), z.number()))).toEqual([""]);
    expect(handedToZod(z.record(z.string(), z.string().transform(Number)))).toEqual(["{}"]);
  });

  it("makes an object as zod does from one walk over a plain object's keys: absent, undefined, other and `__proto__` keys (wave 29)", () => {
    const inner = { a: z.string(), b: z.number().optional(), u: z.unknown(), n: z.string().nullable().optional() };
    const kinds = { loose: z.looseObject(inner), strip: z.object(inner), strict: z.strictObject(inner) };
    // A field named as a plain object inherits (`in` finds it on the prototype), and more fields than the mask holds:
    // both walked field by field, and answered the same.
    const inherited = z.looseObject({ a: z.string(), toString: z.string().optional() });
    const wide = z.looseObject(Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`f${i}`, z.number().optional()])));
    // Up to 8 fields a key's field is found by comparing names, up to 30 by a map: both kinds here.
    const mid = z.strictObject(Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`f${i}`, z.number().optional()])));
    const inputs = [
      {},
      { a: "x", u: 1 },
      { a: "x", b: undefined, u: null },
      { a: "x", u: undefined },
      { b: 1, a: "x", other: [1], n: null, u: 0 },
      { a: "x", b: "one", u: 1 },
      { a: 1, u: 1 },
      JSON.parse('{"z":1,"a":"x","u":2,"__proto__":{"polluted":1},"b":2}'),
      JSON.parse('{"a":"x","u":3,"toString":"t"}'),
      { f30: 1, f0: 2, extra: 3 },
      { f3: "no" },
      { f11: 1, f8: 2 },
    ];
    let accepted = 0;
    for (const schema of [...Object.values(kinds), inherited, wide, mid]) {
      for (const input of inputs) {
        const fast = safeParseFast(schema, input);
        const slow = schema.safeParse(input);
        expect([show(input), fast.success, show(fast.data)]).toEqual([show(input), slow.success, show(slow.data)]);
        if (fast.success) accepted++;
        expect(Object.getPrototypeOf(fast.data ?? {})).toBe(Object.prototype);
      }
    }
    expect(accepted).toBe(29);
    expect(show(safeParseFast(kinds.loose, JSON.parse('{"a":"x","__proto__":{"p":1},"q":2,"u":1}')).data)).toBe('{"a":"x","u":1,"q":2}');
    expect(safeParseFast(kinds.strict, { a: "x", u: 1, q: 2 }).success).toBe(false);
    expect(show(safeParseFast(kinds.strip, { q: 2, u: 1, a: "x", b: 3 }).data)).toBe('{"a":"x","b":3,"u":1}');
  });

  it("keeps zod's own errors for input it refuses", () => {
    const refused = safeParseFast(ChatRequestSchema, { model: "gpt-4o", messages: [{ role: "robot" }] });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues).toEqual(ChatRequestSchema.safeParse({ model: "gpt-4o", messages: [{ role: "robot" }] }).error?.issues);
  });
});
