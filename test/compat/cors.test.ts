/**
 * CORS at the edge (contract section 11): a preflight and an actual answer on every surface of the registry, the
 * admin API, streams in each wire format, a scripted 429 read as a page reads it, Anthropic's browser opt-in, and the
 * runtimes' defaults (`mockllm serve`: any origin; a Worker: none until CORS_ORIGINS is set, with a 403 naming it).
 */
import { request as httpRequest } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SURFACES, surfaceFor } from "../../src/providers/registry";
import { RUNTIME, startHarness, type Harness } from "./harness";

const ORIGIN = "https://app.example";
const PREVIEW = "https://pr-57.preview.example";
const ASKED = "Authorization, Content-Type, X-Stainless-OS, X-Stainless-Retry-Count, anthropic-version, anthropic-dangerous-direct-browser-access, x-goog-api-key, openai-beta";

/** Headers a page may read without them being exposed. */
const SAFELISTED = new Set(["cache-control", "content-language", "content-length", "content-type", "expires", "last-modified", "pragma"]);

/** A path for each surface whose paths have parameters in them. */
const SAMPLE: Record<string, string> = {
  "gemini generateContent": "/v1beta/models/gemini-2.5-flash:generateContent",
  "gemini embeddings": "/v1beta/models/gemini-embedding-001:batchEmbedContents",
  "gemini images": "/v1beta/models/imagen-4.0-generate-001:predict",
  "bedrock converse": "/model/amazon.nova-pro-v1:0/converse",
  "bedrock messages": "/model/anthropic.claude-opus-4-6-v1:0/invoke",
  "vertex generateContent": "/v1/projects/p/locations/global/publishers/google/models/gemini-2.5-flash:generateContent",
  "vertex messages": "/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-opus-4-6:rawPredict",
  "vertex embeddings": "/v1/projects/p/locations/us-central1/publishers/google/models/text-embedding-005:predict",
  "vertex images": "/v1/projects/p/locations/us-central1/publishers/google/models/imagen-4.0-generate-001:predict",
  "azure chat.completions": "/openai/deployments/d/chat/completions",
  "azure responses": "/openai/v1/responses",
  "azure embeddings": "/openai/deployments/d/embeddings",
  "azure completions": "/openai/deployments/d/completions",
  "azure images": "/openai/deployments/d/images/generations",
  "azure speech": "/openai/deployments/d/audio/speech",
  "azure transcriptions": "/openai/deployments/d/audio/transcriptions",
};

/** Every surface once, by the path it answers on. */
const TABLE = SURFACES.map((s) => {
  const path = s.paths[0] ?? SAMPLE[`${s.provider} ${s.endpoint}`];
  return { name: `${s.provider} ${s.endpoint} ${path}`, surface: s, path: path! };
});

/** Credentials every surface accepts (Bedrock a SigV4-looking header, the others any key). */
const CREDENTIALS = {
  authorization: "AWS4-HMAC-SHA256 Credential=AKID/20250101/us-east-1/bedrock/aws4_request, SignedHeaders=host, Signature=abc",
  "x-api-key": "sk-ant-test",
  "api-key": "azure-key",
  "x-goog-api-key": "g-key",
  "anthropic-version": "2023-06-01",
  "anthropic-dangerous-direct-browser-access": "true",
};

function exposed(res: Response): string[] {
  return (res.headers.get("access-control-expose-headers") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "");
}

/** What the HTTP server adds on its own (the runtimes differ), which no client reads. */
const TRANSPORT = new Set(["content-encoding", "connection", "date", "keep-alive", "transfer-encoding", "vary", "server", "alt-svc", "report-to", "nel", "cf-ray"]);

/** Every header the mock gave that a page could not read without it being exposed. */
function unsafelisted(res: Response): string[] {
  const names: string[] = [];
  res.headers.forEach((_v, k) => {
    if (!SAFELISTED.has(k) && !TRANSPORT.has(k) && !k.startsWith("access-control-") && k !== "set-cookie") names.push(k);
  });
  return names.sort();
}

let h: Harness;

beforeAll(async () => {
  h = await startHarness({ CORS_ORIGINS: `${ORIGIN}, https://*.preview.example` });
  await h.upload(
    { name: "cors-429", steps: [{ failures: [{ kind: "rate_limit", retryAfterMs: 1500 }], respond: { text: "after" } }] },
    { name: "cors-stream", steps: [{ consume: false, respond: { text: "one two three" } }] },
  );
});
afterAll(() => h?.stop());

describe("the table covers the registry", () => {
  it("each surface's path is served by that surface", () => {
    expect(TABLE.map((t) => surfaceFor(t.path) === t.surface)).toEqual(TABLE.map(() => true));
  });
});

describe.each(TABLE)("$name", ({ surface, path }) => {
  it("preflight: 204 with the origin, the methods, the headers asked, max-age", async () => {
    const res = await fetch(`${h.url}${path}`, { method: "OPTIONS", headers: { origin: ORIGIN, "access-control-request-method": "POST", "access-control-request-headers": ASKED } });
    expect(res.status).toBe(204);
    expect(Object.fromEntries([...res.headers].filter(([k]) => k.startsWith("access-control-") || k === "vary"))).toEqual({
      "access-control-allow-origin": ORIGIN,
      "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS",
      "access-control-allow-headers": ASKED.toLowerCase(),
      "access-control-max-age": "86400",
      vary: "origin, access-control-request-headers",
    });
    expect(await res.text()).toBe("");
  });

  it("an actual answer (here a refused body) carries the origin and exposes every header it has", async () => {
    const res = await fetch(`${h.url}/s/cors-table${path}`, { method: "POST", headers: { origin: PREVIEW, "content-type": "application/json", ...CREDENTIALS }, body: "{" });
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.headers.get("access-control-allow-origin")).toBe(PREVIEW);
    expect(res.headers.get("vary")).toMatch(/origin/);
    expect(exposed(res).sort()).toEqual(unsafelisted(res));
    expect(exposed(res)).toContain(surface.requestIdHeader.toLowerCase());
  });
});

describe("answers", () => {
  it("a scripted 429 is read cross-origin: retry-after, retry-after-ms and the rate-limit headers exposed", async () => {
    const res = await fetch(`${h.url}/s/cors-429/v1/chat/completions`, {
      method: "POST",
      headers: { origin: ORIGIN, authorization: "Bearer sk-test", "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-4.1", messages: [{ role: "user", content: "hi" }] }),
    });
    expect(res.status).toBe(429);
    expect(res.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect([res.headers.get("retry-after"), res.headers.get("retry-after-ms")]).toEqual(["2", "1500"]);
    expect(exposed(res)).toEqual(expect.arrayContaining(["retry-after", "retry-after-ms", "x-request-id", "x-ratelimit-remaining-requests", "x-mockllm-outcome"]));
    expect(exposed(res).sort()).toEqual(unsafelisted(res));
  });

  it.each([
    ["SSE (OpenAI chat)", "/v1/chat/completions", { model: "gpt-4.1", stream: true, messages: [{ role: "user", content: "hi" }] }, "text/event-stream"],
    ["SSE (Anthropic)", "/v1/messages", { model: "claude-sonnet-4-5", max_tokens: 100, stream: true, messages: [{ role: "user", content: "hi" }] }, "text/event-stream"],
    ["NDJSON (Ollama)", "/api/chat", { model: "llama3.2", messages: [{ role: "user", content: "hi" }] }, "application/x-ndjson"],
    ["AWS event stream (Bedrock)", "/model/amazon.nova-pro-v1:0/converse-stream", { messages: [{ role: "user", content: [{ text: "hi" }] }] }, "application/vnd.amazon.eventstream"],
  ])("%s: a stream carries the origin", async (_name, path, body, type) => {
    const bearer = path.startsWith("/model/") ? {} : { authorization: "Bearer sk-test" };
    const res = await fetch(`${h.url}/s/cors-stream${path}`, {
      method: "POST",
      headers: { origin: ORIGIN, "content-type": "application/json", ...CREDENTIALS, ...bearer },
      body: JSON.stringify(body),
    });
    expect([res.status, res.headers.get("content-type")?.split(";")[0]]).toEqual([200, type]);
    expect(res.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(exposed(res).sort()).toEqual(unsafelisted(res));
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });

  it("admin routes the inspector uses: preflight and answer", async () => {
    const pre = await fetch(`${h.url}/admin/scenarios`, { method: "OPTIONS", headers: { origin: ORIGIN, "access-control-request-method": "GET", "access-control-request-headers": "authorization" } });
    expect([pre.status, pre.headers.get("access-control-allow-origin"), pre.headers.get("access-control-allow-headers")]).toEqual([204, ORIGIN, "authorization"]);
    const res = await fetch(`${h.url}/admin/scenarios`, { headers: { origin: ORIGIN, authorization: `Bearer ${h.adminToken}` } });
    expect([res.status, res.headers.get("access-control-allow-origin")]).toEqual([200, ORIGIN]);
    const refused = await fetch(`${h.url}/admin/scenarios`, { headers: { origin: ORIGIN, authorization: "Bearer wrong" } });
    expect([refused.status, refused.headers.get("access-control-allow-origin")]).toEqual([401, ORIGIN]);
  });

  it("a request without Origin gets no CORS headers (server-side clients are unchanged)", async () => {
    const res = await fetch(`${h.url}/v1/models`, { headers: { authorization: "Bearer sk-test" } });
    expect(res.status).toBe(200);
    expect([...res.headers.keys()].filter((k) => k.startsWith("access-control-"))).toEqual([]);
  });

  it("an origin not listed: the preflight answers 403 naming CORS_ORIGINS; an actual request gets no CORS headers", async () => {
    const pre = await fetch(`${h.url}/v1/chat/completions`, { method: "OPTIONS", headers: { origin: "https://evil.example", "access-control-request-method": "POST" } });
    expect(pre.status).toBe(403);
    expect(pre.headers.get("access-control-allow-origin")).toBeNull();
    const body = (await pre.json()) as { error: { type: string; message: string } };
    expect(body.error.type).toBe("cors_origin_not_allowed");
    expect(body.error.message).toContain("Add it to CORS_ORIGINS");
    // A subdomain pattern matches subdomains only, never the bare host or a look-alike.
    for (const origin of ["https://preview.example", "https://x.preview.example.evil", "http://x.preview.example"]) {
      const res = await fetch(`${h.url}/v1/models`, { method: "OPTIONS", headers: { origin, "access-control-request-method": "GET" } });
      expect([origin, res.status]).toEqual([origin, 403]);
    }
    const res = await fetch(`${h.url}/v1/models`, { headers: { origin: "https://evil.example", authorization: "Bearer sk-test" } });
    expect([res.status, res.headers.get("access-control-allow-origin")]).toEqual([200, null]);
  });

  it("Anthropic: a browser request without anthropic-dangerous-direct-browser-access gets the real API's 401", async () => {
    const { "anthropic-dangerous-direct-browser-access": _, ...noOptIn } = CREDENTIALS;
    const res = await fetch(`${h.url}/v1/messages`, {
      method: "POST",
      headers: { origin: ORIGIN, "content-type": "application/json", ...noOptIn },
      body: JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 10, messages: [{ role: "user", content: "hi" }] }),
    });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ type: "error", error: { type: "authentication_error", message: "CORS requests must set 'anthropic-dangerous-direct-browser-access' header" } });
    const server = await fetch(`${h.url}/v1/messages`, {
      method: "POST",
      headers: { "content-type": "application/json", ...noOptIn },
      body: JSON.stringify({ model: "claude-sonnet-4-5", max_tokens: 10, messages: [{ role: "user", content: "hi" }] }),
    });
    expect(server.status).toBe(200);
  });

  it("a WebSocket upgrade refused over HTTP carries the origin", async () => {
    const { status, headers } = await new Promise<{ status: number; headers: Record<string, unknown> }>((resolve, reject) => {
      const req = httpRequest(`${h.url}/s/bad%20name/v1/realtime?model=gpt-realtime`, {
        headers: { origin: ORIGIN, connection: "Upgrade", upgrade: "websocket", "sec-websocket-version": "13", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ==", authorization: "Bearer sk-test" },
      });
      req.on("response", (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0, headers: res.headers });
      });
      req.on("upgrade", () => reject(new Error("upgraded")));
      req.on("error", reject);
      req.end();
    });
    expect(status).toBeGreaterThanOrEqual(400);
    expect(headers["access-control-allow-origin"]).toBe(ORIGIN);
  });
});

describe("defaults", () => {
  let bare: Harness;
  beforeAll(async () => {
    bare = await startHarness();
  });
  afterAll(() => bare?.stop());

  it(RUNTIME === "node" ? "mockllm serve allows any origin, answered as *" : "a Worker allows none until CORS_ORIGINS is set: 403 naming it", async () => {
    const res = await fetch(`${bare.url}/v1/chat/completions`, {
      method: "OPTIONS",
      headers: { origin: ORIGIN, "access-control-request-method": "POST", "access-control-request-headers": "authorization" },
    });
    if (RUNTIME === "node") {
      expect([res.status, res.headers.get("access-control-allow-origin"), res.headers.get("vary")]).toEqual([204, "*", "access-control-request-headers"]);
    } else {
      expect(res.status).toBe(403);
      expect(((await res.json()) as { error: { message: string } }).error.message).toContain("CORS_ORIGINS is not set");
    }
  });
});
