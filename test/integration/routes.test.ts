import { describe, expect, it } from "vitest";
import { admin, call, chat, upload, userTurn } from "./helpers";
import { splitPrefix } from "../../src/router";

describe("prefix parsing", () => {
  it.each([
    { path: "/v1/chat/completions", prefix: {}, rest: "/v1/chat/completions", root: false },
    { path: "/s/demo/v1/chat/completions", prefix: { scenario: "demo" }, rest: "/v1/chat/completions", root: false },
    { path: "/s/demo/run-1/v1/chat/completions", prefix: { scenario: "demo", session: "run-1" }, rest: "/v1/chat/completions", root: false },
    { path: "/s/demo/run-1/v1/messages", prefix: { scenario: "demo", session: "run-1" }, rest: "/v1/messages", root: false },
    { path: "/s/demo/v1/models", prefix: { scenario: "demo" }, rest: "/v1/models", root: false },
    { path: "/s/demo", prefix: { scenario: "demo" }, rest: "/", root: true },
    { path: "/s/demo/run-1", prefix: { scenario: "demo", session: "run-1" }, rest: "/", root: true },
    { path: "/s/demo/chat/completions", prefix: { scenario: "demo" }, rest: "/chat/completions", root: false },
    { path: "/s/demo/api/chat", prefix: { scenario: "demo" }, rest: "/api/chat", root: false },
    { path: "/s/demo/responses/resp_1", prefix: { scenario: "demo" }, rest: "/responses/resp_1", root: false },
    { path: "/s/demo/run-1/responses/resp_1", prefix: { scenario: "demo", session: "run-1" }, rest: "/responses/resp_1", root: false },
    { path: "/s/demo/v1/models/gpt-4o", prefix: { scenario: "demo" }, rest: "/v1/models/gpt-4o", root: false },
  ])("$path", ({ path, prefix, rest, root }) => {
    expect(splitPrefix(path)).toEqual({ prefix, path: rest, root });
  });
});

describe("selection rules", () => {
  it("1: path prefix; 2: headers; 3: first user message names a scenario; 4: top-level match by priority; 5: default", async () => {
    await upload(
      { name: "by-prefix", steps: [{ consume: false, respond: { text: "prefix" } }] },
      { name: "by-header", steps: [{ consume: false, respond: { text: "header" } }] },
      { name: "by-message", steps: [{ consume: false, respond: { text: "message" } }] },
      { name: "auto-low", priority: 1, match: { lastUserMessage: { contains: "auto" } }, steps: [{ consume: false, respond: { text: "low" } }] },
      { name: "auto-high", priority: 5, match: { lastUserMessage: { contains: "auto" } }, steps: [{ consume: false, respond: { text: "high" } }] },
    );
    const text = async (res: Response) => ((await res.json()) as any).choices[0].message.content;
    expect(await text(await chat(userTurn("by-message"), "/s/by-prefix"))).toBe("prefix");
    expect(await text(await chat(userTurn("by-message"), "", { "x-mock-scenario": "by-header" }))).toBe("header");
    expect(await text(await chat(userTurn("  by-message  ")))).toBe("message");
    expect(await text(await chat(userTurn("auto pilot")))).toBe("high");
    const fallback = await chat(userTurn("nothing selects this"));
    expect(fallback.status).toBe(200);
    expect(fallback.headers.get("x-mockllm-scenario")).toBeNull();
  });

  it("auto-selection follows uploads and deletes at once (the candidate cache is cleared by admin writes)", async () => {
    const ask = async () => (await chat(userTurn("zebra crossing"))).headers.get("x-mockllm-scenario");
    expect(await ask()).toBeNull();
    await upload({ name: "zebra", match: { lastUserMessage: { contains: "zebra" } }, steps: [{ consume: false, respond: { text: "z" } }] });
    expect(await ask()).toBe("zebra");
    expect((await admin("/scenarios/zebra", { method: "DELETE" })).status).toBe(200);
    expect(await ask()).toBeNull();
  });

  it("an unknown named scenario is an OpenAI-shaped 404 naming it", async () => {
    for (const res of [await chat(userTurn("x"), "/s/nope"), await chat(userTurn("x"), "", { "x-mock-scenario": "nope" })]) {
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({
        error: { message: 'mockllm: scenario "nope" not found', type: "invalid_request_error", param: null, code: "not_found" },
      });
    }
  });

  it("x-mock-session picks the session for header selection", async () => {
    await upload({ name: "sess", steps: [{ respond: { text: "first" } }, { respond: { text: "second" } }] });
    const t = async (s: string) => ((await (await chat(userTurn("x"), "", { "x-mock-scenario": "sess", "x-mock-session": s })).json()) as any).choices[0].message.content;
    expect([await t("a"), await t("b"), await t("a")]).toEqual(["first", "first", "second"]);
  });
});

describe("misc routes", () => {
  it("healthz, prefix probes, inspector", async () => {
    expect(await (await call("/healthz")).json()).toEqual({ ok: true, service: "mockllm" });
    const probe = await call("/s/weather-agent/ci-1", { method: "HEAD" });
    expect(probe.status).toBe(200);
    expect(await (await call("/s/weather-agent")).json()).toEqual({ ok: true, scenario: "weather-agent", session: "default" });
    expect((await call("/", { method: "HEAD" })).status).toBe(200);
    const page = await call("/");
    expect(page.headers.get("content-type")).toContain("text/html");
    expect(await page.text()).toContain("mockllm");
  });

  it("GET /v1/models lists the default and the models the scenarios mention", async () => {
    await upload({ name: "models", steps: [{ match: { model: "gpt-4.1" }, respond: { model: "gpt-4.1-2025-04-14" } }] });
    const listed = await call("/v1/models", { headers: { authorization: "Bearer x" } });
    expect(listed.headers.get("x-request-id")).toMatch(/^req_[0-9a-f]{32}$/);
    const body = (await listed.json()) as any;
    expect(body.object).toBe("list");
    const ids = body.data.map((m: any) => m.id);
    expect(ids[0]).toBe("mockllm-default");
    expect(ids).toEqual(expect.arrayContaining(["gpt-4.1", "gpt-4.1-2025-04-14"]));
    expect(body.data[0]).toEqual({ id: "mockllm-default", object: "model", created: 1735689600, owned_by: "mockllm" });
    expect((await call("/v1/models/gpt-4.1")).status).toBe(200);
    expect((await call("/v1/models/nope")).status).toBe(200);
    expect((await call("/v1/models/no%20pe")).status).toBe(404);
  });

  it("GET on a completion route is 405 in OpenAI's shape (GET /v1/chat/completions lists stored ones); unknown /v1 paths 404", async () => {
    const res = await call("/v1/embeddings");
    expect(res.status).toBe(405);
    expect(((await res.json()) as any).error.type).toBe("invalid_request_error");
    const nf = await call("/v1/nothing", { method: "POST" });
    expect(nf.status).toBe(404);
    expect(((await nf.json()) as any).error.message).toBe("Unknown request URL: POST /v1/nothing.");
  });
});

describe("bad input on the OpenAI surface", () => {
  it.each([
    { name: "no auth", init: { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(userTurn("x")) }, status: 401 },
    { name: "malformed JSON", body: "{", status: 400, message: /could not parse the JSON body/ },
    { name: "empty body", body: "", status: 400, message: /empty/ },
    { name: "array body", body: "[]", status: 400, message: /JSON object/ },
    { name: "missing model", body: JSON.stringify({ messages: [{ role: "user", content: "x" }] }), status: 400, message: /^you must provide a model parameter$/ },
    { name: "missing messages", body: JSON.stringify({ model: "m" }), status: 400, message: /Missing required parameter: 'messages'/ },
    {
      name: "empty messages",
      body: JSON.stringify({ model: "m", messages: [] }),
      status: 400,
      message: /^Invalid 'messages': empty array\. Expected an array with minimum length 1, but got an empty array instead\.$/,
    },
    {
      name: "bad role",
      body: JSON.stringify({ model: "m", messages: [{ role: "wizard", content: "x" }] }),
      status: 400,
      message: /^Invalid value: 'wizard'\. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'\.$/,
    },
    { name: "wrong content type", contentType: "text/plain", body: JSON.stringify(userTurn("x")), status: 415, message: /application\/json/ },
  ])("$name → $status", async ({ init, body, status, message, contentType }) => {
    const res = await call(
      "/v1/chat/completions",
      init ?? {
        method: "POST",
        headers: { authorization: "Bearer sk", "content-type": contentType ?? "application/json" },
        body,
      },
    );
    expect(res.status).toBe(status);
    const json = (await res.json()) as any;
    expect(typeof json.error.message).toBe("string");
    if (message) expect(json.error.message).toMatch(message);
    expect(res.headers.get("x-request-id")).toMatch(/^req_/);
  });

  it("a body over 10 MiB is 413", async () => {
    const big = JSON.stringify({ model: "m", messages: [{ role: "user", content: "x".repeat(10 * 1024 * 1024 + 10) }] });
    const res = await call("/v1/chat/completions", { method: "POST", headers: { authorization: "Bearer sk", "content-type": "application/json" }, body: big });
    expect(res.status).toBe(413);
  });

  it("invalid scenario or session names in the prefix are 400", async () => {
    expect((await chat(userTurn("x"), "/s/Bad_Name")).status).toBe(400);
  });
});

describe("names outside [a-z0-9][a-z0-9._-]{0,63} in the prefix (issue 10)", () => {
  const long = "a".repeat(2017);
  const openai = { authorization: "Bearer sk", "content-type": "application/json" };
  const anthropicHeaders = { "x-api-key": "k", "anthropic-version": "2023-06-01", "content-type": "application/json" };
  const requests = (prefix: string): { label: string; path: string; init: RequestInit }[] => [
    { label: "chat", path: `${prefix}/v1/chat/completions`, init: { method: "POST", headers: openai, body: JSON.stringify(userTurn("x")) } },
    { label: "responses", path: `${prefix}/v1/responses`, init: { method: "POST", headers: openai, body: JSON.stringify({ model: "m", input: "x" }) } },
    { label: "stored response", path: `${prefix}/v1/responses/resp_1`, init: { headers: openai } },
    {
      label: "messages",
      path: `${prefix}/v1/messages`,
      init: { method: "POST", headers: anthropicHeaders, body: JSON.stringify({ model: "m", max_tokens: 5, messages: [{ role: "user", content: "x" }] }) },
    },
    { label: "count_tokens", path: `${prefix}/v1/messages/count_tokens`, init: { method: "POST", headers: anthropicHeaders, body: "{}" } },
    { label: "models", path: `${prefix}/v1/models`, init: { headers: openai } },
    { label: "probe", path: prefix, init: {} },
    { label: "ollama tags", path: `${prefix}/api/tags`, init: {} },
    { label: "ollama chat", path: `${prefix}/api/chat`, init: { method: "POST", body: JSON.stringify({ model: "m", messages: [] }) } },
  ];
  const cases = [`/s/${long}`, "/s/Bad_Name", "/s/%E2%9C%93", `/s/ok/${long}`, "/s/ok/Bad%20Session"].flatMap((prefix) =>
    requests(prefix).map((r) => ({ ...r, label: `${prefix.slice(0, 24)} ${r.label}` })),
  );

  it.each(cases)("$label → 400 with a message naming the rule", async ({ path, init }) => {
    const res = await call(path, init);
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text).toMatch(/mockllm: invalid (scenario|session) name \\?".*\\?": names match \[a-z0-9\]\[a-z0-9\._-\]\{0,63\}/);
    expect(text.length).toBeLessThan(600);
  });

  it("a long name in x-mock-scenario or x-mock-session is shown cut, with its length", async () => {
    for (const what of ["scenario", "session"]) {
      const headers = { ...openai, "x-mock-scenario": "weather-agent", [`x-mock-${what}`]: long };
      const res = await call("/v1/chat/completions", { method: "POST", headers, body: JSON.stringify(userTurn("x")) });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: { message: string } }).error.message).toBe(`mockllm: invalid ${what} name "${"a".repeat(80)}… (2017 characters)": names match [a-z0-9][a-z0-9._-]{0,63}`);
    }
  });

  it("a GET/HEAD probe of a bad prefix is not answered ok", async () => {
    expect((await call(`/s/${long}`, { method: "HEAD" })).status).toBe(400);
  });
});
