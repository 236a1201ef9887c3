/**
 * The `/s/{scenario}[/{session}]` prefix under abuse (issue 34), on both runtimes: a scenario or session name outside
 * the rule is refused on every surface in that surface's own shape — JSON-RPC on MCP, AWS's on Bedrock, Azure's
 * gateway headers on Azure, Google's on Vertex and Gemini Live, a socket path's protocol on an upgrade — as a refused
 * credential is (namespaces-credentials.test.ts); and an unknown path below a provider's API prefix after a scenario
 * (`/s/{scenario}/openai/nope`) is that provider's 404, not a session named `openai`.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { answer } from "../support/garbage";
import { call, upload } from "./helpers";
import { openSocket } from "./socket-helpers";

type Shape = "openai" | "azure" | "anthropic" | "google" | "bedrock" | "ollama" | "cohere" | "mcp";

const SIGV4 = "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20260101/us-east-1/bedrock/aws4_request, SignedHeaders=host, Signature=0";
const OPENAI = { authorization: "Bearer sk", "content-type": "application/json" };
const AZURE = { "api-key": "k", "content-type": "application/json" };
const ANTHROPIC = { "x-api-key": "k", "anthropic-version": "2023-06-01", "content-type": "application/json" };
const GOOGLE = { "x-goog-api-key": "k", "content-type": "application/json" };
const chat = { model: "m", messages: [{ role: "user", content: "hi" }] };
const LIVE = "/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent";
const VERTEX = "/v1/projects/p/locations/us-central1/publishers";

const SURFACES: { name: string; path: string; shape: Shape; headers?: Record<string, string>; body?: unknown; socket?: true }[] = [
  { name: "OpenAI Chat", path: "/v1/chat/completions", shape: "openai", headers: OPENAI, body: chat },
  { name: "MCP", path: "/mcp", shape: "mcp", headers: { "content-type": "application/json", accept: "application/json, text/event-stream" }, body: { jsonrpc: "2.0", id: 1, method: "ping" } },
  { name: "Anthropic", path: "/v1/messages", shape: "anthropic", headers: ANTHROPIC, body: { ...chat, max_tokens: 5 } },
  { name: "Gemini", path: "/v1beta/models/gemini-2.5-flash:generateContent", shape: "google", headers: GOOGLE, body: { contents: [{ parts: [{ text: "hi" }] }] } },
  { name: "Vertex Gemini", path: `${VERTEX}/google/models/gemini-2.5-flash:generateContent`, shape: "google", headers: OPENAI, body: { contents: [{ parts: [{ text: "hi" }] }] } },
  {
    name: "Vertex Claude",
    path: `${VERTEX}/anthropic/models/claude-sonnet-4@20250514:rawPredict`,
    shape: "anthropic",
    headers: OPENAI,
    body: { anthropic_version: "vertex-2023-10-16", ...chat, max_tokens: 5 },
  },
  { name: "Ollama", path: "/api/chat", shape: "ollama", body: chat },
  {
    name: "Bedrock",
    path: "/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse",
    shape: "bedrock",
    headers: { authorization: SIGV4, "content-type": "application/json" },
    body: { messages: [{ role: "user", content: [{ text: "hi" }] }] },
  },
  { name: "Cohere rerank", path: "/v2/rerank", shape: "cohere", headers: OPENAI, body: { model: "m", query: "q", documents: ["a"] } },
  { name: "Azure deployment", path: "/openai/deployments/d1/chat/completions?api-version=2024-10-21", shape: "azure", headers: AZURE, body: chat },
  { name: "Azure responses", path: "/openai/responses?api-version=2025-04-01-preview", shape: "azure", headers: AZURE, body: { model: "d1", input: "hi" } },
  { name: "Azure v1", path: "/openai/v1/chat/completions", shape: "azure", headers: AZURE, body: chat },
  { name: "Realtime upgrade", path: "/v1/realtime?model=gpt-realtime", shape: "openai", headers: { authorization: "Bearer sk" }, socket: true },
  { name: "Responses WebSocket upgrade", path: "/v1/responses", shape: "openai", headers: { authorization: "Bearer sk" }, socket: true },
  { name: "Gemini Live upgrade", path: LIVE, shape: "google", socket: true },
];

const BAD_PREFIXES = ["/s/;", "/s/ok/Bad%20Name", `/s/${"a".repeat(65)}`];

/** Whether `a` (with `res`'s headers) is an error in `shape` carrying `status` and a message matching `message`. */
function inShape(shape: Shape, a: { status: number; json: unknown }, headers: Headers, status: number, message: RegExp): boolean {
  const j = a.json as Record<string, any> | undefined;
  const e = j?.error;
  const said = (m: unknown) => typeof m === "string" && message.test(m);
  if (a.status !== status) return false;
  switch (shape) {
    case "openai":
      return said(e?.message) && e.type === "invalid_request_error" && "param" in e && "code" in e && headers.get("apim-request-id") === null;
    case "azure":
      return said(e?.message) && headers.get("apim-request-id") !== null;
    case "anthropic":
      return j?.type === "error" && typeof e?.type === "string" && said(e.message);
    case "google":
      return e?.code === status && typeof e.status === "string" && said(e.message);
    case "bedrock":
      return /Exception$/.test((headers.get("x-amzn-errortype") ?? "").split(":")[0]!) && said(j?.message);
    case "ollama":
      return Object.keys(j ?? {}).length === 1 && said(e);
    case "cohere":
      return Object.keys(j ?? {}).length === 1 && said(j?.message);
    case "mcp":
      return j?.jsonrpc === "2.0" && j.id === null && e?.code === -32600 && said(e.message);
  }
}

async function send(surface: (typeof SURFACES)[number], path: string): Promise<Response> {
  if (surface.socket) {
    const s = await openSocket(path, surface.headers);
    if (!(s instanceof Response)) {
      s.close();
      throw new Error(`${path}: the upgrade was accepted`);
    }
    return s;
  }
  return call(path, { method: "POST", headers: surface.headers ?? {}, body: JSON.stringify(surface.body) });
}

describe("a bad scenario or session name in the /s/ prefix, on every surface and socket path", () => {
  it("is a 400 in the surface's own shape naming the rule", async () => {
    const bad: string[] = [];
    for (const prefix of BAD_PREFIXES) {
      for (const surface of SURFACES) {
        const res = await send(surface, `${prefix}${surface.path}`);
        const a = await answer(res);
        if (!inShape(surface.shape, a, res.headers, 400, /^mockllm: invalid (scenario|session) name ".*": names match/)) {
          bad.push(`${surface.name} ${prefix.slice(0, 20)} → ${a.status} ${a.text.slice(0, 160)}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });
});

describe("an unknown path below a provider's API prefix after /s/{scenario}", () => {
  beforeAll(async () => {
    await upload({ name: "prefix-apis", steps: [{ consume: false, respond: { text: "Fine." } }] });
  });

  it("is that provider's 404 (Azure's below /openai/, AWS's below /model/), not a session named after the prefix", async () => {
    const bad: string[] = [];
    for (const [path, shape, headers] of [
      ["/s/prefix-apis/openai/nope", "azure", AZURE],
      ["/s/prefix-apis/openai/deployments/d1/extensions/chat/completions?api-version=2024-10-21", "azure", AZURE],
      ["/s/prefix-apis/s1/openai/nope", "azure", AZURE],
      ["/s/prefix-apis/model/nope", "bedrock", { authorization: SIGV4, "content-type": "application/json" }],
    ] as const) {
      const res = await call(path, { method: "POST", headers, body: JSON.stringify(chat) });
      const a = await answer(res);
      if (!inShape(shape, a, res.headers, 404, /Unknown request URL|not found|UnknownOperation/i)) bad.push(`${path} → ${a.status} ${a.text.slice(0, 160)}`);
    }
    expect(bad).toEqual([]);
  });

  it("a session named openai still serves every known route below it", async () => {
    for (const [path, headers, body] of [
      ["/s/prefix-apis/openai/v1/messages", ANTHROPIC, { ...chat, max_tokens: 5 }],
      ["/s/prefix-apis/openai/api/chat", {}, { ...chat, stream: false }],
      ["/s/prefix-apis/openai/mcp", { "content-type": "application/json", accept: "application/json" }, { jsonrpc: "2.0", id: 1, method: "ping" }],
    ] as const) {
      const res = await call(path, { method: "POST", headers, body: JSON.stringify(body) });
      expect([path, res.status, res.headers.get("x-mockllm-session")]).toEqual([path, 200, "openai"]);
    }
  });
});
