/**
 * Links into the inspector (`GET /`): `{url}/#scenario=s&session=x&key=…`. Everything after `#` stays in the
 * browser (never sent to the server, never in its logs); the page stores the key as if typed in and drops it from the
 * address bar. The key is the admin token or a namespace key (`admin` or `read`), whose namespace the page then shows.
 */

export interface InspectorLinkParts {
  scenario?: string | undefined;
  session?: string | undefined;
  /** Left out: the page asks for the token, then opens the scenario/session. */
  key?: string | undefined;
}

/**
 * @example inspectorLink("http://127.0.0.1:8787", { scenario: "weather", session: "t1", key: "mockllm-…" })
 * // "http://127.0.0.1:8787/#scenario=weather&session=t1&key=mockllm-…"
 */
export function inspectorLink(url: string, parts: InspectorLinkParts = {}): string {
  const fragment = (["scenario", "session", "key"] as const)
    .filter((name) => parts[name] !== undefined && parts[name] !== "")
    .map((name) => `${name}=${encodeURIComponent(parts[name]!)}`)
    .join("&");
  return `${url.replace(/\/+$/, "")}/${fragment ? `#${fragment}` : ""}`;
}

/**
 * True for a server on this machine (127.0.0.0/8, ::1, localhost): the only place a verify failure prints the key in
 * its link. A shared server's credential is never written into a test or CI log; its link opens the session once the
 * token is typed in.
 */
export function isLoopback(url: string): boolean {
  let host: string;
  try {
    host = new URL(url).hostname;
  } catch {
    return false;
  }
  return host === "localhost" || host.endsWith(".localhost") || host === "[::1]" || /^127(?:\.\d{1,3}){3}$/.test(host);
}
