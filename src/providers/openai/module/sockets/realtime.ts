/**
 * The OpenAI Realtime API over WebSocket (GA event names), text and tools: `session.created` on open,
 * `session.update` → `session.updated`, `conversation.item.create` → `conversation.item.added` + `.done`,
 * `response.create` → one scenario turn over the whole conversation (render.ts), `response.cancel`, and in-band
 * `error` events. Audio input gets a documented error (`mockllm_audio_unsupported`).
 */
import { z } from "zod";
import type { Reply } from "../../../../canonical/outcome";
import { journalBody } from "../../../../http/body";
import { apiError, type ApiError } from "../../../../http/errors";
import { stableHex } from "../../../../util/hash";
import { decideTurn } from "../../../../turn/turn";
import { parseClientMessage } from "../../../../sockets/client-json";
import { isRecord } from "../../../../http/json";
import { playOutcome, sendError, type SocketError } from "../../../../sockets/play";
import type { SocketContext, SocketProtocol } from "../../../../sockets/types";
import { renderOpenAIError } from "../../errors";
import { openaiRequestError, unsupportedValue } from "../../request-error";
import { openaiResponses } from "../../responses";
import { parseResponsesRequest } from "../../responses/parse";
import { initialSession, realtimeWire, responsesInput, toItem, type Item } from "../../realtime/items";
import { realtimeEvents, replyItems, responseObject, type RealtimeResponseInit } from "../../realtime/render";
import { echoed } from "../../../../util/text";
import { Headers } from "../../../../http/web";
import { lazily } from "../../../../util/memo";

interface RealtimeState {
  session: Record<string, unknown>;
  items: Item[];
  /** Server events sent outside responses (their `event_id`s count from the socket's seed). */
  n: number;
}

/** Built on the first Realtime socket (util/memo.ts `lazily`), as the items' schemas are (realtime/items.ts). */
const socketWire = lazily(() => ({
  /** Every client event: a string `type`, an optional string `event_id`; the rest is checked per type. */
  ClientEventSchema: z.looseObject({ type: z.string(), event_id: z.string().optional() }),
  DeleteSchema: z.looseObject({ item_id: z.string() }),
  CancelSchema: z.looseObject({ response_id: z.string().optional() }),
}));

/** The client events this socket answers (audio ones are refused by name). */
const CLIENT_EVENTS = ["session.update", "conversation.item.create", "conversation.item.delete", "response.create", "response.cancel"];

export const AUDIO_UNSUPPORTED =
  'mockllm speaks the Realtime API in text: audio input (input_audio_buffer.*, input_audio parts) is not supported. Send text with conversation.item.create and set output_modalities to ["text"].';

/**
 * The per-socket state machine of the Realtime API.
 * @example realtimeSocket({ rt, init, sink }, undefined).open() // sends session.created
 */
export function realtimeSocket(socket: SocketContext, saved: unknown): SocketProtocol {
  const { rt, init, sink } = socket;
  const headers = new Headers(init.headers);
  const model = new URLSearchParams(init.query).get("model") ?? "gpt-realtime";
  const state: RealtimeState = (saved as RealtimeState | undefined) ?? {
    session: { ...initialSession(`sess_${stableHex(`rt-session|${init.seed}`, 20)}`, model), ...init.config, model },
    items: [],
    n: 0,
  };
  let active: { abort: AbortController; reply?: Reply; init?: RealtimeResponseInit } | undefined;

  const eventId = () => `event_${stableHex(`rt|${init.seed}|${state.n++}`, 20)}`;
  const send = (type: string, fields: Record<string, unknown>) => sink.send(JSON.stringify({ type, event_id: eventId(), ...fields }));

  function errorOf(error: ApiError, clientEventId?: unknown): SocketError {
    const body = (renderOpenAIError(error, "").body as { error: Record<string, unknown> }).error;
    const event_id = typeof clientEventId === "string" ? clientEventId : null;
    return { messages: [JSON.stringify({ type: "error", event_id: eventId(), error: { type: body.type, code: body.code, message: body.message, param: body.param, event_id } })] };
  }
  const fail = (message: string, code: string, clientEventId?: unknown, param?: string) =>
    sendError(sink, errorOf(apiError("invalid_request", message, { providerCode: code, ...(param ? { param } : {}) }), clientEventId));

  function updateSession(event: Record<string, unknown>): void {
    const parsed = realtimeWire().SessionUpdateSchema.safeParse(event.session);
    if (!parsed.success) return fail("Invalid 'session': expected an object.", "invalid_value", event.event_id, "session");
    const { type: _type, ...fields } = parsed.data;
    state.session = { ...state.session, ...fields };
    send("session.updated", { session: state.session });
  }

  function createItem(event: Record<string, unknown>): void {
    const parsed = realtimeWire().ClientItemSchema.safeParse(event.item);
    if (!parsed.success) return fail("Invalid 'item': expected a message, function_call or function_call_output item.", "invalid_value", event.event_id, "item");
    const item = toItem(parsed.data, `item_${stableHex(`rt-client-item|${init.seed}|${state.items.length}|${state.n}`, 20)}`);
    if ("audio" in item) return fail(AUDIO_UNSUPPORTED, "mockllm_audio_unsupported", event.event_id, "item.content");
    const previous_item_id = state.items.at(-1)?.id ?? null;
    state.items.push(item);
    send("conversation.item.added", { previous_item_id, item });
    send("conversation.item.done", { previous_item_id, item });
  }

  /** A client event with a field of the wrong type, or without a required one: the real API's `invalid_request_error`. */
  function invalidField(event: unknown, schema: z.ZodType, error: z.ZodError): void {
    const refused = openaiRequestError(error, schema, event);
    sendError(sink, errorOf({ ...refused, providerCode: refused.providerCode ?? "invalid_value" }, isRecord(event) ? event.event_id : undefined));
  }

  function deleteItem(event: Record<string, unknown>): void {
    const parsed = socketWire().DeleteSchema.safeParse(event);
    if (!parsed.success) return invalidField(event, socketWire().DeleteSchema, parsed.error);
    const { item_id } = parsed.data;
    const at = state.items.findIndex((i) => i.id === item_id);
    if (at < 0) return fail(`Item with item_id '${echoed(item_id)}' not found.`, "item_not_found", event.event_id, "item_id");
    state.items.splice(at, 1);
    send("conversation.item.deleted", { item_id });
  }

  async function createResponse(event: Record<string, unknown>, text: string, arrivedAt: number): Promise<void> {
    const params = realtimeWire().ResponseParamsSchema.safeParse(event.response ?? {});
    if (!params.success) return fail("Invalid 'response': expected an object.", "invalid_value", event.event_id, "response");
    const p = params.data;
    const modalities = p.output_modalities ?? (state.session.output_modalities as string[] | undefined) ?? ["text"];
    if (!modalities.includes("text")) return fail(AUDIO_UNSUPPORTED, "mockllm_audio_unsupported", event.event_id, "output_modalities");
    const outOfBand = p.conversation === "none";
    let items = state.items;
    if (p.input !== undefined) {
      const own: Item[] = [];
      for (const [i, raw] of p.input.entries()) {
        const parsed = realtimeWire().ClientItemSchema.safeParse(raw);
        const item = parsed.success ? toItem(parsed.data, `item_oob_${i}`) : undefined;
        if (!item || "audio" in item) return fail("Invalid 'response.input': expected text message, function_call or function_call_output items.", "invalid_value", event.event_id, "response.input");
        own.push(item);
      }
      items = outOfBand ? own : [...state.items, ...own];
    }
    const body = {
      model,
      stream: true,
      instructions: p.instructions ?? state.session.instructions ?? "",
      tools: p.tools ?? state.session.tools ?? [],
      input: responsesInput(items),
    };
    const first = parseResponsesRequest(body, headers);
    if (!first.ok) return sendError(sink, errorOf(first.error, event.event_id));
    const parsed = { ...first, request: { ...first.request, endpoint: "realtime" as const } };
    const wire = () => ({ method: "WS", path: init.path, headers: init.headers, body: journalBody(text, event) });
    const turn = await decideTurn(openaiResponses, rt, parsed, { prefix: init.prefix, headers, wire, bodyText: text, allowProxy: false });
    if (turn.kind !== "answer") {
      const error = turn.kind === "error" ? turn.error : apiError("invalid_request", "mockllm: recording is not available over WebSocket.");
      return sendError(sink, errorOf(error, event.event_id));
    }
    const responseInit: RealtimeResponseInit = {
      conversationId: outOfBand ? "" : `conv_${stableHex(`rt-conv|${init.seed}`, 20)}`,
      previousItemId: outOfBand ? null : (state.items.at(-1)?.id ?? null),
      modalities,
      metadata: p.metadata ?? null,
    };
    const reply = turn.outcome.kind === "mismatch" ? undefined : turn.outcome.reply;
    const abort = active?.abort ?? new AbortController();
    if (active && reply) Object.assign(active, { reply, init: responseInit });
    await playOutcome(
      turn.outcome,
      {
        events: (r) => realtimeEvents(r, responseInit),
        error: (e) => errorOf(e, event.event_id),
        streamError: (failure, r, _sent) => {
          const error = { type: "server_error", code: failure.errorType ?? "server_error", message: failure.message ?? "The server had an error while processing your request." };
          return [
            { data: JSON.stringify({ type: "error", event_id: eventId(), error: { ...error, param: null, event_id: null } }) },
            { data: JSON.stringify({ type: "response.done", event_id: eventId(), response: responseObject(r, responseInit, "failed", [], { type: "failed", error }) }) },
          ];
        },
      },
      sink,
      { arrivedAt, signal: abort.signal },
    );
    const completed = !abort.signal.aborted && turn.outcome.kind === "reply";
    if (completed && reply && !outOfBand) state.items.push(...replyItems(reply));
  }

  function cancel(event: Record<string, unknown>): void {
    const parsed = socketWire().CancelSchema.safeParse(event);
    if (!parsed.success) return invalidField(event, socketWire().CancelSchema, parsed.error);
    if (!active) return fail("Cancellation failed: no active response found.", "response_cancel_not_active", event.event_id);
    const { abort, reply, init: responseInit } = active;
    abort.abort();
    active = undefined;
    if (reply && responseInit) {
      send("response.done", { response: responseObject(reply, responseInit, "cancelled", [], { type: "cancelled", reason: "client_cancelled" }) });
    }
  }

  return {
    open() {
      send("session.created", { session: state.session });
    },
    async message(text) {
      const arrivedAt = Date.now();
      const parsed = parseClientMessage(text);
      if (!parsed.ok) return fail(parsed.tooDeep ?? "Invalid JSON: each client event must be a JSON object with a 'type'.", "invalid_json");
      const envelope = socketWire().ClientEventSchema.safeParse(parsed.value);
      if (!envelope.success) return invalidField(parsed.value, socketWire().ClientEventSchema, envelope.error);
      const event = envelope.data;
      switch (event.type) {
        case "session.update":
          return updateSession(event);
        case "conversation.item.create":
          return createItem(event);
        case "conversation.item.delete":
          return deleteItem(event);
        case "response.create":
          if (active) {
            return fail(
              "Conversation already has an active response in progress. Wait until the response is finished before creating a new one.",
              "conversation_already_has_active_response",
              event.event_id,
            );
          }
          active = { abort: new AbortController() };
          try {
            await createResponse(event, text, arrivedAt);
          } finally {
            active = undefined;
          }
          return;
        case "response.cancel":
          return cancel(event);
        case "input_audio_buffer.append":
        case "input_audio_buffer.commit":
        case "input_audio_buffer.clear":
        case "output_audio_buffer.clear":
          return fail(AUDIO_UNSUPPORTED, "mockllm_audio_unsupported", event.event_id, "type");
        default:
          return fail(unsupportedValue(event.type, CLIENT_EVENTS, "type").message, "invalid_value", event.event_id, "type");
      }
    },
    binary() {
      fail("Binary messages are not supported: send client events as JSON text.", "invalid_json");
    },
    closed() {
      active?.abort.abort();
    },
    state: () => state,
  };
}
