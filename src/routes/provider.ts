/**
 * The one handler behind every provider surface:
 * headers check → strict JSON body → parse → scenario selection → session → render.
 */
import type { Outcome } from "../canonical/outcome";
import { defaultCreated, defaultReply } from "../default/responder";
import type { Runtime } from "../runtime/types";
import { journalBody, readJsonBody, redactHeaders } from "../http/body";
import { apiError, type ApiError } from "../http/errors";
import { noteSession } from "../session/session-index";
import { stableHash } from "../http/hash";
import type { NextInput } from "../session/core";
import type { ProviderSurface, RenderContext, RequestTarget } from "../providers/types";
import { recordThrough, upstreamFor } from "./record";
import { deliveredReply, errorResponse, renderOutcome, surfaceRequestId, type Exec } from "./render";
import { selectScenario, type Prefix } from "./select";

const statusTables = new WeakMap<ProviderSurface<any>, Record<string, number>>();

/** Status each outcome kind gets on this surface, for the journal (worked out once per surface). */
function statusTable<W>(surface: ProviderSurface<W>): Record<string, number> {
  let table = statusTables.get(surface);
  if (!table) {
    const status = (code: ApiError["code"]) => surface.renderError({ code, message: "" }, "").status;
    table = {
      mismatch: status("mismatch"),
      rate_limit: status("rate_limit"),
      overloaded: status("overloaded"),
      model_error: status("model_error"),
    };
    statusTables.set(surface, table);
  }
  return table;
}

/** The outcome header of answers given before any scenario decided anything (bad request, auth, unknown scenario). */
export const OUTCOME_ERROR = { "x-mockllm-outcome": "error" } as const;

/** A seed no other request shares, for the ids of errors answered before a session is involved. */
export function uniqueSeed(): string {
  return crypto.randomUUID();
}

function defaultResponderOff(rt: Runtime): boolean {
  return rt.vars.DEFAULT_RESPONDER?.trim().toLowerCase() === "off";
}

/** Most scenario names listed in the default-responder-off 404. */
const LISTED_NAMES = 20;

/** DEFAULT_RESPONDER=off: the 404 for a request no rule selected, listing what could have matched. */
async function noScenarioSelected(rt: Runtime, hint: string | undefined): Promise<ApiError> {
  const names = await rt.scenarios.names();
  const auto = (await rt.scenarios.candidates()).map((s) => s.name);
  const shown = names.slice(0, LISTED_NAMES).join(", ") + (names.length > LISTED_NAMES ? ` and ${names.length - LISTED_NAMES} more` : "");
  return apiError(
    "not_found",
    [
      "mockllm: no scenario selected this request and the default responder is off (DEFAULT_RESPONDER=off).",
      ...(hint !== undefined ? [`${hint[0]!.toUpperCase()}${hint.slice(1)}.`] : []),
      "Select a scenario with the /s/{scenario}/{session} prefix in the base URL, the x-mock-scenario header, or a first user message equal to its name.",
      `Scenarios: ${shown || "none"}.`,
      auto.length > 0 ? `Scenarios whose top-level match was tried and did not hold: ${auto.join(", ")}.` : "",
    ]
      .filter((l) => l !== "")
      .join(" "),
  );
}

export function wordsPerSecond(rt: Runtime): number {
  const n = Number(rt.vars.DEFAULT_WORDS_PER_SECOND ?? "50");
  return Number.isFinite(n) && n >= 0 ? n : 50;
}

/**
 * Serves one provider request.
 * @example handleProvider(openaiChat, request, rt, exec, { scenario: "weather", session: "run-1" })
 */
export async function handleProvider<W>(
  surface: ProviderSurface<W>,
  request: Request,
  rt: Runtime,
  exec: Exec,
  prefix: Prefix,
  target: RequestTarget,
): Promise<Response> {
  const newRequestId = (seed: string) => surfaceRequestId(surface, seed);
  // An error answered before any session is involved gets an id of its own, as real ones do; scripted answers'
  // ids are deterministic (below).
  const fail = (error: ApiError) => errorResponse(surface, error, newRequestId(uniqueSeed()), OUTCOME_ERROR);

  const headerError = surface.checkHeaders(request.headers, target);
  if (headerError) return fail(headerError);
  const body = await readJsonBody(request, { anyContentType: surface.anyContentType === true });
  if (!body.ok) return fail(body.error);
  const first = surface.parse(body.value, request.headers, target);
  if (!first.ok) return fail(first.error);
  const parsed = surface.prepare ? await surface.prepare(first.wire, first.request, rt) : first;
  if (!parsed.ok) return fail(parsed.error);

  const selection = await selectScenario(rt.scenarios, prefix, request.headers, parsed.request);
  if (selection.kind === "error") return fail(selection.error);
  if (selection.kind === "default" && defaultResponderOff(rt)) {
    return fail(await noScenarioSelected(rt, selection.hint));
  }

  const scenario = selection.kind === "scenario" ? selection.stored.scenario : undefined;
  const invalid = surface.validate?.(parsed.wire, parsed.request, scenario);
  if (invalid) return fail(invalid);

  let outcome: Outcome;
  let requestId: string;
  let created = Math.floor(Date.now() / 1000);
  const extra: Record<string, string> = {};
  if (selection.kind === "scenario") {
    const { stored, session } = selection;
    const stub = rt.sessions.get(`${stored.name}/${session}`);
    const wire = { method: request.method, path: target.path, headers: redactHeaders(request.headers), body: journalBody(body.text, body.value) };
    const upstream = upstreamFor(stored.scenario, surface.provider);
    const input: NextInput = {
      scenario: stored.name,
      session,
      version: stored.version,
      request: parsed.request,
      wire,
      statuses: statusTable(surface),
      ...(upstream !== undefined ? { record: true } : {}),
    };
    let result = await stub.next(input);
    if ("needsDocument" in result) result = await stub.next({ ...input, document: stored.scenario });
    if ("needsDocument" in result) throw new Error("mockllm: the session asked for the scenario document twice");
    if (result.proxy && upstream !== undefined) {
      const extra = { "x-mockllm-scenario": stored.name, "x-mockllm-session": session, "x-mockllm-version": result.version, "x-mockllm-outcome": "proxied" };
      const proxy = { request, bodyText: body.text, path: target.path, canonical: parsed.request, wire, session: stub, upstream, exec, extra };
      return recordThrough(surface, { ...proxy, requestId: newRequestId(uniqueSeed()) });
    }
    await noteSession(rt.sessions, stored.name, session, result.seq);
    outcome = result.outcome;
    requestId = newRequestId(`${stored.name}/${session}/${result.seq}`);
    Object.assign(extra, {
      "x-mockllm-scenario": stored.name,
      "x-mockllm-session": session,
      "x-mockllm-version": result.version,
      ...(result.step !== undefined ? { "x-mockllm-step": result.step } : {}),
      "x-mockllm-outcome": result.journaled,
    });
  } else {
    outcome = { kind: "reply", reply: defaultReply(parsed.request, { wordsPerSecond: wordsPerSecond(rt) }) };
    requestId = newRequestId(`default/${stableHash(body.text)}`);
    created = defaultCreated(parsed.request);
    extra["x-mockllm-outcome"] = "default";
    if (selection.hint !== undefined) extra["x-mockllm-hint"] = selection.hint;
  }

  const ctx: RenderContext<W> = {
    wire: parsed.wire,
    request: parsed.request,
    requestId,
    created,
    ...(selection.kind === "scenario" ? { scenario: selection.stored.name } : {}),
    session: selection.session,
  };
  const delivered = deliveredReply(outcome);
  if (delivered && surface.remember) await surface.remember(delivered, ctx, rt);
  return renderOutcome(surface, outcome, ctx, exec, extra);
}
