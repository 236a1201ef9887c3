/** Shared helpers for tests that run inside workerd. */
import { exports } from "cloudflare:workers";

export const ADMIN_TOKEN = "test-admin-token";

/** Calls the Worker's default export. */
export function call(path: string, init: RequestInit = {}): Promise<Response> {
  return (exports as unknown as { default: Fetcher }).default.fetch(`http://mock.test${path}`, init);
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
