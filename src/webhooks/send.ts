/**
 * Sending deliveries: one signed POST per delivery (the headers OpenAI's deliveries carry), the due ones of a project
 * sent together, each one the endpoint did not take queued again (core.ts `retry`). The same on both runtimes; what
 * wakes it differs (a Durable Object's alarm, a Node timer).
 */
import type { RuntimeVars } from "../runtime/types";
import { liveSecrets, MAX_PENDING, type DeliveryRecord, type WebhookCore, type Send } from "./core";
import { eventJson, newDeliveryId, newEventId, sampleEvent, type EventType, type WebhookEvent } from "./events";
import { signatureHeader } from "./sign";
import type { Sent, WebhookReport } from "./types";

/** What OpenAI's deliveries send as their `user-agent`. */
export const WEBHOOK_USER_AGENT = "OpenAI/1.0 (+https://platform.openai.com/docs/webhooks)";
/** How long an endpoint has to answer a delivery (ms). */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** Waiting deliveries one round takes (an event fans out to each endpoint subscribed: up to `MAX_ENDPOINTS` sends). */
export const DELIVERIES_PER_RUN = 50;
/** Rounds one wake-up sends; more due deliveries wait for the next wake-up, set for at once. */
const ROUNDS_PER_RUN = 5;
/** The retry interval by default (ms): a delivery not taken is tried again after 1, 2, 4 and 8 of them. */
export const RETRY_MS = 1000;

/** `WEBHOOK_RETRY_MS` (a positive number of ms), else `RETRY_MS`. */
export function retryMs(vars: RuntimeVars): number {
  const n = Number(vars.WEBHOOK_RETRY_MS);
  return Number.isFinite(n) && n > 0 ? n : RETRY_MS;
}

export type { Sent };

/** Whether the endpoint took it: a 2xx (a delivery with no answer, or a line about none, has no status). */
export function taken(r: { status?: number; error?: string }): boolean {
  return r.status !== undefined && r.status >= 200 && r.status < 300;
}

/**
 * POSTs one delivery, signed at this moment (`webhook-timestamp` is the attempt's time; the body and `webhook-id` are
 * the same on every attempt). Redirects are not followed (a 3xx is not taken, as OpenAI counts it); the answer's body
 * is not read.
 */
export async function post(s: Send, nowMs = Date.now()): Promise<Sent> {
  const body = eventJson(s.event);
  const timestamp = Math.floor(nowMs / 1000);
  try {
    const res = await fetch(s.url, {
      method: "POST",
      redirect: "manual",
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
      headers: {
        "content-type": "application/json",
        "user-agent": WEBHOOK_USER_AGENT,
        "webhook-id": s.deliveryId,
        "webhook-timestamp": String(timestamp),
        "webhook-signature": await signatureHeader(s.secrets, s.deliveryId, timestamp, body),
      },
      body,
    });
    await res.body?.cancel();
    return { status: res.status };
  } catch (e) {
    const err = e as Error;
    return { error: err.name === "TimeoutError" ? `no answer within ${DELIVERY_TIMEOUT_MS} ms` : err.message || String(e) };
  }
}

/** An attempt as `GET /admin/webhooks` lists it. */
export function attemptRecord(s: Send, r: Sent, retry: boolean): DeliveryRecord {
  return { at: new Date().toISOString(), event: s.event.id, type: s.event.type, endpoint: s.endpointId, url: s.url, deliveryId: s.deliveryId, attempt: s.attempt, ...r, retry };
}

/**
 * Sends a sample event of `type` to endpoint `id` at once (`POST …/test`) and remembers the attempt; null when there
 * is no such endpoint.
 */
export async function sendTest(core: WebhookCore, id: string, type: EventType): Promise<Sent | null> {
  const e = core.endpoint(id);
  if (e === null) return null;
  const now = Date.now();
  const s: Send = { key: "test", event: sampleEvent(type, now), endpointId: e.id, url: e.url, secrets: liveSecrets(e, now), deliveryId: newDeliveryId(), attempt: 1 };
  const r = await post(s, now);
  core.remember(attemptRecord(s, r, false));
  return r;
}

/** What `GET /admin/webhooks` shows of a project. */
export function report(core: WebhookCore): WebhookReport {
  return {
    endpoints: core.endpoints().map((e) => ({ id: e.id, name: e.name, url: e.url, event_types: e.eventTypes, created_at: e.createdAt, updated_at: e.updatedAt })),
    waiting: core.waiting(),
    deliveries: core.deliveries(),
  };
}

/**
 * Queues an object's event (core.ts `schedule`); one that finds `MAX_PENDING` deliveries waiting is logged, not kept.
 * Whether it waits now (the host then wakes by `dueMs`).
 */
export function queueEvent(core: WebhookCore, key: string, dueMs: number, type: EventType, dataId: string, log?: (line: DeliveryLog) => void, data?: Record<string, unknown>): boolean {
  const event: WebhookEvent = { id: newEventId(), type, createdAt: Math.floor(dueMs / 1000), dataId, ...(data !== undefined ? { data } : {}) };
  const queued = core.schedule(key, dueMs, event);
  if (queued === "full") log?.({ event: event.id, type, endpoint: "", attempt: 0, error: `${MAX_PENDING} deliveries already wait in this project: not sent`, retry: false });
  return queued === "queued";
}

/** One line about a delivery, for the runtime's log: the attempt as remembered, less its time, URL and delivery id. */
export type DeliveryLog = Pick<DeliveryRecord, "event" | "type" | "endpoint" | "attempt" | "status" | "error" | "retry">;

/**
 * The runtime's log of deliveries, one JSON line each written by `write`: every delivery not taken (the one place a
 * user sees why a webhook did not arrive), and those taken too with `REQUEST_LOG=json`.
 */
export function deliveryLogger(vars: RuntimeVars, write: (line: string) => void): (line: DeliveryLog) => void {
  const all = vars.REQUEST_LOG?.trim().toLowerCase() === "json";
  return (line) => {
    if (all || !taken(line)) write(JSON.stringify({ mockllm: "webhook", ...line }));
  };
}

/**
 * Sends the deliveries due now (`DELIVERIES_PER_RUN` waiting ones a round, `ROUNDS_PER_RUN` rounds) and queues again
 * those not taken; the host then wakes for `core.nextDue()` (which also covers what was queued while this sent).
 */
export async function sendDue(core: WebhookCore, vars: RuntimeVars, log?: (line: DeliveryLog) => void): Promise<void> {
  // A few rounds a wake-up (a Worker's invocation makes at most 1,000 subrequests); what is left is due at once.
  for (let round = 0; round < ROUNDS_PER_RUN; round++) {
    const sends = core.takeDue(Date.now(), DELIVERIES_PER_RUN);
    if (sends.length === 0) break;
    const results = await Promise.all(sends.map((s) => post(s)));
    sends.forEach((s, i) => {
      const r = results[i]!;
      const retry = !taken(r) && core.retry(s, Date.now(), retryMs(vars));
      core.remember(attemptRecord(s, r, retry));
      log?.({ event: s.event.id, type: s.event.type, endpoint: s.endpointId, attempt: s.attempt, ...r, retry });
    });
  }
}
