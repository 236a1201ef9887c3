/**
 * The provider-neutral request every surface parses into. The scenario engine sees only this.
 * Imports nothing from providers/.
 */
import type { CanonicalOutputSchema, CanonicalStrictTool } from "./output-schema";
import type { CanonicalQuestion } from "./decisions";
import { stableHash } from "../util/hash";

export const PROVIDERS = ["openai", "anthropic", "gemini", "ollama", "bedrock", "vertex", "azure", "cohere"] as const;
export type ProviderName = (typeof PROVIDERS)[number];

export const ENDPOINTS = [
  "chat.completions",
  /** OpenAI's legacy `/v1/completions` (a prompt, text choices). */
  "completions",
  "responses",
  "embeddings",
  "messages",
  "count_tokens",
  "generateContent",
  "chat",
  "generate",
  "converse",
  /** OpenAI Realtime over WebSocket (`/v1/realtime`). */
  "realtime",
  /** Gemini Live over WebSocket (`…GenerativeService.BidiGenerateContent`). */
  "bidiGenerateContent",
  /** Gemini's Interactions API (`POST /v1beta/interactions`). */
  "interactions",
  /** OpenAI `/v1/moderations`. */
  "moderations",
  /** OpenAI `/v1/images/generations`, `/edits`, `/variations`. */
  "images",
  /** OpenAI `/v1/audio/speech`. */
  "speech",
  /** OpenAI `/v1/audio/transcriptions` and `/translations`. */
  "transcriptions",
  /** Cohere's `/v2/rerank` (and `/v1/rerank`), which Voyage, Jina and gateways copy. */
  "rerank",
  /** OpenAI `/v1/decisions` and Gemini's `/v1beta/decisions`: questions about an input, answered with probabilities. */
  "decisions",
] as const;
export type Endpoint = (typeof ENDPOINTS)[number];

/** One tool call an assistant turn made, as sent back by the client. */
export interface CanonicalToolCall {
  id: string;
  name: string;
  /** JSON text of the arguments (OpenAI sends a string, Anthropic an object we stringify). */
  arguments: string;
}

/** A reasoning block the client echoed back (Anthropic thinking, OpenAI reasoning items). */
export interface CanonicalReasoning {
  text: string;
  signature?: string;
  redacted?: string;
}

export type CanonicalMessage =
  | { role: "user"; text: string }
  | {
      role: "assistant";
      text: string;
      toolCalls: CanonicalToolCall[];
      reasoning: CanonicalReasoning[];
    }
  | { role: "tool"; toolCallId: string; name?: string; content: string; isError: boolean };

/** A canonical tool result message. */
export type CanonicalToolResult = Extract<CanonicalMessage, { role: "tool" }>;

/**
 * The assistant turn that `messages` ends with, or a fresh one pushed: where consecutive assistant-side items (text,
 * tool calls, reasoning) of a wire conversation gather into one turn.
 * @example assistantTurn(messages).toolCalls.push({ id: "call_1", name: "f", arguments: "{}" })
 */
export function assistantTurn(messages: CanonicalMessage[]): Extract<CanonicalMessage, { role: "assistant" }> {
  const last = messages[messages.length - 1];
  if (last?.role === "assistant") return last;
  const fresh: Extract<CanonicalMessage, { role: "assistant" }> = { role: "assistant", text: "", toolCalls: [], reasoning: [] };
  messages.push(fresh);
  return fresh;
}

/**
 * A user message's canonical messages, added to `out`: the tool result `resultOf` finds in each of its blocks, in
 * order, then its text (`text`, read only when needed) as a user turn — unless every block was a tool result, which
 * is not a user turn. What Anthropic's, Gemini's and Bedrock's parsers make of a user message of blocks.
 * @example addUserTurn(out, blocks, (b) => (b.type === "tool_result" ? { role: "tool", toolCallId: b.id, content: "", isError: false } : undefined), () => "hi")
 */
export function addUserTurn<T>(out: CanonicalMessage[], blocks: readonly T[], resultOf: (block: T) => CanonicalToolResult | undefined, text: () => string): void {
  let results = 0;
  for (const block of blocks) {
    const result = resultOf(block);
    if (result === undefined) continue;
    out.push(result);
    results++;
  }
  if (results === 0 || results < blocks.length) out.push({ role: "user", text: text() });
}

/**
 * A tool choice other than auto, provider-neutral: `required` is OpenAI's `"required"`, Anthropic's and Bedrock's
 * `any`, Gemini's `mode: ANY`; `tool` names one tool. `allowed` narrows `required` (Gemini `allowedFunctionNames`,
 * OpenAI `allowed_tools`), in the client's order. Auto is the field's absence, so a request that asks for it reads
 * as one that says nothing.
 */
export interface CanonicalToolChoice {
  kind: "none" | "required" | "tool";
  name?: string;
  allowed?: string[];
}

/** An offered tool's input JSON Schema, as sent (OpenAI `parameters`, Anthropic `input_schema`, …). */
export interface CanonicalToolSchema {
  name: string;
  schema: unknown;
}

/** A compaction: what the surfaces carry as OpenAI's `compaction` item or Anthropic's `compaction` block. */
export interface CanonicalCompaction {
  /** The summary text (empty when the client sent back a blob mockllm did not write). */
  summary: string;
}

/** The request as the engine sees it, whichever surface it came from. */
export interface CanonicalRequest {
  provider: ProviderName;
  endpoint: Endpoint;
  model: string;
  stream: boolean;
  /** All system / developer / instructions text, joined with a blank line. */
  system: string;
  /** Conversation without system entries, in order. */
  messages: CanonicalMessage[];
  /** Names of the tools the client offers. */
  tools: string[];
  /** The client's tool choice; absent for auto, none sent, or a shape mockllm does not read. */
  toolChoice?: CanonicalToolChoice;
  /** The offered tools' schemas, in order: set only when `toolChoice` forces a call (the default responder fills arguments from them). */
  toolSchemas?: CanonicalToolSchema[];
  temperature?: number;
  topP?: number;
  maxTokens?: number;
  /** The stop sequences the client sent (OpenAI `stop`, Anthropic `stop_sequences`, …), empty ones dropped; absent when none. */
  stopSequences?: string[];
  /** Completions the client asked for (OpenAI Chat `n`, 1…128); absent means one. The default responder honours it. */
  choices?: number;
  /** Whether the client asked for reasoning / extended thinking. */
  reasoning: "enabled" | "disabled";
  /**
   * Request headers, lower-cased names: the request's own header record (src/http/headers.ts), shared, never written.
   * Secrets are redacted before they reach the journal.
   */
  headers: Record<string, string>;
  /**
   * The latest compaction the request carries back (OpenAI `compaction` item, Anthropic `compaction` block): what it
   * summarised is not in `messages` (contract section 10, matcher `compacted`).
   */
  compaction?: CanonicalCompaction;
  /** The request asks for a compaction, not a reply (OpenAI `POST /v1/responses/compact`, a `compaction_trigger` item). */
  compactionRequested?: true;
  /** Server-side compaction: a reply whose input tokens reach this starts with a compaction (see `replyCompaction`). */
  compactThreshold?: number;
  /** A batch line's `custom_id` (contract section 11, matcher `customId`); absent on a live call. */
  customId?: string;
  /** The structured output the request asks for (contract section 11); absent for plain text. */
  outputSchema?: CanonicalOutputSchema;
  /** Offered tools declared `strict: true` (OpenAI, Anthropic), with their schemas: scripted calls to them are checked. */
  strictTools?: CanonicalStrictTool[];
  /** A decisions request's questions (OpenAI `/v1/decisions`, Gemini's `/v1beta/decisions`): a scripted `decision` is checked against them. */
  questions?: CanonicalQuestion[];
  /** Server-side tools the request offers (`web_search`, `code_execution`, `mcp`, …; matcher `serverTool`); absent = none. */
  serverTools?: string[];
  /** The tool choice forces this server-side tool (a `serverTools` name): the default responder answers with a use of it. */
  forcedServerTool?: string;
  /**
   * The request asks for an image or speech answer (Gemini `responseModalities` with `IMAGE` or `AUDIO`, or an image or
   * TTS model asked nothing): the default responder answers with one (`reply.image`, `reply.speech`), with its text
   * only when `withText` (`TEXT` asked beside an image).
   */
  mediaOutput?: { kind: "image" | "audio"; withText: boolean };
}

/**
 * The canonical request of a surface whose input is texts, not a conversation (embeddings, a rerank query): each text a
 * user message a step matches (`lastUserMessage`), no system prompt, tools or stream.
 * @example inputsRequest("cohere", "embeddings", "embed-v4.0", ["hi"], {}).messages // [{ role: "user", text: "hi" }]
 */
export function inputsRequest(provider: ProviderName, endpoint: Endpoint, model: string, texts: readonly string[], headers: Record<string, string>): CanonicalRequest {
  return {
    provider,
    endpoint,
    model,
    stream: false,
    system: "",
    messages: texts.map((text) => ({ role: "user" as const, text })),
    tools: [],
    reasoning: "disabled",
    headers,
  };
}

/** Each request's conversation hash, by its messages array (the engine never changes a parsed request). */
const conversationHashes = new WeakMap<readonly CanonicalMessage[], number>();

/**
 * `stableHash` of the JSON of the request's messages: what the default responder's answers and ids derive from.
 * Computed once per request though several ask for it (a 10 MB conversation's JSON is 10 MB each time).
 * @example conversationHash(req) === stableHash(JSON.stringify(req.messages)) // true
 */
export function conversationHash(req: CanonicalRequest): number {
  let hash = conversationHashes.get(req.messages);
  if (hash === undefined) {
    hash = stableHash(JSON.stringify(req.messages));
    conversationHashes.set(req.messages, hash);
  }
  return hash;
}

/** Number of assistant messages in the request, plus one. */
export function turnOf(req: CanonicalRequest): number {
  let turn = 1;
  for (const m of req.messages) if (m.role === "assistant") turn++;
  return turn;
}

export function firstUserMessage(req: CanonicalRequest): string | undefined {
  for (const m of req.messages) if (m.role === "user") return m.text;
  return undefined;
}

/** The last user message's text (scanned from the end: usually the last message, whatever the conversation's length). */
export function lastUserMessage(req: CanonicalRequest): string | undefined {
  for (let i = req.messages.length - 1; i >= 0; i--) {
    const m = req.messages[i]!;
    if (m.role === "user") return m.text;
  }
  return undefined;
}

/** Tool results sent after the last assistant turn, with the tool name resolved from that turn's calls. */
export function pendingToolResults(req: CanonicalRequest): { name?: string; toolCallId: string; content: string; isError: boolean }[] {
  let lastAssistant = -1;
  for (let i = req.messages.length - 1; i >= 0; i--) {
    if (req.messages[i]!.role === "assistant") {
      lastAssistant = i;
      break;
    }
  }
  const out: { name?: string; toolCallId: string; content: string; isError: boolean }[] = [];
  for (let i = lastAssistant + 1; i < req.messages.length; i++) {
    const m = req.messages[i]!;
    if (m.role !== "tool") continue;
    out.push({ name: m.name ?? calledName(req.messages, lastAssistant, m.toolCallId), toolCallId: m.toolCallId, content: m.content, isError: m.isError });
  }
  return out;
}

/**
 * The name of the tool call `id`, from the newest assistant message at or before `from` that made it (a result
 * answers the turn just before it, so the search seldom goes past the first message it reads).
 */
function calledName(messages: CanonicalMessage[], from: number, id: string): string | undefined {
  for (let i = from; i >= 0; i--) {
    const a = messages[i]!;
    if (a.role !== "assistant") continue;
    for (let j = a.toolCalls.length - 1; j >= 0; j--) if (a.toolCalls[j]!.id === id) return a.toolCalls[j]!.name;
  }
  return undefined;
}

/** Text of every assistant message in the request, in order. */
export function assistantMessages(req: CanonicalRequest): string[] {
  return req.messages.flatMap((m) => (m.role === "assistant" ? [m.text] : []));
}

/** Every tool call an assistant made earlier in the conversation, in order. */
export function earlierToolCalls(req: CanonicalRequest): CanonicalToolCall[] {
  return req.messages.flatMap((m) => (m.role === "assistant" ? m.toolCalls : []));
}

/**
 * The tool a forced tool choice calls: the named one, or the first offered (within `allowed`) for `required`;
 * undefined when the choice forces nothing or names no offered tool.
 * @example forcedTool({ ...req, tools: ["a", "b"], toolChoice: { kind: "required", allowed: ["b"] } }) // "b"
 */
export function forcedTool(req: CanonicalRequest): string | undefined {
  const choice = req.toolChoice;
  if (choice === undefined) return undefined;
  if (choice.kind === "tool") return choice.name !== undefined && req.tools.includes(choice.name) ? choice.name : undefined;
  if (choice.kind !== "required") return undefined;
  const allowed = choice.allowed;
  return allowed === undefined ? req.tools[0] : req.tools.find((t) => allowed.includes(t));
}

/** Whether `choice` forces a tool call: what decides if a surface's parse keeps the tools' schemas. */
export function forcesCall(choice: CanonicalToolChoice | undefined): boolean {
  return choice?.kind === "required" || choice?.kind === "tool";
}

/**
 * A surface's `toolChoice` as canonical request fields: the choice when the request made one, and the offered tools'
 * schemas (`schemas`, read only then) when it forces a call.
 * @example { ...toolChoiceFields({ kind: "required" }, () => [{ name: "get_weather", schema: {} }]) } // { toolChoice, toolSchemas }
 */
export function toolChoiceFields(choice: CanonicalToolChoice | undefined, schemas: () => CanonicalToolSchema[]): Pick<CanonicalRequest, "toolChoice" | "toolSchemas"> {
  return { ...(choice !== undefined ? { toolChoice: choice } : {}), ...(forcesCall(choice) ? { toolSchemas: schemas() } : {}) };
}
