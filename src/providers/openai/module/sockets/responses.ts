/**
 * The Responses WebSocket mode (`GET /v1/responses` upgraded): each `response.create` message is one turn, answered
 * with the very events the SSE surface streams (render-stream.ts), one JSON text message each. One response in flight
 * per socket; `previous_response_id` chains through the same stored state as HTTP (state.ts), so a chain crosses
 * messages, sockets and transports; `generate: false` stores the request without a turn (warm-up). The connection's
 * most recent response is also kept in connection-local memory whatever `store` says, so a `store: false` chain
 * continues on the same socket; a failed continuation evicts it (protocols.md 10.1.5).
 */
import type { Reply } from "../../../../canonical/outcome";
import { journalBody } from "../../../../http/body";
import { apiError, type ApiError } from "../../../../http/errors";
import { stableHash } from "../../../../util/hash";
import { sessionHeader } from "../../../../http/headers";
import { deliveredReply } from "../../../../turn/render";
import { decideTurn } from "../../../../turn/turn";
import { parseClientMessage } from "../../../../sockets/client-json";
import { playOutcome, sendError, type SocketError, type TurnRenderer } from "../../../../sockets/play";
import type { SocketContext, SocketProtocol } from "../../../../sockets/types";
import type { RenderContext } from "../../../types";
import { renderOpenAIError } from "../../errors";
import { openaiResponses } from "../../responses/index";
import { parseResponsesRequest } from "../../responses/parse";
import { buildResponse, type ResponseObject } from "../../responses/render-json";
import { renderResponseEvents, renderResponseStreamError, toSse } from "../../responses/render-stream";
import { localResponse, prepareResponsesRequest, rememberResponse, restoredLocal, savedLocal, storeResponse, type LocalResponse } from "../../responses/state";
import type { ResponsesRequest } from "../../responses/wire";
import { echoed } from "../../../../util/text";
import { Headers } from "../../../../http/web";

/**
 * An error event as the WebSocket mode sends it: the HTTP status it stands for and the usual error object.
 * @example wsError(apiError("not_found", "…")) // { type: "error", status: 404, error: { type, code, message, param } }
 */
export function wsErrorEvent(error: ApiError): string {
  const rendered = renderOpenAIError(error, "");
  const body = rendered.body as { error: Record<string, unknown> };
  return JSON.stringify({ type: "error", status: rendered.status, error: body.error });
}

function wsError(error: ApiError): SocketError {
  return { messages: [wsErrorEvent(error)] };
}

function invalid(message: string, providerCode?: string, param?: string): ApiError {
  return apiError("invalid_request", message, { ...(providerCode ? { providerCode } : {}), ...(param ? { param } : {}) });
}

/** The response a `generate: false` warm-up stores: the request's state, no output. */
function warmUpReply(ctx: RenderContext<ResponsesRequest>, seed: string): Reply {
  return {
    reasoning: [],
    reasoningField: "reasoning",
    toolCalls: [],
    finishReason: "stop",
    usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 },
    model: ctx.request.model,
    latencyMs: 0,
    pacing: { ttftMs: 0, tokensPerSecond: 0, chunkDelayMs: 0, chunkWords: 1, jitterMs: 0, seed: 0 },
    headers: {},
    idSeed: seed,
  };
}

function renderer(ctx: RenderContext<ResponsesRequest>): TurnRenderer {
  return {
    events: (reply) => renderResponseEvents(reply, ctx),
    error: wsError,
    streamError: (failure, reply, sent) => renderResponseStreamError(failure, ctx, reply, sent),
  };
}

/**
 * The per-socket state machine of the Responses WebSocket mode.
 * @example responsesSocket({ rt, init, sink }).message('{"type":"response.create","model":"gpt-5","input":"hi"}')
 */
export function responsesSocket(socket: SocketContext, saved?: unknown): SocketProtocol {
  const { rt, init, sink } = socket;
  const headers = new Headers(init.headers);
  let inFlight = false;
  let abort: AbortController | undefined;
  /** The connection's most recent response (connection-local, whatever `store` says). */
  let local: LocalResponse | undefined = restoredLocal(saved);

  async function create(message: Record<string, unknown>, text: string, arrivedAt: number): Promise<void> {
    const { type: _type, stream_id: _lane, generate, ...body } = message;
    if (body.background === true) return sendError(sink, wsError(invalid("background is not supported over WebSocket.", undefined, "background")));
    const first = parseResponsesRequest({ ...body, stream: true }, headers);
    if (!first.ok) return sendError(sink, wsError(first.error));
    // A continuation of the connection-local response that fails evicts it.
    const continues = local !== undefined && first.wire.body.previous_response_id === local.id;
    const fail = (error: ApiError) => {
      if (continues) local = undefined;
      sendError(sink, wsError(error));
    };
    const parsed = await prepareResponsesRequest(first.wire, first.request, rt, local);
    if (!parsed.ok) return fail(parsed.error);
    if (generate === false) return warmUp(parsed.wire, parsed.request, text);

    const wire = () => ({ method: "WS", path: init.path, headers: init.headers, body: journalBody(text, message) });
    const turn = await decideTurn(openaiResponses, rt, parsed, { prefix: init.prefix, headers, wire, bodyText: text, allowProxy: false });
    if (turn.kind !== "answer") {
      return fail(turn.kind === "error" ? turn.error : apiError("invalid_request", "mockllm: recording is not available over WebSocket."));
    }
    const delivered = deliveredReply(turn.outcome);
    if (delivered) {
      await rememberResponse(delivered, turn.ctx, rt);
      local = localResponse(buildResponse(delivered, turn.ctx), turn.ctx.wire);
    } else if (continues) local = undefined;
    abort = new AbortController();
    await playOutcome(turn.outcome, renderer(turn.ctx), sink, { arrivedAt, signal: abort.signal });
  }

  async function warmUp(wire: ResponsesRequest, request: RenderContext<ResponsesRequest>["request"], text: string): Promise<void> {
    const session = init.prefix.session ?? sessionHeader(headers) ?? "default";
    const ctx: RenderContext<ResponsesRequest> = {
      wire,
      request,
      requestId: "",
      created: Math.floor(Date.now() / 1000),
      ...(init.prefix.scenario !== undefined ? { scenario: init.prefix.scenario } : {}),
      session,
    };
    const done: ResponseObject = { ...buildResponse(warmUpReply(ctx, `warmup|${stableHash(`${init.seed}|${text}`)}`), ctx), output: [] };
    if (wire.body.store !== false) await storeResponse(done, ctx, rt);
    local = localResponse(done, wire);
    const start = { ...done, status: "in_progress", usage: null };
    for (const e of toSse([
      { type: "response.created", fields: { response: start } },
      { type: "response.completed", fields: { response: done } },
    ]))
      sink.send(e.data);
  }

  return {
    open() {},
    async message(text) {
      const arrivedAt = Date.now();
      const parsed = parseClientMessage(text);
      if (!parsed.ok) return sendError(sink, wsError(apiError("invalid_json", parsed.tooDeep ?? "Invalid JSON: each message must be a JSON object with a `type`.")));
      const event = parsed.value;
      if (event.type !== "response.create") {
        const shown = typeof event.type === "string" ? `'${echoed(event.type)}'` : "missing";
        return sendError(sink, wsError(invalid(`Unsupported event type ${shown}: this connection accepts 'response.create'.`, "invalid_event_type", "type")));
      }
      if (inFlight) {
        return sendError(
          sink,
          wsError(invalid("A response is already in progress on this connection: wait for its terminal event before sending another response.create.", "response_already_in_flight")),
        );
      }
      inFlight = true;
      try {
        await create(event, text, arrivedAt);
      } finally {
        inFlight = false;
        abort = undefined;
      }
    },
    binary() {
      sendError(sink, wsError(invalid("Binary messages are not supported: send response.create events as JSON text.", "invalid_event_type")));
    },
    closed() {
      abort?.abort();
    },
    state: () => savedLocal(local),
  };
}
