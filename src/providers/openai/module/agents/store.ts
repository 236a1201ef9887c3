/**
 * Where the Agents API's objects live: one index object a namespace (`__index/openai-agents`), through the stored-
 * objects members every session object has (session/responses.ts). Agents (kind `agent`), sessions
 * (`agent_session`), and a session's children — its events (`agent_session/{id}`, one record a change, by the
 * change's number), items
 * (`…/items`) and turns (`…/turns`) — which deleting the session drops. One object holds them all so a send, an
 * open stream's reads and the session's record meet in one place (one Durable Object on Workers).
 */
import type { Runtime } from "../../../../runtime/types";
import type { StoredResponses } from "../../../../session/types";
import { childKind } from "../../../../session/responses";
import { withObjectLock } from "../../../../session/object-lock";

export const AGENT_KIND = "agent";
export const SESSION_KIND = "agent_session";

/** Most agents and sessions a namespace keeps (each kind); one more forgets the oldest. */
export const MAX_OBJECTS = 1000;
/** Most items and turns one session keeps (each), and most changes whose events it keeps; one more forgets the oldest. */
export const MAX_SESSION_EVENTS = 10_000;
/**
 * A session's head (kind `agent_session_head`, by session id): the number of its last change that appended events.
 * An open stream polls it — a few bytes — instead of the session (whose agent's tools may run to megabytes), and
 * reads only the changes after its place; a deleted session has none, which ends the stream.
 */
export const HEAD_KIND = "agent_session_head";

/** The namespace's Agents API object. */
export function agentsHome(rt: Runtime): StoredResponses {
  return rt.sessions.get("__index/openai-agents");
}

export { loadObject as loadOne, loadObjects as loadAll } from "../../../../session/stored-objects";

export async function saveAll(home: StoredResponses, kind: string, objects: readonly { id: string }[], max = MAX_OBJECTS): Promise<void> {
  if (objects.length > 0)
    await home.putObjects(
      kind,
      objects.map((o) => ({ id: o.id, json: JSON.stringify(o) })),
      max,
    );
}

export const eventsKind = (sessionId: string): string => childKind(SESSION_KIND, sessionId);
/** The id of change `n`'s events (zero-padded: the records list in order). */
export const changeId = (n: number): string => String(n).padStart(10, "0");
export const itemsKind = (sessionId: string): string => `${childKind(SESSION_KIND, sessionId)}/items`;
export const turnsKind = (sessionId: string): string => `${childKind(SESSION_KIND, sessionId)}/turns`;

/** Runs a change to session `id` after the changes before it, one at a time (session/object-lock.ts). */
export function withSessionLock<T>(rt: Runtime, id: string, change: () => Promise<T>): Promise<T> {
  return withObjectLock(agentsHome(rt), "openai_agent_session", id, change);
}
