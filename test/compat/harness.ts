/**
 * Starts mockllm once per test file on a random local port, with its own admin token and in-memory state. The same
 * compat suites run against both runtimes: the Worker under wrangler (project `node`) and the Node runtime in process
 * (project `node-runtime`, MOCKLLM_RUNTIME=node).
 */
import { unstable_startWorker } from "wrangler";
import { fileURLToPath } from "node:url";

process.env.WRANGLER_SEND_METRICS = "false";
process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
process.env.WRANGLER_HIDE_BANNER = "true";
process.env.WRANGLER_SEND_ERROR_REPORTS = "false";

export const ADMIN_TOKEN = "compat-admin-token";
const CONFIG = fileURLToPath(new URL("../../wrangler.toml", import.meta.url));

export interface Harness {
  url: string;
  adminToken: string;
  /** Uploads scenarios (bulk, all-or-nothing); throws with the server's message on failure. */
  upload(...docs: unknown[]): Promise<{ name: string; version: string }[]>;
  /** `fetch` against the admin API with the token. */
  admin(path: string, init?: RequestInit): Promise<Response>;
  /** The session journal. */
  journal(scenario: string, session?: string): Promise<Array<Record<string, any>>>;
  stop(): Promise<void>;
}

/** Which runtime the compat suites run against in this project. */
export const RUNTIME: "workers" | "node" = process.env.MOCKLLM_RUNTIME === "node" ? "node" : "workers";

async function startRuntime(vars: Record<string, string>): Promise<{ url: string; stop(): Promise<void> }> {
  if (RUNTIME === "node") {
    const { startQuietServer } = await import("../support/server");
    const server = await startQuietServer({ adminToken: ADMIN_TOKEN, vars });
    return { url: server.url, stop: () => server.close() };
  }
  const worker = await unstable_startWorker({
    config: CONFIG,
    bindings: {
      ADMIN_TOKEN: { type: "plain_text", value: ADMIN_TOKEN },
      ...Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, { type: "plain_text", value: v }])),
      DEFAULT_WORDS_PER_SECOND: { type: "plain_text", value: vars.DEFAULT_WORDS_PER_SECOND ?? "0" },
      REQUEST_LOG: { type: "plain_text", value: vars.REQUEST_LOG ?? "off" },
    },
    dev: { server: { hostname: "127.0.0.1", port: 0 }, inspector: false, persist: false, logLevel: "none" },
  } as Parameters<typeof unstable_startWorker>[0]);
  await worker.ready;
  return { url: (await worker.url).origin, stop: () => worker.dispose() };
}

export async function startHarness(vars: Record<string, string> = {}): Promise<Harness> {
  const { url, stop } = await startRuntime(vars);
  const admin = (path: string, init: RequestInit = {}) =>
    fetch(`${url}/admin${path}`, {
      ...init,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json", ...init.headers },
    });
  return {
    url,
    adminToken: ADMIN_TOKEN,
    admin,
    async upload(...docs) {
      const res = await admin("/scenarios", { method: "POST", body: JSON.stringify(docs) });
      const body = await res.json();
      if (!res.ok) throw new Error(`upload failed: ${res.status} ${JSON.stringify(body)}`);
      return body as { name: string; version: string }[];
    },
    async journal(scenario, session = "default") {
      const res = await admin(`/sessions/${scenario}/${session}/requests`);
      return (await res.json()) as Array<Record<string, any>>;
    },
    stop,
  };
}
