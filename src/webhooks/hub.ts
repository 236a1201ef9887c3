/**
 * What the request path sees of a project's webhooks (`Runtime.webhooks(space)`): its endpoints, and the events its
 * objects' lifecycles raise. Workers: one Durable Object per namespace (`WEBHOOKS`), woken by its alarm; Node: the
 * same core in memory, woken by a timer.
 */
import type { Runtime } from "../runtime/types";
import type { EndpointRecord } from "./core";
import { newEventId, type EventType } from "./events";
import type { Sent } from "./send";

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
  /** Raises `type` about `dataId` at `dueMs`, in place of what `key` waited for. */
  schedule(key: string, dueMs: number, type: EventType, dataId: string): Promise<void>;
  /** Drops what waits under `key` (a paused job's end). */
  withdraw(key: string): Promise<void>;
}

/** The namespace a runtime serves (`""`: the default one). */
export function spaceOf(rt: Runtime): string {
  return rt.caller?.namespace.space ?? "";
}

/** The caller's project's webhooks, or undefined on a runtime that keeps none. */
export function hubOf(rt: Runtime): WebhookHub | undefined {
  return rt.webhooks?.(spaceOf(rt));
}

/**
 * Raises an object's lifecycle event (`response.completed` about `resp_…`) for `dueMs`, replacing the one its `key`
 * waited for; a runtime without webhooks does nothing.
 * @example await raiseEvent(rt, `response:${id}`, run.readyMs, "response.completed", id)
 */
export async function raiseEvent(rt: Runtime, key: string, dueMs: number, type: EventType, dataId: string): Promise<void> {
  await hubOf(rt)?.schedule(key, dueMs, type, dataId);
}

/** The event `schedule` stores: a new id, and the time it happens (Unix seconds). */
export function eventAt(dueMs: number, type: EventType, dataId: string) {
  return { id: newEventId(), type, createdAt: Math.floor(dueMs / 1000), dataId };
}
