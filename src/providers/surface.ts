/**
 * A provider surface with every optional hook filled in: the defaults of `ProviderSurface`'s three parts
 * (src/providers/types.ts) in one place. The turn, the renderer and the early-error paths read a resolved surface,
 * so no caller writes `surface.x?.(…) ?? fallback`.
 */
import type { Reply } from "../canonical/outcome";
import type { CanonicalRequest } from "../canonical/request";
import type { ReplySafety } from "../canonical/safety";
import { readJsonBody, type BodyResult } from "../http/body";
import type { ApiError } from "../http/errors";
import { makeRequestId } from "../http/ids";
import type { StreamFormat } from "../http/sse";
import type { FailureWordingKind, McpServerRef, ParseResult, ProviderSurface, RenderContext, RenderedError, RequestTarget } from "./types";
import type { Runtime } from "../runtime/types";
import type { Failure, Scenario } from "../scenario/schema";
import type { Awaitable } from "../session/types";

/** OpenAI's wordings for scripted failures without a `message`: the default of `failureMessages`. */
export const FAILURE_MESSAGES: Record<FailureWordingKind, string> = {
  rate_limit: "Rate limit reached for requests. Please try again later.",
  overloaded: "The server is currently overloaded, please try again later.",
  model_error: "The server had an error while processing your request. Sorry about that!",
};

/** A surface whose optional hooks all answer: what the turn calls. */
export interface ResolvedSurface<W> extends ProviderSurface<W> {
  matchPath(path: string): boolean;
  readBody(request: Request, target: RequestTarget): Promise<BodyResult>;
  validate(wire: W, request: CanonicalRequest, scenario: Scenario | undefined): ApiError | undefined;
  prepare(wire: W, request: CanonicalRequest, rt: Runtime): Awaitable<ParseResult<W>>;
  mcpServers(wire: W): McpServerRef[];
  streamFormat: StreamFormat;
  renderRaw: NonNullable<ProviderSurface<W>["renderRaw"]>;
  complete(wire: W, request: CanonicalRequest, reply: Reply, rt: Runtime): Awaitable<Reply | ApiError>;
  /** Undefined where the surface cannot count (its figures stay as they are). */
  counted(wire: W, request: CanonicalRequest, reply: Reply): Awaitable<{ input: number; output: number } | undefined>;
  remember(reply: Reply, ctx: RenderContext<W>, rt: Runtime): Awaitable<void>;
  stores(wire: W): boolean;
  rememberFailure(failure: Failure, reply: Reply, ctx: RenderContext<W>, rt: Runtime): Awaitable<boolean>;
  requestId(seed: string): string;
  /** The wording of a scripted failure without a `message`: the request's, else the surface's, else OpenAI's. */
  failureMessage(kind: FailureWordingKind, failure: Failure, ctx: RenderContext<W>): string;
  rateLimitHeaders: NonNullable<ProviderSurface<W>["rateLimitHeaders"]>;
  /** Whether the surface has rate-limit headers of its own (`rateLimitHeaders` given): a `limits` 429 sends them, else its quota answer. */
  sendsRateLimitHeaders: boolean;
  responseHeaders(ctx: RenderContext<W>): Record<string, string>;
  /**
   * The error a `content_filter` answer with this safety is refused with (`renderPromptBlock`: a prompt block, and a
   * filtered completion where `blocksCompletion`), undefined where it is a rendered reply.
   */
  refusal(safety: ReplySafety, requestId: string): RenderedError | undefined;
}

const NONE = Object.freeze({}) as Record<string, string>;
const noHeaders = () => NONE;
const ANY_CONTENT_TYPE = { anyContentType: true } as const;
const JSON_ONLY = {} as const;

function withDefaults<W>(s: ProviderSurface<W>): ResolvedSurface<W> {
  const jsonOptions = s.anyContentType === true ? ANY_CONTENT_TYPE : JSON_ONLY;
  const { renderPromptBlock, requestFailureMessage, failureMessages, countUsage } = s;
  return {
    ...s,
    matchPath: s.matchPath?.bind(s) ?? (() => false),
    readBody: s.readBody?.bind(s) ?? ((request) => readJsonBody(request, jsonOptions)),
    // The real APIs' refusals are the surface's `validate`: none for a scenario with `strict: false`, nor for a
    // recording one (the upstream answers the request itself).
    validate: s.validate ? (wire, request, scenario) => (scenario?.strict === false || scenario?.record !== undefined ? undefined : s.validate!(wire, request, scenario)) : () => undefined,
    // The defaults answer at once, not with a promise: the turn awaits only a hook that returned one.
    prepare: s.prepare?.bind(s) ?? ((wire, request) => ({ ok: true, wire, request })),
    mcpServers: s.mcpServers?.bind(s) ?? (() => []),
    streamFormat: s.streamFormat ?? "sse",
    renderRaw: s.renderRaw?.bind(s) ?? (() => undefined),
    complete: s.complete?.bind(s) ?? ((_wire, _request, reply) => reply),
    counted: countUsage ? (wire, request, reply) => countUsage.call(s, wire, request, reply) : () => undefined,
    remember: s.remember?.bind(s) ?? (() => undefined),
    stores: s.stores?.bind(s) ?? (() => false),
    rememberFailure: s.rememberFailure?.bind(s) ?? (() => false),
    requestId: s.requestId?.bind(s) ?? makeRequestId,
    failureMessage: (kind, failure, ctx) => requestFailureMessage?.call(s, failure, ctx) ?? failureMessages?.[kind] ?? FAILURE_MESSAGES[kind],
    rateLimitHeaders: s.rateLimitHeaders?.bind(s) ?? noHeaders,
    sendsRateLimitHeaders: s.rateLimitHeaders !== undefined,
    responseHeaders: s.responseHeaders?.bind(s) ?? noHeaders,
    refusal: (safety, requestId) => (renderPromptBlock !== undefined && (safety.on === "prompt" || s.blocksCompletion === true) ? renderPromptBlock.call(s, safety, requestId) : undefined),
  };
}

const resolved = new WeakMap<ProviderSurface<any>, ResolvedSurface<any>>();
const resolvedOnes = new WeakSet<ResolvedSurface<any>>();

/**
 * `surface` with its defaults filled in, worked out once per surface (a resolved surface resolves to itself).
 * @example resolveSurface(openaiChat).requestId("weather/run-1/1")
 */
export function resolveSurface<W>(surface: ProviderSurface<W>): ResolvedSurface<W> {
  if (resolvedOnes.has(surface as ResolvedSurface<W>)) return surface as ResolvedSurface<W>;
  let out = resolved.get(surface) as ResolvedSurface<W> | undefined;
  if (out === undefined) {
    out = withDefaults(surface);
    resolved.set(surface, out);
    resolvedOnes.add(out);
  }
  return out;
}
