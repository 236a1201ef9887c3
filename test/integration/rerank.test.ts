/**
 * Cohere rerank (`POST /v2/rerank`, `/v1/rerank`) on both runtimes: the default lexical ranking with exact scores,
 * `top_n` and `return_documents`, a scenario scripting the order, the scores and failures beside a chat turn in the
 * same session (journal, verify), and Cohere's `{ "message" }` errors.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { admin, call, chat, upload, userTurn } from "./helpers";

const COHERE = { authorization: "Bearer co-test", "content-type": "application/json" };
const QUERY = "What is the capital of the United States?";
const DOCS = [
  "Carson City is the capital city of the American state of Nevada.",
  "The Commonwealth of the Northern Mariana Islands is a group of islands in the Pacific Ocean. Its capital is Saipan.",
  "Capitalization or capitalisation in English grammar is the use of a capital letter at the start of a word. English usage varies from capitalization in other languages.",
  "Washington, D.C. (also known as simply Washington or D.C., and officially as the District of Columbia) is the capital of the United States. It is a federal district.",
  "Capital punishment has existed in the United States since beforethe United States was a country. As of 2017, capital punishment is legal in 30 of the 50 states.",
];
const V2_META = { api_version: { version: "2", is_experimental: false }, billed_units: { search_units: 1 } };

function rerank(body: unknown, { prefix = "", version = 2, headers = COHERE }: { prefix?: string; version?: 1 | 2; headers?: Record<string, string> } = {}) {
  return call(`${prefix}/v${version}/rerank`, { method: "POST", headers, body: JSON.stringify(body) });
}

async function ok(res: Response): Promise<any> {
  expect(res.status).toBe(200);
  return res.json();
}

const SEARCH = {
  name: "rr-search",
  steps: [
    { id: "rank", match: { endpoint: "rerank", provider: "cohere", lastUserMessage: { contains: "capital" } }, respond: { rerank: { order: [2, 0] } } },
    { id: "answer", match: { endpoint: "chat.completions" }, respond: { text: "Washington, D.C." } },
    { id: "scores", match: { endpoint: "rerank" }, failures: [{ kind: "rate_limit", retryAfterMs: 2000 }], respond: { rerank: { scores: [0.1, 0.95, 0.4] } } },
    { id: "down", match: { endpoint: "rerank" }, failures: [{ kind: "overloaded" }, { kind: "stream_error" }], respond: { rerank: {} } },
  ],
};

beforeAll(() => upload(SEARCH));

describe("default ranking (no scenario)", () => {
  it("v2: every document by lexical overlap, best first, exact scores, a uuid id and v2 meta", async () => {
    const res = await rerank({ model: "rerank-v3.5", query: QUERY, documents: DOCS });
    expect(res.headers.get("x-mockllm-outcome")).toBe("default");
    expect(res.headers.get("x-debug-trace-id")).toMatch(/^[0-9a-f]{32}$/);
    const body = await ok(res);
    expect(body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(body.results).toEqual([
      { index: 3, relevance_score: 0.29341483 },
      { index: 4, relevance_score: 0.19884773 },
      { index: 0, relevance_score: 0.19412553 },
      { index: 1, relevance_score: 0.07935379 },
      { index: 2, relevance_score: 0.07185499 },
    ]);
    expect(body.meta).toEqual(V2_META);
    expect(await ok(await rerank({ model: "rerank-v3.5", query: QUERY, documents: DOCS }))).toEqual(body);
  });

  it("top_n cuts the list; a document with no word of the query scores near 0", async () => {
    const body = await ok(await rerank({ model: "rerank-v3.5", query: "red apple", documents: ["green pear", "red apple pie", "apple"], top_n: 2 }));
    expect(body.results).toEqual([
      { index: 1, relevance_score: 0.75141704 },
      { index: 2, relevance_score: 0.47878956 },
    ]);
    const all = await ok(await rerank({ model: "m", query: "red apple", documents: ["green pear", "red apple pie", "apple"], top_n: 10 }));
    expect(all.results.at(-1)).toEqual({ index: 0, relevance_score: 0.00015715 });
  });

  it("v1: objects by `text` or `rank_fields`, return_documents sends them back as given, v1 meta", async () => {
    const documents = [{ text: "green pear", id: "a" }, "red apple pie", { title: "apple", text: "fruit" }];
    const body = await ok(await rerank({ query: "red apple", documents, return_documents: true }, { version: 1 }));
    expect(body.results).toEqual([
      { document: { text: "red apple pie" }, index: 1, relevance_score: 0.77452361 },
      { document: { text: "green pear", id: "a" }, index: 0, relevance_score: 0.00015715 },
      { document: { title: "apple", text: "fruit" }, index: 2, relevance_score: 0.00011211 },
    ]);
    expect(body.meta).toEqual({ api_version: { version: "1" }, billed_units: { search_units: 1 } });
    const fields = await ok(await rerank({ query: "apple", documents: [{ title: "pear" }, { title: "apple" }], rank_fields: ["title"] }, { version: 1 }));
    expect(fields.results).toEqual([
      { index: 1, relevance_score: 0.62350503 },
      { index: 0, relevance_score: 0.00016138 },
    ]);
  });
});

describe("scripted by the scenario, beside a chat turn", () => {
  it("an order, the chat turn, a 429 then scores, a 503 and a stream_error as a 500; journal and verify", async () => {
    const p = "/s/rr-search/r1";
    const docs = ["a cat", "a dog", "the capital city", "a bird"];
    const ordered = await ok(await rerank({ model: "rerank-v3.5", query: "capital", documents: docs }, { prefix: p }));
    expect(ordered.results).toEqual([
      { index: 2, relevance_score: 0.99 },
      { index: 0, relevance_score: 0.5 },
      // The rest by their default score, scaled below the scripted ones.
      { index: 1, relevance_score: 0.00005967 },
      { index: 3, relevance_score: 0.00005318 },
    ]);

    expect(((await (await chat(userTurn("and the capital?"), p)).json()) as any).choices[0].message.content).toBe("Washington, D.C.");

    const limited = await rerank({ model: "rerank-v3.5", query: "q", documents: ["x", "y", "z", "w"], top_n: 3 }, { prefix: p });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("2");
    expect(await limited.json()).toEqual({ message: "You are past the per minute request limit, please wait and try again later." });
    const scored = await ok(await rerank({ model: "rerank-v3.5", query: "q", documents: ["x", "y", "z", "w"], top_n: 3 }, { prefix: p }));
    expect(scored.results).toEqual([
      { index: 1, relevance_score: 0.95 },
      { index: 2, relevance_score: 0.4 },
      { index: 0, relevance_score: 0.1 },
    ]);

    const busy = await rerank({ model: "rerank-v3.5", query: "q", documents: ["x"] }, { prefix: p, version: 1 });
    expect(busy.status).toBe(503);
    expect(await busy.json()).toEqual({ message: "service unavailable, please try again later" });
    const broken = await rerank({ model: "rerank-v3.5", query: "q", documents: ["x"] }, { prefix: p });
    expect(broken.status).toBe(500);
    expect(await broken.json()).toEqual({ message: "internal server error, this has been reported to our developers" });

    const journal = (await (await admin("/sessions/rr-search/r1/requests")).json()) as any[];
    expect(journal.map((e) => [e.provider, e.endpoint, e.step, e.outcome, e.request.path])).toEqual([
      ["cohere", "rerank", "rank", "response", "/v2/rerank"],
      ["openai", "chat.completions", "answer", "response", "/v1/chat/completions"],
      ["cohere", "rerank", "scores", "failure", "/v2/rerank"],
      ["cohere", "rerank", "scores", "response", "/v2/rerank"],
      ["cohere", "rerank", "down", "failure", "/v1/rerank"],
      ["cohere", "rerank", "down", "failure", "/v2/rerank"],
    ]);
    expect(journal[0].canonical).toMatchObject({ lastUserMessage: "capital", model: "rerank-v3.5", stream: false });
    const verify = (await (await admin("/sessions/rr-search/r1/verify")).json()) as any;
    expect(verify.unusedSteps).toEqual([]);
    expect(verify.requests).toBe(6);
    const coverage = (await (await admin("/scenarios/rr-search/coverage")).json()) as any;
    expect(coverage.steps.map((st: any) => [st.id, st.sessions, st.attempts, st.failures])).toEqual([
      ["rank", 1, 1, 0],
      ["answer", 1, 1, 0],
      ["scores", 1, 2, 1],
      // Counted in `sessions` only once a step has answered: "down" only failed.
      ["down", 0, 2, 2],
    ]);
  });

  it("a late answer (timeout), a cut body (invalid_response), a broken connection (network_error), a content_filter: no 5xx", async () => {
    await upload({
      name: "rr-flaky",
      steps: [
        { id: "late", failures: [{ kind: "timeout", delayMs: 1 }], respond: { rerank: { order: [1] } } },
        { id: "cut", failures: [{ kind: "invalid_response" }], respond: { rerank: {} } },
        { id: "broken", failures: [{ kind: "network_error" }], respond: { rerank: {} } },
        { id: "filtered", failures: [{ kind: "content_filter", on: "prompt" }], respond: { rerank: { order: [1] } } },
      ],
    });
    const body = { model: "rerank-v3.5", query: "q", documents: ["a", "b"] };
    const send = () => rerank(body, { prefix: "/s/rr-flaky/f1" });
    // Each step fails its first attempt and answers its retry.
    const late = await send();
    expect([late.status, late.headers.get("x-mockllm-outcome")]).toEqual([200, "failure"]);
    expect(((await late.json()) as any).results.map((r: any) => r.index)).toEqual([1, 0]);
    expect((await ok(await send())).results[0].index).toBe(1);
    const cut = await send();
    expect(cut.status).toBe(200);
    const text = await cut.text();
    expect(text.startsWith('{"id":"')).toBe(true);
    expect(() => JSON.parse(text)).toThrow();
    expect((await ok(await send())).results).toHaveLength(2);
    const broken = await send()
      .then((r) => r.text())
      .then(
        (t) => t,
        (e: unknown) => e,
      );
    expect(
      typeof broken === "string"
        ? () => JSON.parse(broken)
        : () => {
            throw broken;
          },
    ).toThrow();
    expect((await ok(await send())).results).toHaveLength(2);
    // A reranker has no refusal: a content_filter failure answers the ranking.
    expect((await ok(await send())).results.map((r: any) => r.index)).toEqual([1, 0]);
    const journal = (await (await admin("/sessions/rr-flaky/f1/requests")).json()) as any[];
    expect(journal.map((e) => [e.step, e.outcome])).toEqual([
      ["late", "failure"],
      ["late", "response"],
      ["cut", "failure"],
      ["cut", "response"],
      ["broken", "failure"],
      ["broken", "response"],
      ["filtered", "failure"],
    ]);
  });
});

describe("Cohere's errors", () => {
  it.each([
    { body: { query: "q", documents: ["a"] }, message: "invalid request: model is required" },
    { body: { model: "m", documents: ["a"] }, message: "invalid request: query is required" },
    { body: { model: "m", query: "q" }, message: "invalid request: documents is required" },
    { body: { model: "m", query: "  ", documents: ["a"] }, message: "invalid request: query must not be empty or be only whitespace" },
    { body: { model: "m", query: "q", documents: [] }, message: "invalid request: list of documents must not be empty" },
    { body: { model: "m", query: "q", documents: [{ text: "a" }] }, message: "invalid request: documents[0] is invalid: Invalid input: expected string, received object" },
    { body: { model: "m", query: "q", documents: ["a"], top_n: 0 }, message: "invalid request: top_n must be greater than 0" },
    { body: { model: "m", query: "q", documents: Array.from({ length: 1001 }, () => "d") }, message: "invalid request: too many documents: received 1001, the maximum is 1000" },
  ])("v2 $message", async ({ body, message }) => {
    const res = await rerank(body);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ message });
  });

  it("v1: a document without text, too many chunks", async () => {
    const noText = await rerank({ query: "q", documents: [{ title: "t" }] }, { version: 1 });
    expect(noText.status).toBe(400);
    expect(await noText.json()).toEqual({ message: "invalid request: documents[0] must have a text field, or rank_fields must name its fields" });
    const chunks = await rerank({ query: "q", documents: ["a", "b"], max_chunks_per_doc: 5001 }, { version: 1 });
    expect(await chunks.json()).toEqual({ message: "invalid request: number of total max chunks (number of documents * max chunks per doc) must be less than 10000" });
  });

  it("auth, bad JSON and a wrong method, in Cohere's shape", async () => {
    const none = await rerank({ model: "m", query: "q", documents: ["a"] }, { headers: { "content-type": "application/json" } });
    expect([none.status, await none.json()]).toEqual([401, { message: "no api key supplied" }]);
    const wrong = await rerank({ model: "m", query: "q", documents: ["a"] }, { headers: { authorization: "Token x", "content-type": "application/json" } });
    expect([wrong.status, await wrong.json()]).toEqual([401, { message: "invalid api token" }]);
    const bad = await call("/v2/rerank", { method: "POST", headers: COHERE, body: "{" });
    expect(bad.status).toBe(400);
    expect(Object.keys((await bad.json()) as object)).toEqual(["message"]);
    const get = await call("/s/rr-search/v1/rerank", { method: "GET", headers: COHERE });
    expect(get.status).toBe(405);
    expect(Object.keys((await get.json()) as object)).toEqual(["message"]);
  });
});
