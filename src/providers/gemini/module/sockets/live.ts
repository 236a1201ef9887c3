/**
 * Gemini Live (`BidiGenerateContent` over WebSocket, the path `@google/genai`'s `ai.live.connect` builds): `setup` →
 * `setupComplete`; `clientContent` (with `turnComplete`), `realtimeInput.text` and `toolResponse` each end a client
 * turn, which is one scenario turn over the whole conversation; the answer is `serverContent` messages (model turn
 * parts, then `generationComplete`, then `turnComplete` with `usageMetadata`) or a `toolCall`. Errors close the socket
 * with a code and a reason, as the live API does (1007 invalid argument, 1008 policy/quota, 1011 internal).
 */
import { z } from "zod";
import type { Reply } from "../../../../canonical/outcome";
import { journalBody } from "../../../../http/body";
import { apiError, type ApiError } from "../../../../http/errors";
import { stableHex } from "../../../../util/hash";
import { parseJsonOrUndefined } from "../../../../http/json";
import { wordPieces } from "../../../../util/text";
import { liveTurnCompleteReason } from "../../safety";
import { decideTurn } from "../../../../turn/turn";
import { parseClientMessage } from "../../../../sockets/client-json";
import { playOutcome, sendError, type SocketError, type TurnRenderer } from "../../../../sockets/play";
import type { SocketContext, SocketProtocol } from "../../../../sockets/types";
import type { SseEvent } from "../../../types";
import { geminiGenerateContent } from "../../index";
import { parseGenerateContent } from "../../parse";
import { thoughtSignature } from "../../render-json";
import { signsThoughts } from "../../signatures";
import { Headers } from "../../../../http/web";
import { lazily } from "../../../../util/memo";

/** Built on the first Live socket's first message (util/memo.ts `lazily`): a start pays for no provider's schemas. */
const liveWire = lazily(() => {
  const Part = z.looseObject({ text: z.string().optional() });
  const Content = z.looseObject({ role: z.string().optional(), parts: z.array(Part) });

  const SetupSchema = z.looseObject({
    model: z.string().min(1),
    generationConfig: z.looseObject({ responseModalities: z.array(z.string()).optional() }).optional(),
    systemInstruction: z.unknown().optional(),
    tools: z.array(z.unknown()).optional(),
  });

  const ClientContentSchema = z.looseObject({ turns: z.array(Content).optional(), turnComplete: z.boolean().optional() });
  const ToolResponseSchema = z.looseObject({
    functionResponses: z.array(z.looseObject({ id: z.string().optional(), name: z.string().optional(), response: z.unknown().optional() })),
  });
  const RealtimeInputSchema = z.looseObject({ text: z.string().optional() });
  return { Content, SetupSchema, ClientContentSchema, ToolResponseSchema, RealtimeInputSchema };
});
type LiveWire = ReturnType<typeof liveWire>;

type Contents = z.output<LiveWire["Content"]>[];

interface LiveState {
  setup: z.output<LiveWire["SetupSchema"]> | null;
  contents: Contents;
}

export const LIVE_AUDIO_UNSUPPORTED = "mockllm: Gemini Live answers in TEXT; audio and video input are not supported.";

/** Close codes the live API uses. */
const INVALID = 1007;
const POLICY = 1008;
const INTERNAL = 1011;

/** A close reason fits 123 bytes. */
function reason(message: string): string {
  const bytes = new TextEncoder().encode(message);
  if (bytes.length <= 123) return message;
  return `${new TextDecoder().decode(bytes.slice(0, 120)).replace(/\uFFFD+$/, "")}…`;
}

function closeFor(error: ApiError): SocketError {
  const code =
    error.code === "invalid_request" || error.code === "invalid_json" || error.code === "mismatch" || error.code === "not_found"
      ? INVALID
      : error.code === "rate_limit" || error.code === "permission" || error.code === "authentication"
        ? POLICY
        : INTERNAL;
  return { messages: [], close: { code, reason: reason(error.message) } };
}

function usageMetadata(reply: Reply) {
  const u = reply.usage;
  return {
    promptTokenCount: u.inputTokens,
    responseTokenCount: u.outputTokens,
    totalTokenCount: u.inputTokens + u.outputTokens,
    promptTokensDetails: [{ modality: "TEXT", tokenCount: u.inputTokens }],
    responseTokensDetails: [{ modality: "TEXT", tokenCount: u.outputTokens }],
  };
}

function functionCallId(reply: Reply, i: number): string {
  return reply.toolCalls[i]?.id ?? `function-call-${stableHex(`live-fc|${reply.idSeed}|${i}`, 16)}`;
}

/** A Gemini 3 answer's thought signature (scripted, else derived); other models' Live answers carry none. */
function liveSignature(reply: Reply): string | undefined {
  return signsThoughts(reply.model) ? thoughtSignature(reply, reply.model) : undefined;
}

/** The model's turn as the conversation keeps it; a Gemini 3 turn with its thought signature, as generateContent places it. */
function modelContent(reply: Reply): z.output<LiveWire["Content"]> {
  const parts: Record<string, unknown>[] = [];
  if (reply.text) parts.push({ text: reply.text });
  reply.toolCalls.forEach((c, i) => parts.push({ functionCall: { id: functionCallId(reply, i), name: c.name, args: parseJsonOrUndefined(c.arguments) ?? {} } }));
  const signature = liveSignature(reply);
  const carrier = parts.find((p) => p.functionCall !== undefined) ?? parts.at(-1);
  if (signature !== undefined && carrier) carrier.thoughtSignature = signature;
  return { role: "model", parts };
}

/**
 * Every message of one model turn.
 * @example liveEvents(reply).map((e) => Object.keys(JSON.parse(e.data))[0]) // ["serverContent", …]
 */
export function liveEvents(reply: Reply): SseEvent[] {
  const out: SseEvent[] = [];
  if (reply.text) {
    // A Gemini 3 text answer's signature rides on its last text part (a tool call's message has no place for one).
    const signature = reply.toolCalls.length === 0 ? liveSignature(reply) : undefined;
    const pieces = wordPieces(reply.text, reply.pacing.chunkWords);
    pieces.forEach((piece, i) => {
      const part = { text: piece.text, ...(signature !== undefined && i === pieces.length - 1 ? { thoughtSignature: signature } : {}) };
      out.push({ data: JSON.stringify({ serverContent: { modelTurn: { role: "model", parts: [part] } } }), words: piece.words });
    });
  }
  if (reply.toolCalls.length > 0) {
    const functionCalls = reply.toolCalls.map((c, i) => ({ id: functionCallId(reply, i), name: c.name, args: parseJsonOrUndefined(c.arguments) ?? {} }));
    out.push({ data: JSON.stringify({ toolCall: { functionCalls } }), words: 1 });
    out.push({ data: JSON.stringify({ usageMetadata: usageMetadata(reply) }) });
    return out;
  }
  out.push({ data: JSON.stringify({ serverContent: { generationComplete: true } }) });
  out.push({ data: JSON.stringify({ serverContent: { turnComplete: true, ...liveTurnCompleteReason(reply) }, usageMetadata: usageMetadata(reply) }) });
  return out;
}

const RENDERER: TurnRenderer = {
  events: liveEvents,
  error: closeFor,
  streamError: () => [],
  streamErrorClose: (failure) => ({ code: INTERNAL, reason: reason(failure.message ?? "Internal error encountered.") }),
  failureMessages: {
    rate_limit: "Resource has been exhausted (e.g. check quota).",
    overloaded: "The model is overloaded. Please try again later.",
    model_error: "Internal error encountered.",
  },
};

/**
 * The per-socket state machine of Gemini Live.
 * @example liveSocket({ rt, init, sink }, undefined).message('{"setup":{"model":"models/gemini-2.5-flash"}}')
 */
export function liveSocket(socket: SocketContext, saved: unknown): SocketProtocol {
  const { rt, init, sink } = socket;
  const headers = new Headers(init.headers);
  const state: LiveState = (saved as LiveState | undefined) ?? { setup: null, contents: [] };
  let busy: Promise<void> = Promise.resolve();
  let abort: AbortController | undefined;
  const close = (code: number, message: string) => sendError(sink, { messages: [], close: { code, reason: reason(message) } });

  async function turn(text: string, message: unknown, arrivedAt: number): Promise<void> {
    const setup = state.setup!;
    const model = setup.model.replace(/^models\//, "");
    const body = {
      contents: state.contents,
      ...(setup.systemInstruction !== undefined ? { systemInstruction: typeof setup.systemInstruction === "string" ? { parts: [{ text: setup.systemInstruction }] } : setup.systemInstruction } : {}),
      ...(setup.tools !== undefined ? { tools: setup.tools } : {}),
    };
    const first = parseGenerateContent(body, headers, { path: `/v1beta/models/${model}:streamGenerateContent`, query: new URLSearchParams("alt=sse") });
    if (!first.ok) return sendError(sink, closeFor(first.error));
    const parsed = { ...first, request: { ...first.request, endpoint: "bidiGenerateContent" as const } };
    const wire = () => ({ method: "WS", path: init.path, headers: init.headers, body: journalBody(text, message) });
    const decided = await decideTurn(geminiGenerateContent, rt, parsed, { prefix: init.prefix, headers, wire, bodyText: text, allowProxy: false });
    if (decided.kind !== "answer") {
      return sendError(sink, closeFor(decided.kind === "error" ? decided.error : apiError("invalid_request", "mockllm: recording is not available over WebSocket.")));
    }
    abort = new AbortController();
    await playOutcome(decided.outcome, RENDERER, sink, { arrivedAt, signal: abort.signal });
    if (decided.outcome.kind === "reply" && !abort.signal.aborted) state.contents.push(modelContent(decided.outcome.reply));
  }

  /** Client turns run one after the other, in arrival order. */
  function enqueue(text: string, message: unknown, arrivedAt: number): Promise<void> {
    busy = busy.then(() => turn(text, message, arrivedAt));
    return busy;
  }

  return {
    open() {},
    async message(text) {
      const arrivedAt = Date.now();
      const parsed = parseClientMessage(text);
      if (!parsed.ok) return close(INVALID, parsed.tooDeep ?? "Invalid JSON payload received.");
      const msg = parsed.value;
      if (msg.setup !== undefined) {
        if (state.setup) return close(INVALID, "setup must be the first and only setup message.");
        const setup = liveWire().SetupSchema.safeParse(msg.setup);
        if (!setup.success) return close(INVALID, "Invalid setup: `model` is required.");
        const modalities = setup.data.generationConfig?.responseModalities;
        if (modalities && !modalities.some((m) => m.toUpperCase() === "TEXT")) return close(INVALID, `${LIVE_AUDIO_UNSUPPORTED} Set responseModalities to [TEXT].`);
        state.setup = setup.data;
        sink.send(JSON.stringify({ setupComplete: {} }));
        return;
      }
      if (!state.setup) return close(INVALID, "The first message must be setup.");
      if (msg.clientContent !== undefined) {
        const cc = liveWire().ClientContentSchema.safeParse(msg.clientContent);
        if (!cc.success) return close(INVALID, "Invalid clientContent.");
        state.contents.push(...(cc.data.turns ?? []).map((t) => ({ ...t, role: t.role ?? "user" })));
        if (cc.data.turnComplete === true) return enqueue(text, msg, arrivedAt);
        return;
      }
      if (msg.toolResponse !== undefined) {
        const tr = liveWire().ToolResponseSchema.safeParse(msg.toolResponse);
        if (!tr.success) return close(INVALID, "Invalid toolResponse.");
        state.contents.push({
          role: "user",
          parts: tr.data.functionResponses.map((f) => ({ functionResponse: { ...(f.id !== undefined ? { id: f.id } : {}), name: f.name ?? "", response: f.response ?? {} } })),
        });
        return enqueue(text, msg, arrivedAt);
      }
      if (msg.realtimeInput !== undefined) {
        const ri = liveWire().RealtimeInputSchema.safeParse(msg.realtimeInput);
        if (!ri.success || ri.data.text === undefined) return close(INVALID, LIVE_AUDIO_UNSUPPORTED);
        state.contents.push({ role: "user", parts: [{ text: ri.data.text }] });
        return enqueue(text, msg, arrivedAt);
      }
      return close(INVALID, "Unknown message: expected setup, clientContent, realtimeInput or toolResponse.");
    },
    binary() {
      close(INVALID, "Binary messages are not supported: send JSON text.");
    },
    closed() {
      abort?.abort();
    },
    state: () => state,
  };
}
