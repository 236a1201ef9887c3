/**
 * Starts mockllm once per test file on a random local port, with its own admin token and in-memory state. The same
 * compat suites run against both runtimes: the Worker under Miniflare (project `node`: the run's one bundle, or
 * wrangler's per file with `via: "wrangler"`) and the Node runtime in process (project `node-runtime`,
 * MOCKLLM_RUNTIME=node).
 */
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

async function startRuntime(vars: Record<string, string>, via: HarnessOptions["via"]): Promise<{ url: string; stop(): Promise<void> }> {
  if (RUNTIME === "node") {
    const { startQuietServer } = await import("../support/server");
    const server = await startQuietServer({ adminToken: ADMIN_TOKEN, vars });
    return { url: server.url, stop: () => server.close() };
  }
  const quiet = { DEFAULT_WORDS_PER_SECOND: "0", REQUEST_LOG: "off" };
  if (via === "wrangler") return startWithWrangler({ ...quiet, ...vars });
  const [{ startPrebuilt }, { workerBundle }] = await Promise.all([import("../../src/client/testing/start"), import("../support/worker-bundle")]);
  const worker = await startPrebuilt(await workerBundle(), { ...quiet, ...vars }, ADMIN_TOKEN);
  return { url: await worker.url, stop: () => worker.dispose() };
}

/** The path `wrangler dev` takes: wrangler bundles the source and runs it with wrangler.toml's settings. */
async function startWithWrangler(vars: Record<string, string>): Promise<{ url: string; stop(): Promise<void> }> {
  const { unstable_startWorker } = await import("wrangler");
  const worker = await unstable_startWorker({
    config: CONFIG,
    bindings: {
      ADMIN_TOKEN: { type: "plain_text", value: ADMIN_TOKEN },
      ...Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, { type: "plain_text", value: v }])),
    },
    dev: { server: { hostname: "127.0.0.1", port: 0 }, inspector: false, persist: false, logLevel: "none" },
  } as Parameters<typeof unstable_startWorker>[0]);
  await worker.ready;
  return { url: (await worker.url).origin, stop: () => worker.dispose() };
}

export interface HarnessOptions {
  /**
   * Project `node` only: `"bundle"` (default) runs this run's bundled Worker under Miniflare (the deployed bundle,
   * built once: test/support/worker-bundle.ts); `"wrangler"` has wrangler bundle and start it, as `wrangler dev` does.
   */
  via?: "bundle" | "wrangler";
}

export async function startHarness(vars: Record<string, string> = {}, options: HarnessOptions = {}): Promise<Harness> {
  const { url, stop } = await startRuntime(vars, options.via);
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
