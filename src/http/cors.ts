/**
 * CORS at the edge, for every route alike (contract section 11): a browser page on another origin may call any
 * surface, the admin API and the inspector's routes. `route()` (src/router.ts) asks only when a request carries an
 * `Origin` header — SDKs on servers send none, so their requests cost nothing here.
 *
 * - A preflight (`OPTIONS` with `Access-Control-Request-Method`) answers 204 with the allowed origin, the methods, the
 *   headers asked for and a max-age, before any credential is looked at (a preflight carries none).
 * - Every other answer to an allowed origin carries `access-control-allow-origin` and exposes every header it has
 *   that is not CORS-safelisted (request ids, `retry-after`, `x-ratelimit-*`, `anthropic-ratelimit-*`, `x-mockllm-*`,
 *   …), so a page reads what a server-side client reads.
 * - Allowed origins come from `CORS_ORIGINS` (`mockllm serve --cors-origins`): `*` (any origin; answered as `*`, which
 *   the Fetch standard accepts for requests without credentials, as the SDKs send them), or a comma list of origins
 *   (`https://app.example.com`, `http://localhost:5173`, `https://*.pages.dev` for any subdomain), echoed with
 *   `vary: origin`. Unset (a deployed Worker's default): no origin; a preflight then answers 403 naming the setting.
 *   An actual request from an origin not allowed is served as before, without CORS headers (the browser keeps the
 *   answer from the page; same-origin requests, such as the inspector's own, need none).
 */
import { Response } from "./web";

export interface CorsPolicy {
  /** `*`: every origin. */
  any: boolean;
  /** Exact origins, lower-cased, without a trailing slash. */
  exact: ReadonlySet<string>;
  /** `scheme://*.host[:port]` entries: any subdomain of the host. */
  suffixes: readonly { scheme: string; suffix: string }[];
}

/** Methods any route may be called with. */
export const CORS_METHODS = "GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS";

/** Seconds a browser may cache a preflight (Chromium caps this at 7,200, Firefox at 86,400). */
export const CORS_MAX_AGE = "86400";

/** Response headers a page may read without being listed (the CORS-safelisted response headers). */
const SAFELISTED = new Set(["cache-control", "content-language", "content-length", "content-type", "expires", "last-modified", "pragma"]);

/** Never exposed: the Fetch standard forbids the cookies; `vary` is for caches, not pages. */
const FORBIDDEN = new Set(["set-cookie", "set-cookie2", "vary"]);

/** A header-name list as `Access-Control-Request-Headers` carries it (token characters, commas, spaces). */
const HEADER_LIST = /^[!#$%&'*+\-.^_`|~0-9A-Za-z ,\t]*$/;

/** The longest `Access-Control-Request-Headers` echoed back. */
const MAX_REQUEST_HEADERS = 8192;

let cached: { setting: string | undefined; policy: CorsPolicy } | undefined;

/**
 * The policy a `CORS_ORIGINS` value sets (memoised on the last value: one runtime's vars are read per request).
 * @example corsPolicy("https://app.example.com, http://localhost:5173")
 */
export function corsPolicy(setting: string | undefined): CorsPolicy {
  if (cached !== undefined && cached.setting === setting) return cached.policy;
  const entries = (setting ?? "")
    .split(",")
    .map((s) => s.trim().toLowerCase().replace(/\/+$/, ""))
    .filter((s) => s !== "");
  const exact = new Set<string>();
  const suffixes: { scheme: string; suffix: string }[] = [];
  let any = false;
  for (const entry of entries) {
    if (entry === "*") any = true;
    else {
      const star = /^([a-z][a-z0-9+.-]*:\/\/)\*(\..+)$/.exec(entry);
      if (star) suffixes.push({ scheme: star[1]!, suffix: star[2]! });
      else exact.add(entry);
    }
  }
  const policy = { any, exact, suffixes };
  cached = { setting, policy };
  return policy;
}

/** Whether `origin` (an `Origin` header's value) may read answers. */
export function originAllowed(policy: CorsPolicy, origin: string): boolean {
  if (policy.any) return true;
  const o = origin.toLowerCase();
  if (policy.exact.has(o)) return true;
  return policy.suffixes.some((s) => o.startsWith(s.scheme) && o.endsWith(s.suffix) && o.length > s.scheme.length + s.suffix.length && !o.slice(s.scheme.length, -s.suffix.length).includes("/"));
}

/** Whether a request is a CORS preflight. */
export function isPreflight(request: Request): boolean {
  return request.method === "OPTIONS" && request.headers.get("access-control-request-method") !== null;
}

/**
 * The answer to a preflight from `origin`: 204 with what the browser asked for when the origin is allowed, else 403
 * with a body naming the setting (the browser shows the status; a developer reading it learns what to set).
 */
export function preflightAnswer(request: Request, origin: string, policy: CorsPolicy): Response {
  if (!originAllowed(policy, origin)) {
    const configured = policy.exact.size > 0 || policy.suffixes.length > 0;
    const message =
      `mockllm: origin ${origin.slice(0, 200)} is not allowed to call this server from a browser. ` +
      (configured ? "Add it to CORS_ORIGINS" : "CORS_ORIGINS is not set, so no origin is") +
      " — set the Worker variable CORS_ORIGINS (mockllm serve: --cors-origins) to a comma list of origins, or * for any.";
    return new Response(JSON.stringify({ error: { type: "cors_origin_not_allowed", message } }), {
      status: 403,
      headers: { "content-type": "application/json", vary: "origin" },
    });
  }
  const headers: Record<string, string> = {
    "access-control-allow-origin": policy.any ? "*" : origin,
    "access-control-allow-methods": CORS_METHODS,
    "access-control-max-age": CORS_MAX_AGE,
    vary: policy.any ? "access-control-request-headers" : "origin, access-control-request-headers",
  };
  const asked = request.headers.get("access-control-request-headers");
  if (asked !== null && asked.length <= MAX_REQUEST_HEADERS && HEADER_LIST.test(asked)) {
    const names = asked
      .split(",")
      .map((s) => s.trim().toLowerCase())
      .filter((s) => s !== "");
    if (names.length > 0) headers["access-control-allow-headers"] = names.join(", ");
  }
  return new Response(null, { status: 204, headers });
}

/**
 * `res` with the CORS headers an allowed `origin` reads it with: the origin, and every header of the answer a page
 * could not read otherwise. A WebSocket's 101 is left as it is (browsers apply no CORS to sockets). Headers of an
 * answer that cannot be changed (a proxied upstream's) are copied into a new Response.
 */
export function withCors(res: Response, origin: string, policy: CorsPolicy): Response {
  if (res.status === 101 || !originAllowed(policy, origin)) return res;
  const exposed: string[] = [];
  res.headers.forEach((_value, name) => {
    const n = name.toLowerCase();
    if (!SAFELISTED.has(n) && !FORBIDDEN.has(n) && !n.startsWith("access-control-")) exposed.push(n);
  });
  let out = res;
  try {
    setCors(out.headers, origin, policy, exposed);
  } catch {
    out = new Response(res.body, { status: res.status, statusText: res.statusText, headers: res.headers });
    setCors(out.headers, origin, policy, exposed);
  }
  return out;
}

function setCors(headers: Headers, origin: string, policy: CorsPolicy, exposed: string[]): void {
  headers.set("access-control-allow-origin", policy.any ? "*" : origin);
  if (exposed.length > 0) headers.set("access-control-expose-headers", exposed.join(", "));
  if (!policy.any) {
    const vary = headers.get("vary");
    if (vary === null) headers.set("vary", "origin");
    else if (!/(^|,)\s*origin\s*(,|$)/i.test(vary)) headers.set("vary", `${vary}, origin`);
  }
}
