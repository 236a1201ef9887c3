/**
 * Decodes recorded frames into the editable fields of a step's response (text, tool calls, reasoning, usage), each
 * provider by its own stream shape. Only a whole, successful answer is decoded, and only when every frame parses:
 * anything else yields no fields and the frames stay the only truth.
 */
import type { Endpoint } from "../canonical/request";
import { ResponseSchema, type RecordedFrames, type ScenarioResponse } from "../scenario/schema";

export type DecodedFields = Pick<ScenarioResponse, "text" | "reasoning" | "toolCalls" | "usage">;
type Json = Record<string, any>;
type ToolCall = { id?: string; name: string; arguments: string };
type Reasoning = { text: string; signature?: string } | { redacted: string };

/** What every decoder gathers, in order. */
class Gathered {
  text = "";
  hasText = false;
  reasoning: Reasoning[] = [];
  toolCalls: ToolCall[] = [];
  usage: Record<string, number> = {};

  addText(t: unknown): void {
    if (typeof t !== "string") return;
    this.text += t;
    this.hasText = true;
  }

  /** Appends to the open reasoning block, or opens one. */
  addThinking(t: unknown, fresh = false): void {
    if (typeof t !== "string" || t === "") return;
    const last = this.reasoning.at(-1);
    if (!fresh && last && "text" in last && last.signature === undefined) last.text += t;
    else this.reasoning.push({ text: t });
  }

  setUsage(fields: Record<string, unknown>): void {
    for (const [k, v] of Object.entries(fields)) if (typeof v === "number" && Number.isInteger(v) && v >= 0) this.usage[k] = v;
  }

  fields(): DecodedFields {
    const args = (raw: string): Record<string, unknown> | string => {
      try {
        const v: unknown = JSON.parse(raw);
        return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : raw;
      } catch {
        return raw;
      }
    };
    const out: DecodedFields = {};
    if (this.hasText && (this.text !== "" || this.toolCalls.length === 0)) out.text = this.text;
    if (this.reasoning.length > 0) {
      const plain = this.reasoning.length === 1 && "text" in this.reasoning[0]! && this.reasoning[0].signature === undefined;
      out.reasoning = plain ? (this.reasoning[0] as { text: string }).text : this.reasoning;
    }
    if (this.toolCalls.length > 0) {
      out.toolCalls = this.toolCalls.map((c) => ({ ...(c.id ? { id: c.id } : {}), name: c.name, arguments: args(c.arguments) }));
    }
    if (Object.keys(this.usage).length > 0) out.usage = this.usage;
    return out;
  }
}

/** The JSON payloads of SSE frames, with their event names; `[DONE]` and comments are skipped. */
function sseEvents(frames: RecordedFrames["frames"]): { event?: string; data: Json }[] {
  const out: { event?: string; data: Json }[] = [];
  for (const f of frames) {
    let event: string | undefined;
    const data: string[] = [];
    for (const line of f.data.split(/\r\n|\r|\n/)) {
      if (line.startsWith("event:")) event = line.slice(6).trim();
      else if (line.startsWith("data:")) data.push(line.slice(5).replace(/^ /, ""));
    }
    if (data.length === 0 || data.join("\n") === "[DONE]") continue;
    out.push({ ...(event !== undefined ? { event } : {}), data: JSON.parse(data.join("\n")) as Json });
  }
  return out;
}

function payloads(frames: RecordedFrames["frames"], streamed: "sse" | "ndjson" | "whole"): Json[] {
  if (streamed === "sse") return sseEvents(frames).map((e) => e.data);
  if (streamed === "ndjson") return frames.filter((f) => f.data.trim() !== "").map((f) => JSON.parse(f.data) as Json);
  return [JSON.parse(frames.map((f) => f.data).join("")) as Json];
}

function openaiUsage(g: Gathered, u: Json | undefined): void {
  if (!u) return;
  // Chat Completions' names, else the Responses API's.
  const input = u.prompt_tokens_details ?? u.input_tokens_details;
  g.setUsage({
    inputTokens: u.prompt_tokens ?? u.input_tokens,
    outputTokens: u.completion_tokens ?? u.output_tokens,
    cacheReadTokens: input?.cached_tokens,
    cacheWriteTokens: input?.cache_write_tokens,
    reasoningTokens: (u.completion_tokens_details ?? u.output_tokens_details)?.reasoning_tokens,
  });
}

function chatCompletions(all: Json[], g: Gathered): void {
  const byIndex = new Map<number, ToolCall>();
  for (const p of all) {
    const choice = p.choices?.[0];
    const part = choice?.delta ?? choice?.message;
    if (part) {
      g.addText(part.content ?? undefined);
      g.addThinking(part.reasoning_content ?? part.reasoning);
      for (const [i, c] of (part.tool_calls ?? []).entries()) {
        const index: number = c.index ?? i;
        const call = byIndex.get(index) ?? { name: "", arguments: "" };
        if (c.id) call.id = c.id;
        if (c.function?.name) call.name += c.function.name;
        if (typeof c.function?.arguments === "string") call.arguments += c.function.arguments;
        byIndex.set(index, call);
      }
    }
    openaiUsage(g, p.usage ?? undefined);
  }
  g.toolCalls = [...byIndex.entries()].sort((a, b) => a[0] - b[0]).map(([, c]) => c);
}

/** Legacy completions (`text_completion`, whole or chunks): the first choice's text and the usage. */
function completions(all: Json[], g: Gathered): void {
  for (const p of all) {
    const choice = p.choices?.find((c: Json) => (c.index ?? 0) === 0);
    g.addText(choice?.text);
    openaiUsage(g, p.usage ?? undefined);
  }
}

function responses(all: Json[], g: Gathered): void {
  const done = all.find((p) => p.type === "response.completed")?.response ?? (all.length === 1 && all[0]!.object === "response" ? all[0] : undefined);
  if (!done) throw new Error("no completed response");
  for (const item of done.output ?? []) {
    if (item.type === "message") for (const c of item.content ?? []) if (c.type === "output_text") g.addText(c.text);
    if (item.type === "function_call") g.toolCalls.push({ id: item.call_id, name: item.name, arguments: item.arguments ?? "" });
    if (item.type === "reasoning") g.addThinking((item.summary ?? []).map((s: Json) => s.text).join("\n\n"), true);
  }
  openaiUsage(g, done.usage ?? undefined);
}

function anthropicUsage(g: Gathered, u: Json | undefined): void {
  if (!u) return;
  g.setUsage({
    inputTokens: u.input_tokens,
    outputTokens: u.output_tokens,
    cacheReadTokens: u.cache_read_input_tokens ?? undefined,
    cacheWriteTokens: u.cache_creation_input_tokens ?? undefined,
  });
}

function anthropicBlock(g: Gathered, b: Json): void {
  if (b.type === "text") g.addText(b.text);
  else if (b.type === "thinking") g.reasoning.push({ text: b.thinking ?? "", ...(b.signature ? { signature: b.signature } : {}) });
  else if (b.type === "redacted_thinking") g.reasoning.push({ redacted: b.data });
  else if (b.type === "tool_use") {
    const args = b.input === undefined || (typeof b.input === "object" && Object.keys(b.input).length === 0) ? "" : JSON.stringify(b.input);
    g.toolCalls.push({ id: b.id, name: b.name, arguments: args });
  }
}

function anthropicMessages(all: Json[], g: Gathered, streamed: boolean): void {
  if (!streamed) {
    for (const b of all[0]!.content ?? []) anthropicBlock(g, b);
    for (const c of g.toolCalls) if (c.arguments === "") c.arguments = "{}";
    anthropicUsage(g, all[0]!.usage);
    return;
  }
  const blocks = new Map<number, Json>();
  for (const p of all) {
    if (p.type === "message_start") anthropicUsage(g, p.message?.usage);
    if (p.type === "content_block_start") blocks.set(p.index, { ...p.content_block, json: "" });
    if (p.type === "content_block_delta") {
      const b = blocks.get(p.index);
      if (!b) throw new Error("delta before its block");
      const d = p.delta;
      if (d.type === "text_delta") b.text = (b.text ?? "") + d.text;
      if (d.type === "thinking_delta") b.thinking = (b.thinking ?? "") + d.thinking;
      if (d.type === "signature_delta") b.signature = (b.signature ?? "") + d.signature;
      if (d.type === "input_json_delta") b.json += d.partial_json;
    }
    if (p.type === "message_delta") anthropicUsage(g, p.usage);
    if (p.type === "error") throw new Error("stream error");
  }
  for (const [, b] of [...blocks.entries()].sort((a, c) => a[0] - c[0])) {
    if (b.type === "tool_use") g.toolCalls.push({ id: b.id, name: b.name, arguments: b.json === "" ? "{}" : b.json });
    else anthropicBlock(g, b);
  }
}

/** `generateContent` answers: candidates' parts and `usageMetadata`. */
function generateContent(all: Json[], g: Gathered): void {
  for (const p of all) {
    for (const part of p.candidates?.[0]?.content?.parts ?? []) {
      if (part.thought === true) g.addThinking(part.text);
      else if (typeof part.text === "string") g.addText(part.text);
      if (part.functionCall) {
        g.toolCalls.push({ ...(part.functionCall.id ? { id: part.functionCall.id } : {}), name: part.functionCall.name, arguments: JSON.stringify(part.functionCall.args ?? {}) });
      }
    }
    const u = p.usageMetadata;
    if (u) {
      g.setUsage({
        inputTokens: u.promptTokenCount,
        outputTokens: u.candidatesTokenCount,
        reasoningTokens: u.thoughtsTokenCount,
        cacheReadTokens: u.cachedContentTokenCount,
      });
    }
  }
}

/** `chat` and `generate` NDJSON answers: each line's message (or the line itself) and its counts. */
function chatOrGenerate(all: Json[], g: Gathered): void {
  for (const p of all) {
    const m = p.message ?? p;
    g.addText(m.content ?? p.response);
    g.addThinking(m.thinking);
    for (const c of m.tool_calls ?? []) {
      g.toolCalls.push({ ...(c.id ? { id: c.id } : {}), name: c.function?.name, arguments: JSON.stringify(c.function?.arguments ?? {}) });
    }
    if (p.done === true) g.setUsage({ inputTokens: p.prompt_eval_count, outputTokens: p.eval_count });
  }
}

/**
 * Cohere Chat v2 (`/v2/chat`): the JSON answer's message, or the stream's content, tool-plan and tool-call deltas;
 * the usage's token counts (`tokens`, else `billed_units`) and `cached_tokens`. A tool plan is the turn's text.
 */
function cohereChat(all: Json[], g: Gathered): void {
  const calls = new Map<number, ToolCall>();
  const kinds = new Map<number, string>();
  const opened = new Set<number>();
  const usage = (u: Json | undefined) => {
    if (!u) return;
    const t = u.tokens ?? u.billed_units ?? {};
    g.setUsage({ inputTokens: t.input_tokens, outputTokens: t.output_tokens, cacheReadTokens: u.cached_tokens });
  };
  for (const p of all) {
    if (p.type === undefined) {
      const m = p.message ?? {};
      for (const c of Array.isArray(m.content) ? m.content : []) {
        if (c.type === "thinking") g.addThinking(c.thinking, true);
        else if (c.type === "text") g.addText(c.text);
      }
      if (typeof m.tool_plan === "string" && m.tool_plan !== "") g.addText(m.tool_plan);
      for (const c of m.tool_calls ?? []) g.toolCalls.push({ ...(c.id ? { id: c.id } : {}), name: c.function?.name ?? "", arguments: c.function?.arguments ?? "" });
      usage(p.usage);
      continue;
    }
    const delta = p.delta?.message;
    if (p.type === "content-start") kinds.set(p.index, delta?.content?.type ?? "text");
    if (p.type === "content-delta") {
      const thinking = delta?.content?.thinking;
      if (kinds.get(p.index) !== "thinking") g.addText(delta?.content?.text);
      else if (typeof thinking === "string" && thinking !== "") {
        // A thinking item's first words open its own reasoning block.
        g.addThinking(thinking, !opened.has(p.index));
        opened.add(p.index);
      }
    }
    if (p.type === "tool-plan-delta") g.addText(delta?.tool_plan);
    if (p.type === "tool-call-start") {
      const c = delta?.tool_calls ?? {};
      calls.set(p.index, { ...(c.id ? { id: c.id } : {}), name: c.function?.name ?? "", arguments: c.function?.arguments ?? "" });
    }
    if (p.type === "tool-call-delta") {
      const call = calls.get(p.index);
      if (!call) throw new Error("delta before its call");
      call.arguments += delta?.tool_calls?.function?.arguments ?? "";
    }
    if (p.type === "message-end") {
      if (p.delta?.finish_reason === "ERROR") throw new Error("stream error");
      usage(p.delta?.usage);
    }
  }
  g.toolCalls.push(...[...calls.entries()].sort((a, b) => a[0] - b[0]).map(([, c]) => c));
}

/** Cohere's v1 Chat (`/v1/chat`): the answer `stream-end` carries (or the JSON answer): text, tool calls, token counts. */
function cohereChatV1(all: Json[], g: Gathered): void {
  const end = all.find((p) => p.event_type === "stream-end");
  const done = end !== undefined ? end.response : all.length === 1 ? all[0] : undefined;
  if (!done || (end?.finish_reason ?? done.finish_reason) === "ERROR") throw new Error("no complete answer");
  g.addText(done.text);
  for (const c of done.tool_calls ?? []) g.toolCalls.push({ name: c.name, arguments: JSON.stringify(c.parameters ?? {}) });
  const t = done.meta?.tokens ?? done.meta?.billed_units ?? {};
  g.setUsage({ inputTokens: t.input_tokens, outputTokens: t.output_tokens });
}

/**
 * The editable fields a recorded answer decodes into, or none.
 * @example decodeFrames("chat.completions", "sse", frames) // { text: "Hello", usage: { inputTokens: 9, … } }
 */
export function decodeFrames(endpoint: Endpoint, streamed: "sse" | "ndjson" | "whole", recorded: RecordedFrames): DecodedFields {
  if (recorded.status !== 200 || recorded.truncated === true || recorded.frames.length === 0) return {};
  try {
    const all = payloads(recorded.frames, streamed);
    const g = new Gathered();
    switch (endpoint) {
      case "chat.completions":
        chatCompletions(all, g);
        break;
      case "completions":
        completions(all, g);
        break;
      case "responses":
        responses(all, g);
        break;
      case "messages":
        anthropicMessages(all, g, streamed === "sse");
        break;
      case "generateContent":
        generateContent(all, g);
        break;
      case "chat":
        // Ollama's chat is NDJSON with `done`; Cohere's v2 is server-sent events, or JSON with `message` and
        // `finish_reason`; Cohere's v1 lines carry `event_type`, its JSON `generation_id`.
        if (all[0]?.event_type !== undefined || all[0]?.generation_id !== undefined) cohereChatV1(all, g);
        else if (streamed === "sse" || all[0]?.finish_reason !== undefined) cohereChat(all, g);
        else chatOrGenerate(all, g);
        break;
      case "generate":
        chatOrGenerate(all, g);
        break;
      default:
        return {};
    }
    if (all.some((p) => p.error !== undefined)) return {};
    const fields = g.fields();
    // Only what the schema accepts is offered for editing.
    const checked = ResponseSchema.safeParse(fields);
    return checked.success ? fields : {};
  } catch {
    return {};
  }
}
