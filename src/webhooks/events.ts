/**
 * OpenAI's webhook events (the Standard Webhooks payload the platform POSTs to a project's endpoints): the event
 * types an endpoint may subscribe to, the event's JSON (`{ object, id, type, created_at, data: { id } }`, the
 * order of the webhooks guide's example) and the ids a sample event (`POST /v1/webhook_endpoints/{id}/test`) names.
 */
import { randomHex } from "../objects/ids";

/** The event types `event_types` may name, in the API reference's order (`ProjectEventTypeEnum`). */
export const EVENT_TYPES = [
  "batch.completed",
  "batch.failed",
  "batch.expired",
  "batch.cancelled",
  "response.completed",
  "response.failed",
  "response.cancelled",
  "response.incomplete",
  "eval.run.succeeded",
  "eval.run.failed",
  "eval.run.canceled",
  "fine_tuning.job.succeeded",
  "fine_tuning.job.failed",
  "fine_tuning.job.cancelled",
  "realtime.call.incoming",
  "video.completed",
  "video.failed",
  "agent.environment.ready",
  "agent.environment.failed",
  "agent.environment.suspended",
  "agent.environment.expired",
  "agent.session.created",
  "agent.session.action_required",
  "agent.session.in_progress",
  "agent.session.idle",
  "agent.session.failed",
  "safety.alert.created",
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

const KNOWN: ReadonlySet<string> = new Set(EVENT_TYPES);

export function isEventType(value: unknown): value is EventType {
  return typeof value === "string" && KNOWN.has(value);
}

/** An event as it waits to be sent: its id, type, when it happened (Unix seconds) and the object it is about. */
export interface WebhookEvent {
  id: string;
  type: EventType;
  createdAt: number;
  dataId: string;
  /** The payload's `data` when the type's is not `{ id: dataId }` (a rung call's `{ call_id, sip_headers }`). */
  data?: Record<string, unknown>;
}

/**
 * The SIP INVITE's headers a sample `realtime.call.incoming` carries (a test's; a rung call carries its own). The event's
 * `data` is `{ call_id, sip_headers }` (the SDKs' `RealtimeCallIncomingWebhookEvent.Data`), every other type's `{ id }`.
 */
export const SAMPLE_SIP_HEADERS: readonly { name: string; value: string }[] = [
  { name: "From", value: "<sip:+15555550100@sip.example.com>;tag=mockllm" },
  { name: "To", value: "<sip:+15555550199@sip.example.com>" },
  { name: "Call-ID", value: "mockllm-sample-call@sip.example.com" },
];

/** The event's `data`: the object it is about, as its type names it. */
function eventData(e: WebhookEvent): Record<string, unknown> {
  if (e.data !== undefined) return e.data;
  return e.type === "realtime.call.incoming" ? { call_id: e.dataId, sip_headers: SAMPLE_SIP_HEADERS } : { id: e.dataId };
}

/** The payload's JSON text: what is signed and sent, the same bytes on every attempt. */
export function eventJson(e: WebhookEvent): string {
  return JSON.stringify({ object: "event", id: e.id, type: e.type, created_at: e.createdAt, data: eventData(e) });
}

/** A new event id as the platform's look: `evt_` and 32 hex digits. */
export const newEventId = (): string => `evt_${randomHex(32)}`;

/** A new delivery id (`webhook-id`, kept across a delivery's retries): `wh_` and 32 hex digits. */
export const newDeliveryId = (): string => `wh_${randomHex(32)}`;

/** The prefix of the object id a sample event of `type` names (`resp_…` for `response.completed`). */
function samplePrefix(type: EventType): string {
  if (type.startsWith("batch.")) return "batch_";
  if (type.startsWith("response.")) return "resp_";
  if (type.startsWith("eval.run.")) return "evalrun_";
  if (type.startsWith("fine_tuning.")) return "ftjob-";
  if (type.startsWith("video.")) return "video_";
  if (type.startsWith("realtime.")) return "rtc_";
  if (type.startsWith("agent.session.")) return "sess_";
  if (type.startsWith("agent.environment.")) return "env_";
  return "alert_";
}

/**
 * An Agents API session's event `data` (the SDKs' `AgentSession*WebhookEvent.Data`): the session and its environment's
 * type (and id, when it has one); `action_required` names the kind of its first required action instead.
 */
export function agentSessionData(type: EventType, sessionId: string, environment: { type: string; id?: string }, requiredAction?: string): Record<string, unknown> {
  if (type === "agent.session.action_required") return { id: sessionId, required_action: { type: requiredAction ?? "function_call" } };
  return { id: sessionId, environment_type: environment.type, ...(environment.id !== undefined ? { environment_id: environment.id } : {}) };
}

/** A sample event of `type` (what `test` sends), naming a made-up object of the right kind. */
export function sampleEvent(type: EventType, nowMs: number): WebhookEvent {
  const dataId = samplePrefix(type) + randomHex(32);
  const data = type.startsWith("agent.session.") ? { data: agentSessionData(type, dataId, { type: "none" }) } : {};
  return { id: newEventId(), type, createdAt: Math.floor(nowMs / 1000), dataId, ...data };
}
