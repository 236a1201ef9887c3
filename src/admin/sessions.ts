/**
 * Admin routes over sessions (contract sections 5 and 10): the sessions of a scenario, one session's state, its
 * journal (filtered), verify, reset. The logic is in session/verify.ts and session/session-index.ts; these handlers
 * read the stores and answer JSON.
 */
import type { IRequest } from "itty-router";
import type { Runtime } from "../runtime/types";
import { closest, shownName } from "../scenario/hints";
import { NAME_PATTERN } from "../scenario/schema";
import type { JournalEntry } from "../session/core";
import { listSessions, sessionNames, type SessionListing } from "../session/session-index";
import type { Session } from "../session/types";
import { verifySession } from "../session/verify";
import type { AdminAnswers, SessionAnswer } from "./answers";
import { adminError, json, param, query } from "./http";

const OUTCOMES = ["response", "failure", "mismatch", "side_call", "chaos"] as const;

/** The admin error `code` of a session that never received a request (contract section 10). */
export const SESSION_NOT_RUN = "session_not_run";

/** 404 for a scenario that does not exist, with the nearest name when one is close. */
export async function noScenario(rt: Runtime, name: string): Promise<Response> {
  const guess = closest(name, await rt.scenarios.names());
  return adminError(404, `scenario "${shownName(name)}" not found${guess !== undefined ? `; did you mean "${guess}"?` : ""}`);
}

/**
 * The session `{scenario}/{session}` if it exists, else the 404 to answer (contract section 10): a session that never
 * received a request is not shown as an empty one. The answer depends on the caller's own scenarios and sessions only,
 * so a name used in another namespace reads exactly as one used nowhere. Reading creates nothing.
 */
export async function existingSession(rt: Runtime, scenario: string, session: string): Promise<{ session: Session } | { response: Response }> {
  const found = rt.sessions.get(`${scenario}/${session}`);
  if (await found.exists()) return { session: found };
  if (!(await rt.scenarios.get(scenario))) return { response: await noScenario(rt, scenario) };
  const guess = closest(session, await sessionNames(rt.sessions, scenario));
  const hint = guess !== undefined ? `; did you mean "${guess}"?` : "";
  const message = `session "${shownName(session)}" of scenario "${shownName(scenario)}" has not run: no request reached /s/${shownName(scenario)}/${shownName(session)}${hint}`;
  return { response: adminError(404, message, { code: SESSION_NOT_RUN }) };
}

/** `GET /admin/sessions?scenario=`: the sessions the index holds, most recent first; every scenario without `scenario`. */
export async function listSessionsRoute(req: IRequest, rt: Runtime): Promise<Response> {
  const scenario = query(req, "scenario");
  if (scenario !== undefined && !NAME_PATTERN.test(scenario)) return adminError(400, `invalid scenario name "${scenario}"`);
  const names = scenario !== undefined ? [scenario] : (await rt.scenarios.list()).map((s) => s.name);
  const all: SessionListing[] = (await Promise.all(names.map((n) => listSessions(rt.sessions, n)))).flat();
  return json(all.sort((a, b) => (b.lastAt ?? "").localeCompare(a.lastAt ?? "")) satisfies AdminAnswers["GET /admin/sessions"]);
}

/** `GET /admin/sessions/{scenario}/{session}`: its state, and whether its scenario exists. */
export async function sessionStateRoute(req: IRequest, rt: Runtime): Promise<Response> {
  const name = param(req, "scenario");
  const found = await existingSession(rt, name, param(req, "session"));
  if ("response" in found) return found.response;
  const current = await rt.scenarios.get(name);
  const view = await found.session.state(current?.scenario);
  // A session that never ran, of a scenario that does not exist, is a typo: say so rather than show an empty state.
  if (!current && view.version === null && view.requests === 0) return noScenario(rt, name);
  return json({ ...view, exists: current !== undefined } satisfies SessionAnswer);
}

/** `GET /admin/sessions/{scenario}/{session}/requests?step=&outcome=&since=`: the journal, filtered. */
export async function journalRoute(req: IRequest, rt: Runtime): Promise<Response> {
  const step = query(req, "step");
  const outcome = query(req, "outcome");
  const sinceText = query(req, "since");
  if (outcome !== undefined && !(OUTCOMES as readonly string[]).includes(outcome)) {
    return adminError(400, `outcome must be one of ${OUTCOMES.join(", ")}, got "${outcome}"`);
  }
  if (sinceText !== undefined && !/^\d+$/.test(sinceText)) return adminError(400, `since must be a journal seq (0 or more), got "${sinceText}"`);
  const since = sinceText === undefined ? 0 : Number(sinceText);
  const found = await existingSession(rt, param(req, "scenario"), param(req, "session"));
  if ("response" in found) return found.response;
  const entries: JournalEntry[] = await found.session.requests();
  return json(
    entries.filter(
      (e) => e.seq > since && (step === undefined || e.step === step) && (outcome === undefined || e.outcome === outcome),
    ) satisfies AdminAnswers["GET /admin/sessions/{scenario}/{session}/requests"],
  );
}

/** `GET /admin/sessions/{scenario}/{session}/verify?allowUnused=a,b`. */
export async function verifyRoute(req: IRequest, rt: Runtime): Promise<Response> {
  const scenario = param(req, "scenario");
  const sessionName = param(req, "session");
  const allowUnused = (query(req, "allowUnused") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
  const found = await existingSession(rt, scenario, sessionName);
  if ("response" in found) return found.response;
  const session = found.session;
  const stored = await rt.scenarios.get(scenario);
  const [view, journal] = await Promise.all([session.state(stored?.scenario), session.requests()]);
  if (!stored && view.version === null) return noScenario(rt, scenario);
  const result = verifySession({ scenario, session: sessionName, document: stored?.scenario, view, journal, allowUnused });
  return json(result satisfies AdminAnswers["GET /admin/sessions/{scenario}/{session}/verify"]);
}

/** `POST /admin/sessions/{scenario}/{session}/reset`. */
export async function resetRoute(req: IRequest, rt: Runtime): Promise<Response> {
  return json(await rt.sessions.get(`${param(req, "scenario")}/${param(req, "session")}`).reset());
}
