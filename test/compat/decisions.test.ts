/**
 * Decisions through the official clients: `openai`'s `client.decisions.create` (`POST /v1/decisions`) and
 * `@google/genai`'s `ai.decisions.create` (`POST /v1/decisions` with Google's key, and `/v1beta/decisions`): the
 * default answers, a step's `respond.decision` by question key, a scripted answer that does not fit (the default,
 * journalled, failing verify), a refusal, a content filter, a scripted 429 the clients retry, and the refusals of a
 * malformed request in each provider's shape.
 */
import { GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const INPUT = "Hi, my parcel never arrived and I was charged twice. Please refund me!";
const QUESTIONS: OpenAI.DecisionCreateParams["questions"] = [
  { type: "predicate", name: "refund", instructions: "Does the customer ask for a refund?" },
  { type: "choice", name: "topic", instructions: "What is it about?", choices: [{ value: "billing" }, { value: "shipping" }, { value: "other" }] },
  { type: "score", instructions: "How upset is the customer?", levels: [{ label: "calm" }, { label: "annoyed" }, { label: "angry" }] },
];
const GEMINI_QUESTIONS = {
  refund: { type: "noul", instructions: "Does the customer ask for a refund?" },
  topic: { type: "choice", instructions: [{ type: "text", text: "What is it about?" }], criteria: { billing: "payments", shipping: "", other: "" } },
  mood: { type: "score", instructions: "How upset is the customer?", criteria: ["calm", "annoyed", "angry"] },
} as const;

const SCENARIOS = [
  {
    name: "decide",
    steps: [
      { id: "openai", match: { provider: "openai", endpoint: "decisions", lastUserMessage: { contains: "parcel" } }, respond: { decision: { refund: true, topic: "shipping", 2: "angry" } } },
      { id: "gemini", match: { provider: "gemini", endpoint: "decisions" }, respond: { decision: { refund: { value: true, confidence: 0.99 }, topic: "billing", mood: "annoyed" } } },
    ],
  },
  {
    name: "decide-wrong",
    steps: [{ id: "wrong", match: { endpoint: "decisions" }, respond: { decision: { refund: "yes", topic: "returns", colour: "red", 2: { refusal: true } } } }],
  },
  {
    name: "decide-limits",
    steps: [
      { id: "limited", match: { endpoint: "decisions" }, failures: [{ kind: "rate_limit", retryAfterMs: 0 }], respond: { decision: { refund: false } } },
      { id: "filtered", match: { endpoint: "decisions" }, failures: [{ kind: "content_filter", on: "prompt" }] },
    ],
  },
];

const openai = (path = "") => new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}${path}/v1`, maxRetries: 2 });
const gemini = (path = "", apiVersion?: string) =>
  new GoogleGenAI({
    apiKey: "g-key",
    httpOptions: { baseUrl: `${h.url}${path}`, retryOptions: { attempts: 3, initialDelay: 0.01 }, ...(apiVersion !== undefined ? { apiVersion } : {}) } as never,
  });

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

describe("OpenAI decisions", () => {
  it("no scenario: every question answered in order, deterministic, probabilities adding up to 1, usage", async () => {
    const a = await openai().decisions.create({ model: "gpt-6-luna", input: INPUT, questions: QUESTIONS });
    const b = await openai().decisions.create({ model: "gpt-6-luna", input: INPUT, questions: QUESTIONS });
    expect(b).toEqual(a);
    expect(a.model).toBe("gpt-6-luna");
    expect(a.answers.map((x) => [x.type, x.name])).toEqual([
      ["predicate", "refund"],
      ["choice", "topic"],
      ["score", null],
    ]);
    const [p, c, s] = a.answers as [OpenAI.Decision.AnswerResourcePredicate, OpenAI.Decision.AnswerResourceChoice, OpenAI.Decision.AnswerResourceScore];
    expect(p.probability >= 0.7 || p.probability <= 0.3).toBe(true);
    expect(c.probabilities.map((x) => x.value)).toEqual(["billing", "shipping", "other"]);
    expect(c.probabilities.find((x) => x.value === c.choice)!.probability).toBe(c.confidence);
    expect(s.probabilities.map((x) => [x.label, x.value])).toEqual([
      ["calm", 0],
      ["annoyed", 1],
      ["angry", 2],
    ]);
    for (const ps of [c.probabilities, s.probabilities]) expect(Math.round(ps.reduce((t, x) => t + x.probability, 0) * 1e6) / 1e6).toBe(1);
    // A token an answer; the input's and the questions' words in.
    expect(a.usage.output_tokens).toBe(3);
    expect(a.usage.input_tokens).toBeGreaterThan(20);
    expect(a.usage.total_tokens).toBe(a.usage.input_tokens + 3);
    expect(a.usage.input_tokens_details).toEqual({ cache_write_tokens: 0, cached_tokens: 0 });
    expect(a.usage.output_tokens_details).toEqual({ reasoning_tokens: 0 });
  });

  it("a step's decision answers by name and by position; messages and tool outputs as input", async () => {
    const input: OpenAI.DecisionCreateParams["input"] = [
      { role: "developer", content: "You triage support mail." },
      {
        role: "user",
        content: [
          { type: "input_text", text: INPUT },
          { type: "input_json", data: { order: 1234 } },
        ],
      },
      { type: "function_call", call_id: "call_1", name: "order_status", arguments: '{"order":1234}' },
      { type: "function_call_output", call_id: "call_1", output: "lost in transit" },
    ];
    const res = await openai("/s/decide/run-1").decisions.create({ model: "gpt-6-luna", input, questions: QUESTIONS });
    expect(res.answers).toEqual([
      { type: "predicate", name: "refund", probability: 0.95 },
      {
        type: "choice",
        name: "topic",
        choice: "shipping",
        confidence: 0.9,
        probabilities: [
          { value: "billing", probability: 0.05 },
          { value: "shipping", probability: 0.9 },
          { value: "other", probability: 0.05 },
        ],
      },
      {
        type: "score",
        name: null,
        score: 1.9,
        confidence: 0.9,
        probabilities: [
          { label: "calm", value: 0, probability: 0 },
          { label: "annoyed", value: 1, probability: 0.1 },
          { label: "angry", value: 2, probability: 0.9 },
        ],
      },
    ]);
    const [entry] = await h.journal("decide", "run-1");
    expect([entry!.provider, entry!.endpoint, entry!.step, entry!.outcome, entry!.outputSchema]).toEqual(["openai", "decisions", "openai", "response", { valid: true, errors: [] }]);
  });

  it("a scripted answer that does not fit gets the default, is journalled with its path and fails verify; a refusal is sent", async () => {
    const res = await openai("/s/decide-wrong/run-1").decisions.create({ model: "gpt-6-luna", input: INPUT, questions: QUESTIONS });
    const defaults = await openai().decisions.create({ model: "gpt-6-luna", input: INPUT, questions: QUESTIONS });
    expect(res.answers).toEqual([defaults.answers[0], defaults.answers[1], { type: "refusal", name: null }]);
    const [entry] = await h.journal("decide-wrong", "run-1");
    expect(entry!.outputSchema).toEqual({
      valid: false,
      errors: [
        { path: "/decision/refund", message: 'a predicate is answered with true, false or a probability, got "yes"' },
        { path: "/decision/topic", message: 'must be one of the question\'s choices ("billing", "shipping", "other"), got "returns"' },
        { path: "/decision/colour", message: 'names no question of the request (its questions: "refund", "topic", "2")' },
      ],
    });
    const verdict = (await (await h.admin("/sessions/decide-wrong/run-1/verify")).json()) as Record<string, any>;
    expect(verdict.ok).toBe(false);
    expect(verdict.schemaViolations.map((v: { kind: string; step: string; errors: unknown[] }) => [v.kind, v.step, v.errors.length])).toEqual([["schema_violation", "wrong", 3]]);
  });

  it("a scripted 429 is retried by the client; a content filter refuses every question", async () => {
    const client = openai("/s/decide-limits/run-1");
    const res = await client.decisions.create({ model: "gpt-6-luna", input: INPUT, questions: QUESTIONS });
    expect(res.answers[0]).toEqual({ type: "predicate", name: "refund", probability: 0.05 });
    const filtered = await client.decisions.create({ model: "gpt-6-luna", input: INPUT, questions: QUESTIONS });
    expect(filtered.answers).toEqual([
      { type: "refusal", name: "refund" },
      { type: "refusal", name: "topic" },
      { type: "refusal", name: null },
    ]);
    const journal = await h.journal("decide-limits", "run-1");
    expect(journal.map((e) => [e.step, e.outcome, e.status])).toEqual([
      ["limited", "failure", 429],
      ["limited", "response", 200],
      ["filtered", "failure", 200],
    ]);
  });

  it("refuses a malformed request in the API's words", async () => {
    const client = new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}/v1`, maxRetries: 0 });
    const refusal = (body: unknown) =>
      client.decisions.create(body as OpenAI.DecisionCreateParams).then(
        () => undefined,
        (e: InstanceType<typeof OpenAI.APIError>) => [e.status, e.error],
      );
    expect(await refusal({ model: "gpt-6-luna", input: "x", questions: [] })).toEqual([
      400,
      { message: "Invalid 'questions': empty array. Expected an array with minimum length 1, but got an empty array instead.", type: "invalid_request_error", param: "questions", code: "empty_array" },
    ]);
    expect(await refusal({ model: "gpt-6-luna", input: "x" })).toEqual([
      400,
      { message: "Missing required parameter: 'questions'.", type: "invalid_request_error", param: "questions", code: "missing_required_parameter" },
    ]);
    const [status, error] = (await refusal({ model: "gpt-6-luna", input: "x", questions: [{ type: "choice", instructions: "?", choices: [{ value: "a" }] }] })) as [number, Record<string, unknown>];
    expect([status, error.param, error.code]).toEqual([400, "questions[0].choices", "array_below_min_length"]);
    expect(await refusal({ model: "gpt-6-luna", input: "x", questions: [{ type: "choice", instructions: "?", choices: [{ value: "a" }, { value: "a" }] }] })).toEqual([
      400,
      { message: "Invalid 'questions[0].choices': each choice must be unique; choices[1] repeats an earlier value.", type: "invalid_request_error", param: "questions[0].choices", code: null },
    ]);
    expect(await refusal({ model: "gpt-6-luna", input: [{ type: "function_call_output", call_id: "call_9", output: "x" }], questions: QUESTIONS })).toEqual([
      400,
      { message: "No tool call found for function call output with call_id call_9.", type: "invalid_request_error", param: "input", code: null },
    ]);
    expect(await refusal({ model: "gpt-6-luna", input: "x", questions: QUESTIONS, stream: true })).toEqual([
      400,
      { message: "Unrecognized request argument supplied: stream", type: "invalid_request_error", param: "stream", code: null },
    ]);
  });
});

describe("Gemini decisions", () => {
  it("no scenario: answers by question id with probabilities by option and level, a legend and usage; /v1beta too", async () => {
    const res = await gemini().decisions.create({ model: "models/gemini-3-flash-preview", input: INPUT, questions: GEMINI_QUESTIONS } as never);
    const again = await gemini("", "v1beta").decisions.create({ model: "gemini-3-flash-preview", input: [{ type: "text", text: INPUT }], questions: GEMINI_QUESTIONS } as never);
    expect(again.answers).toEqual(res.answers);
    expect(Object.keys(res.answers!)).toEqual(["refund", "topic", "mood"]);
    const { refund, topic, mood } = res.answers as Record<string, any>;
    expect([refund.type, topic.type, mood.type]).toEqual(["noul", "choice", "score"]);
    expect(refund.confidence).toBe(Math.max(refund.noul, Math.round((1 - refund.noul) * 1e4) / 1e4));
    expect(Object.keys(topic.probabilities)).toEqual(["billing", "shipping", "other"]);
    expect(topic.probabilities[topic.choice]).toBe(topic.confidence);
    expect(Object.keys(mood.probabilities)).toEqual(["0", "1", "2"]);
    expect(mood.legend).toEqual({ 0: "calm", 1: "annoyed", 2: "angry" });
    expect(res.usage).toMatchObject({ total_output_tokens: 3, output_tokens_by_modality: [{ modality: "text", tokens: 3 }] });
    const usage = res.usage as Record<string, number>;
    expect(usage.total_tokens).toBe(usage.total_input_tokens! + 3);
  });

  it("a step's decision answers by question id; a refusal leaves the question out; a content filter blocks the input", async () => {
    const res = await gemini("/s/decide/run-2").decisions.create({ model: "gemini-3-flash-preview", input: INPUT, questions: GEMINI_QUESTIONS } as never);
    expect(res.answers).toEqual({
      refund: { type: "noul", noul: 0.99, confidence: 0.99 },
      topic: { type: "choice", choice: "billing", confidence: 0.9, probabilities: { billing: 0.9, shipping: 0.05, other: 0.05 } },
      mood: { type: "score", score: 1, confidence: 0.9, probabilities: { 0: 0.05, 1: 0.9, 2: 0.05 }, legend: { 0: "calm", 1: "annoyed", 2: "angry" } },
    });
    const [entry] = await h.journal("decide", "run-2");
    expect([entry!.provider, entry!.endpoint, entry!.step]).toEqual(["gemini", "decisions", "gemini"]);

    const client = gemini("/s/decide-limits/run-2");
    const first = await client.decisions.create({ model: "gemini-3-flash-preview", input: INPUT, questions: GEMINI_QUESTIONS } as never);
    expect((first.answers as Record<string, unknown>).refund).toEqual({ type: "noul", noul: 0.05, confidence: 0.95 });
    const blocked = await client.decisions.create({ model: "gemini-3-flash-preview", input: INPUT, questions: GEMINI_QUESTIONS } as never);
    expect([blocked.answers, blocked.prompt_feedback]).toEqual([undefined, { block_reason: "safety" }]);
  });

  it("refuses a malformed request in Google's shape", async () => {
    const post = (body: unknown, version = "v1beta") =>
      fetch(`${h.url}/${version}/decisions`, { method: "POST", headers: { "x-goog-api-key": "k", "content-type": "application/json" }, body: JSON.stringify(body) }).then(async (r) => [
        r.status,
        await r.json(),
      ]);
    expect(await post({ model: "gemini-3-flash-preview", input: "x", questions: {} })).toEqual([
      400,
      { error: { code: 400, message: "Invalid value at 'questions': at least 1 question is required.", status: "INVALID_ARGUMENT" } },
    ]);
    expect(await post({ model: "gemini-3-flash-preview", input: "x" }, "v1")).toEqual([400, { error: { code: 400, message: "Missing required field: 'questions'.", status: "INVALID_ARGUMENT" } }]);
    expect(await post({ model: "gemini-3-flash-preview", input: "x", questions: { a: { type: "choice", instructions: "?", criteria: { yes: "" } } } })).toEqual([
      400,
      { error: { code: 400, message: "Invalid value at 'questions.a.criteria': expected between 2 and 255 options, got 1.", status: "INVALID_ARGUMENT" } },
    ]);
    expect(await post({ model: "gemini-3-flash-preview", input: "x", questions: { a: { type: "choice", instructions: "?", criteria: { yes: "", " no": "" } } } })).toEqual([
      400,
      {
        error: {
          code: 400,
          message: "Invalid value at 'questions.a.criteria': option ID \" no\" must be non-empty with no control characters or leading/trailing whitespace.",
          status: "INVALID_ARGUMENT",
        },
      },
    ]);
  });
});
