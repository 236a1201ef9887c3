/**
 * Reaching the caller's project's webhooks from the request path (`hubOf`), and raising an object's lifecycle event
 * there (`raiseEvent`): a runtime without webhooks does nothing.
 */
import type { Runtime } from "../runtime/types";
import type { EventType } from "./events";
import type { WebhookHub } from "./types";

export type { WebhookHub };

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
export async function raiseEvent(rt: Runtime, key: string, dueMs: number, type: EventType, dataId: string, data?: Record<string, unknown>): Promise<void> {
  try {
    await hubOf(rt)?.schedule(key, dueMs, type, dataId, data);
  } catch (e) {
    // The object the client made stands; only its event is lost (a Durable Object that could not be reached): said, not thrown.
    console.error(JSON.stringify({ mockllm: "webhook", type, data: dataId, error: `the event could not be queued: ${(e as Error).message}` }));
  }
}
