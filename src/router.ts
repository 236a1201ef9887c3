/**
 * Routing: strip the `/s/{scenario}[/{session}]` prefix, then what the provider modules declare (src/providers/registry/index.ts:
 * sockets, surfaces, side routes such as model listings and token counts), MCP, admin, health. No provider is named here.
 */
import { echoed } from "./util/text";
import type { RequestContext, Runtime } from "./runtime/types";
import type { ApiError } from "./http/errors";
import { errorSurfaceFor, isOpenProviderPath, isProviderApiPath, SIDE_ROUTES, socketFor, SURFACES, surfaceFor, surfaceOf } from "./providers/registry";
import type { SideRouteContext } from "./providers/types";
import { RESERVED_SESSIONS } from "./scenario/schema";
import { handleAdmin } from "./admin/router";
import { handleMcp, MCP_PATH, mcpRefusal } from "./routes/mcp";
import { inspectorAsset, inspectorPage } from "./routes/inspector";
import { modelIds } from "./routes/models";
import { internalError } from "./routes/internal";
import { prefixNameError } from "./routes/names";
import { failEarly, handleProvider, OUTCOME_ERROR } from "./turn/provider";
import { RequestExec } from "./turn/exec";
import type { Prefix } from "./turn/select";
import { memoized } from "./util/memo";
import { safeDecode, urlParts } from "./http/url";
import { jsonResponse } from "./http/json";
import { gateProvider } from "./tenancy/gate";
import { QuotaError } from "./tenancy/quota";
import { acceptSocket, isWebSocketUpgrade } from "./sockets/accept";
import { Response } from "./http/web";
import type { EphemeralClaims } from "./util/ephemeral";
import { header } from "./http/headers";
import { corsPolicy, isPreflight, preflightAnswer, withCors } from "./http/cors";
import { isThenable } from "./util/awaitable";
import { type BodyBudget, type BodyTicket, BUSY_HEADERS, countedBytes, undeclaredBody } from "./http/body-budget";

const ALL_PATHS = new Set(SURFACES.flatMap((s) => s.paths).concat(SIDE_ROUTES.flatMap((r) => r.paths ?? [])));

/** The query of a request without one, shared (surfaces only read a request's query). */
const NO_QUERY = new URLSearchParams();

const BELOW_PATHS = [...ALL_PATHS].map((known) => `${known}/`);

/**
 * A known route path, or a path below one (`/responses/{id}`, `/v1/models/{id}`). A fixed function of the path, asked
 * by every request under a session prefix with the same few paths (`/{session}/v1/chat/completions`): memoised.
 */
const isRoutePath = memoized(
  (path) =>
    ALL_PATHS.has(path) || BELOW_PATHS.some((below) => path.startsWith(below)) || surfaceFor(path) !== undefined || SIDE_ROUTES.some((r) => r.knows?.(path) === true) || socketFor(path) !== undefined,
);

/**
 * Whether `restPath` (below `/s/{scenario}`) is below a provider's API prefix (Azure's `/openai/`, Bedrock's `/model/`)
 * and what would follow a session taken from its first segment is no route either: an unknown path of that API
 * (`/s/x/openai/nope`), refused in its shape, not a session named `openai` asking for `/nope`. A session of that name
 * still serves every known route (`/s/x/openai/v1/messages`).
 */
function unknownBelowApi(restPath: string, cut: number): boolean {
  if (cut < 0 || !isProviderApiPath(restPath)) return false;
  const afterSession = restPath.slice(cut);
  return !isRoutePath(afterSession) && afterSession !== MCP_PATH;
}

/**
 * Splits `/s/{scenario}[/{session}]/rest` into the prefix and the rest. Reserved session names
 * (`v1`, `v1beta`, `api`) and known route paths are never taken for a session.
 */
export function splitPrefix(pathname: string): { prefix: Prefix; path: string; root: boolean } {
  // Empty segments count for nothing (`/s//demo/` is `/s/demo`): the rare path that has them is collapsed first.
  const clean =
    pathname.includes("//") || (pathname.length > 1 && pathname.endsWith("/"))
      ? `/${pathname
          .split("/")
          .filter((s) => s !== "")
          .join("/")}`
      : pathname;
  if (!clean.startsWith("/s/")) return { prefix: {}, path: pathname, root: false };
  const end = clean.indexOf("/", 3);
  const scenario = safeDecode(end < 0 ? clean.slice(3) : clean.slice(3, end));
  if (end < 0) return { prefix: { scenario }, path: "/", root: true };
  const restPath = clean.slice(end);
  const cut = restPath.indexOf("/", 1);
  const candidate = cut < 0 ? restPath.slice(1) : restPath.slice(1, cut);
  const takeSession = !(RESERVED_SESSIONS as readonly string[]).includes(candidate) && !isRoutePath(restPath) && restPath !== MCP_PATH && !unknownBelowApi(restPath, cut);
  if (takeSession) return { prefix: { scenario, session: safeDecode(candidate) }, path: cut < 0 ? "/" : restPath.slice(cut), root: cut < 0 };
  return { prefix: { scenario }, path: restPath, root: false };
}

/** Routes that take no API key: health, the inspector's files, the base-URL probe, admin (which checks its own). */
function isOpenPath(pathname: string): boolean {
  if (pathname === "/" || pathname === "/healthz" || pathname === "/admin") return true;
  return pathname.startsWith("/admin/") || pathname.startsWith("/inspector/") || isOpenProviderPath(pathname);
}

/**
 * A request refused before any route ran (the namespace gate, a quota, a bad name in the `/s/…` prefix), in the shape of what its path speaks, wherever
 * its credential came from: JSON-RPC on MCP, a socket protocol's own (Gemini Live's key comes as `?key=`), else the
 * path's surface.
 */
function refusal(request: Request, error: ApiError, headers: Record<string, string>, path = splitPrefix(new URL(request.url).pathname).path): Response {
  if (path === MCP_PATH) return mcpRefusal(error, headers);
  const surface = socketFor(path)?.surface ?? errorSurfaceFor(request, path);
  return failEarly(surface, error, headers);
}

/** The route a client meant when its base URL already ended in `/v1` and the SDK added another (Anthropic's does). */
function doubledV1Hint(path: string): string {
  if (!path.startsWith("/v1/v1/")) return "";
  const meant = path.slice("/v1".length);
  if (surfaceFor(meant) === undefined && !meant.startsWith("/v1/models")) return "";
  return " The path has /v1 twice: drop /v1 from the base URL — the Anthropic SDK and CLI agents add it themselves (base URL http://host or http://host/s/{scenario}/{session}).";
}

/**
 * Serves one request on either runtime and logs it (one structured line) when the runtime keeps a log.
 * @example return route(request, workersRuntime(env), ctx)
 */
export function route(request: Request, rt: Runtime, ctx: RequestContext): Promise<Response> {
  // Not an async function that returns another's promise (two more turns of the microtask queue a request).
  return rt.log ? logged(request, rt, rt.log, ctx) : answer(request, rt, ctx);
}

async function logged(request: Request, rt: Runtime, log: NonNullable<Runtime["log"]>, ctx: RequestContext): Promise<Response> {
  const arrived = Date.now();
  const res = await answer(request, rt, ctx);
  const h = res.headers;
  const field = (name: string, header: string) => {
    const v = h.get(header);
    return v === null ? {} : { [name]: v };
  };
  log({
    method: request.method,
    path: new URL(request.url).pathname,
    status: res.status,
    ...field("outcome", "x-mockllm-outcome"),
    ...field("scenario", "x-mockllm-scenario"),
    ...field("session", "x-mockllm-session"),
    ...field("step", "x-mockllm-step"),
    ms: Date.now() - arrived,
  });
  return res;
}

/** A request without `Origin` (every server-side client) goes straight on; a browser's is answered with CORS (src/http/cors.ts). */
function answer(request: Request, rt: Runtime, ctx: RequestContext): Promise<Response> {
  const origin = header(request.headers, "origin");
  return origin === undefined ? dispatch(request, rt, ctx) : crossOrigin(request, origin, rt, ctx);
}

/** A browser's request: its preflight answered before any credential is asked for, every other answer given CORS headers. */
async function crossOrigin(request: Request, origin: string, rt: Runtime, ctx: RequestContext): Promise<Response> {
  const policy = corsPolicy(rt.vars.CORS_ORIGINS);
  if (isPreflight(request)) return preflightAnswer(request, origin, policy);
  let res: Response;
  try {
    res = await dispatch(request, rt, ctx);
  } catch (e) {
    res = internalError(e);
  }
  return withCors(res, origin, policy);
}

/**
 * Namespaces first (src/tenancy/gate.ts): a namespace key selects a namespace-scoped runtime, so every route below
 * reaches only that namespace's scenarios and sessions; without one, the request runs as before in `default`.
 */
function dispatch(request: Request, rt: Runtime, ctx: RequestContext): Promise<Response> {
  if (rt.bodies !== undefined) {
    const bytes = countedBytes(request);
    if (bytes > 0) return budgeted(request, rt, ctx, rt.bodies, bytes);
    if (undeclaredBody(request)) return measured(request, rt, ctx, rt.bodies);
  }
  return admitted(request, rt, ctx);
}

/** The request past the body budget: through the namespace gate when there are namespaces. */
function admitted(request: Request, rt: Runtime, ctx: RequestContext): Promise<Response> {
  return rt.tenancy ? gated(request, rt, ctx) : serve(request, rt, ctx);
}

/** A large body, served within the runtime's budget (src/http/body-budget.ts) and refused unread past it. */
async function budgeted(request: Request, rt: Runtime, ctx: RequestContext, bodies: BodyBudget, bytes: number): Promise<Response> {
  if (!bodies.take(bytes)) return refusal(request, bodies.refusal(bytes), BUSY_HEADERS);
  try {
    return await admitted(request, rt, ctx);
  } finally {
    bodies.release(bytes);
  }
}

/**
 * A body of unknown length, counted against the budget as it is read; refused where it passes it, whatever the route
 * made of the body that broke off there (src/http/body-budget.ts `counter`).
 */
async function measured(request: Request, rt: Runtime, ctx: RequestContext, bodies: BodyBudget): Promise<Response> {
  const ticket: BodyTicket = { held: 0, seen: 0, refused: false };
  const counted = new Request(request, { body: request.body!.pipeThrough(bodies.counter(ticket)), duplex: "half" } as RequestInit);
  try {
    // What the route made of a body broken off by the budget (an answer or an exception) gives way to the refusal.
    const res = await admitted(counted, rt, ctx).catch((e: unknown) => {
      if (ticket.refused) return undefined;
      throw e;
    });
    return ticket.refused || res === undefined ? refusal(request, bodies.refusal(ticket.seen, ticket), BUSY_HEADERS) : res;
  } finally {
    bodies.release(ticket.held);
  }
}

function gated(request: Request, rt: Runtime, ctx: RequestContext): Promise<Response> {
  let gating: ReturnType<typeof gateProvider>;
  try {
    gating = gateProvider(request, rt, () => isOpenPath(new URL(request.url).pathname));
  } catch (e) {
    return Promise.reject(e);
  }
  // No key to look up (the usual request): served at once, its promise answered as it is (see `serve`).
  if (!isThenable(gating) && gating.ok && gating.rt === rt && gating.ephemeral === undefined) return serve(request, rt, ctx);
  return gatedLater(request, rt, ctx, gating);
}

async function gatedLater(request: Request, rt: Runtime, ctx: RequestContext, gating: ReturnType<typeof gateProvider>): Promise<Response> {
  const gate = isThenable(gating) ? await gating : gating;
  if (!gate.ok) return refusal(request, gate.error, gate.headers);
  // Awaited, not returned: an async function resolved with another's promise takes two more turns of the queue.
  if (gate.rt === rt && gate.ephemeral === undefined) return await serve(request, rt, ctx);
  try {
    return await serve(request, gate.rt, ctx, gate.ephemeral);
  } catch (e) {
    if (!(e instanceof QuotaError)) throw e;
    return refusal(request, e.apiError(), e.headers());
  }
}

/** The scenario and session an ephemeral key is bound to, over whatever prefix the socket's URL has. */
function ephemeralPrefix(asked: Prefix, claims: EphemeralClaims): Prefix {
  if (claims.scenario === undefined) return asked;
  return { scenario: claims.scenario, ...(claims.session !== undefined ? { session: claims.session } : {}) };
}

/** The first provider side route (model listings, token counts, stored responses, …) that answers, if any. */
async function sideRoute(request: Request, path: string, rt: Runtime, local: (request: Request) => Promise<Response>, prefix?: Prefix, onSurfacePath = false): Promise<Response | undefined> {
  const ctx: SideRouteContext = {
    rt,
    prefix,
    modelIds: () => modelIds(rt),
    refuse: (error) => failEarly(errorSurfaceFor(request, path), error),
    local,
  };
  for (const route of SIDE_ROUTES) {
    if (onSurfacePath && route.onSurfacePaths !== true) continue;
    const res = await route.serve(request, path, ctx);
    if (res) return res;
  }
  return undefined;
}

/** Where a request goes: its path below the prefix, and what the prefix named. */
interface Routed {
  pathname: string;
  search: string;
  asked: Prefix;
  path: string;
  root: boolean;
}

/**
 * Serves one request (past the namespace gate). A provider's turn, the common request, is handed straight to
 * `handleProvider` and its promise answered as it is: through an async function it made two more promises a request,
 * each a turn of the microtask queue.
 */
function serve(request: Request, rt: Runtime, ctx: RequestContext, ephemeral?: EphemeralClaims): Promise<Response> {
  try {
    const { pathname, search } = urlParts(request.url);
    const { prefix: asked, path, root } = splitPrefix(pathname);
    if (ephemeral === undefined && request.method === "POST" && path !== MCP_PATH) {
      const surface = surfaceOf(request, path);
      if (surface !== undefined && prefixNameError(asked) === undefined) return providerTurn(surface, request, rt, ctx, asked, path, search);
    }
    return serveRouted(request, rt, ctx, ephemeral, { pathname, search, asked, path, root });
  } catch (e) {
    // Failed as the async function it was did: a rejected promise, never a throw.
    return Promise.reject(e);
  }
}

function providerTurn(surface: NonNullable<ReturnType<typeof surfaceFor>>, request: Request, rt: Runtime, ctx: RequestContext, prefix: Prefix, path: string, search: string): Promise<Response> {
  const exec = new RequestExec(request, ctx, Date.now());
  return handleProvider(surface, request, rt, exec, prefix, { path, query: search === "" ? NO_QUERY : new URLSearchParams(search), url: request.url, local: (r) => serve(r, rt, ctx) });
}

async function serveRouted(request: Request, rt: Runtime, ctx: RequestContext, ephemeral: EphemeralClaims | undefined, routed: Routed): Promise<Response> {
  const { pathname, asked, path, root } = routed;
  // An ephemeral key opens only the socket it was minted for, on the scenario and session it is bound to.
  const prefix = ephemeral === undefined ? asked : ephemeralPrefix(asked, ephemeral);
  if (ephemeral !== undefined && !(socketFor(path)?.kind === ephemeral.kind && isWebSocketUpgrade(request))) {
    return refusal(request, { code: "authentication", message: "mockllm: an ephemeral key only opens the WebSocket it was minted for" }, OUTCOME_ERROR, path);
  }
  const exec = new RequestExec(request, ctx, Date.now());
  const badName = prefixNameError(prefix);
  // In the shape of what the path speaks, as a refused credential is: JSON-RPC on MCP, a socket protocol's own.
  if (badName) return refusal(request, badName, OUTCOME_ERROR, path);

  const socket = socketFor(path);
  if (socket !== undefined && isWebSocketUpgrade(request)) return acceptSocket(request, rt, socket, prefix, path, ephemeral?.config);
  if (path === MCP_PATH) return handleMcp(request, rt, exec, prefix);
  const surface = surfaceOf(request, path);
  if (surface) {
    if (request.method !== "POST") {
      // A side route may answer another method on a surface's path (`GET /v1/chat/completions` lists stored ones).
      const side = await sideRoute(request, path, rt, (r) => serve(r, rt, ctx), undefined, true);
      if (side) return side;
      return failEarly(surface, { code: "method_not_allowed", message: `Use POST for ${path}.` });
    }
    return await providerTurn(surface, request, rt, ctx, prefix, path, routed.search);
  }
  const side = await sideRoute(request, path, rt, (r) => serve(r, rt, ctx), prefix);
  if (side) return side;
  if (prefix.scenario !== undefined && root && (request.method === "GET" || request.method === "HEAD")) {
    return jsonResponse({ ok: true, scenario: prefix.scenario, session: prefix.session ?? "default" });
  }
  if (prefix.scenario === undefined) {
    if (path === "/healthz") return jsonResponse({ ok: true, service: "mockllm" });
    if (path === "/" && request.method === "GET") return inspectorPage();
    if (request.method === "GET" && path.startsWith("/inspector/")) return inspectorAsset(path) ?? jsonResponse({ error: { message: `not found: GET ${echoed(path)}` } }, 404);
    // Clients probe the base URL at start-up (Claude Code sends HEAD /).
    if (path === "/" && request.method === "HEAD") return new Response(null, { status: 200 });
    if (path === "/admin" || path.startsWith("/admin/")) return handleAdmin(request, rt, ctx);
  }
  if (isProviderApiPath(path) || prefix.scenario !== undefined) {
    // The path quoted as other client values are: whole up to 64 characters, else its start.
    const error = { code: "not_found", message: `Unknown request URL: ${request.method} ${echoed(pathname)}.${doubledV1Hint(path)}` } as const;
    return failEarly(errorSurfaceFor(request, path), error);
  }
  return jsonResponse({ error: { message: `not found: ${request.method} ${echoed(pathname)}` } }, 404);
}
