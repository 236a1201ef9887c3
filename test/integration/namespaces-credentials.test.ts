/**
 * Every surface × every place a credential arrives (Authorization, x-api-key, x-goog-api-key, api-key, ?key=), on
 * both runtimes: an unknown, malformed or revoked `mk_` key — and, with ANONYMOUS=deny, a request without one — is
 * refused in the surface's own shape, never in another's because of where the key came (issue 37, point 9): OpenAI's
 * on OpenAI paths and sockets, Anthropic's, Google's on Gemini, Vertex and Gemini Live, Bedrock's, Ollama's, and a
 * JSON-RPC error on MCP.
 */
import { describe, expect, it } from "vitest";
import { admin, ADMIN_TOKEN, call, RUNTIME } from "./helpers";
import { createNamespace, mintKey } from "../support/namespaces";

type Fetch = (path: string, init?: RequestInit) => Promise<Response>;

interface Target {
  fetch: Fetch;
  /** Node: the server's ws:// origin (fetch cannot send an upgrade there). */
  ws?: () => Promise<string>;
}

const open: Target = { fetch: call, ws: async () => new URL((await call("/", { method: "HEAD" })).url).origin.replace("http", "ws") };

const denying: Target = await (async (): Promise<Target> => {
  if (RUNTIME === "workers") {
    const { env, createExecutionContext, waitOnExecutionContext } = await import("cloudflare:test");
    const { default: worker } = await import("../../src/index");
    return {
      fetch: async (path, init) => {
        const ctx = createExecutionContext();
        const res = await worker.fetch(new Request(`http://mock.test${path}`, init) as never, { ...(env as object), ANONYMOUS: "deny" } as never, ctx);
        await waitOnExecutionContext(ctx);
        return res;
      },
    };
  }
  const { startQuietServer } = await import("../support/server");
  const server = await startQuietServer({ adminToken: ADMIN_TOKEN, vars: { ANONYMOUS: "deny" } });
  const { afterAll } = await import("vitest");
  afterAll(() => server.close());
  return { fetch: (path, init) => fetch(`${server.url}${path}`, init), ws: async () => server.url.replace("http", "ws") };
})();

/** A WebSocket upgrade that is refused: the plain HTTP answer. */
async function upgrade(target: Target, path: string, headers: Record<string, string>): Promise<Response> {
  if (RUNTIME === "workers") return target.fetch(path, { headers: { upgrade: "websocket", ...headers } });
  const { default: WebSocket } = await import("ws");
  const ws = new WebSocket(`${await target.ws!()}${path}`, { headers });
  return new Promise((resolve, reject) => {
    ws.on("open", () => reject(new Error(`${path}: the upgrade was accepted`)));
    ws.on("unexpected-response", (_req, res) => {
      let body = "";
      res.on("data", (d: Buffer) => (body += String(d)));
      res.on("end", () => resolve(new Response(body, { status: res.statusCode ?? 0, headers: { "content-type": String(res.headers["content-type"] ?? "") } })));
    });
    ws.on("error", () => {});
  });
}

type Shape = "openai" | "anthropic" | "google" | "bedrock" | "ollama" | "mcp";

const LIVE = "/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent";
const chatBody = { model: "m", messages: [{ role: "user", content: "hi" }] };
const SURFACES: { name: string; path: string; shape: Shape; body?: unknown; socket?: true }[] = [
  { name: "OpenAI Chat", path: "/v1/chat/completions", shape: "openai", body: chatBody },
  { name: "OpenAI Responses", path: "/v1/responses", shape: "openai", body: { model: "m", input: "hi" } },
  { name: "Anthropic", path: "/v1/messages", shape: "anthropic", body: { model: "m", max_tokens: 10, messages: [{ role: "user", content: "hi" }] } },
  { name: "Gemini", path: "/v1beta/models/gemini-2.5-flash:generateContent", shape: "google", body: { contents: [{ parts: [{ text: "hi" }] }] } },
  {
    name: "Vertex",
    path: "/v1/projects/p/locations/us-central1/publishers/google/models/gemini-2.5-flash:generateContent",
    shape: "google",
    body: { contents: [{ role: "user", parts: [{ text: "hi" }] }] },
  },
  { name: "Bedrock", path: "/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse", shape: "bedrock", body: { messages: [{ role: "user", content: [{ text: "hi" }] }] } },
  { name: "Ollama", path: "/api/chat", shape: "ollama", body: chatBody },
  { name: "MCP", path: "/s/cred/mcp", shape: "mcp", body: { jsonrpc: "2.0", id: 1, method: "tools/list" } },
  { name: "Responses WebSocket", path: "/v1/responses", shape: "openai", socket: true },
  { name: "Realtime", path: "/v1/realtime?model=gpt-realtime", shape: "openai", socket: true },
  { name: "Gemini Live", path: LIVE, shape: "google", socket: true },
];

const LOCATIONS: { name: string; put: (key: string) => { headers: Record<string, string>; query: string } }[] = [
  { name: "Authorization", put: (k) => ({ headers: { authorization: `Bearer ${k}` }, query: "" }) },
  { name: "x-api-key", put: (k) => ({ headers: { "x-api-key": k }, query: "" }) },
  { name: "x-goog-api-key", put: (k) => ({ headers: { "x-goog-api-key": k }, query: "" }) },
  { name: "api-key", put: (k) => ({ headers: { "api-key": k }, query: "" }) },
  { name: "?key=", put: (k) => ({ headers: {}, query: `key=${encodeURIComponent(k)}` }) },
];

async function send(target: Target, surface: (typeof SURFACES)[number], headers: Record<string, string>, query: string): Promise<Response> {
  const path = query === "" ? surface.path : `${surface.path}${surface.path.includes("?") ? "&" : "?"}${query}`;
  if (surface.socket) return upgrade(target, path, headers);
  const extra: Record<string, string> = surface.shape === "mcp" ? { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-06-18" } : {};
  return target.fetch(path, { method: "POST", headers: { "content-type": "application/json", ...extra, ...headers }, body: JSON.stringify(surface.body) });
}

/** The refusal in `shape`, with `message` in it. */
async function expectRefused(res: Response, shape: Shape, message: string, where: string): Promise<void> {
  const text = await res.text();
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  const seen = { where, status: res.status, body };
  const expected: Record<Shape, unknown> = {
    openai: { status: 401, body: { error: { message: expect.stringContaining(message), type: "invalid_request_error", code: "invalid_api_key", param: null } } },
    anthropic: { status: 401, body: { type: "error", error: { type: "authentication_error", message: expect.stringContaining(message) } } },
    google: { status: 401, body: { error: { code: 401, status: "UNAUTHENTICATED", message: expect.stringContaining(message) } } },
    bedrock: { status: 403, body: { message: expect.stringContaining(message) } },
    ollama: { status: 401, body: { error: expect.stringContaining(message) } },
    mcp: { status: 401, body: { jsonrpc: "2.0", id: null, error: { code: -32600, message: expect.stringContaining(message) } } },
  };
  expect(seen).toMatchObject({ where, ...(expected[shape] as object) });
}

async function revokedKey(): Promise<string> {
  const ns = `cred-${RUNTIME}`;
  await createNamespace(admin, ns);
  const made = await mintKey(admin, ns, "run");
  expect((await admin(`/namespaces/${ns}/keys/${made.id}`, { method: "DELETE" })).status).toBe(200);
  return made.key;
}

describe("an mk_ key that opens nothing, from every place a credential comes, on every surface", () => {
  it("unknown, malformed and revoked keys: 401 (Bedrock 403) in the surface's shape", async () => {
    const keys = { unknown: `mk_${"0a".repeat(6)}_${"5f".repeat(24)}`, malformed: "mk_nope", revoked: await revokedKey() };
    for (const surface of SURFACES) {
      for (const location of LOCATIONS) {
        for (const [kind, key] of Object.entries(keys)) {
          const { headers, query } = location.put(key);
          await expectRefused(await send(open, surface, headers, query), surface.shape, "invalid or revoked mockllm key", `${surface.name} ${location.name} ${kind}`);
        }
      }
    }
  });
});

describe("ANONYMOUS=deny, from every place a credential comes, on every surface", () => {
  it("a request without a namespace key (or with none at all): 401 (Bedrock 403) in the surface's shape", async () => {
    for (const surface of SURFACES) {
      for (const location of LOCATIONS) {
        const { headers, query } = location.put("sk-not-a-namespace-key");
        await expectRefused(await send(denying, surface, headers, query), surface.shape, "ANONYMOUS=deny", `${surface.name} ${location.name}`);
      }
      await expectRefused(await send(denying, surface, {}, ""), surface.shape, "ANONYMOUS=deny", `${surface.name} no credential`);
    }
  });
});
