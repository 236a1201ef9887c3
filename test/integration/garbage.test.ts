import { describe, expect, it } from "vitest";
import { seededRandom } from "../../src/util/hash";
import { answer, NOT_A_REQUEST, OVER_BODY_LIMIT } from "../support/garbage";
import { admin, call, upload } from "./helpers";

/** Every route a client can reach, with the methods worth throwing at it. */
const ROUTES = [
  "/v1/chat/completions",
  "/s/weather-agent/v1/chat/completions",
  "/s/weather-agent/g1/v1/chat/completions",
  "/v1/messages",
  "/s/weather-agent/v1/messages",
  "/v1/messages/count_tokens",
  "/v1/responses",
  "/v1/embeddings",
  "/v1/moderations",
  "/s/weather-agent/v2/rerank",
  "/v1/rerank",
  "/v1/images/edits",
  "/v1/images/files/img-1x1-000000.png",
  "/v1/audio/transcriptions",
  "/v1/models",
  "/v1/models/x",
  "/v1beta/models/gemini-2.5-flash:generateContent?key=k",
  "/s/weather-agent/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse&key=k",
  "/s/weather-agent/g1/v1beta/models/m:streamGenerateContent",
  "/v1/models/m:generateContent?key=k",
  "/v1beta/models?key=k",
  "/v1beta/models/m",
  "/api/chat",
  "/s/weather-agent/api/chat",
  "/s/weather-agent/g1/api/generate",
  "/api/generate",
  "/api/tags",
  "/api/show",
  "/api/version",
  "/api/nope",
  "/admin/scenarios",
  "/admin/scenarios/x",
  "/admin/sessions/x/y",
  "/admin/sessions/x/y/requests",
  "/admin/sessions/x/y/reset",
  "/admin/sessions/x/y/verify",
  "/admin/sessions?scenario=x",
  "/admin/scenarios/x/coverage",
  "/inspector/app.js",
  "/inspector/nope",
  "/admin/schema",
  "/healthz",
  "/",
  "/s/",
  "/s/%ZZ/v1/chat/completions",
  "/nope",
];

const BODIES: (string | undefined)[] = [
  undefined,
  ...NOT_A_REQUEST,
  '{"model":null,"messages":null}',
  '{"model":"m","messages":[null]}',
  '{"model":"m","messages":[{"role":"user","content":[1,2]}]}',
  '{"model":"m","messages":[{"role":"assistant","tool_calls":[{"id":1}]}]}',
  '{"model":"m","max_tokens":"x","messages":[{"role":"user","content":{"a":1}}]}',
  '{"model":"m","input":[{"type":"function_call_output"}]}',
  '{"name":"x","steps":[{"respond":{"toolCalls":[{"name":""}]}}]}',
  '{"contents":[null],"systemInstruction":7}',
  '{"contents":[{"role":"model","parts":[{"functionCall":{"name":1,"args":[]}},{"thought":"yes"}]}]}',
  '{"contents":[{"parts":[{"text":"x"}]}],"generationConfig":{"thinkingConfig":"x"},"tools":[{"functionDeclarations":[null]}]}',
];

const HEADER_SETS: Record<string, string>[] = [
  {},
  { authorization: "Bearer sk", "content-type": "application/json" },
  { "x-api-key": "k", "anthropic-version": "2023-06-01", "content-type": "application/json" },
  { authorization: "Bearer test-admin-token", "content-type": "application/json" },
  { authorization: "Bearer sk", "content-type": "text/plain", "x-mock-scenario": "../../etc" },
];

describe("garbage in, never a 5xx out", () => {
  it("throws malformed requests at every route", async () => {
    const failures: string[] = [];
    for (const path of ROUTES) {
      for (const method of ["GET", "POST", "PUT", "DELETE", "HEAD"]) {
        for (const headers of HEADER_SETS) {
          for (const body of method === "GET" || method === "HEAD" ? [undefined] : BODIES) {
            const res = await call(path, { method, headers, ...(body !== undefined ? { body } : {}) });
            await res.arrayBuffer();
            if (res.status >= 500) failures.push(`${method} ${path} ${JSON.stringify(headers)} ${body} → ${res.status}`);
          }
        }
      }
    }
    expect(failures).toEqual([]);
    // Five methods on every route, one after another: seconds on a quiet machine, far longer on a loaded one.
  }, 180_000);
});

/** `levels` nested objects and arrays, alternating, around a number. */
function deep(levels: number): string {
  let open = "";
  let close = "";
  for (let i = 0; i < levels; i++) {
    open += i % 2 === 0 ? '{"a":' : "[";
    close = (i % 2 === 0 ? "}" : "]") + close;
  }
  return `${open}1${close}`;
}

const OPENAI = { authorization: "Bearer sk", "content-type": "application/json" };
const ANTHROPIC = { "x-api-key": "k", "anthropic-version": "2023-06-01", "content-type": "application/json" };
const GEMINI = { "x-goog-api-key": "k", "content-type": "application/json" };
const user = [{ role: "user", content: "hi" }];

/** Every provider route with a valid body, streamed and not. */
const PROVIDER_ROUTES: { name: string; path: (stream: boolean) => string; headers: Record<string, string>; body: (stream: boolean) => Record<string, unknown> }[] = [
  { name: "openai chat", path: () => "/v1/chat/completions", headers: OPENAI, body: (stream) => ({ model: "m", messages: user, stream }) },
  { name: "openai responses", path: () => "/v1/responses", headers: OPENAI, body: (stream) => ({ model: "m", input: "hi", stream }) },
  { name: "openai embeddings", path: () => "/v1/embeddings", headers: OPENAI, body: () => ({ model: "m", input: "hi" }) },
  { name: "openai moderations", path: () => "/v1/moderations", headers: OPENAI, body: () => ({ model: "m", input: ["hi", { type: "text", text: "hi" }] }) },
  { name: "cohere rerank v2", path: () => "/v2/rerank", headers: OPENAI, body: () => ({ model: "m", query: "hi", documents: ["hi", "there"], top_n: 1 }) },
  { name: "cohere rerank v1", path: () => "/v1/rerank", headers: OPENAI, body: () => ({ query: "hi", documents: [{ text: "hi" }, "there"], return_documents: true }) },
  { name: "anthropic messages", path: () => "/v1/messages", headers: ANTHROPIC, body: (stream) => ({ model: "m", max_tokens: 5, messages: user, stream }) },
  { name: "anthropic count_tokens", path: () => "/v1/messages/count_tokens", headers: ANTHROPIC, body: () => ({ model: "m", messages: user }) },
  {
    name: "gemini",
    path: (stream) => `/v1beta/models/gemini-2.5-flash:${stream ? "streamGenerateContent?alt=sse" : "generateContent"}`,
    headers: GEMINI,
    body: () => ({ contents: [{ role: "user", parts: [{ text: "hi" }] }], systemInstruction: { parts: [{ text: "be brief" }] } }),
  },
  { name: "ollama chat", path: () => "/api/chat", headers: {}, body: (stream) => ({ model: "m", messages: user, stream }) },
  { name: "ollama generate", path: () => "/api/generate", headers: {}, body: (stream) => ({ model: "m", prompt: "hi", stream }) },
];

/** The fields the issue nested 10,000 deep, as setters on a body. */
const DEEP_FIELDS: [string, (body: Record<string, unknown>, v: unknown) => void][] = [
  ["tools[0].function.parameters", (b, v) => (b.tools = [{ type: "function", function: { name: "f", parameters: v } }])],
  ["metadata", (b, v) => (b.metadata = v)],
  ["seed", (b, v) => (b.seed = v)],
  ["stream_options", (b, v) => (b.stream_options = v)],
  ["tools[0].input_schema", (b, v) => (b.tools = [{ name: "f", input_schema: v }])],
  ["systemInstruction.parts[0].text", (b, v) => (b.systemInstruction = { parts: [{ text: v }] })],
  ["tools (ollama)", (b, v) => (b.tools = v)],
];

const MARK = '"__DEEP__"';

describe("10,000-level nesting at each field the issue found, on every provider route (issue 10)", () => {
  it("is a 4xx in the provider's shape naming the limit, JSON and stream, and the journal still answers", async () => {
    await upload({ name: "deep", steps: [{ consume: false, respond: { text: "fine" } }] });
    const bad: string[] = [];
    for (const route of PROVIDER_ROUTES) {
      for (const stream of [false, true]) {
        for (const prefix of ["", "/s/deep/d1"]) {
          for (const [field, set] of DEEP_FIELDS) {
            const body = route.body(stream);
            set(body, "__DEEP__");
            const text = JSON.stringify(body).replace(MARK, deep(10_000));
            const res = await call(`${prefix}${route.path(stream)}`, { method: "POST", headers: route.headers, body: text });
            const answer = await res.text();
            const label = `${route.name} stream=${stream} ${prefix} ${field} → ${res.status}`;
            if (res.status !== 400 || !answer.includes("deeper than 128 levels")) bad.push(`${label} ${answer.slice(0, 120)}`);
          }
        }
      }
    }
    expect(bad).toEqual([]);
    // Nothing refused reached the session: it never ran (contract section 10: a 404 saying so, not an empty journal).
    const journal = await admin("/sessions/deep/d1/requests");
    expect(journal.status).toBe(404);
    expect(((await journal.json()) as { error: { code: string } }).error.code).toBe("session_not_run");
    const ok = await call("/s/deep/d1/v1/chat/completions", { method: "POST", headers: OPENAI, body: JSON.stringify({ model: "m", messages: user }) });
    expect(ok.status).toBe(200);
    expect(((await (await admin("/sessions/deep/d1/requests")).json()) as unknown[]).length).toBe(1);
  });

  it("a deep but legitimate tool schema (60 nested properties, 125 levels) is accepted and journaled", async () => {
    let schema: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 60; i++) schema = { type: "object", properties: { p: schema } };
    const body = { model: "m", messages: user, tools: [{ type: "function", function: { name: "f", parameters: schema } }] };
    const res = await call("/s/deep/d2/v1/chat/completions", { method: "POST", headers: OPENAI, body: JSON.stringify(body) });
    expect(res.status).toBe(200);
    const [entry] = (await (await admin("/sessions/deep/d2/requests")).json()) as { request: { body: unknown } }[];
    expect(entry!.request.body).toEqual(body);
  });

  it("admin uploads nesting past the limit are 400 naming it", async () => {
    const res = await admin("/scenarios/deep", { method: "PUT", body: `{"name":"deep","steps":[{"respond":{"toolCalls":[{"name":"f","arguments":${deep(10_000)}}]}}]}` });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/^body nests objects and arrays deeper than 128 levels \(at character \d+\)/);
  });

  it("scripted arguments text and default-responder instructions nesting 10,000 deep are not parsed into a 5xx", async () => {
    await upload({ name: "deep-args", steps: [{ consume: false, respond: { toolCalls: [{ name: "f", arguments: deep(10_000) }] } }] });
    for (const [path, headers, body] of [
      ["/s/deep-args/v1/messages", ANTHROPIC, { model: "m", max_tokens: 5, messages: user }],
      ["/s/deep-args/api/chat", {}, { model: "m", messages: user, stream: false }],
      ["/s/deep-args/v1beta/models/m:generateContent", GEMINI, { contents: [{ parts: [{ text: "hi" }] }] }],
    ] as const) {
      const res = await call(path, { method: "POST", headers, body: JSON.stringify(body) });
      expect(res.status, path).toBe(200);
      expect(await res.text()).toContain("INVALID_JSON");
    }
    const instructed = `<|instruction_start|>{"messages":[{"tool_call":[{"name":"f","args":${deep(10_000)}}]}]}<|instruction_end|>`;
    const res = await call("/v1/chat/completions", { method: "POST", headers: OPENAI, body: JSON.stringify({ model: "m", messages: [{ role: "user", content: instructed }] }) });
    expect(res.status).toBe(200);
  });
});

/** Ways to break a valid body, driven by a seeded PRNG so a failure replays exactly. */
const MUTATIONS: ((text: string, r: () => number) => string)[] = [
  (t, r) => t.slice(0, Math.floor(r() * t.length)),
  (t, r) => {
    const i = Math.floor(r() * t.length);
    return t.slice(0, i) + String.fromCharCode(Math.floor(r() * 0x10000)) + t.slice(i);
  },
  (t, r) => {
    const i = Math.floor(r() * t.length);
    return t.slice(0, i) + t.slice(i + 1 + Math.floor(r() * 8));
  },
  (t, r) => t.replace(/"hi"/, () => deep(Math.floor(r() * 3000))),
  (t, r) => t.replace(/"m"/, () => ["null", "1e999", "-0", "[]", "{}", '"\\ud800"', "true", deep(129)][Math.floor(r() * 8)]!),
  (t, r) => t.replace(/:(\[|\{)/, (m) => (r() < 0.5 ? `:${deep(127)},` : m)),
  (t) => t.replace(/"(messages|contents|input|prompt)"/, '"$1x"'),
  (t, r) => `${t}${["", " ", "x", "}", "]", ",", "\u0000"][Math.floor(r() * 7)]}`,
];

describe("fuzz: seeded malformed bodies on every provider route, never a 5xx", () => {
  it("2,000 mutated requests", async () => {
    const r = seededRandom(20261123);
    const failures: string[] = [];
    for (let i = 0; i < 2000; i++) {
      const route = PROVIDER_ROUTES[Math.floor(r() * PROVIDER_ROUTES.length)]!;
      const stream = r() < 0.5;
      const prefix = ["", "/s/deep/fz", "/s/weather-agent/fz"][Math.floor(r() * 3)]!;
      let text = JSON.stringify(route.body(stream));
      const rounds = 1 + Math.floor(r() * 3);
      for (let k = 0; k < rounds; k++) text = MUTATIONS[Math.floor(r() * MUTATIONS.length)]!(text, r);
      const res = await call(`${prefix}${route.path(stream)}`, { method: "POST", headers: route.headers, body: text });
      await res.arrayBuffer();
      if (res.status >= 500) failures.push(`#${i} ${route.name} ${prefix} → ${res.status}: ${text.slice(0, 200)}`);
    }
    expect(failures).toEqual([]);
    // The admin API still answers: the journal, or 404 when no fuzzed request reached the session (contract section 10).
    expect([200, 404]).toContain((await admin("/sessions/deep/fz/requests")).status);
  });
});

type Shape = "openai" | "anthropic" | "gemini" | "ollama" | "cohere";

/** Which provider's error shape `body` has, or a description of what it is instead. */
function shapeOf(body: unknown): Shape | string {
  if (typeof body !== "object" || body === null) return `not an object: ${JSON.stringify(body)}`;
  const b = body as Record<string, unknown>;
  const e = b.error as Record<string, unknown> | string | undefined;
  if (Object.keys(b).length === 1 && typeof e === "string") return "ollama";
  if (Object.keys(b).length === 1 && typeof b.message === "string") return "cohere";
  if (b.type === "error" && typeof e === "object" && typeof e.type === "string" && typeof e.message === "string") return "anthropic";
  if (typeof e === "object" && e !== null) {
    if (typeof e.code === "number" && typeof e.message === "string" && typeof e.status === "string") return "gemini";
    if (typeof e.message === "string" && typeof e.type === "string" && "param" in e && "code" in e) return "openai";
  }
  return `unknown: ${JSON.stringify(body).slice(0, 160)}`;
}

/** Each surface's paths, main and side routes, as a client of that provider calls them. */
const SURFACE_PATHS: { shape: Shape; method: "GET" | "POST"; path: string; headers: Record<string, string>; unauthorized?: true }[] = [
  { shape: "openai", method: "POST", path: "/v1/chat/completions", headers: OPENAI },
  { shape: "openai", method: "POST", path: "/v1/responses", headers: OPENAI },
  { shape: "openai", method: "POST", path: "/v1/embeddings", headers: OPENAI },
  { shape: "openai", method: "POST", path: "/v1/moderations", headers: OPENAI },
  { shape: "cohere", method: "POST", path: "/v2/rerank", headers: OPENAI },
  { shape: "cohere", method: "POST", path: "/v1/rerank", headers: OPENAI },
  { shape: "cohere", method: "POST", path: "/v1/rerank", headers: { "content-type": "application/json" }, unauthorized: true },
  { shape: "openai", method: "POST", path: "/v1/images/generations", headers: OPENAI },
  { shape: "openai", method: "POST", path: "/v1/audio/speech", headers: OPENAI },
  { shape: "openai", method: "GET", path: "/v1/models", headers: OPENAI },
  { shape: "openai", method: "GET", path: "/v1/models/gpt-4o", headers: OPENAI },
  { shape: "openai", method: "GET", path: "/v1/responses/resp_123", headers: OPENAI },
  { shape: "anthropic", method: "POST", path: "/v1/messages", headers: ANTHROPIC },
  { shape: "anthropic", method: "POST", path: "/v1/messages/count_tokens", headers: ANTHROPIC },
  { shape: "anthropic", method: "POST", path: "/v1/messages/count_tokens", headers: { "content-type": "application/json" }, unauthorized: true },
  { shape: "anthropic", method: "GET", path: "/v1/models", headers: ANTHROPIC },
  { shape: "anthropic", method: "GET", path: "/v1/models/claude-sonnet-4-5", headers: { "x-api-key": "k" } },
  { shape: "gemini", method: "POST", path: "/v1beta/models/gemini-2.5-flash:generateContent", headers: GEMINI },
  { shape: "gemini", method: "POST", path: "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse", headers: GEMINI },
  { shape: "gemini", method: "POST", path: "/v1/models/gemini-2.5-flash:generateContent?key=k", headers: { "content-type": "application/json" } },
  { shape: "gemini", method: "GET", path: "/v1beta/models", headers: GEMINI },
  { shape: "gemini", method: "GET", path: "/v1beta/models/gemini-2.5-flash?key=k", headers: {} },
  { shape: "gemini", method: "GET", path: "/v1/models?key=k", headers: {} },
  { shape: "ollama", method: "POST", path: "/api/chat", headers: {} },
  { shape: "ollama", method: "POST", path: "/api/generate", headers: {} },
  { shape: "ollama", method: "POST", path: "/api/show", headers: {} },
  { shape: "ollama", method: "GET", path: "/api/tags", headers: {} },
  { shape: "ollama", method: "GET", path: "/api/version", headers: {} },
  { shape: "ollama", method: "GET", path: "/api/ps", headers: {} },
];

/** `/s/…` prefixes whose scenario or session is not a valid name (the fuzz runs' and a few more). */
const BAD_PREFIXES = ["/s/;", "/s/hasOwnProperty/fz-6", "/s/%5b%5d/fz-9", "/s/ok/Bad%20Name", "/s/%ZZ/s1", `/s/${"a".repeat(65)}`];

describe("early errors come in the shape of the path's surface (issue 19)", () => {
  async function check(method: string, path: string, headers: Record<string, string>, body: string | undefined, want: { shape: Shape; status: number }): Promise<string | undefined> {
    const a = await answer(await call(path, { method, headers, ...(body !== undefined ? { body } : {}) }));
    const got = { shape: shapeOf(a.json ?? a.text), status: a.status };
    return got.shape === want.shape && got.status === want.status ? undefined : `${method} ${path} ${JSON.stringify(headers)} → ${JSON.stringify(got)}, want ${JSON.stringify(want)}`;
  }

  it("a bad scenario or session name in the /s/ prefix, on every surface's paths, main and side routes", async () => {
    const bad: string[] = [];
    for (const prefix of BAD_PREFIXES) {
      for (const r of SURFACE_PATHS) {
        const body = r.method === "POST" ? JSON.stringify({ model: "m", messages: user }) : undefined;
        const miss = await check(r.method, `${prefix}${r.path}`, r.headers, body, { shape: r.shape, status: 400 });
        if (miss) bad.push(miss);
      }
    }
    expect(bad).toEqual([]);
  });

  it("bad JSON, a body nesting past the limit and a body over the size limit, on every surface's POST paths", async () => {
    const bad: string[] = [];
    for (const prefix of ["", "/s/shape-nope/s1"]) {
      for (const r of SURFACE_PATHS.filter((p) => p.method === "POST" && p.unauthorized === undefined)) {
        for (const [body, status] of [
          ["{", 400],
          ['{"model":', 400],
          [deep(200), 400],
          [OVER_BODY_LIMIT, 413],
        ] as const) {
          const miss = await check("POST", `${prefix}${r.path}`, r.headers, body, { shape: r.shape, status });
          if (miss) bad.push(`${miss} (body ${body.slice(0, 12)}…)`);
        }
      }
    }
    expect(bad).toEqual([]);
  });

  it("refused headers, a wrong method or an unknown path below a surface's prefix", async () => {
    const bad: string[] = [];
    for (const [method, path, headers, shape, status] of [
      ["POST", "/v1/messages/count_tokens", { "content-type": "application/json" }, "anthropic", 401],
      ["POST", "/s/ok/v1/messages", { "x-api-key": "k", "content-type": "text/plain" }, "anthropic", 400],
      ["POST", "/v1/chat/completions", { authorization: "Bearer k", "content-type": "text/plain" }, "openai", 415],
      ["GET", "/v1beta/models", {}, "gemini", 403],
      ["GET", "/v1/embeddings", OPENAI, "openai", 405],
      ["GET", "/v1/moderations", OPENAI, "openai", 405],
      ["GET", "/s/ok/v2/rerank", OPENAI, "cohere", 405],
      ["POST", "/v1/rerank", { "content-type": "application/json" }, "cohere", 401],
      ["GET", "/v1/messages", ANTHROPIC, "anthropic", 405],
      ["GET", "/v1/messages/count_tokens", ANTHROPIC, "anthropic", 405],
      ["GET", "/api/chat", {}, "ollama", 405],
      ["POST", "/api/tags", {}, "ollama", 405],
      ["GET", "/api/show", {}, "ollama", 405],
      ["GET", "/s/ok/api/nope", {}, "ollama", 404],
      ["GET", "/s/ok/s1/v1beta/nope", {}, "gemini", 404],
      ["GET", "/s/ok/s1/v1/messages/nope", {}, "anthropic", 404],
      ["GET", "/s/ok/v1/nope", {}, "openai", 404],
    ] as const) {
      const miss = await check(method, path, headers, undefined, { shape, status });
      if (miss) bad.push(miss);
    }
    expect(bad).toEqual([]);
  });
});
