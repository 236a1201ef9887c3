/**
 * One change at a time to one stored object (a managed-agents session, on either provider): each change takes a
 * ticket (an atomic counter of the object that stores it) and waits until the change before it has written its
 * ticket down. Two sends at once (a client answering two tool calls in parallel) would otherwise each read the
 * object, settle one call and write back an object still waiting for the other.
 */
import { sleep } from "../http/sse";
import type { StoredResponses } from "./types";

/** How long a change waits for the one before it (one that never finished is then passed). */
export const OBJECT_LOCK_WAIT_MS = 60_000;
/** Most locks one home keeps (one per object ever changed; the oldest forgotten). */
const MAX_LOCKS = 1000;

/**
 * Runs `change` after every change to object `id` of `home` that came before it, one at a time (`scope` names the
 * kind of object: its tickets and its lock records are its own).
 * @example await withObjectLock(home, "agent_session", id, () => send())
 */
export async function withObjectLock<T>(home: StoredResponses, scope: string, id: string, change: () => Promise<T>): Promise<T> {
  const ticket = await home.increment(`${scope}_change/${id}`);
  const deadline = Date.now() + OBJECT_LOCK_WAIT_MS;
  const lockKind = `${scope}_lock`;
  for (let wait = 1; Date.now() < deadline; wait = Math.min(wait * 2, 20)) {
    const done = Number((await home.objectById(lockKind, id)) ?? "0");
    if (done >= ticket - 1) break;
    await sleep(wait);
  }
  try {
    return await change();
  } finally {
    await home.putObjects(lockKind, [{ id, json: String(ticket) }], MAX_LOCKS);
  }
}
