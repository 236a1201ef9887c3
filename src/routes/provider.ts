/**
 * The one handler behind every provider surface:
 * headers check → strict JSON body → parse → scenario selection → session → render.
 */
import type { Outcome } from "../canonical/outcome";
import { defaultCreated, defaultReply } from "../default/responder";
import type { Runtime } from "../runtime/types";
import { journalBody, readJsonBody, redactHeaders } from "../http/body";
import type { ApiError } from "../http/errors";
import { stableHash } from "../http/hash";
import { makeRequestId } from "../http/ids";
import type { ProviderSurface, RenderContext, RequestTarget } from "../providers/types";
import { recordThrough, upstreamFor } from "./record";
import { deliveredReply, errorResponse, renderOutcome, type Exec } from "./render";
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
  const earlyId = makeRequestId(`${request.method} ${request.url} ${request.headers.get("x-stainless-retry-count") ?? ""}`);
  const fail = (error: ApiError, id = earlyId) => errorResponse(surface, error, id);

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
    const result = await stub.next({
      scenario: stored.name,
      session,
      version: stored.version,
      document: stored.scenario,
      request: parsed.request,
      wire,
      statuses: statusTable(surface),
      ...(upstream !== undefined ? { record: true } : {}),
    });
    if (result.proxy && upstream !== undefined) {
      const extra = { "x-mockllm-scenario": stored.name, "x-mockllm-session": session, "x-mockllm-version": result.version };
      const proxy = { request, bodyText: body.text, path: target.path, canonical: parsed.request, wire, session: stub, upstream, exec, extra };
      return recordThrough(surface, { ...proxy, requestId: earlyId });
    }
    outcome = result.outcome;
    requestId = makeRequestId(`${stored.name}/${session}/${result.seq}`);
    Object.assign(extra, {
      "x-mockllm-scenario": stored.name,
      "x-mockllm-session": session,
      "x-mockllm-version": result.version,
      ...(result.step !== undefined ? { "x-mockllm-step": result.step } : {}),
    });
  } else {
    outcome = { kind: "reply", reply: defaultReply(parsed.request, { wordsPerSecond: wordsPerSecond(rt) }) };
    requestId = makeRequestId(`default/${stableHash(body.text)}`);
    created = defaultCreated(parsed.request);
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
