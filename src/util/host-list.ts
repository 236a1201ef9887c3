/**
 * The operator's lists of hosts an outgoing call may reach (`MCP_ALLOWED_HOSTS`, `WEBHOOK_ALLOWED_HOSTS`): a comma
 * list of `host` or `host:port`, read once per call, matched against a URL's host with or without its port.
 */

/**
 * The hosts a comma list names, lower-cased; empty when unset or blank.
 * @example hostList(" Hooks.example.com, ci:8443 ,") // ["hooks.example.com", "ci:8443"]
 */
export function hostList(text: string | undefined): string[] {
  return (text ?? "")
    .split(",")
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== "");
}

/**
 * Whether `url`'s host is on the list, as `host:port` or as the host alone (any port).
 * @example hostListed(new URL("https://ci:8443/x"), ["ci"]) // true
 */
export function hostListed(url: URL, allowed: readonly string[]): boolean {
  return allowed.includes(url.host.toLowerCase()) || allowed.includes(url.hostname.toLowerCase());
}
