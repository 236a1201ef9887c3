/**
 * The interface every provider surface implements: parse the wire request into the canonical one,
 * render canonical outcomes back into the wire shape. The route code does everything else
 * (selection, session, latency, pacing, failures) the same way for every surface.
 */
import type { RateLimitView } from "../canonical/rate-limits";
import type { CanonicalRequest, Endpoint, ProviderName } from "../canonical/request";
import type { Reply } from "../canonical/outcome";
import type { ReplySafety } from "../canonical/safety";
import type { Failure, Scenario } from "../scenario/schema";
import type { ApiError } from "../http/errors";
import type { Runtime } from "../runtime/types";
import type { SseEvent, StreamFormat } from "../http/sse";
import type { ByteSource, TextChunks } from "../http/byte-source";
import type { BodyResult } from "../http/body";
import type { Awaitable } from "../session/types";

/** Defined with the encoder (src/http/sse.ts), which imports nothing from providers. */
export type { SseEvent };

/** Everything a renderer may need besides the reply. */
export interface RenderContext<W> {
  /** The parsed wire request (e.g. to read `stream_options.include_usage`). */
  wire: W;
  request: CanonicalRequest;
  requestId: string;
  /** Unix seconds. */
  created: number;
  scenario?: string;
  session?: string;
}

/** Where a request went, below any `/s/{scenario}[/{session}]` prefix. */
export interface RequestTarget {
  /** e.g. `/v1beta/models/gemini-2.5-flash:streamGenerateContent` */
  path: string;
  query: URLSearchParams;
  /** The whole request URL, for answers that point back at the mock (image `url`s); absent on sockets. */
  url?: string;
  /** Serves a request to this deployment without the network (the router): a remote MCP call to its own host. */
  local?: (request: Request) => Promise<Response>;
}

/** A remote MCP server a request names: its label (OpenAI `server_label`, Anthropic `name`), URL and headers. */
export interface McpServerRef {
  label: string;
  url: string;
  headers: Record<string, string>;
  /** A call to this tool is not made this turn (it awaits or was refused approval): its tools are listed only. */
  listOnly?: (tool: string) => boolean;
}

/** A successful answer that is not JSON: audio bytes, a plain-text transcript. */
export interface RawBody {
  /** The bytes, or (an answer too large to hold whole) a source or pieces that produce them as they are sent. */
  body: Uint8Array | string | ByteSource | TextChunks;
  contentType: string;
}

export type ParseResult<W> = { ok: true; wire: W; request: CanonicalRequest } | { ok: false; error: ApiError };

/** A rendered error: status, JSON body and extra headers. */
export interface RenderedError {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

/**
 * A provider surface is three parts (each its own interface below) plus who it is:
 *  - `RequestReading`: where it is served and how a request becomes the canonical one (paths, headers, body, parse,
 *    validate, prepare);
 *  - `AnswerRendering`: how a decided reply goes out (JSON, raw bytes, a stream) and what is kept of it;
 *  - `ErrorsAndHeaders`: the error shape, the request id, failure wordings and the headers answers carry.
 * Optional members have one default each, filled in by `resolveSurface` (src/providers/surface.ts): the turn reads the
 * resolved surface and never writes `surface.x?.(…) ?? fallback`.
 */
export interface ProviderSurface<W = unknown> extends RequestReading<W>, AnswerRendering<W>, ErrorsAndHeaders<W> {
  provider: ProviderName;
  endpoint: Endpoint;
}

/** Part one: reading the request, from the path to the canonical request the engine decides on. */
export interface RequestReading<W = unknown> {
  /** Path below the optional `/s/{scenario}[/{session}]` prefix, e.g. `/v1/chat/completions`. */
  paths: string[];
  /** For paths with parameters in them (Gemini's `/v1beta/models/{model}:generateContent`): whether `path` is ours. Default: none is. */
  matchPath?(path: string): boolean;
  /**
   * Where another provider's surface serves the same path (`/v1/decisions`): whether this request is this surface's
   * (Gemini's by its key). The registry's `surfaceOf` asks; the path's surface without it answers the rest.
   */
  claims?(request: Request): boolean;
  /** Read the body as JSON whatever its content type (Ollama's server ignores it; `curl -d` sends a form type). */
  anyContentType?: boolean;
  /** Checks auth and required headers before the body is read. */
  checkHeaders(headers: Headers, target: RequestTarget): ApiError | undefined;
  /**
   * Reads the body itself instead of the strict JSON reader (multipart uploads, src/http/multipart.ts): the value is
   * what `parse` is given and the journal keeps. Default: the JSON reader (`anyContentType` says how strict).
   */
  readBody?(request: Request, target: RequestTarget): Promise<BodyResult>;
  /** Validates the JSON body (loosely: unknown fields pass) into the canonical request. */
  parse(body: unknown, headers: Headers, target: RequestTarget): ParseResult<W>;
  /**
   * Provider-specific checks that need the selected scenario (e.g. Anthropic's thinking-signature rule,
   * skipped — every one, by the resolved surface — when `scenario.strict === false` or the scenario records). Runs before the session sees the request; an error is
   * answered in the provider's shape and nothing is journaled. `scenario` is undefined for the default responder.
   */
  validate?(wire: W, request: CanonicalRequest, scenario: Scenario | undefined): ApiError | undefined;
  /**
   * Resolves server-side state the request refers to (OpenAI Responses: `previous_response_id`, `item_reference`)
   * before scenario selection, so selection and the engine see the whole conversation. An error is answered in the
   * provider's shape and nothing is journaled. Default: the request as parsed.
   */
  prepare?(wire: W, request: CanonicalRequest, rt: Runtime): Awaitable<ParseResult<W>>;
  /** The remote MCP servers the request names, for a scripted `mcp` use without `result` (src/turn/mcp-client.ts). Default: none. */
  mcpServers?(wire: W): McpServerRef[];
}

/** Part two: rendering the answer the engine decided, and what is kept of it for later requests. */
export interface AnswerRendering<W = unknown> {
  /** Wire format of streams: server-sent events (default), newline-delimited JSON (Ollama), AWS event stream (Bedrock). */
  streamFormat?: StreamFormat;
  /** A stream's content type where the provider's is not its format's usual one (Cohere v1's NDJSON is `application/stream+json`). */
  streamContentType?: string;
  /** The non-streaming body. */
  renderJson(reply: Reply, ctx: RenderContext<W>): unknown;
  /** A non-streaming body that is not JSON (audio bytes, `text`/`srt`/`vtt` transcripts); undefined (the default): `renderJson`. */
  renderRaw?(reply: Reply, ctx: RenderContext<W>): RawBody | undefined;
  /** The whole SSE transcript, terminator included. */
  renderEvents(reply: Reply, ctx: RenderContext<W>): SseEvent[];
  /**
   * The event(s) a `stream_error` failure sends after `afterChunks` events; `sent` are the events already sent,
   * cut from the transcript of `reply`.
   */
  renderStreamError(failure: Extract<Failure, { kind: "stream_error" }>, ctx: RenderContext<W>, reply: Reply, sent: SseEvent[]): SseEvent | SseEvent[];
  /**
   * Event name put on the malformed line of an `invalid_response` stream, for SDKs that drop events by name
   * (Anthropic's skips unnamed events, so the malformed line must claim a name it parses). Default: none on SSE,
   * `chunk` on an AWS event stream.
   */
  malformedEventName?: string;
  /**
   * Completes a decided reply with what needs I/O the pure engine cannot do (OpenAI Responses: a `file_search` use
   * without results searches the request's vector stores); an error is answered in the provider's shape. Default: the reply.
   */
  complete?(wire: W, request: CanonicalRequest, reply: Reply, rt: Runtime): Awaitable<Reply | ApiError>;
  /**
   * Usage counted with the model's tokenizer (scenario `"usage": "count"`, `USAGE=count`; docs/reference/usage.md):
   * the prompt tokens of the request as sent and the completion tokens of `reply`. Default: none (the figures stay).
   */
  countUsage?(wire: W, request: CanonicalRequest, reply: Reply): Promise<{ input: number; output: number }>;
  /**
   * With `countUsage`: the name of the reply counter (src/canonical/reply-tokens.ts) that gives the same completion
   * count, loaded in this isolate, so a session counts the reply it decided before journaling it (journal, budgets
   * and limits see the counted figures). A session object elsewhere loads it by name (src/providers/reply-counters.ts).
   */
  replyCounter?(wire: W, request: CanonicalRequest): Promise<string>;
  /** Keeps what later requests may refer to (OpenAI Responses with `store`); runs before a reply is sent. Default: nothing kept. */
  remember?(reply: Reply, ctx: RenderContext<W>, rt: Runtime): Awaitable<void>;
  /** Whether `remember` keeps this request's answer, so that its ids can be looked up later (turn/default-ids.ts). Default: false. */
  stores?(wire: W): boolean;
  /**
   * A scripted failure the API reports later instead of now (OpenAI: a background response that fails as it runs):
   * kept here, true when it was, and then the request is answered as accepted (`renderJson` of `reply`). Default: false.
   */
  rememberFailure?(failure: Failure, reply: Reply, ctx: RenderContext<W>, rt: Runtime): Awaitable<boolean>;
}

/** Part three: errors and the headers answers carry. */
export interface ErrorsAndHeaders<W = unknown> {
  /** Name of the request-id response header. */
  requestIdHeader: string;
  /** This provider's request-id format for a seed (default `req_` + 32 hex, OpenAI's; Anthropic's is `req_011C…`). */
  requestId?(seed: string): string;
  /** This provider's error shape for a code from the closed set. */
  renderError(error: ApiError, requestId: string): RenderedError;
  /** The real API's wording for scripted failures that carry no `message` (defaults are OpenAI's, `FAILURE_MESSAGES` in src/providers/surface.ts). */
  failureMessages?: Partial<Record<FailureWordingKind, string>>;
  /**
   * The real API's wording for a scripted failure with no `message` that depends on the request (Azure's 429 names
   * the operation and the `api-version`); undefined falls back to `failureMessages`.
   */
  requestFailureMessage?(failure: Failure, ctx: RenderContext<W>): string | undefined;
  /** Headers a scripted failure adds (rate-limit headers on 429, Bedrock's `x-amzn-ErrorType` for an `http` status, …). */
  failureHeaders(failure: Failure): Record<string, string>;
  /** The provider's rate-limit headers for a scenario's `limits` (`x-ratelimit-*`, `anthropic-ratelimit-*`); none without. */
  rateLimitHeaders?(view: RateLimitView): Record<string, string>;
  /**
   * A `limits` 429 (scenario or namespace `limits`) where the real service answers a quota differently from a scripted
   * `rate_limit` (Vertex AI's `RESOURCE_EXHAUSTED` naming the quota metric; Bedrock's "Too many tokens"); undefined:
   * the surface's rate-limit error. Only for a surface without `rateLimitHeaders`.
   */
  renderLimited?(limit: "requestsPerMinute" | "tokensPerMinute", retryAfterMs: number, ctx: RenderContext<W>): RenderedError;
  /** Headers every answer of this surface carries besides the request id (Azure's `apim-request-id`, `x-ms-region`, …). Default: none. */
  responseHeaders?(ctx: RenderContext<W>): Record<string, string>;
  /**
   * For providers that refuse a blocked prompt with an HTTP error rather than a 200 (Azure OpenAI's 400
   * `content_filter` with `innererror.code: "ResponsibleAIPolicyViolation"`): the error a `content_filter` failure
   * with `on: "prompt"` answers, JSON and stream requests alike. Without it the prompt block is a rendered reply.
   */
  renderPromptBlock?(safety: ReplySafety, requestId: string): RenderedError;
  /**
   * A filtered completion (`on: "completion"`) is refused with `renderPromptBlock`'s error too, rather than rendered
   * cut short (OpenAI Images: the 400 `moderation_blocked` at the output stage; a picture is never half sent).
   */
  blocksCompletion?: boolean;
}

/** The scripted failures answered with a wording of the provider's when they carry no `message`. */
export type FailureWordingKind = "rate_limit" | "overloaded" | "model_error";

/** What a side route is handed besides the request and its path (below any `/s/…` prefix). */
export interface SideRouteContext {
  /** The runtime, already scoped to the caller's namespace. */
  rt: Runtime;
  /** The model ids the scenarios mention, the default first (what model listings report). */
  modelIds(): Promise<string[]>;
  /** An early error in the shape the path's error rules pick (`errorSurfaceFor`), with a fresh request id. */
  refuse(error: ApiError): Response;
  /** The request's `/s/{scenario}[/{session}]` prefix (what an ephemeral key minted here is bound to). */
  prefix?: { scenario?: string; session?: string };
  /** Serves a request to this server's own host through the router (an MCP call to mockllm's own scripted server). */
  local?: (request: Request) => Promise<Response>;
}

/**
 * A route beside the provider's surfaces: model listings, token counts, stored objects. Side routes run after the
 * surfaces, in ascending `order` (registry order among equals); the first that answers wins.
 */
export interface SideRoute {
  /** Paths it serves; they and paths below them are known routes, never taken for a session name by `splitPrefix`. */
  paths?: string[];
  /** For parametrised paths: whether `path` is a known route of ours (the same `splitPrefix` test). */
  knows?(path: string): boolean;
  /** Default 0. A route that answers what another also claims (the OpenAI-shaped model listing) runs later. */
  order?: number;
  /** It also answers methods other than POST on a surface's own path (`GET /v1/chat/completions` lists stored ones). */
  onSurfacePaths?: boolean;
  /** The answer, or undefined when the request is not this route's. */
  serve(request: Request, path: string, ctx: SideRouteContext): Promise<Response | undefined> | Response | undefined;
}

/** Each provider's `gen_ai.provider.name` in the OpenTelemetry GenAI semantic conventions (src/turn/otel.ts). */
export const OTEL_PROVIDER_NAMES: Readonly<Record<string, string>> = {
  openai: "openai",
  anthropic: "anthropic",
  gemini: "gcp.gemini",
  vertex: "gcp.vertex_ai",
  bedrock: "aws.bedrock",
  azure: "azure.ai.openai",
  cohere: "cohere",
  ollama: "ollama",
};
