/**
 * The default responder (contract section 7): answers when no scenario is selected. Pure and deterministic:
 * the same request always gives the same reply, ids and `created` included.
 */
import { defaultCompactionSummary } from "../canonical/compaction";
import { answeredModel } from "../canonical/models";
import type { CanonicalRequest } from "../canonical/request";
import { conversationHash, forcedTool, lastUserMessage } from "../canonical/request";
import { limitReply, toolCallTokens } from "../canonical/limit";
import { stopReply } from "../canonical/stop";
import type { Reply, ReplyToolCall } from "../canonical/outcome";
import { stableHash } from "../util/hash";
import { wordCount } from "../util/text";
import { parseInstructions, type Instructions } from "./instructions";
import { lorem, loremLength } from "./lorem";
import { schemaArguments } from "./schema-args";
import { structuredText } from "./structured";
import { defaultServerUse } from "./server-tools";

export interface DefaultOptions {
  /** Pacing of streamed words; 0 = no delay. */
  wordsPerSecond: number;
  /** The ids' seed (turn/default-ids.ts: where the request sits); absent: derived from the messages. */
  idSeed?: string;
}

/** A user message containing this gets a reasoning stream before the answer. */
export const REASON_MARKER = "\nReason:";
/** Words per streamed chunk. */
export const CHUNK_WORDS = 5;

/** One generated assistant message, before it becomes a Reply. */
export interface DefaultMessage {
  reasoning?: string;
  text?: string;
  toolCalls: ReplyToolCall[];
}

/** `body`, then `message` verbatim after a blank line (nothing when the message is empty). */
function echo(body: string, message: string): string {
  return message === "" ? body : `${body}\n\n${message}`;
}

/**
 * The lorem answer to `message`, as the server test mode (seed 004) streams it: when the message contains
 * `\nReason:`, a reasoning stream of `loremLength("reasoning\n" + message)` words first; then `loremLength(message)`
 * words of text. Each stream, reasoning then text, ends with the message echoed verbatim after a blank line.
 * @example loremMessage("hi").text // "lorem ipsum dolor … \n\nhi"
 */
export function loremMessage(message: string): DefaultMessage {
  const reasoning = message.includes(REASON_MARKER) ? echo(lorem(loremLength(`reasoning\n${message}`)), message) : undefined;
  return {
    ...(reasoning !== undefined ? { reasoning } : {}),
    text: echo(lorem(loremLength(message)), message),
    toolCalls: [],
  };
}

/**
 * Choice `index` (1…127) of an `n > 1` lorem answer: its own lorem text — `loremLength("choice {index}\n{hash}")`
 * words (`hash` = stableHash(message)) from word `index` of the list — and a reasoning stream likewise when the
 * message asks for one. It does not echo the message, so `n` choices stay within `n` × 500 words (plus the first
 * choice's echo) whatever the message's size, and the message is hashed once, not once per choice.
 * @example loremChoice("hi", 1).text // "ipsum dolor sit …", the same on every call
 */
export function loremChoice(message: string, index: number, hash = stableHash(message)): DefaultMessage {
  const key = `choice ${index}\n${hash}`;
  const reasoning = message.includes(REASON_MARKER) ? lorem(loremLength(`reasoning\n${key}`), index) : undefined;
  return { ...(reasoning !== undefined ? { reasoning } : {}), text: lorem(loremLength(key), index), toolCalls: [] };
}

/** `id_message` before and after `body`, space-separated; neither counts in any length. */
function wrap(id: string | undefined, body: string): string {
  if (id === undefined || id === "") return body;
  return body === "" ? `${id} ${id}` : `${id} ${body} ${id}`;
}

/**
 * The messages an instruction block asks for: text messages get `reasoning.length` lorem words of reasoning first;
 * tool-call messages carry their calls, `args` as JSON (a string verbatim).
 * @example instructedMessages({ messages: [{ kind: "text", length: 3 }] }) // [{ text: "lorem ipsum dolor", toolCalls: [] }]
 */
export function instructedMessages(plan: Instructions): DefaultMessage[] {
  const id = plan.id_message;
  return plan.messages.map((m) => {
    if (m.kind === "tool_call") {
      return {
        toolCalls: m.calls.map((c) => ({
          name: c.name,
          arguments: typeof c.args === "string" ? c.args : JSON.stringify(c.args ?? {}),
        })),
      };
    }
    return {
      ...(plan.reasoning !== undefined ? { reasoning: wrap(id, lorem(plan.reasoning.length)) } : {}),
      text: wrap(id, lorem(m.length)),
      toolCalls: [],
    };
  });
}

/**
 * Choice `index` of the answer to a forced tool choice: one call to `tool` (no text), its arguments generated from the
 * tool's schema and the request, so they are valid and the same on every run.
 * @example forcedCall(req, "get_weather", 0).toolCalls[0] // { name: "get_weather", arguments: '{"city":"…"}' }
 */
export function forcedCall(req: CanonicalRequest, tool: string, index: number): DefaultMessage {
  const schema = req.toolSchemas?.find((t) => t.name === tool)?.schema;
  const seed = `${seedOf(req)}/tool/${tool}${index > 0 ? `/choice-${index}` : ""}`;
  return { toolCalls: [{ name: tool, arguments: JSON.stringify(schemaArguments(schema, seed)) }] };
}

/**
 * How a forced call finishes: Chat Completions answers `finish_reason: "stop"` when `tool_choice` names a function
 * and `"tool_calls"` for `"required"` (the real API's behaviour, which vLLM's OpenAI server copies); every other
 * surface renders `tool_calls` as its own tool-use reason.
 */
function forcedFinish(req: CanonicalRequest): Reply["finishReason"] {
  return req.endpoint === "chat.completions" && req.toolChoice?.kind === "tool" ? "stop" : "tool_calls";
}

/** Words the request carries: a deterministic stand-in for input tokens (also `POST /v1/responses/input_tokens`). */
export function requestWords(req: CanonicalRequest): number {
  let n = wordCount(req.system);
  for (const m of req.messages) {
    if (m.role === "tool") n += wordCount(m.content);
    else n += wordCount(m.text);
    if (m.role === "assistant") for (const c of m.toolCalls) n += wordCount(c.arguments);
  }
  // A decision's questions are read too: their instructions and their options' names.
  for (const q of req.questions ?? []) n += wordCount(q.instructions) + q.options.length;
  return Math.max(1, n);
}

function generatedWords(m: DefaultMessage): { reasoning: number; total: number } {
  const reasoning = wordCount(m.reasoning ?? "");
  const calls = m.toolCalls.reduce((n, c) => n + toolCallTokens(c), 0);
  return { reasoning, total: reasoning + wordCount(m.text ?? "") + calls };
}

function seedOf(req: CanonicalRequest): string {
  return `default/${conversationHash(req)}`;
}

/** 2024-01-01T00:00:00Z; default replies are dated within the year after it. */
const EPOCH = 1_704_067_200;
const YEAR = 31_536_000;

/**
 * `created` of a default reply: derived from the request, so the same request gives the same bytes.
 * @example defaultCreated(req) // e.g. 1719864321, on every call
 */
export function defaultCreated(req: CanonicalRequest): number {
  return EPOCH + (Math.abs(stableHash(`created|${seedOf(req)}`)) % YEAR);
}

/**
 * The default reply to `req`: driven by an instruction block in the last user message when it holds valid JSON,
 * else the lorem answer. Streams in 5-word chunks at `wordsPerSecond`; cut at the request's output-token limit
 * (`finishReason: "length"`) like any reply.
 * @example defaultReply(req, { wordsPerSecond: 50 })
 */
export function defaultReply(req: CanonicalRequest, opts: DefaultOptions): Reply {
  const message = lastUserMessage(req) ?? "";
  const plan = parseInstructions(message);
  // An instruction block is the user's own script and wins; otherwise a forced tool choice is answered with a call.
  // A choice forcing a server-side tool (contract section 11) is answered with a use of it, then text about it.
  const server = plan || req.forcedServerTool === undefined ? undefined : defaultServerUse(req.forcedServerTool, message);
  const forced = plan || server ? undefined : forcedTool(req);
  const n = plan || server ? 1 : (req.choices ?? 1);
  // Then a structured-output request is answered with JSON that fits its schema.
  const output = plan || server || forced !== undefined ? undefined : req.outputSchema;
  const structured = (i: number): DefaultMessage => ({ text: structuredText(output!, message, seedOf(req), i), toolCalls: [] });
  // A decision answers with its answers (rendered by its surface from the questions), no text: a token an answer.
  const first: DefaultMessage = server
    ? { text: server.text, toolCalls: [] }
    : forced !== undefined
      ? forcedCall(req, forced, 0)
      : output !== undefined
        ? structured(0)
        : req.questions !== undefined
          ? { text: "", toolCalls: [] }
          : loremMessage(message);
  const messages = plan ? instructedMessages(plan) : [first];
  const hash = n > 1 && forced === undefined ? stableHash(message) : 0;
  for (let i = 1; i < n; i++) messages.push(forced !== undefined ? forcedCall(req, forced, i) : output !== undefined ? structured(i) : loremChoice(message, i, hash));
  const seed = opts.idSeed ?? seedOf(req);
  const base = {
    model: answeredModel(req.provider, req.model),
    latencyMs: 0,
    pacing: { ttftMs: 0, tokensPerSecond: opts.wordsPerSecond, chunkDelayMs: 0, chunkWords: CHUNK_WORDS, jitterMs: 0, seed: 0 },
    headers: {},
  };
  const usageOf = (list: DefaultMessage[]) => {
    const words = list.map(generatedWords);
    return {
      inputTokens: requestWords(req),
      outputTokens:
        req.questions?.length ??
        Math.max(
          1,
          words.reduce((t, w) => t + w.total, 0),
        ),
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: words.reduce((t, w) => t + w.reasoning, 0),
    };
  };
  // A legacy completion continues its prompt: an instruct model starts its answer on a new paragraph (as the API's own
  // example, "\n\nThis is indeed a test"), so an echoed prompt and the text do not run together.
  const paragraph = req.endpoint === "completions" ? "\n\n" : "";
  const choiceOf = (m: DefaultMessage, i: number, usage: Reply["usage"]): Reply => ({
    ...base,
    usage,
    ...(m.text !== undefined ? { text: paragraph + m.text } : {}),
    reasoning: m.reasoning !== undefined ? [{ type: "thinking", text: m.reasoning }] : [],
    reasoningField: "reasoning",
    toolCalls: m.toolCalls,
    finishReason: m.toolCalls.length === 0 ? "stop" : forced !== undefined ? forcedFinish(req) : "tool_calls",
    idSeed: i === 0 ? seed : `${seed}/choice-${i}`,
  });
  if (n > 1) {
    // `n` independent completions: each cut at the output-token limit on its own; usage adds them up.
    const choices = messages.map((m, i) => limitReply(stopReply(choiceOf(m, i, usageOf([m])), req.stopSequences), req.maxTokens));
    const [first, ...rest] = choices;
    const usage = {
      ...first!.usage,
      outputTokens: choices.reduce((t, c) => t + c.usage.outputTokens, 0),
      reasoningTokens: choices.reduce((t, c) => t + c.usage.reasoningTokens, 0),
    };
    return { ...first!, usage, extraChoices: rest };
  }
  const usage = usageOf(messages);
  if (req.compactionRequested) {
    const summary = defaultCompactionSummary(req);
    const compaction = { ...base, usage: { ...usage, outputTokens: Math.max(1, wordCount(summary)), reasoningTokens: 0 } };
    return { ...compaction, reasoning: [], reasoningField: "reasoning", toolCalls: [], finishReason: "stop", idSeed: `${seed}/compaction`, compaction: { summary } };
  }
  const choices: Reply[] = messages.map((m, i) => choiceOf(m, i, usage));
  if (server) choices[0]!.serverTools = server.serverTools;
  // A request asking for an image or speech (Gemini's image and TTS models) gets it; text only if it asked for text too.
  if (req.mediaOutput !== undefined && !plan) {
    if (req.mediaOutput.kind === "image") choices[0]!.image = {};
    else choices[0]!.speech = {};
    if (!req.mediaOutput.withText) {
      delete choices[0]!.text;
      choices[0]!.usage = { ...usage, outputTokens: 0, reasoningTokens: 0 };
    }
  }
  const [head, ...rest] = choices;
  return limitReply(stopReply(rest.length > 0 ? { ...head!, extraChoices: rest } : head!, req.stopSequences), req.maxTokens);
}
