/**
 * Usage counted with the model's real tokenizer (opt-in: scenario `"usage": "count"`, `mockllm serve
 * --usage count`, Worker var `USAGE=count`). Prompt tokens follow OpenAI's cookbook "How to count tokens with tiktoken"
 * (https://cookbook.openai.com/examples/how_to_count_tokens_with_tiktoken): 3 tokens per message, the tokens of each
 * field's value, 1 more per `name`, 3 to prime the reply; tool definitions by the cookbook's documented approximation.
 * The encoding (gpt-tokenizer's `o200k_base` / `cl100k_base`) is loaded by a dynamic `import()` on first use, so a
 * request that does not count pays nothing. See docs/reference/usage.md.
 */
import type { CanonicalRequest } from "../../../canonical/request";
import type { Reply } from "../../../canonical/outcome";

export type EncodingName = "o200k_base" | "cl100k_base";

/** What counting needs of an encoding. */
export interface Encoder {
  count(text: string): number;
}

/** Models on `cl100k_base`; every other model (gpt-4o, gpt-4.1, gpt-5*, o1/o3/o4*, chatgpt-4o, unknown) uses `o200k_base`. */
const CL100K = /^(?:gpt-4(?!o|\.|-?o)(?:-|$)|gpt-4$|gpt-3\.5|text-embedding-3-|text-embedding-ada-002)/;

/**
 * The encoding of `model` (a dated snapshot counts as its family).
 * @example encodingFor("gpt-4-0613") // "cl100k_base"; encodingFor("gpt-4o-mini") // "o200k_base"
 */
export function encodingFor(model: string): EncodingName {
  return CL100K.test(model) ? "cl100k_base" : "o200k_base";
}

/** Encoders already loaded: settled values only — no module-scope promise is shared between requests (workerd). */
const loaded = new Map<EncodingName, Encoder>();

/** Loads (once) the encoding's ranks; the module is a separate chunk, fetched on the first counted request. */
export async function loadEncoder(name: EncodingName): Promise<Encoder> {
  const known = loaded.get(name);
  if (known !== undefined) return known;
  const m = await (name === "cl100k_base" ? import("gpt-tokenizer/encoding/cl100k_base") : import("gpt-tokenizer/encoding/o200k_base"));
  const encoder: Encoder = { count: (text: string) => (text === "" ? 0 : m.encode(text, { disallowedSpecial: new Set() }).length) };
  loaded.set(name, encoder);
  return encoder;
}

/** Cookbook: every message is framed `<|start|>{role/name}\n{content}<|end|>\n` (3 tokens); 1 more for a `name`. */
const TOKENS_PER_MESSAGE = 3;
const TOKENS_PER_NAME = 1;
/** Every reply is primed with `<|start|>assistant<|message|>`. */
const REPLY_PRIMING = 3;
/** Cookbook's approximation of a low-detail image; image parts are counted as this many tokens each. */
const IMAGE_TOKENS = 85;

/** Tokens of one field value: strings as text, content parts by their text, anything else as its JSON. */
function valueTokens(enc: Encoder, value: unknown): number {
  if (typeof value === "string") return enc.count(value);
  if (value === null || value === undefined) return 0;
  if (Array.isArray(value)) {
    let n = 0;
    for (const part of value) {
      if (part !== null && typeof part === "object") {
        const p = part as Record<string, unknown>;
        if (typeof p.text === "string") n += enc.count(p.text);
        else if (typeof p.refusal === "string") n += enc.count(p.refusal);
        else if (p.type === "image_url" || p.type === "input_image") n += IMAGE_TOKENS;
        else n += enc.count(JSON.stringify(part));
      } else n += valueTokens(enc, part);
    }
    return n;
  }
  if (typeof value === "object") return enc.count(JSON.stringify(value));
  return enc.count(String(value));
}

/** Tool calls of an assistant message: each call's function name and arguments. */
function toolCallTokens(enc: Encoder, calls: unknown): number {
  if (!Array.isArray(calls)) return valueTokens(enc, calls);
  let n = 0;
  for (const c of calls) {
    const f = (c as { function?: { name?: unknown; arguments?: unknown }; custom?: { name?: unknown; input?: unknown } }).function;
    if (f !== undefined) n += valueTokens(enc, f.name) + valueTokens(enc, f.arguments);
    else n += valueTokens(enc, c);
  }
  return n;
}

/**
 * The cookbook's `num_tokens_from_messages` over Chat Completions messages as sent.
 * @example chatMessageTokens(enc, [{ role: "user", content: "Hello" }]) // 3 + 1 + 1 + 3 = 8
 */
export function chatMessageTokens(enc: Encoder, messages: readonly unknown[]): number {
  let n = 0;
  for (const m of messages) {
    n += TOKENS_PER_MESSAGE;
    if (m === null || typeof m !== "object") continue;
    for (const [key, value] of Object.entries(m as Record<string, unknown>)) {
      if (key === "tool_calls") n += toolCallTokens(enc, value);
      else n += valueTokens(enc, value);
      if (key === "name") n += TOKENS_PER_NAME;
    }
  }
  return n + REPLY_PRIMING;
}

/** The cookbook's `num_tokens_for_tools` constants, per encoding. */
const TOOL_COSTS: Record<EncodingName, { funcInit: number; propInit: number; propKey: number; enumInit: number; enumItem: number; funcEnd: number }> = {
  o200k_base: { funcInit: 7, propInit: 3, propKey: 3, enumInit: -3, enumItem: 3, funcEnd: 12 },
  cl100k_base: { funcInit: 10, propInit: 3, propKey: 3, enumInit: -3, enumItem: 3, funcEnd: 12 },
};

const str = (v: unknown): string => (typeof v === "string" ? v : v === undefined || v === null ? "" : JSON.stringify(v));
const trimDot = (s: string): string => (s.endsWith(".") ? s.slice(0, -1) : s);

/**
 * The cookbook's `num_tokens_for_tools`: function tools as `{ type: "function", function: {name, description,
 * parameters} }` (Chat) or flat `{ type: "function", name, … }` (Responses). An approximation, documented as such.
 */
export function toolDefinitionTokens(enc: Encoder, encoding: EncodingName, tools: readonly unknown[] | null | undefined): number {
  if (tools === null || tools === undefined || tools.length === 0) return 0;
  const c = TOOL_COSTS[encoding];
  let n = 0;
  for (const t of tools) {
    if (t === null || typeof t !== "object") continue;
    const tool = t as Record<string, unknown>;
    const f = (typeof tool.function === "object" && tool.function !== null ? tool.function : tool) as Record<string, unknown>;
    n += c.funcInit;
    n += enc.count(`${str(f.name)}:${trimDot(str(f.description))}`);
    const params = f.parameters as { properties?: Record<string, Record<string, unknown>> } | undefined;
    const props = params !== null && typeof params === "object" && params.properties !== null && typeof params.properties === "object" ? params.properties : {};
    const keys = Object.keys(props);
    if (keys.length > 0) {
      n += c.propInit;
      for (const key of keys) {
        n += c.propKey;
        const p = props[key] ?? {};
        if (Array.isArray(p.enum)) {
          n += c.enumInit;
          for (const item of p.enum) n += c.enumItem + enc.count(str(item));
        }
        n += enc.count(`${key}:${str(p.type)}:${trimDot(str(p.description))}`);
      }
    }
  }
  return n + c.funcEnd;
}

/**
 * Prompt tokens of a conversation as the canonical request holds it (Responses, whose `input` items and
 * `previous_response_id` are resolved into it): the instructions as a system message, then each message's text.
 */
export function canonicalPromptTokens(enc: Encoder, req: CanonicalRequest): number {
  const messages: Record<string, unknown>[] = [];
  if (req.system !== "") messages.push({ role: "system", content: req.system });
  for (const m of req.messages) {
    if (m.role === "tool") messages.push({ role: "tool", content: m.content });
    else if (m.role === "assistant") messages.push({ role: "assistant", content: m.text, tool_calls: m.toolCalls.map((c) => ({ function: { name: c.name, arguments: c.arguments } })) });
    else messages.push({ role: m.role, content: m.text });
  }
  return chatMessageTokens(enc, messages);
}

/** Completion tokens of a reply: its text, refusal, reasoning and each tool call's name and arguments (every choice). */
export function completionTokens(enc: Encoder, reply: Reply): number {
  let n = 0;
  for (const r of [reply, ...(reply.extraChoices ?? [])]) {
    n += enc.count(r.text ?? "") + enc.count(r.refusal ?? "");
    for (const block of r.reasoning) n += enc.count(block.type === "thinking" ? block.text : "");
    for (const call of r.toolCalls) n += enc.count(call.name) + enc.count(call.arguments);
  }
  return n;
}
