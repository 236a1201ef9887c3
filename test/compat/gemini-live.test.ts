/**
 * Gemini Live (BidiGenerateContent over WebSocket) through `@google/genai`'s `ai.live.connect`, on both runtimes:
 * setup → setupComplete, text turns as serverContent, tool calls and tool responses, usageMetadata, the journal, and
 * errors as close codes.
 */
import { GoogleGenAI, Modality, type LiveServerMessage, type Session } from "@google/genai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";
import { until as poll } from "../support/until";

let h: Harness;

const SCENARIOS = [
  {
    name: "live-chat",
    steps: [
      {
        id: "hello",
        match: { turn: 1, endpoint: "bidiGenerateContent", system: "Be brief.", lastUserMessage: "Hello there" },
        respond: { text: "Hi, how can I help?", usage: { inputTokens: 7, outputTokens: 5 } },
      },
      { id: "weather", match: { turn: 2, lastUserMessage: "Weather in Paris?" }, respond: { toolCalls: [{ id: "fc-1", name: "get_weather", arguments: { city: "Paris" } }] } },
      { id: "answer", match: { turn: 3, toolResult: { name: "get_weather" } }, respond: { text: "It is 18C in Paris." } },
    ],
  },
  { name: "live-rate", steps: [{ failures: [{ kind: "rate_limit" }], respond: { text: "x" } }] },
];

interface Live {
  session: Session;
  messages: LiveServerMessage[];
  closed: Promise<{ code: number; reason: string }>;
}

async function connect(path: string, config: Record<string, unknown> = { responseModalities: [Modality.TEXT] }, model = "gemini-2.5-flash-live"): Promise<Live> {
  const ai = new GoogleGenAI({ apiKey: "test-key", httpOptions: { baseUrl: `${h.url}${path}` } });
  const messages: LiveServerMessage[] = [];
  let onClose!: (e: { code: number; reason: string }) => void;
  const closed = new Promise<{ code: number; reason: string }>((r) => (onClose = r));
  const session = await ai.live.connect({
    model,
    config,
    callbacks: { onmessage: (m) => messages.push(m), onclose: (e) => onClose({ code: e.code, reason: e.reason }), onerror: () => {} },
  });
  return { session, messages, closed };
}

async function until(live: Live, done: (m: LiveServerMessage) => boolean, count = 1): Promise<void> {
  await poll(
    () => live.messages,
    (messages) => messages.filter(done).length >= count,
    { every: 10 },
  );
}

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

describe("Gemini Live (ai.live.connect)", () => {
  it("a Gemini 3 model's text answer carries a thought signature on its last part; the tool loop goes on", async () => {
    const live = await connect("/s/live-chat/gemini-3", { responseModalities: [Modality.TEXT], systemInstruction: "Be brief." }, "gemini-3-flash-preview");
    live.session.sendClientContent({ turns: [{ role: "user", parts: [{ text: "Hello there" }] }], turnComplete: true });
    await until(live, (m) => m.serverContent?.turnComplete === true);
    const parts = live.messages.flatMap((m) => m.serverContent?.modelTurn?.parts ?? []);
    expect(parts.map((p) => p.text).join("")).toBe("Hi, how can I help?");
    expect(parts.slice(0, -1).every((p) => p.thoughtSignature === undefined)).toBe(true);
    expect(parts.at(-1)!.thoughtSignature).toMatch(/^CkI[0-9A-Za-z]{89}$/);
    live.session.sendClientContent({ turns: [{ role: "user", parts: [{ text: "Weather in Paris?" }] }], turnComplete: true });
    await until(live, (m) => m.toolCall !== undefined);
    live.session.sendToolResponse({ functionResponses: [{ id: "fc-1", name: "get_weather", response: { temp: "18C" } }] });
    await until(live, (m) => m.serverContent?.turnComplete === true, 2);
    live.session.close();
    expect((await h.journal("live-chat", "gemini-3")).map((e) => [e.step, e.outcome])).toEqual([
      ["hello", "response"],
      ["weather", "response"],
      ["answer", "response"],
    ]);
  });

  it("text turns as serverContent, a toolCall, the toolResponse as the next turn, usageMetadata, journal", async () => {
    const live = await connect("/s/live-chat/one", {
      responseModalities: [Modality.TEXT],
      systemInstruction: "Be brief.",
      tools: [{ functionDeclarations: [{ name: "get_weather", parameters: { type: "OBJECT" } as never }] }],
    });
    live.session.sendClientContent({ turns: [{ role: "user", parts: [{ text: "Hello there" }] }], turnComplete: true });
    await until(live, (m) => m.serverContent?.turnComplete === true);
    const first = live.messages.map((m) => JSON.parse(JSON.stringify(m)));
    expect(first).toEqual([
      { setupComplete: {} },
      ...["Hi,", " how", " can", " I", " help?"].map((text) => ({ serverContent: { modelTurn: { role: "model", parts: [{ text }] } } })),
      { serverContent: { generationComplete: true } },
      {
        serverContent: { turnComplete: true },
        usageMetadata: {
          promptTokenCount: 7,
          responseTokenCount: 5,
          totalTokenCount: 12,
          promptTokensDetails: [{ modality: "TEXT", tokenCount: 7 }],
          responseTokensDetails: [{ modality: "TEXT", tokenCount: 5 }],
        },
      },
    ]);

    live.session.sendClientContent({ turns: [{ role: "user", parts: [{ text: "Weather in Paris?" }] }], turnComplete: true });
    await until(live, (m) => m.toolCall !== undefined);
    expect(live.messages.find((m) => m.toolCall)!.toolCall).toEqual({ functionCalls: [{ id: "fc-1", name: "get_weather", args: { city: "Paris" } }] });

    live.session.sendToolResponse({ functionResponses: [{ id: "fc-1", name: "get_weather", response: { temp: "18C" } }] });
    await until(live, (m) => m.serverContent?.turnComplete === true, 2);
    const text = live.messages
      .slice(first.length)
      .flatMap((m) => m.serverContent?.modelTurn?.parts?.map((p) => p.text) ?? [])
      .join("");
    expect(text).toBe("It is 18C in Paris.");
    live.session.close();

    const journal = await h.journal("live-chat", "one");
    expect(journal.map((e) => [e.step, e.outcome, e.provider, e.endpoint, e.request.method])).toEqual([
      ["hello", "response", "gemini", "bidiGenerateContent", "WS"],
      ["weather", "response", "gemini", "bidiGenerateContent", "WS"],
      ["answer", "response", "gemini", "bidiGenerateContent", "WS"],
    ]);
    expect(journal[0]!.request.path).toBe("/ws/google.ai.generativelanguage.v1.GenerativeService.BidiGenerateContent");
    expect(journal[2]!.canonical.toolResults).toEqual([{ name: "get_weather", toolCallId: "fc-1", content: '{"temp":"18C"}' }]);
  });

  it("a scripted rate limit closes the socket with 1008 and the quota message; AUDIO-only setup closes with 1007", async () => {
    const live = await connect("/s/live-rate/r");
    live.session.sendClientContent({ turns: [{ role: "user", parts: [{ text: "x" }] }], turnComplete: true });
    expect(await live.closed).toEqual({ code: 1008, reason: "Resource has been exhausted (e.g. check quota)." });
    const audio = await connect("/s/live-rate/a", { responseModalities: [Modality.AUDIO] }).catch((e: unknown) => e);
    expect(String(audio)).toContain("1007");
  });
});
