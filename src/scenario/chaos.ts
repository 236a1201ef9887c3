/**
 * Seeded chaos (contract section 11): faults nobody scripted, drawn from a generator seeded by (seed,
 * scenario, session, request number), so the same run meets the same faults at the same requests on either runtime,
 * over HTTP and WebSocket alike, and a failing CI run replays on a laptop. Pure: no clock, no Math.random.
 *
 * Transport kinds become a failure the renderers already answer in each provider's shape (src/turn/render.ts);
 * model kinds transform the reply before it is rendered. A chaos turn never consumes a step: the retry gets the
 * scripted answer.
 */
import type { Outcome, Reply } from "../canonical/outcome";
import type { CanonicalRequest } from "../canonical/request";
import { seededRandom, stableHash, stableToken } from "../util/hash";
import { CHAOS_TRANSPORT_KINDS, DEFAULT_CHAOS_KINDS, DEFAULT_CHAOS_SLOW_MS, DEFAULT_CHAOS_TIMEOUT_MS, CHAOS_UNKNOWN_TOOL, ChaosSchema, type Chaos, type ChaosKind } from "./chaos-schema";
import type { Failure } from "./schema";

export { CHAOS_KINDS, ChaosSchema, type Chaos, type ChaosKind } from "./chaos-schema";

/** Most events a chaos `stream_error` sends before the error (drawn from 0 to this). */
const MAX_CHUNKS_BEFORE = 3;

/** One request's draw: which fault, if any, and where it was drawn (for the journal). */
export interface ChaosDraw {
  kind: ChaosKind;
  seed: number;
  /** The request's number in the session (from 1): the draw's position, so a run can be replayed to it. */
  draw: number;
  /** `stream_error`: events before the error. */
  afterChunks: number;
}

/**
 * The fault `chaos` draws for request number `n` (from 1) of `scenario`/`session`, or undefined when none.
 * @example drawChaos({ seed: 42, rate: 1, kinds: ["rate_limit"] }, "agent", "ci-1", 1) // { kind: "rate_limit", … }
 */
export function drawChaos(chaos: Chaos, scenario: string, session: string, n: number): ChaosDraw | undefined {
  if (chaos.rate <= 0) return undefined;
  const next = seededRandom(stableHash(`chaos|${chaos.seed}|${scenario}|${session}|${n}`));
  if (next() >= chaos.rate) return undefined;
  const kinds = chaos.kinds ?? DEFAULT_CHAOS_KINDS;
  const kind = kinds[Math.floor(next() * kinds.length)]!;
  return { kind, seed: chaos.seed, draw: n, afterChunks: Math.floor(next() * (MAX_CHUNKS_BEFORE + 1)) };
}

/** Whether a model kind can change this reply (a tool-call fault needs a tool call, or a tool offered). */
export function chaosApplies(kind: ChaosKind, reply: Reply, req: CanonicalRequest): boolean {
  if (kind === "malformed_tool_arguments" || kind === "duplicate_tool_call_id") return reply.toolCalls.length > 0 || req.tools.length > 0;
  return true;
}

/**
 * A failure every renderer answers for a transport kind (`server_error` is the renderers' `model_error`), in the
 * provider's own wording: a client cannot tell it from the real API's (the `x-mockllm-chaos` header says what it is).
 */
function chaosFailure(d: ChaosDraw, chaos: Chaos): Failure {
  switch (d.kind) {
    case "rate_limit":
    case "overloaded":
      return { kind: d.kind };
    case "server_error":
      return { kind: "model_error" };
    case "timeout":
      return { kind: "timeout", delayMs: chaos.timeoutMs ?? DEFAULT_CHAOS_TIMEOUT_MS };
    case "stream_error":
      return { kind: "stream_error", afterChunks: d.afterChunks };
    default:
      return { kind: "network_error", afterChunks: 0 };
  }
}

/** The first half of `s` (at least one character short of it): JSON that ends mid-way. */
function half(s: string): string {
  return s.slice(0, Math.max(0, Math.min(s.length - 1, Math.ceil(s.length / 2))));
}

/** The reply's tool calls, or one call of the first tool offered (empty arguments) when it has none. */
function someCalls(reply: Reply, req: CanonicalRequest): Reply["toolCalls"] {
  return reply.toolCalls.length > 0 ? reply.toolCalls : [{ name: req.tools[0] ?? CHAOS_UNKNOWN_TOOL, arguments: "{}" }];
}

/** `reply` as a model kind changes it. */
function chaosReply(kind: ChaosKind, reply: Reply, req: CanonicalRequest, chaos: Chaos): Reply {
  switch (kind) {
    case "slow_first_token":
      return { ...reply, pacing: { ...reply.pacing, ttftMs: reply.pacing.ttftMs + (chaos.slowMs ?? DEFAULT_CHAOS_SLOW_MS) } };
    case "malformed_tool_arguments":
      // The arguments' JSON cut before its end: `{"city": "Par` — what a client's JSON.parse throws on.
      return { ...reply, toolCalls: someCalls(reply, req).map((c) => ({ ...c, arguments: half(c.arguments) || "{" })), finishReason: "tool_calls" };
    case "unknown_tool":
      return { ...reply, toolCalls: [{ name: CHAOS_UNKNOWN_TOOL, arguments: "{}" }], finishReason: "tool_calls" };
    case "empty_response": {
      const { text: _text, refusal: _refusal, ...rest } = reply;
      return { ...rest, text: "", reasoning: [], toolCalls: [], finishReason: "stop", usage: { ...reply.usage, outputTokens: 0, reasoningTokens: 0 } };
    }
    case "truncated_json": {
      if (reply.toolCalls.length > 0) return { ...reply, toolCalls: reply.toolCalls.map((c) => ({ ...c, arguments: half(c.arguments) || "{" })), finishReason: "length" };
      const text = reply.text !== undefined && reply.text.length > 1 ? half(reply.text) : '{"answer": "';
      return { ...reply, text, finishReason: "length" };
    }
    case "duplicate_tool_call_id": {
      const [first] = someCalls(reply, req);
      const id = first!.id ?? `call_${stableToken(`${reply.idSeed}#chaos-dup`, 24)}`;
      const calls = reply.toolCalls.length > 1 ? reply.toolCalls : [first!, { ...first! }];
      return { ...reply, toolCalls: calls.map((c) => ({ ...c, id })), finishReason: "tool_calls" };
    }
    case "reasoning_without_answer": {
      // A reasoning model that spent its whole output budget thinking: reasoning, no content, finish reason length.
      const { text: _text, ...rest } = reply;
      const reasoning = reply.reasoning.length > 0 ? reply.reasoning : [{ type: "thinking" as const, text: "Let me think about this step by step before answering." }];
      return { ...rest, text: "", reasoning, toolCalls: [], finishReason: "length", usage: { ...reply.usage, reasoningTokens: reply.usage.outputTokens } };
    }
    default:
      return reply;
  }
}

/** Whether `kind` is answered as a transport failure (else a changed reply). */
function isTransport(kind: ChaosKind): boolean {
  return kind !== "slow_first_token" && (CHAOS_TRANSPORT_KINDS as readonly string[]).includes(kind);
}

/**
 * The outcome a draw gives the turn that would have answered `reply`.
 * @example chaosOutcome(draw, chaos, reply, req) // { kind: "failure", failure: { kind: "rate_limit", … }, … }
 */
export function chaosOutcome(d: ChaosDraw, chaos: Chaos, reply: Reply, req: CanonicalRequest): Outcome {
  if (isTransport(d.kind)) return { kind: "failure", failure: chaosFailure(d, chaos), reply, attempt: d.draw };
  return { kind: "reply", reply: chaosReply(d.kind, reply, req, chaos) };
}

/**
 * `mockllm serve --chaos` / Worker var `CHAOS`: `seed=42,rate=0.1,kinds=rate_limit+overloaded[,timeoutMs=…][,slowMs=…]`.
 * @example parseChaosSpec("seed=42,rate=0.1,kinds=rate_limit+overloaded")
 */
export function parseChaosSpec(spec: string): { ok: true; chaos: Chaos } | { ok: false; error: string } {
  const fields: Record<string, unknown> = {};
  for (const part of spec.split(",")) {
    const item = part.trim();
    if (item === "") continue;
    const eq = item.indexOf("=");
    if (eq < 0) return { ok: false, error: `"${item}" is not name=value` };
    const name = item.slice(0, eq).trim();
    const value = item.slice(eq + 1).trim();
    fields[name] = name === "kinds" ? value.split("+").map((k) => k.trim()) : Number(value);
  }
  const parsed = ChaosSchema.safeParse(fields);
  if (parsed.success) return { ok: true, chaos: parsed.data };
  return { ok: false, error: parsed.error.issues.map((i) => `${i.path.join(".") || "chaos"}: ${i.message}`).join("; ") };
}

const specs = new Map<string, Chaos | undefined>();

/** The chaos of a `CHAOS` value, parsed once per value (an invalid value is none: the CLI checks it first). */
export function chaosOfSpec(spec: string | undefined): Chaos | undefined {
  if (spec === undefined || spec.trim() === "") return undefined;
  if (!specs.has(spec)) {
    const parsed = parseChaosSpec(spec);
    if (specs.size > 16) specs.clear();
    specs.set(spec, parsed.ok ? parsed.chaos : undefined);
  }
  return specs.get(spec);
}
