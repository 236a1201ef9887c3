/**
 * Shared helpers for the integration tests, which run on both runtimes: inside workerd (the `workers` project, calling
 * the Worker's default export) and on Node (the `node-runtime` project, an in-process Node server per test file).
 */
export const ADMIN_TOKEN = "test-admin-token";

type Fetch = (url: string, init?: RequestInit) => Promise<Response>;

/** Which runtime this file runs against. */
export const RUNTIME: "workers" | "node" = navigator.userAgent === "Cloudflare-Workers" ? "workers" : "node";

const fetcher: Fetch = await (async (): Promise<Fetch> => {
  if (RUNTIME === "workers") {
    const { exports } = await import("cloudflare:workers");
    const worker = (exports as unknown as { default: Fetcher }).default;
    return (url, init) => worker.fetch(url, init);
  }
  const { startQuietServer } = await import("../support/server");
  const server = await startQuietServer({ adminToken: ADMIN_TOKEN });
  const { afterAll } = await import("vitest");
  afterAll(() => server.close());
  return (url, init) => fetch(url.replace("http://mock.test", server.url), init);
})();

/** Calls the mock. */
export function call(path: string, init: RequestInit = {}): Promise<Response> {
  return fetcher(`http://mock.test${path}`, init);
}

export function admin(path: string, init: RequestInit = {}): Promise<Response> {
  return call(`/admin${path}`, {
    ...init,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json", ...init.headers },
  });
}

export async function upload(...docs: unknown[]): Promise<void> {
  const res = await admin("/scenarios", { method: "POST", body: JSON.stringify(docs) });
  if (!res.ok) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
}

/** Whether `name` is stored as an upload (KV on Workers, memory on Node), as the admin listing says. */
export async function isUploaded(name: string): Promise<boolean> {
  const list = (await (await admin("/scenarios")).json()) as { name: string; source: string }[];
  return list.some((s) => s.name === name && s.source === "kv");
}

/** POST /v1/chat/completions with a bearer key. */
export function chat(body: unknown, prefix = "", headers: Record<string, string> = {}): Promise<Response> {
  return call(`${prefix}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: "Bearer sk-test", "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
}

export function userTurn(text: string, extra: Record<string, unknown> = {}) {
  return { model: "gpt-4o-mini", messages: [{ role: "user", content: text }], ...extra };
}
