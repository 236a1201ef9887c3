/**
 * Which sessions of a scenario exist. Durable Objects cannot be enumerated, so each scenario has an index object
 * (`__index/sessions-{scenario}`; names starting `__` never clash with a scenario) that the provider route notes a
 * session in on the session's first request. The same code runs on Node, where the index is a plain in-process session.
 */
import type { Awaitable, SessionStore } from "./types";

export interface SessionListing {
  scenario: string;
  session: string;
  /** Journaled requests (0 after a reset). */
  requests: number;
  /** When the newest journaled request arrived; null when there is none. */
  lastAt: string | null;
}

export function indexName(scenario: string): string {
  return `__index/sessions-${scenario}`;
}

/**
 * The index a session object is listed in, from the object's name (`[__ns/{space}/]{scenario}/{session}`); undefined
 * for internal objects (`__responses/…`, `__index/…`).
 * @example indexOf("__ns/team-a.1f2e/weather/t1") // { index: "__ns/team-a.1f2e/__index/sessions-weather", member: "t1" }
 */
export function indexOf(name: string): { index: string; member: string } | undefined {
  const m = /^(__ns\/[^/]+\/)?([^/]+)\/([^/]+)$/.exec(name);
  if (!m || m[2]!.startsWith("__")) return undefined;
  return { index: `${m[1] ?? ""}${indexName(m[2]!)}`, member: m[3]! };
}

/**
 * Called by the provider route with the seq a request was journaled under: notes the session on its first request
 * (seq 1, also the first after a reset), so the common request costs nothing.
 * @example await noteSession(rt.sessions, "weather", "t1", result.seq)
 */
export function noteSession(sessions: SessionStore, scenario: string, session: string, seq: number): Awaitable<void> {
  if (seq !== 1) return;
  return sessions.get(indexName(scenario)).noteMember(session);
}

/** The session names the index holds for `scenario`, most recently started first. */
export async function sessionNames(sessions: SessionStore, scenario: string): Promise<string[]> {
  const members = await sessions.get(indexName(scenario)).members();
  return members.map((m) => m.key).reverse();
}

/**
 * The sessions of `scenario` with their request count and last request time, most recent first.
 * @example await listSessions(rt.sessions, "weather")
 */
export async function listSessions(sessions: SessionStore, scenario: string): Promise<SessionListing[]> {
  const names = await sessionNames(sessions, scenario);
  const listed = await Promise.all(
    names.map(async (session) => {
      const view = await sessions.get(`${scenario}/${session}`).state();
      return { scenario, session, requests: view.requests, lastAt: view.lastAt };
    }),
  );
  return listed.sort((a, b) => (b.lastAt ?? "").localeCompare(a.lastAt ?? ""));
}
