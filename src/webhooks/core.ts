/**
 * One project's webhooks, runtime-free over a synchronous key-value store (the Workers object's SQLite, a Map on
 * Node): its endpoints, and the deliveries waiting for their time. An object's lifecycle event waits under a key of
 * its own (`response:resp_…`), so a later event of the same object replaces it (a cancel before the run is done
 * sends `response.cancelled`, never `response.completed`). When its time comes an event goes to every endpoint then
 * subscribed to its type, each delivery with its own `webhook-id`; a delivery the endpoint does not take (anything
 * but 2xx, or no answer) is tried again after 1, 2, 4 … times the retry interval, `MAX_ATTEMPTS` times in all.
 */
import type { SyncStore } from "../util/sync-store";
import { newDeliveryId, type EventType, type WebhookEvent } from "./events";

/** Most endpoints one project keeps (mockllm's bound; the API states none). */
export const MAX_ENDPOINTS = 100;
/** Most deliveries waiting at once in one project; an event beyond it is not sent (and logged). */
export const MAX_PENDING = 10_000;
/** Attempts a delivery gets in all (the first and its retries). */
export const MAX_ATTEMPTS = 5;
/** Delivery attempts a project remembers for `GET /admin/webhooks` (the oldest go first). */
export const DELIVERY_LOG = 100;

export interface EndpointRecord {
  id: string;
  name: string;
  url: string;
  eventTypes: EventType[];
  /** Unix seconds. */
  createdAt: number;
  updatedAt: number;
  /** Milliseconds at creation (`creationStamp`): the listing's order. */
  stamp: number;
  secret: string;
  /** The secret before the last rotation while it stays valid (`keep_old_secret_active_for_24_hours`). */
  previous?: { secret: string; untilMs: number };
}

/** A delivery waiting for its time: an event for every subscribed endpoint, or a retry for one. */
export interface Pending {
  key: string;
  dueMs: number;
  event: WebhookEvent;
  /** A retry: the endpoint, the delivery's id and which attempt this is. */
  retry?: { endpointId: string; deliveryId: string; attempt: number };
}

/** One attempt as remembered: when, what, to which endpoint, and how it went. */
export interface DeliveryRecord {
  /** ISO time of the attempt. */
  at: string;
  event: string;
  type: string;
  endpoint: string;
  url: string;
  deliveryId: string;
  attempt: number;
  status?: number;
  error?: string;
  /** Whether it will be tried again. */
  retry: boolean;
}

/** One delivery to make now: where, signed with which secrets, under which id, which attempt. */
export interface Send {
  key: string;
  event: WebhookEvent;
  endpointId: string;
  url: string;
  secrets: string[];
  deliveryId: string;
  attempt: number;
}

const ENDPOINT = "e/";
const DUE = "d/";
const KEY = "k/";
/** How many deliveries wait, and how many endpoints there are: kept, so neither is counted by a listing. */
const COUNT = "n";
const ENDPOINTS = "c";
const LOG = "l/";
const LOG_SEQ = "s";

const dueKey = (p: Pending) => `${DUE}${String(Math.max(0, Math.floor(p.dueMs))).padStart(15, "0")}/${p.key}`;

function parse<T>(json: string | undefined): T | undefined {
  if (json === undefined) return undefined;
  try {
    return JSON.parse(json) as T;
  } catch {
    return undefined;
  }
}

/** The secrets a delivery at `nowMs` is signed with: the current one, and the previous while it stays valid. */
export function liveSecrets(e: EndpointRecord, nowMs: number): string[] {
  return e.previous !== undefined && e.previous.untilMs > nowMs ? [e.secret, e.previous.secret] : [e.secret];
}

export class WebhookCore {
  constructor(private readonly store: SyncStore) {}

  /** The records kept under `prefix`, in key order (a damaged one skipped). */
  private records<T>(prefix: string): T[] {
    const out: T[] = [];
    for (const [, v] of this.store.list(prefix)) {
      const r = parse<T>(v);
      if (r !== undefined) out.push(r);
    }
    return out;
  }

  /** A count kept under `key` (0 when none is). */
  private counter(key: string): number {
    return Number(this.store.get(key) ?? "0") || 0;
  }

  /** Every endpoint, oldest first. */
  endpoints(): EndpointRecord[] {
    return this.records<EndpointRecord>(ENDPOINT).sort((a, b) => a.stamp - b.stamp);
  }

  endpoint(id: string): EndpointRecord | null {
    return parse<EndpointRecord>(this.store.get(ENDPOINT + id)) ?? null;
  }

  /** Stores a new endpoint; false when the project already keeps `MAX_ENDPOINTS`. */
  create(r: EndpointRecord): boolean {
    const n = this.counter(ENDPOINTS);
    if (n >= MAX_ENDPOINTS) return false;
    this.store.put(ENDPOINT + r.id, JSON.stringify(r));
    this.store.put(ENDPOINTS, String(n + 1));
    return true;
  }

  /** Replaces an endpoint that exists; false when it does not. */
  update(r: EndpointRecord): boolean {
    if (this.store.get(ENDPOINT + r.id) === undefined) return false;
    this.store.put(ENDPOINT + r.id, JSON.stringify(r));
    return true;
  }

  delete(id: string): boolean {
    if (this.store.get(ENDPOINT + id) === undefined) return false;
    this.store.delete(ENDPOINT + id);
    this.store.put(ENDPOINTS, String(Math.max(0, this.counter(ENDPOINTS) - 1)));
    return true;
  }

  private setCount(n: number): void {
    this.store.put(COUNT, String(Math.max(0, n)));
  }

  /** Removes the delivery waiting under `key`, if one is. */
  withdraw(key: string): boolean {
    const at = this.store.get(KEY + key);
    if (at === undefined) return false;
    this.store.delete(at);
    this.store.delete(KEY + key);
    this.setCount(this.counter(COUNT) - 1);
    return true;
  }

  private add(p: Pending): void {
    const at = dueKey(p);
    this.store.put(at, JSON.stringify(p));
    this.store.put(KEY + p.key, at);
    this.setCount(this.counter(COUNT) + 1);
  }

  /**
   * Queues `event` for `dueMs` under `key`, replacing what waited there. Nothing is kept while the project has no
   * endpoint (its type is matched when the event is due, against the endpoints then); "full" past `MAX_PENDING`.
   */
  schedule(key: string, dueMs: number, event: WebhookEvent): "queued" | "no endpoints" | "full" {
    this.withdraw(key);
    if (this.counter(ENDPOINTS) === 0) return "no endpoints";
    if (this.counter(COUNT) >= MAX_PENDING) return "full";
    this.add({ key, dueMs, event });
    return "queued";
  }

  /** When the earliest waiting delivery is due (ms), or undefined when none waits. */
  nextDue(): number | undefined {
    const first = this.firstDue(1)[0];
    return first === undefined ? undefined : Number(first[0].slice(DUE.length, DUE.length + 15));
  }

  /** The first `n` waiting deliveries, the earliest first. */
  private firstDue(n: number): [string, string][] {
    return this.store.first?.(DUE, n) ?? this.store.list(DUE).slice(0, n);
  }

  /** Takes up to `max` deliveries due at `nowMs` off the queue, an event fanned out to the endpoints subscribed now. */
  takeDue(nowMs: number, max: number): Send[] {
    const out: Send[] = [];
    for (const [at, v] of this.firstDue(max)) {
      if (out.length >= max || Number(at.slice(DUE.length, DUE.length + 15)) > nowMs) break;
      const p = parse<Pending>(v);
      this.store.delete(at);
      this.setCount(this.counter(COUNT) - 1);
      if (p === undefined) continue;
      this.store.delete(KEY + p.key);
      if (p.retry !== undefined) {
        const e = this.endpoint(p.retry.endpointId);
        if (e !== null) out.push({ key: p.key, event: p.event, endpointId: e.id, url: e.url, secrets: liveSecrets(e, nowMs), deliveryId: p.retry.deliveryId, attempt: p.retry.attempt });
        continue;
      }
      for (const e of this.endpoints()) {
        if (!e.eventTypes.includes(p.event.type)) continue;
        out.push({ key: `${p.key}#${e.id}`, event: p.event, endpointId: e.id, url: e.url, secrets: liveSecrets(e, nowMs), deliveryId: newDeliveryId(), attempt: 1 });
      }
    }
    return out;
  }

  /** How many deliveries wait. */
  waiting(): number {
    return this.counter(COUNT);
  }

  /** Remembers an attempt, forgetting the oldest past `DELIVERY_LOG`. */
  remember(r: DeliveryRecord): void {
    const seq = this.counter(LOG_SEQ) + 1;
    this.store.put(LOG_SEQ, String(seq));
    this.store.put(`${LOG}${String(seq).padStart(12, "0")}`, JSON.stringify(r));
    if (seq > DELIVERY_LOG) this.store.delete(`${LOG}${String(seq - DELIVERY_LOG).padStart(12, "0")}`);
  }

  /** The attempts remembered, newest first. */
  deliveries(): DeliveryRecord[] {
    return this.records<DeliveryRecord>(LOG).reverse();
  }

  /** Queues a failed delivery's next attempt after `retryMs` × 2^(attempts made − 1); false when it has had them all. */
  retry(s: Send, nowMs: number, retryMs: number): boolean {
    if (s.attempt >= MAX_ATTEMPTS || this.counter(COUNT) >= MAX_PENDING) return false;
    this.withdraw(s.key);
    this.add({ key: s.key, dueMs: nowMs + retryMs * 2 ** (s.attempt - 1), event: s.event, retry: { endpointId: s.endpointId, deliveryId: s.deliveryId, attempt: s.attempt + 1 } });
    return true;
  }
}
