/**
 * The ready banner `npm run dev` and `mockllm serve` print once the server answers. The inspector line is a link that
 * signs the page in (the token in the URL fragment, which the browser never sends).
 */
import { inspectorLink } from "../admin/inspector-link";

/**
 * @example console.log(readyBanner("http://127.0.0.1:8787", "mockllm-…", "Node runtime"))
 */
export function readyBanner(base: string, token: string | undefined, runtime: string): string {
  return [
    "",
    `mockllm is ready on ${base} (${runtime})`,
    token ? `  admin token        ${token}` : "  admin API          disabled (no admin token)",
    ...(token ? [`  admin API          curl -H 'Authorization: Bearer ${token}' ${base}/admin/scenarios`] : []),
    `  OpenAI base URL    ${base}/v1          (per scenario: ${base}/s/{scenario}/{session}/v1)`,
    `  Anthropic base URL ${base}             (per scenario: ${base}/s/{scenario}/{session})`,
    `  Gemini, Ollama     ${base}             (per scenario: ${base}/s/{scenario}/{session})`,
    `  inspector          ${inspectorLink(base, { key: token })}`,
    "",
  ].join("\n");
}
