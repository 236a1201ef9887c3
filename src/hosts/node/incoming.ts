/**
 * The Fetch `Request` for a request node:http (or node:http2's compatibility layer) parsed: its method and absolute
 * URL worked out as a browser-grade parser would (a host header checked, `..` segments resolved), its headers and
 * body left to be read when asked (./web.ts), its abort signal tied to the client's disconnect when first read.
 */
import type { IncomingMessage } from "node:http";
import type { Http2ServerRequest } from "node:http2";
import type { Outgoing } from "./respond";
import { LightRequest } from "./web";

/** A request the URL of which cannot be made (no host, a malformed target): answered 400 with no body. */
export class BadRequestTarget extends Error {}

const VALID_PATH = /^\/[!#$&-;=?-[\]_a-z~]*$/;
const DOT_SEGMENT = /\/\.\.?(?:[/?#]|$)/;
const VALID_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/;
const KNOWN = new Set(["DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT", "QUERY"]);
const UPPERED = new Set(["DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT"]);

function methodOf(method: string | undefined): string {
  if (method === undefined || method === "") return "GET";
  if (KNOWN.has(method)) return method;
  const upper = method.toUpperCase();
  return UPPERED.has(upper) ? upper : method;
}

function checkTarget(target: string): void {
  const backslash = target.indexOf("\\");
  if (backslash === -1) return;
  const query = target.indexOf("?");
  if (query === -1 || backslash < query) throw new BadRequestTarget("Backslash in request path");
}

function urlOf(scheme: string, host: string, target: string): string {
  const url = `${scheme}://${host}${target}`;
  if (!VALID_HOST.test(host)) {
    checkTarget(target);
    const parsed = new URL(url);
    const bare = host.includes(":") ? host.replace(/:\d+$/, "") : host;
    if (parsed.hostname.length !== host.length && parsed.hostname !== bare.toLowerCase()) throw new BadRequestTarget("Invalid host header");
    return parsed.href;
  }
  if (target.length === 0) return `${url}/`;
  if (target.charCodeAt(0) !== 47 /* "/" */) throw new BadRequestTarget("Invalid URL");
  if (!VALID_PATH.test(target) || DOT_SEGMENT.test(target)) {
    checkTarget(target);
    return new URL(url).href;
  }
  return url;
}

function isHttp2(incoming: IncomingMessage | Http2ServerRequest): incoming is Http2ServerRequest {
  return "stream" in incoming;
}

/**
 * The request for `incoming`; throws BadRequestTarget when its URL cannot be made.
 * @example const request = requestOf(incoming, outgoing)
 */
export function requestOf(incoming: IncomingMessage | Http2ServerRequest, outgoing: Outgoing): LightRequest {
  const target = incoming.url ?? "";
  const h2 = isHttp2(incoming);
  let url: string;
  try {
    if (target[0] !== "/" && (target.startsWith("http://") || target.startsWith("https://"))) {
      if (h2) throw new BadRequestTarget("Absolute URL for :path is not allowed in HTTP/2");
      checkTarget(target);
      url = new URL(target).href;
    } else {
      const host = h2 ? incoming.authority : incoming.headers.host;
      if (!host) throw new BadRequestTarget("Missing host header");
      const scheme = h2 ? incoming.scheme : (incoming.socket as { encrypted?: boolean } | null)?.encrypted ? "https" : "http";
      if (scheme !== "http" && scheme !== "https") throw new BadRequestTarget("Unsupported scheme");
      url = urlOf(scheme, host, target);
    }
  } catch (e) {
    throw e instanceof BadRequestTarget ? e : new BadRequestTarget("Invalid URL", { cause: e });
  }
  // The client going away before the answer is written aborts the request's signal (made only when read).
  const onSignal = (abort: () => void) => {
    const gone = () => incoming.errored !== null || !outgoing.writableFinished || (h2 && incoming.aborted);
    if (outgoing.closed) {
      if (gone()) abort();
      return;
    }
    outgoing.once("close", () => {
      if (gone()) abort();
    });
  };
  return LightRequest.fromIncoming(incoming, methodOf(incoming.method), url, onSignal);
}
