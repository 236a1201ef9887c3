/**
 * Which scenario and session answer a request (contract section 2). First rule that applies wins.
 */
import { firstUserMessage, type CanonicalRequest } from "../canonical/request";
import { apiError, type ApiError } from "../http/errors";
import { closest, shownName } from "../scenario/hints";
import { matchMisses } from "../scenario/matchers";
import { NAME_PATTERN, NAMES_MATCH, RESERVED_SESSIONS } from "../scenario/schema";
import type { ScenarioStore, StoredScenario } from "../scenario/store";
import { header, sessionHeader } from "../http/headers";
import { isThenable, type Awaitable } from "../util/awaitable";

/** What the URL prefix `/s/{scenario}[/{session}]` named, if anything. */
export interface Prefix {
  scenario?: string;
  session?: string;
}

export type Selection =
  | { kind: "scenario"; stored: StoredScenario; session: string; rule: 1 | 2 | 3 | 4 }
  /** Rule 5. `hint`: a first user message that looks like a typo of a scenario name ("did you mean …"). */
  | { kind: "default"; session: string; hint?: string }
  | { kind: "error"; error: ApiError };

export const DEFAULT_SESSION = "default";

function badName(what: string, name: string): Selection {
  return {
    kind: "error",
    error: apiError("invalid_request", `mockllm: invalid ${what} name "${shownName(name)}": ${NAMES_MATCH}`),
  };
}

function checkSession(session: string): Selection | undefined {
  if (!NAME_PATTERN.test(session)) return badName("session", session);
  if ((RESERVED_SESSIONS as readonly string[]).includes(session)) {
    return {
      kind: "error",
      error: apiError("invalid_request", `mockllm: session name "${session}" is reserved (v1, v1beta, api)`),
    };
  }
  return undefined;
}

/**
 * Rules 1 and 2: the scenario named, answered without a promise when the store has it at hand (a turn's lookup on
 * Node, and on a Worker whose isolate has it cached).
 */
function named(store: ScenarioStore, name: string, session: string, rule: 1 | 2): Awaitable<Selection> {
  if (!NAME_PATTERN.test(name)) return badName("scenario", name);
  const bad = checkSession(session);
  if (bad) return bad;
  const found = (stored: StoredScenario | undefined): Awaitable<Selection> => (stored ? { kind: "scenario", stored, session, rule } : notFound(store, name));
  const got = store.get(name);
  return isThenable(got) ? Promise.resolve(got).then(found) : found(got);
}

async function notFound(store: ScenarioStore, name: string): Promise<Selection> {
  const guess = closest(name, await store.names());
  const hint = guess !== undefined ? `; did you mean "${guess}"?` : "";
  return { kind: "error", error: apiError("not_found", `mockllm: scenario "${name}" not found${hint}`) };
}

/**
 * Applies selection rules 1–5; the selection itself, not a promise, when it needs no wait (see `named`).
 * @example const selecting = selectScenario(rt.scenarios, { scenario: "weather" }, request.headers, canonical)
 */
export function selectScenario(store: ScenarioStore, prefix: Prefix, headers: Headers, req: CanonicalRequest): Awaitable<Selection> {
  // Rule 1 straight to the lookup: an async function returning another's promise costs two more turns of the queue.
  if (prefix.scenario !== undefined) return named(store, prefix.scenario, prefix.session ?? DEFAULT_SESSION, 1);
  return selectUnprefixed(store, headers, req);
}

/** Rules 2–5: the request's headers, its first user message, the scenarios' top-level matches, the default. */
async function selectUnprefixed(store: ScenarioStore, headers: Headers, req: CanonicalRequest): Promise<Selection> {
  const headerScenario = header(headers, "x-mock-scenario")?.trim();
  const session = sessionHeader(headers) ?? DEFAULT_SESSION;
  if (headerScenario) return named(store, headerScenario, session, 2);

  const bad = checkSession(session);
  if (bad) return bad;

  const first = firstUserMessage(req)?.trim();
  const nameLike = first !== undefined && NAME_PATTERN.test(first);
  if (nameLike) {
    const stored = await store.get(first);
    if (stored) return { kind: "scenario", stored, session, rule: 3 };
  }

  for (const candidate of await store.candidates()) {
    if (matchMisses(candidate.scenario.match, req).length === 0) {
      return { kind: "scenario", stored: candidate, session, rule: 4 };
    }
  }
  // A first user message one typo away from a scenario name most likely meant to select it (rule 3).
  const guess = nameLike ? closest(first, await store.names()) : undefined;
  return { kind: "default", session, ...(guess !== undefined ? { hint: `did you mean scenario "${guess}"? The first user message "${first}" names no scenario` } : {}) };
}
