/**
 * Where Claude Managed Agents' objects live: one index object a namespace (`__index/managed-agents`), through the
 * stored-objects members every session object has (session/responses.ts). Agents (kind `agent`, their versions the
 * children `agent/{id}`), environments (`environment`), sessions (`agent_session`) and a session's events (the
 * children `agent_session/{id}`, oldest first: deleting the session drops them). A namespace's sessions map the name
 * into its own space, so another key's agents are simply not there. One object holds them all so a session's events,
 * its record and an open stream's reads meet in one place (one Durable Object on Workers).
 */
import type { Runtime } from "../../../../runtime/types";
import type { StoredResponses } from "../../../../session/types";
import { childKind } from "../../../../session/responses";
import { withObjectLock } from "../../../../session/object-lock";

export const AGENT_KIND = "agent";
export const ENVIRONMENT_KIND = "environment";
export const SESSION_KIND = "agent_session";

/** Most agents, environments and sessions a namespace keeps (each kind); one more forgets the oldest. */
export const MAX_OBJECTS = 1000;
/** Most versions of one agent kept. */
export const MAX_AGENT_VERSIONS = 1000;
/** Most events one session keeps; one more forgets the oldest (the count, and so a stream's place, goes on). */
export const MAX_SESSION_EVENTS = 10_000;

/** The namespace's managed-agents object. */
export function agentsHome(rt: Runtime): StoredResponses {
  return rt.sessions.get("__index/managed-agents");
}

import { loadObject } from "../../../../session/stored-objects";

export { loadObject as loadOne, loadObjects as loadAll } from "../../../../session/stored-objects";

export async function saveOne(home: StoredResponses, kind: string, object: { id: string }, max = MAX_OBJECTS): Promise<void> {
  await home.putObjects(kind, [{ id: object.id, json: JSON.stringify(object) }], max);
}

export function versionsKind(agentId: string): string {
  return childKind(AGENT_KIND, agentId);
}

/**
 * A session's head (kind `agent_session_head`, by session id): how many events it has appended. An open stream polls
 * it — a few bytes — instead of the session (whose agent snapshot may run long).
 */
const HEAD_KIND = "agent_session_head";

/** Writes session `id`'s head: its event count. */
export async function saveHead(home: StoredResponses, id: string, events: number): Promise<void> {
  await home.putObjects(HEAD_KIND, [{ id, json: String(events) }], MAX_OBJECTS);
}

export async function deleteHead(home: StoredResponses, id: string): Promise<void> {
  await home.deleteObject(HEAD_KIND, id);
}

/** Session `id`'s event count, or undefined when it no longer exists (a session kept before heads were: read whole). */
export async function eventCount(home: StoredResponses, id: string): Promise<number | undefined> {
  const head = await home.objectById(HEAD_KIND, id);
  if (head !== null) return Number(head);
  return (await loadObject<{ mock: { events: number } }>(home, SESSION_KIND, id))?.mock.events;
}

/**
 * When a session's paced events are due on a stream (kind `agent_session/{id}/due`, one record a change that has any
 * still to come: `{ from, due }`, `from` the change's first event's number). A change with nothing to hold keeps none.
 */
export function dueKind(sessionId: string): string {
  return `${childKind(SESSION_KIND, sessionId)}/due`;
}

/** Most due records a session keeps. */
export const MAX_DUE_RECORDS = 1000;

export function eventsKind(sessionId: string): string {
  return childKind(SESSION_KIND, sessionId);
}

/**
 * Runs `change` (a send, an update, an archive) after every change to session `id` that came before it, one at a
 * time (session/object-lock.ts).
 */
export function withSessionLock<T>(rt: Runtime, id: string, change: () => Promise<T>): Promise<T> {
  return withObjectLock(agentsHome(rt), "agent_session", id, change);
}
