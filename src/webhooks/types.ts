/**
 * What a host's webhooks offer the request path (`Runtime.webhooks(space)`): a project's endpoints, and the events its
 * objects' lifecycles raise. Workers: one Durable Object per namespace (`WEBHOOKS`), woken by its alarm; Node: the
 * same core in memory, woken by a timer.
 */
import type { DeliveryRecord, EndpointRecord } from "./core";
import type { EventType } from "./events";

/** How one delivery went: the endpoint's status, or why there was none. */
export type Sent = { status: number } | { error: string };

/** A project's webhooks as the admin API shows them: its endpoints (no secrets), how many deliveries wait, the last attempts. */
export interface WebhookReport {
  endpoints: { id: string; name: string; url: string; event_types: string[]; created_at: number; updated_at: number }[];
  waiting: number;
  deliveries: DeliveryRecord[];
}

export interface WebhookHub {
  list(): Promise<EndpointRecord[]>;
  get(id: string): Promise<EndpointRecord | null>;
  /** False when the project already keeps its most endpoints. */
  create(r: EndpointRecord): Promise<boolean>;
  /** False when there is no such endpoint. */
  update(r: EndpointRecord): Promise<boolean>;
  delete(id: string): Promise<boolean>;
  /** Sends a sample event of `type` to the endpoint now (null: no such endpoint). */
  test(id: string, type: EventType): Promise<Sent | null>;
  /** Raises `type` about `dataId` at `dueMs`, in place of what `key` waited for; `data` when the type's is not `{ id }`. */
  schedule(key: string, dueMs: number, type: EventType, dataId: string, data?: Record<string, unknown>): Promise<void>;
  /** Drops what waits under `key` (a paused job's end). */
  withdraw(key: string): Promise<void>;
  /** Its endpoints, how many deliveries wait and the last attempts (`GET /admin/webhooks`). */
  report(): Promise<WebhookReport>;
}
