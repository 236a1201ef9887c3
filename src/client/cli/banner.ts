/**
 * The ready banner `npm run dev` and `mockllm serve` print once the server answers: the admin token, the inspector,
 * and every surface's base URL with the page that explains it. The inspector line is a link that signs the page in
 * (the token in the URL fragment, which the browser never sends).
 */
import { inspectorLink } from "../admin/inspector-link";
import { BANNER_ROWS, BANNER_SOCKET_ROWS } from "./banner-rows.gen";

/**
 * A surface's name, the base URL its client takes (below `base`), and its page under the package's `docs/`: the rows
 * the provider modules declare (`banner`), generated (test/unit/provider-registry-names.test.ts checks they agree).
 */
export const BANNER_SURFACES: readonly [name: string, below: string, page: string][] = BANNER_ROWS;

/**
 * @example console.log(readyBanner("http://127.0.0.1:8787", "mockllm-…", "Node runtime"))
 */
export function readyBanner(base: string, token: string | undefined, runtime: string): string {
  const ws = base.replace(/^http/, "ws");
  const rows: [string, string, string][] = [
    ...BANNER_SURFACES.map(([name, below, page]): [string, string, string] => [name, `${base}${below}`, page]),
    ...BANNER_SOCKET_ROWS.map(([name, below, page]): [string, string, string] => [name, `${ws}${below}`, page]),
    ["MCP (per session)", `${base}/s/{scenario}/{session}/mcp`, "guide/mcp.md"],
  ];
  const width = Math.max(...rows.map(([, url]) => url.length)) + 2;
  return [
    "",
    `mockllm is ready on ${base} (${runtime})`,
    token ? `  admin token                ${token}` : "  admin API                  disabled (no admin token)",
    ...(token ? [`  admin API                  curl -H 'Authorization: Bearer ${token}' ${base}/admin/scenarios`] : []),
    `  inspector                  ${inspectorLink(base, { key: token })}`,
    "",
    `  base URLs (for a scenario's session, insert /s/{scenario}/{session} after the host: ${base}/s/demo/run-1/v1)`,
    ...rows.map(([name, url, page]) => `  ${name.padEnd(27)}${url.padEnd(width)}docs/${page}`),
    `  every page: docs/index.md`,
    "",
  ].join("\n");
}
