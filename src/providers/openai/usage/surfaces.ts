/**
 * `countUsage` of the OpenAI surfaces (and Azure's, which spread them): Chat counts the messages as sent (`name`,
 * content parts, `tool_calls`), Responses the resolved conversation; both add the tool definitions.
 */
import type { Reply } from "../../../canonical/outcome";
import type { CanonicalRequest } from "../../../canonical/request";
import type { ChatRequest } from "../chat/wire";
import type { CompletionsRequest } from "../completions/wire";
import { inputsOf } from "../embeddings/parse";
import type { EmbeddingInput, EmbeddingsRequest } from "../embeddings/wire";
import type { ResponsesRequest } from "../responses/wire";
import { canonicalPromptTokens, chatMessageTokens, completionTokens, type Encoder, encodingFor, loadEncoder, toolDefinitionTokens } from "./count";

/** Chat Completions: the cookbook formula over `messages`, plus `tools`; the reply's text and tool calls. */
export async function countChatUsage(wire: ChatRequest, _request: CanonicalRequest, reply: Reply): Promise<{ input: number; output: number }> {
  const encoding = encodingFor(wire.model);
  const enc = await loadEncoder(encoding);
  return { input: chatMessageTokens(enc, wire.messages) + toolDefinitionTokens(enc, encoding, wire.tools), output: completionTokens(enc, reply) };
}

/**
 * Responses' input tokens: the instructions and the resolved conversation, plus `tools`
 * (also `POST /v1/responses/input_tokens` when counting is on, so the two agree).
 */
export async function responsesInputTokens(request: CanonicalRequest, tools: readonly unknown[] | null | undefined): Promise<number> {
  const encoding = encodingFor(request.model);
  const enc = await loadEncoder(encoding);
  return canonicalPromptTokens(enc, request) + toolDefinitionTokens(enc, encoding, tools);
}

/** Responses: `responsesInputTokens`; the reply's text and tool calls. */
export async function countResponsesUsage(wire: ResponsesRequest, request: CanonicalRequest, reply: Reply): Promise<{ input: number; output: number }> {
  const enc = await loadEncoder(encodingFor(request.model));
  return { input: await responsesInputTokens(request, wire.body.tools), output: completionTokens(enc, reply) };
}

/** The tokens of text or token-list inputs (a token list counts its length). */
function inputTokens(enc: Encoder, inputs: readonly EmbeddingInput[]): number {
  let n = 0;
  for (const i of inputs) n += i.kind === "tokens" ? i.tokens.length : enc.count(i.text);
  return n;
}

/** Embeddings: the tokens of each input (a token-array input counts its length); no output. */
export async function countEmbeddingsUsage(wire: EmbeddingsRequest, _request: CanonicalRequest, _reply: Reply): Promise<{ input: number; output: number }> {
  const enc = await loadEncoder(encodingFor(wire.body.model));
  return { input: inputTokens(enc, wire.inputs), output: 0 };
}

/** A reply counter's name (src/canonical/reply-tokens.ts): `model`'s encoding, loaded. */
async function loadedEncoding(model: string): Promise<string> {
  const encoding = encodingFor(model);
  await loadEncoder(encoding);
  return encoding;
}

/** The reply counter of Chat: the model's encoding, as `countChatUsage` counts. */
export function chatReplyCounter(wire: ChatRequest, _request: CanonicalRequest): Promise<string> {
  return loadedEncoding(wire.model);
}

/** The reply counter of Responses: the model's encoding, as `countResponsesUsage` counts. */
export function responsesReplyCounter(_wire: ResponsesRequest, request: CanonicalRequest): Promise<string> {
  return loadedEncoding(request.model);
}

/** Embeddings have no completion. */
export async function embeddingsReplyCounter(): Promise<string> {
  return "none";
}

/** Legacy completions: the tokens of each prompt (a token-id prompt counts its ids); the reply's text. */
export async function countCompletionsUsage(wire: CompletionsRequest, _request: CanonicalRequest, reply: Reply): Promise<{ input: number; output: number }> {
  const enc = await loadEncoder(encodingFor(wire.body.model));
  const prompt = wire.body.prompt;
  return { input: prompt === null ? 0 : inputTokens(enc, inputsOf(prompt)), output: completionTokens(enc, reply) };
}

/** The reply counter of legacy completions: the model's encoding, as `countCompletionsUsage` counts. */
export function completionsReplyCounter(wire: CompletionsRequest): Promise<string> {
  return loadedEncoding(wire.body.model);
}
