/**
 * The one handler behind every provider surface:
 * headers check → strict JSON body → parse → scenario selection → session → render.
 */
import type { Exec, Runtime } from "../runtime/types";
import { journalBody, journalsWhole, redactHeaders } from "../http/body";
import type { ApiError } from "../http/errors";
import type { ProviderSurface, RequestTarget } from "../providers/types";
import { recordThrough } from "./record";
import { deliveredReply, errorResponse, renderOutcome, surfaceRequestId } from "./render";
import type { Prefix } from "./select";
import { traceCall } from "./otel";
import { fillMcpResults, mcpOptions, needsMcpResults } from "./mcp-client";
import { decideTurn, uniqueSeed, type TurnInput } from "./turn";
import { resolveSurface } from "../providers/surface";
import { isThenable } from "../util/awaitable";

export { uniqueSeed, wordsPerSecond } from "./turn";

/** The outcome header of answers given before any scenario decided anything (bad request, auth, unknown scenario). */
export const OUTCOME_ERROR = { "x-mockllm-outcome": "error" } as const;

/**
 * An error answered before any session is involved (the router's refusals too): an id of its own, as real ones get;
 * scripted answers' ids are deterministic (see decideTurn).
 */
export function failEarly<W>(surface: ProviderSurface<W>, error: ApiError, headers: Record<string, string> = OUTCOME_ERROR): Response {
  return errorResponse(surface, error, surfaceRequestId(surface, uniqueSeed()), headers);
}

/**
 * Serves one provider request.
 * @example handleProvider(openaiChat, request, rt, exec, { scenario: "weather", session: "run-1" })
 */
export async function handleProvider<W>(declared: ProviderSurface<W>, request: Request, rt: Runtime, exec: Exec, prefix: Prefix, target: RequestTarget): Promise<Response> {
  const surface = resolveSurface(declared);
  const headerError = surface.checkHeaders(request.headers, target);
  if (headerError) return failEarly(surface, headerError);
  const body = await surface.readBody(request, target);
  if (!body.ok) return failEarly(surface, body.error);
  const first = surface.parse(body.value, request.headers, target);
  if (!first.ok) return failEarly(surface, first.error);
  // A hook's promise is awaited, its value taken as it is: a JSON turn made some forty promises, and every one kept
  // off the path is a microtask and an allocation less (docs/decisions/performance-history.md, wave 17).
  const prepared = surface.prepare(first.wire, first.request, rt);
  const parsed = isThenable(prepared) ? await prepared : prepared;
  if (!parsed.ok) return failEarly(surface, parsed.error);

  let journaled: ReturnType<TurnInput["wire"]> | undefined;
  const wire = () => (journaled ??= { method: request.method, path: target.path, headers: redactHeaders(request.headers), body: journalBody(body.text, body.value) });
  const turn = await decideTurn(surface, rt, parsed, {
    prefix,
    headers: request.headers,
    wire,
    bodyText: body.text,
    ...(journalsWhole(body.text) ? { wireText: body.text } : {}),
    allowProxy: body.summary !== true,
  });
  if (turn.kind === "error") return failEarly(surface, turn.error, turn.headers);
  if (turn.kind === "proxy") {
    const { stored, session, stub, result, upstream } = turn;
    const extra = { "x-mockllm-scenario": stored.name, "x-mockllm-session": session, "x-mockllm-version": result.version, "x-mockllm-outcome": "proxied" };
    const proxy = { request, bodyText: body.text, path: target.path, canonical: parsed.request, wire: wire(), session: stub, upstream, exec, extra };
    return recordThrough(surface, { ...proxy, requestId: surfaceRequestId(surface, uniqueSeed()) });
  }
  // OpenTelemetry: the span ends when the answer's body is done (src/turn/otel.ts).
  const traced = rt.vars.OTEL_EXPORTER_OTLP_ENDPOINT || rt.vars.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT ? traceCall(rt.vars, exec, parsed.request, request.headers.get("traceparent")) : undefined;
  // A scripted `mcp` use without its result: the mock calls the server the request names (src/turn/mcp-client.ts).
  if (needsMcpResults(surface, turn.outcome)) turn.outcome = await fillMcpResults(surface, turn.outcome, turn.ctx.wire, () => mcpOptions(rt.vars, target.url, target.local));
  const delivered = deliveredReply(turn.outcome);
  if (delivered) {
    const remembered = surface.remember(delivered, turn.ctx, rt);
    if (isThenable(remembered)) await remembered;
  }
  // A failure the surface reports later (a background response failing as it runs) is answered as accepted.
  const o = turn.outcome;
  if (!delivered && o.kind === "failure" && (await surface.rememberFailure(o.failure, o.reply, turn.ctx, rt))) {
    const accepted = await renderOutcome(surface, { kind: "reply", reply: o.reply }, turn.ctx, traced?.exec ?? exec, turn.headers);
    traced?.answered(accepted, turn.outcome, turn.headers["x-mockllm-outcome"] ?? "response");
    return accepted;
  }
  if (!traced) return renderOutcome(surface, turn.outcome, turn.ctx, exec, turn.headers);
  const res = await renderOutcome(surface, turn.outcome, turn.ctx, traced.exec, turn.headers);
  traced.answered(res, turn.outcome, turn.headers["x-mockllm-outcome"] ?? "response");
  return res;
}
