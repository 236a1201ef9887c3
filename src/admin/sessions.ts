/**
 * Admin routes over sessions as a whole: the sessions of a scenario, a filtered journal, verify, coverage.
 * The logic is in session/verify.ts and session/session-index.ts; these handlers read the stores and answer JSON.
 */
import type { IRequest } from "itty-router";
import { safeDecode } from "../http/url";
import type { Runtime } from "../runtime/types";
import { closest } from "../scenario/hints";
import { NAME_PATTERN } from "../scenario/schema";
import type { JournalEntry } from "../session/core";
import { listSessions, sessionNames, type SessionListing } from "../session/session-index";
import type { Session } from "../session/types";
import { coverage, verifySession } from "../session/verify";
import { shownName } from "../routes/names";

const OUTCOMES = ["response", "failure", "mismatch", "side_call"] as const;

/** Pretty-printed JSON, as every admin route answers. */
function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body, null, 2), { status, headers: { "content-type": "application/json" } });
}

function error(status: number, message: string, code?: string): Response {
  return jsonResponse({ error: { message, ...(code !== undefined ? { code } : {}) } }, status);
}

/** The admin error `code` of a session that never received a request (contract section 10). */
export const SESSION_NOT_RUN = "session_not_run";

/** 404 for a scenario that does not exist, with the nearest name when one is close. */
async function noScenario(rt: Runtime, name: string): Promise<Response> {
  const guess = closest(name, await rt.scenarios.names());
  return error(404, `scenario "${shownName(name)}" not found${guess !== undefined ? `; did you mean "${guess}"?` : ""}`);
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
  return { response: error(404, message, SESSION_NOT_RUN) };
}

function param(req: IRequest, key: string): string {
  return safeDecode(req.params[key] ?? "");
}

function query(req: IRequest, key: string): string | undefined {
  const v = req.query[key];
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined || s === "" ? undefined : s;
}

/** `GET /admin/sessions?scenario=`: the sessions the index holds, most recent first; every scenario without `scenario`. */
export async function listSessionsRoute(req: IRequest, rt: Runtime): Promise<Response> {
  const scenario = query(req, "scenario");
  if (scenario !== undefined && !NAME_PATTERN.test(scenario)) return error(400, `invalid scenario name "${scenario}"`);
  const names = scenario !== undefined ? [scenario] : (await rt.scenarios.list()).map((s) => s.name);
  const all: SessionListing[] = (await Promise.all(names.map((n) => listSessions(rt.sessions, n)))).flat();
  return jsonResponse(all.sort((a, b) => (b.lastAt ?? "").localeCompare(a.lastAt ?? "")));
}

/** `GET /admin/sessions/{scenario}/{session}/requests?step=&outcome=&since=`: the journal, filtered. */
export async function journalRoute(req: IRequest, rt: Runtime): Promise<Response> {
  const step = query(req, "step");
  const outcome = query(req, "outcome");
  const sinceText = query(req, "since");
  if (outcome !== undefined && !(OUTCOMES as readonly string[]).includes(outcome)) {
    return error(400, `outcome must be one of ${OUTCOMES.join(", ")}, got "${outcome}"`);
  }
  if (sinceText !== undefined && !/^\d+$/.test(sinceText)) return error(400, `since must be a journal seq (0 or more), got "${sinceText}"`);
  const since = sinceText === undefined ? 0 : Number(sinceText);
  const found = await existingSession(rt, param(req, "scenario"), param(req, "session"));
  if ("response" in found) return found.response;
  const entries: JournalEntry[] = await found.session.requests();
  return jsonResponse(
    entries.filter(
      (e) => e.seq > since && (step === undefined || e.step === step) && (outcome === undefined || e.outcome === outcome),
    ),
  );
}

/** `GET /admin/sessions/{scenario}/{session}/verify?allowUnused=a,b`. */
export async function verifyRoute(req: IRequest, rt: Runtime): Promise<Response> {
  const scenario = param(req, "scenario");
  const sessionName = param(req, "session");
  const allowUnused = (query(req, "allowUnused") ?? "").split(",").map((s) => s.trim()).filter((s) => s !== "");
  const found = await existingSession(rt, scenario, sessionName);
  if ("response" in found) return found.response;
  const session = found.session;
  const stored = await rt.scenarios.get(scenario);
  const [view, journal] = await Promise.all([session.state(stored?.scenario), session.requests()]);
  if (!stored && view.version === null) return noScenario(rt, scenario);
  return jsonResponse(verifySession({ scenario, session: sessionName, document: stored?.scenario, view, journal, allowUnused }));
}

/** `GET /admin/scenarios/{name}/coverage`: per step, across the sessions the index holds. */
export async function coverageRoute(req: IRequest, rt: Runtime): Promise<Response> {
  const name = param(req, "name");
  const stored = NAME_PATTERN.test(name) ? await rt.scenarios.get(name) : undefined;
  if (!stored) return noScenario(rt, name);
  const names = await sessionNames(rt.sessions, name);
  const sessions = await Promise.all(
    names.map(async (n) => {
      const s = rt.sessions.get(`${name}/${n}`);
      const [view, journal] = await Promise.all([s.state(stored.scenario), s.requests()]);
      return { view, journal };
    }),
  );
  return jsonResponse(coverage(name, stored.version, stored.scenario, sessions));
}
