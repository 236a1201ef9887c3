/**
 * Azure OpenAI (contract section 10) on both runtimes: the deployment, `/openai/responses` and v1 routes, also under
 * the scenario prefix; `api-key` or Bearer auth (a namespace key in either); `api-version` as the real service
 * answers it; what `model` matchers see; Azure's headers, error shapes, content-filter annotations, the stream's
 * leading empty-`choices` chunk, the `content_filter` failure (prompt: 400; completion: `finish_reason:
 * "content_filter"`), and its 429.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { AZURE_JSON as KEY, SAFE, UUID, deploymentRoute, post } from "./azure-helpers";
import { admin, call, upload } from "./helpers";

const VERSION = "2024-10-21";
const USER = [{ role: "user", content: "Hello" }];
const NONE = { filtered: false, detected: false };
const PROMPT_SAFE = { hate: SAFE, jailbreak: NONE, self_harm: SAFE, sexual: SAFE, violence: SAFE };
const CHOICE_SAFE = { hate: SAFE, protected_material_code: NONE, protected_material_text: NONE, self_harm: SAFE, sexual: SAFE, violence: SAFE };

beforeAll(async () => {
  await upload(
    {
      name: "az-match",
      steps: [
        { id: "prod", consume: false, match: { provider: "azure", model: "prod-4o" }, respond: { text: "From the prod deployment.", usage: { inputTokens: 5, outputTokens: 4 } } },
        { id: "other", consume: false, match: { provider: "azure" }, respond: { text: "Another deployment." } },
      ],
    },
    { name: "az-said", steps: [{ consume: false, respond: { text: "Hi there friend.", stream: { chunkWords: 2 } } }] },
    { name: "az-embed", steps: [{ consume: false, match: { endpoint: "embeddings", model: "ada-prod" }, respond: { embeddings: [[0.25, -0.5]] } }] },
    { name: "az-429", steps: [{ consume: false, failures: [{ kind: "rate_limit", retryAfterMs: 6000 }], respond: { text: "never" } }] },
    { name: "az-block", steps: [{ consume: false, failures: [{ kind: "content_filter", on: "prompt", categories: ["violence", "jailbreak"] }], respond: { text: "never" } }] },
    {
      name: "az-cut",
      steps: [
        {
          consume: false,
          failures: [{ kind: "content_filter", on: "completion", afterChunks: 2, categories: ["self_harm"] }],
          respond: { text: "one two three four five", stream: { chunkWords: 1 } },
        },
      ],
    },
  );
}, 60_000);

const deployment = deploymentRoute(VERSION);

/** The SSE payloads of a stream, `[DONE]` kept as a string. */
async function events(res: Response): Promise<unknown[]> {
  const text = await res.text();
  return text
    .split("\n\n")
    .filter((b) => b.startsWith("data: "))
    .map((b) => b.slice("data: ".length))
    .map((d) => (d === "[DONE]" ? d : JSON.parse(d)));
}

describe("Azure routes and what model matchers see", () => {
  it("a deployment route answers chat JSON with Azure's annotations and headers; model matchers see the deployment, not the body's model", async () => {
    const res = await post(`/s/az-match/r1${deployment("prod-4o")}`, { model: "gpt-4o", messages: USER });
    expect(res.status).toBe(200);
    const id = res.headers.get("x-request-id")!;
    expect(id).toMatch(UUID);
    const apim = res.headers.get("apim-request-id");
    expect([
      apim !== id && UUID.test(apim ?? ""),
      res.headers.get("x-ms-client-request-id"),
      res.headers.get("x-ms-region"),
      res.headers.get("x-ms-rai-invoked"),
      res.headers.get("x-ms-deployment-name"),
      res.headers.get("x-mockllm-step"),
    ]).toEqual([true, apim, "East US", "true", "prod-4o", "prod"]);
    const body = (await res.json()) as Record<string, unknown>;
    expect(Object.keys(body)).toEqual(["choices", "created", "id", "model", "object", "prompt_filter_results", "system_fingerprint", "usage"]);
    expect(body.model).toBe("prod-4o");
    // Azure's order: keys sorted, but inside the annotations (`prompt_index` first, `filtered` before `detected`).
    const text = JSON.stringify(body);
    expect([
      text.indexOf('"content_filter_results":{"hate"') < text.indexOf('"finish_reason"'),
      text.includes('{"prompt_index":0,"content_filter_results"'),
      text.includes('"protected_material_code":{"filtered":false,"detected":false}'),
    ]).toEqual([true, true, true]);
    expect(body.prompt_filter_results).toEqual([{ prompt_index: 0, content_filter_results: PROMPT_SAFE }]);
    expect(body.choices).toEqual([
      {
        content_filter_results: CHOICE_SAFE,
        finish_reason: "stop",
        index: 0,
        logprobs: null,
        message: { annotations: [], content: "From the prod deployment.", refusal: null, role: "assistant" },
      },
    ]);
  });

  it("a deployment route needs no body model; the v1 route and /openai/responses take the deployment from the body", async () => {
    const bare = await post(`/s/az-match/r2${deployment("prod-4o")}`, { messages: USER });
    expect([bare.status, bare.headers.get("x-mockllm-step")]).toEqual([200, "prod"]);
    const v1 = await post("/s/az-match/r2/openai/v1/chat/completions", { model: "prod-4o", messages: USER }, { authorization: "Bearer azure-key", "content-type": "application/json" });
    expect([v1.status, v1.headers.get("x-mockllm-step")]).toEqual([200, "prod"]);
    const other = await post(`/s/az-match/r2${deployment("mini-dev")}`, { model: "prod-4o", messages: USER });
    expect([other.status, other.headers.get("x-mockllm-step"), ((await other.json()) as { model: string }).model]).toEqual([200, "other", "mini-dev"]);
    const responses = await post(`/s/az-match/r2/openai/responses?api-version=2025-04-01-preview`, { model: "prod-4o", input: "Hello" });
    const r = (await responses.json()) as { object: string; model: string; output: { content: { text: string }[] }[] };
    expect([responses.status, responses.headers.get("x-mockllm-step"), r.object, r.model, r.output[0]!.content[0]!.text]).toEqual([200, "prod", "response", "prod-4o", "From the prod deployment."]);
    const v1Responses = await post("/s/az-match/r2/openai/v1/responses", { model: "prod-4o", input: "Hello" });
    expect([v1Responses.status, v1Responses.headers.get("x-mockllm-step")]).toEqual([200, "prod"]);
    const byPath = await post(`/s/az-match/r2${deployment("prod-4o", "responses", "2025-04-01-preview")}`, { input: "Hello" });
    expect([byPath.status, byPath.headers.get("x-mockllm-step")]).toEqual([200, "prod"]);
  });

  it("embeddings on the deployment and v1 routes", async () => {
    for (const [path, body] of [
      [`/s/az-embed/e1${deployment("ada-prod", "embeddings")}`, { input: "hello" }],
      ["/s/az-embed/e1/openai/v1/embeddings", { model: "ada-prod", input: "hello" }],
    ] as const) {
      const res = await post(path, body);
      const e = (await res.json()) as { object: string; data: { embedding: number[] }[]; model: string };
      expect([res.status, e.object, e.data[0]!.embedding, e.model]).toEqual([200, "list", [0.25, -0.5], "ada-prod"]);
    }
  });

  it("works under /s/{scenario}/openai/… (no session: `openai` is never taken for a session name) and without a prefix", async () => {
    const noSession = await post(`/s/az-said${deployment("d1")}`, { messages: USER });
    expect([noSession.status, noSession.headers.get("x-mockllm-session"), ((await noSession.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content]).toEqual([
      200,
      "default",
      "Hi there friend.",
    ]);
    const v1 = await post("/s/az-said/openai/v1/chat/completions", { model: "d1", messages: USER });
    expect([v1.status, v1.headers.get("x-mockllm-session")]).toEqual([200, "default"]);
    const bare = await post(deployment("d1"), { messages: USER });
    expect([bare.status, bare.headers.get("x-mockllm-outcome")]).toEqual([200, "default"]);
  });
});

describe("the Azure stream", () => {
  it("leads with an empty-choices chunk carrying prompt_filter_results, annotates every chunk, ends [DONE]", async () => {
    const res = await post(`/s/az-said/st1${deployment("prod-4o")}`, { messages: USER, stream: true });
    expect([res.status, res.headers.get("content-type"), res.headers.get("x-ms-region")]).toEqual([200, "text/event-stream; charset=utf-8", "East US"]);
    const all = await events(res);
    expect(all[0]).toEqual({ choices: [], created: 0, id: "", model: "", object: "", prompt_filter_results: [{ prompt_index: 0, content_filter_results: PROMPT_SAFE }] });
    const chunks = all.slice(1, -1) as { id: string; model: string; object: string; choices: { delta: Record<string, unknown>; content_filter_results: unknown; finish_reason: string | null }[] }[];
    expect(chunks.map((c) => [c.choices[0]!.delta, c.choices[0]!.content_filter_results, c.choices[0]!.finish_reason])).toEqual([
      [{ content: "", refusal: null, role: "assistant" }, {}, null],
      [{ content: "Hi there" }, CHOICE_SAFE, null],
      [{ content: " friend." }, CHOICE_SAFE, null],
      [{}, {}, "stop"],
    ]);
    expect(chunks.map((c) => [c.model, c.object, Object.keys(c).sort().join()])).toEqual(chunks.map(() => ["prod-4o", "chat.completion.chunk", "choices,created,id,model,object,system_fingerprint"]));
    expect(all.at(-1)).toBe("[DONE]");
  });
});

describe("content_filter as Azure answers it", () => {
  const blocked = {
    error: {
      message:
        "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry. To learn more about our content filtering policies please read our documentation: https://go.microsoft.com/fwlink/?linkid=2198766",
      type: null,
      param: "prompt",
      code: "content_filter",
      status: 400,
      innererror: {
        code: "ResponsibleAIPolicyViolation",
        content_filter_result: { hate: SAFE, jailbreak: { filtered: true, detected: true }, self_harm: SAFE, sexual: SAFE, violence: { filtered: true, severity: "medium" } },
      },
    },
  };

  it("a blocked prompt is a 400 content_filter with innererror ResponsibleAIPolicyViolation, JSON and stream alike; journalled as a failure", async () => {
    for (const stream of [false, true]) {
      const res = await post(`/s/az-block/b${String(stream)}${deployment("prod-4o")}`, { messages: USER, stream });
      expect([res.status, res.headers.get("x-mockllm-outcome"), res.headers.get("x-ms-region"), await res.json()]).toEqual([400, "failure", "East US", blocked]);
    }
    const journal = (await (await admin("/sessions/az-block/bfalse/requests")).json()) as { outcome: string; status: number; reasons: string[] }[];
    expect(journal.map((r) => [r.outcome, r.status, r.reasons])).toEqual([["failure", 400, ["attempt 1: scripted content_filter"]]]);
  });

  it("a filtered completion stops with finish_reason content_filter and the category filtered: true", async () => {
    const json = await post(`/s/az-cut/c1${deployment("prod-4o")}`, { messages: USER });
    const body = (await json.json()) as { choices: { message: { content: string }; finish_reason: string; content_filter_results: Record<string, unknown> }[] };
    expect([json.status, body.choices[0]!.message.content, body.choices[0]!.finish_reason, body.choices[0]!.content_filter_results]).toEqual([
      200,
      "one two",
      "content_filter",
      { ...CHOICE_SAFE, self_harm: { filtered: true, severity: "medium" } },
    ]);
    const all = await events(await post(`/s/az-cut/c2${deployment("prod-4o")}`, { messages: USER, stream: true }));
    const last = all.at(-2) as { choices: { delta: unknown; finish_reason: string; content_filter_results: unknown }[] };
    expect([all.length, last.choices[0]]).toEqual([
      6,
      { content_filter_results: { ...CHOICE_SAFE, self_harm: { filtered: true, severity: "medium" } }, delta: {}, finish_reason: "content_filter", index: 0, logprobs: null },
    ]);
  });
});

describe("Azure's gateway: auth, api-version, errors, 429", () => {
  const denied = {
    error: {
      code: "401",
      message:
        "Access denied due to invalid subscription key or wrong API endpoint. Make sure to provide a valid key for an active subscription and use a correct regional API endpoint for your resource.",
    },
  };

  it("auth: api-key or Bearer (presence only); neither is a 401 in Azure's shape", async () => {
    expect((await post(deployment("d1"), { messages: USER }, { "content-type": "application/json" })).status).toBe(401);
    const none = await post("/openai/v1/chat/completions", { model: "d1", messages: USER }, { "api-key": " ", "content-type": "application/json" });
    expect([none.status, none.headers.get("apim-request-id")?.length, await none.json()]).toEqual([401, 36, denied]);
    expect((await post(deployment("d1"), { messages: USER }, { authorization: "Bearer x", "content-type": "application/json" })).status).toBe(200);
  });

  it("api-version: missing or unknown on a classic route is Azure's 404; a dated one on a v1 route is its 400", async () => {
    const notFound = { error: { code: "404", message: "Resource not found" } };
    for (const path of [deployment("d1", "chat/completions", null), deployment("d1", "chat/completions", "latest-ish"), deployment("d1", "embeddings", "2024-13-01"), "/openai/responses"]) {
      const res = await post(path, { model: "d1", messages: USER, input: "x" });
      expect([path, res.status, await res.json()]).toEqual([path, 404, notFound]);
    }
    const dated = await post("/openai/v1/chat/completions?api-version=2025-01-01-preview", { model: "d1", messages: USER });
    expect([dated.status, await dated.json()]).toEqual([400, { error: { code: "BadRequest", message: "API version not supported" } }]);
    for (const v of ["preview", "latest", "v1"]) expect((await post(`/openai/v1/chat/completions?api-version=${v}`, { model: "d1", messages: USER })).status).toBe(200);
  });

  it("garbage gets Azure-shaped 4xx, never a 5xx", async () => {
    const badJson = await post(deployment("d1"), "{not json");
    const badJsonBody = (await badJson.json()) as { error: { type: string; code: unknown } };
    expect([badJson.status, badJsonBody.error.type]).toEqual([400, "invalid_request_error"]);
    const noMessages = await post(deployment("d1"), { model: "d1" });
    expect([noMessages.status, ((await noMessages.json()) as { error: { param: string } }).error.param]).toEqual([400, "messages"]);
    const badName = await post(deployment("bad%20name"), { messages: USER });
    expect([badName.status, ((await badName.json()) as { error: { code: string } }).error.code]).toEqual([404, "DeploymentNotFound"]);
    // A retired operation (On Your Data's extensions route): not served.
    const legacy = await post(deployment("d1", "extensions/chat/completions"), { prompt: "x" });
    expect([legacy.status, ((await legacy.json()) as { error: { code: string } }).error.code]).toEqual([404, "404"]);
    const get = await call(deployment("d1"), { headers: KEY });
    expect([get.status, ((await get.json()) as { error: { code: string } }).error.code]).toEqual([405, "405"]);
  });

  it("a scripted 429: Azure's message with the operation and api-version, retry-after, retry-after-ms, x-ratelimit-remaining-*", async () => {
    const res = await post(`/s/az-429/q1${deployment("prod-4o")}`, { messages: USER });
    expect(res.status).toBe(429);
    expect(["retry-after", "retry-after-ms", "x-ratelimit-remaining-requests", "x-ratelimit-remaining-tokens", "x-ms-region"].map((h) => res.headers.get(h))).toEqual([
      "6",
      "6000",
      "0",
      "0",
      "East US",
    ]);
    expect(await res.json()).toEqual({
      error: {
        code: "429",
        message:
          "Requests to the ChatCompletions_Create Operation under Azure OpenAI API version 2024-10-21 have exceeded token rate limit of your current OpenAI S0 pricing tier. Please retry after 6 seconds. Please go here: https://aka.ms/oai/quotaincrease if you would like to further increase the default rate limit.",
      },
    });
    const embeddings = await post(`/s/az-429/q2${deployment("ada", "embeddings", "2023-05-15")}`, { input: "x" });
    expect(((await embeddings.json()) as { error: { message: string } }).error.message).toContain("Embeddings_Create Operation under Azure OpenAI API version 2023-05-15");
  });

  it("a namespace key works as api-key or Bearer; an unknown one is refused in Azure's shape", async () => {
    expect((await admin("/namespaces", { method: "POST", body: JSON.stringify({ name: "az-team" }) })).status).toBe(201);
    const minted = (await (await admin("/namespaces/az-team/keys", { method: "POST", body: JSON.stringify({ scope: "admin" }) })).json()) as { key: string };
    const put = await call("/admin/scenarios/az-own", {
      method: "PUT",
      headers: { authorization: `Bearer ${minted.key}`, "content-type": "application/json" },
      body: JSON.stringify({ name: "az-own", steps: [{ consume: false, respond: { text: "namespaced" } }] }),
    });
    expect(put.status).toBeLessThan(300);
    const sent: Record<string, string>[] = [{ "api-key": minted.key }, { authorization: `Bearer ${minted.key}` }];
    for (const headers of sent) {
      const res = await post(`/s/az-own/n1${deployment("d1")}`, { messages: USER }, { ...headers, "content-type": "application/json" });
      expect([res.status, ((await res.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content]).toEqual([200, "namespaced"]);
    }
    const outside = await post(`/s/az-own/n1${deployment("d1")}`, { messages: USER });
    expect(outside.status).toBe(404);
    const refused = await post(deployment("d1"), { messages: USER }, { "api-key": "mk_nope_nope", "content-type": "application/json" });
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect([refused.status, body.error.code, Object.keys(body.error)]).toEqual([401, "401", ["code", "message"]]);
  });
});
