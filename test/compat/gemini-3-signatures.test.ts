/**
 * Gemini 3 thought signatures (issue 37, point 5) through `@google/genai`: a `gemini-3*` answer carries a
 * deterministic `thoughtSignature` on the first function-call part of each message (else its last text part), the
 * client echoes it, and the real API's check holds — the current turn's calls sent back without one answer 400
 * INVALID_ARGUMENT; the `skip_thought_signature_validator` sentinel passes. Scripted and default responder, JSON and
 * stream, Gemini and Vertex; Gemini 2.5 answers are unchanged.
 */
import { ApiError, GoogleGenAI, type Content, type GenerateContentResponse, type Part } from "@google/genai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const MODEL = "gemini-3-pro-preview";
const SIGNATURE = /^CkI[0-9A-Za-z]{89}$/;

const weatherTool = {
  functionDeclarations: [{ name: "get_weather", description: "Current weather", parametersJsonSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } }],
};

const SCENARIOS = [
  {
    name: "g3-tools",
    steps: [
      {
        id: "ask",
        match: { turn: 1 },
        respond: {
          text: "Let me check.",
          toolCalls: [
            { name: "get_weather", arguments: { city: "Paris" } },
            { name: "get_weather", arguments: { city: "Rome" } },
          ],
        },
      },
      { id: "answer", match: { toolResult: { name: "get_weather" } }, respond: { text: "Sunny in both." } },
    ],
  },
];

function client(prefix: string): GoogleGenAI {
  return new GoogleGenAI({ apiKey: "test-key", httpOptions: { baseUrl: `${h.url}${prefix}` } });
}

const user: Content = { role: "user", parts: [{ text: "Weather in Paris and Rome?" }] };
const results = (calls: { name?: string }[]): Content => ({
  role: "user",
  parts: calls.map((c, i) => ({ functionResponse: { name: c.name!, response: { output: i === 0 ? "sunny" : "sunny too" } } })),
});

function errorBody(err: unknown): { error: { code: number; message: string; status: string } } {
  expect(err).toBeInstanceOf(ApiError);
  const message = (err as ApiError).message;
  return JSON.parse(message.startsWith("got status") ? message.slice(message.indexOf("{")) : message);
}

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

describe("scripted, generateContent", () => {
  it("signs the first function call of the step; the echoed history answers the second turn, whose text is signed too", async () => {
    const ai = client("/s/g3-tools/json");
    const first = await ai.models.generateContent({ model: MODEL, contents: [user], config: { tools: [weatherTool] } });
    const parts = first.candidates![0]!.content!.parts!;
    expect(parts.map((p) => Object.keys(p).sort())).toEqual([["text"], ["functionCall", "thoughtSignature"], ["functionCall"]]);
    const signature = parts[1]!.thoughtSignature!;
    expect(signature).toMatch(SIGNATURE);
    // Deterministic: where the request sits (scenario, session, step, attempt) gives the same signature on every run.
    expect(signature).toBe("CkI7RFt53TXXDK67KQn2p17oLaqiOuQOksQ5OritL3nfpwQkvloCEQSwWwwlwKg8lvnvqe1JrGPiLL6UVgQPqgUwtOwS");
    expect(first.text).toBe("Let me check.");

    const second = await ai.models.generateContent({
      model: MODEL,
      contents: [user, first.candidates![0]!.content!, results(first.functionCalls!)],
      config: { tools: [weatherTool] },
    });
    expect(second.text).toBe("Sunny in both.");
    const last = second.candidates![0]!.content!.parts!.at(-1)!;
    expect(last.thoughtSignature).toMatch(SIGNATURE);
    expect(last.thoughtSignature).not.toBe(signature);
  });

  it("the current turn's call sent back without its signature: 400 INVALID_ARGUMENT, in the real API's words", async () => {
    const ai = client("/s/g3-tools/missing");
    const first = await ai.models.generateContent({ model: MODEL, contents: [user], config: { tools: [weatherTool] } });
    const stripped: Content = { role: "model", parts: first.candidates![0]!.content!.parts!.map(({ thoughtSignature: _s, ...p }): Part => p) };
    const err = await ai.models.generateContent({ model: MODEL, contents: [user, stripped, results(first.functionCalls!)], config: { tools: [weatherTool] } }).catch((e: unknown) => e);
    expect(errorBody(err)).toEqual({
      error: {
        code: 400,
        message:
          "Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:get_weather` , position 2. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.",
        status: "INVALID_ARGUMENT",
      },
    });
    // Gemini CLI's sentinel passes; so does the same history on Gemini 2.5, which checks nothing.
    const sentinel: Content = { role: "model", parts: stripped.parts!.map((p, i) => (i === 1 ? { ...p, thoughtSignature: "skip_thought_signature_validator" } : p)) };
    const passed = await ai.models.generateContent({ model: MODEL, contents: [user, sentinel, results(first.functionCalls!)], config: { tools: [weatherTool] } });
    expect(passed.text).toBe("Sunny in both.");
  });

  it("earlier turns are not checked: a call without a signature before the newest user text passes (default responder)", async () => {
    const ai = client("");
    const old: Content = { role: "model", parts: [{ functionCall: { name: "get_weather", args: { city: "Oslo" } } }] };
    const res = await ai.models.generateContent({
      model: MODEL,
      contents: [{ role: "user", parts: [{ text: "Oslo?" }] }, old, results([{ name: "get_weather" }]), { role: "model", parts: [{ text: "Cold." }] }, user],
      config: { tools: [weatherTool] },
    });
    expect(res.text!.endsWith("Weather in Paris and Rome?")).toBe(true);
  });

  it("Gemini 2.5 answers carry no signature and are not checked", async () => {
    const ai = client("/s/g3-tools/old-model");
    const first = await ai.models.generateContent({ model: "gemini-2.5-flash", contents: [user], config: { tools: [weatherTool] } });
    expect(first.candidates![0]!.content!.parts!.some((p) => p.thoughtSignature !== undefined)).toBe(false);
    const second = await ai.models.generateContent({ model: "gemini-2.5-flash", contents: [user, first.candidates![0]!.content!, results(first.functionCalls!)] });
    expect(second.text).toBe("Sunny in both.");
  });
});

describe("scripted, streamed through a chat", () => {
  it("the chat keeps the signed call from the stream and sends it back: the second turn answers", async () => {
    const chat = client("/s/g3-tools/chat").chats.create({ model: MODEL, config: { tools: [weatherTool] } });
    const chunks: GenerateContentResponse[] = [];
    for await (const c of await chat.sendMessageStream({ message: "Weather in Paris and Rome?" })) chunks.push(c);
    const parts = chunks.flatMap((c) => c.candidates?.[0]?.content?.parts ?? []);
    const calls = parts.filter((p) => p.functionCall !== undefined);
    expect(calls).toHaveLength(2);
    expect(calls[0]!.thoughtSignature).toMatch(SIGNATURE);
    expect(calls[1]!.thoughtSignature).toBeUndefined();
    const sent = chunks.flatMap((c) => c.functionCalls ?? []);
    const second = await chat.sendMessage({ message: results(sent).parts! });
    expect(second.text).toBe("Sunny in both.");
  });
});

describe("default responder", () => {
  const block = '<|instruction_start|>{"messages":[{"tool_call":[{"name":"get_weather","args":{"city":"Paris"}}]}]}<|instruction_end|>';

  it("signs its function call; echoed, the second turn answers; stripped, it is refused", async () => {
    const ai = client("");
    const ask: Content = { role: "user", parts: [{ text: block }] };
    const first = await ai.models.generateContent({ model: MODEL, contents: [ask], config: { tools: [weatherTool] } });
    expect(first.functionCalls).toEqual([{ name: "get_weather", args: { city: "Paris" } }]);
    expect(first.candidates![0]!.content!.parts![0]!.thoughtSignature).toMatch(SIGNATURE);
    const history = [ask, first.candidates![0]!.content!, results(first.functionCalls!)];
    const second = await ai.models.generateContent({ model: MODEL, contents: history, config: { tools: [weatherTool] } });
    expect(second.candidates![0]!.content!.parts![0]!.thoughtSignature).toMatch(SIGNATURE);
    const stripped: Content = { role: "model", parts: [{ functionCall: first.candidates![0]!.content!.parts![0]!.functionCall! }] };
    const err = await ai.models.generateContent({ model: MODEL, contents: [ask, stripped, results(first.functionCalls!)] }).catch((e: unknown) => e);
    expect(errorBody(err).error.status).toBe("INVALID_ARGUMENT");
  });

  it("a text answer carries its signature on the last part; JSON and stream agree", async () => {
    const ai = client("");
    const json = await ai.models.generateContent({ model: "gemini-3-flash-preview", contents: "hello" });
    const last = json.candidates![0]!.content!.parts!.at(-1)!;
    expect(last.thoughtSignature).toMatch(SIGNATURE);
    expect(json.text!.endsWith("hello")).toBe(true);
    const chunks: GenerateContentResponse[] = [];
    for await (const c of await ai.models.generateContentStream({ model: "gemini-3-flash-preview", contents: "hello" })) chunks.push(c);
    // The stream's signature comes on a trailing empty text part, as recorded from the real API.
    expect(chunks.at(-1)!.candidates![0]!.content!.parts).toEqual([{ text: "", thoughtSignature: expect.stringMatching(SIGNATURE) }]);
  });
});

describe("Vertex AI", () => {
  it("Gemini 3 on Vertex signs its calls and checks them back", async () => {
    const path = `/s/g3-tools/vertex/v1/projects/p/locations/global/publishers/google/models/${MODEL}:generateContent`;
    const post = (contents: unknown) =>
      fetch(`${h.url}${path}`, { method: "POST", headers: { authorization: "Bearer ya29.test", "content-type": "application/json" }, body: JSON.stringify({ contents, tools: [weatherTool] }) });
    const first = (await (await post([user])).json()) as { candidates: { content: Content }[] };
    const parts = first.candidates[0]!.content.parts!;
    expect(parts[1]!.thoughtSignature).toMatch(SIGNATURE);
    const calls = parts.filter((p) => p.functionCall).map((p) => p.functionCall!);
    const refused = await post([user, { role: "model", parts: parts.map(({ thoughtSignature: _s, ...p }) => p) }, results(calls)]);
    expect(refused.status).toBe(400);
    const answered = await post([user, first.candidates[0]!.content, results(calls)]);
    expect(answered.status).toBe(200);
  });
});
