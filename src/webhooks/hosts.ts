/**
 * Where a webhook endpoint may point. The real API takes `https://` URLs anywhere; a mock that anyone with a key can
 * make POST to any address would be an open relay on a shared URL, so mockllm delivers only to the hosts its
 * operator allows: `WEBHOOK_ALLOWED_HOSTS` (`host` or `host:port`, a comma list; `*` for any), or, unset, loopback
 * (`localhost`, `127.0.0.1`, `::1`, `*.localhost`) and the host the request came to (any port). An allowed host may
 * be `http://` (a test's own receiver); a URL is checked when the endpoint is made or changed.
 */
import type { RuntimeVars } from "../runtime/types";
import { hostList, hostListed } from "../util/host-list";

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]", "::1"]);

/**
 * Why `url` cannot be an endpoint on this deployment (as the refusal says it), or undefined when it can.
 * @example urlRefusal("https://hooks.example.com/x", {}, "mock.example.com") // "…not allowed on this deployment…"
 */
export function urlRefusal(url: string, vars: RuntimeVars, ownHost: string): { pattern: true } | { host: string } | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { pattern: true };
  }
  if ((u.protocol !== "https:" && u.protocol !== "http:") || !url.toLowerCase().startsWith(`${u.protocol}//`)) return { pattern: true };
  const hostname = u.hostname.toLowerCase();
  const host = u.host.toLowerCase();
  const allowed = hostList(vars.WEBHOOK_ALLOWED_HOSTS);
  if (allowed.length > 0) return allowed.includes("*") || hostListed(u, allowed) ? undefined : { host };
  const own = ownHost.toLowerCase().replace(/:\d+$/, "");
  return LOOPBACK.has(hostname) || hostname.endsWith(".localhost") || hostname === own ? undefined : { host };
}
