/**
 * Cohere rerank through the official `cohere-ai` client: `CohereClientV2.rerank` (`/v2/rerank`) and the v1
 * `CohereClient.rerank` (`/v1/rerank`) pointed at the mock with `environment`, the scripted order, and a 429 as the
 * client's TooManyRequestsError.
 */
import { CohereClient, CohereClientV2, type CohereError, Cohere } from "cohere-ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const QUERY = "What is the capital of the United States?";
const DOCS = [
  "Carson City is the capital city of the American state of Nevada.",
  "The Commonwealth of the Northern Mariana Islands is a group of islands in the Pacific Ocean. Its capital is Saipan.",
  "Washington, D.C. is the capital of the United States. It is a federal district.",
];

const SCENARIO = {
  name: "rr-sdk",
  steps: [{ id: "limited", match: { endpoint: "rerank", provider: "cohere" }, failures: [{ kind: "rate_limit" }], respond: { rerank: { order: [1] } } }],
};

beforeAll(async () => {
  h = await startHarness();
  await h.upload(SCENARIO);
});
afterAll(() => h?.stop());

describe("cohere-ai rerank", () => {
  it("CohereClientV2.rerank: the relevant document first, top_n, camelCase fields", async () => {
    const co = new CohereClientV2({ token: "co-test", environment: h.url, maxRetries: 0 });
    const res = await co.rerank({ model: "rerank-v3.5", query: QUERY, documents: DOCS, topN: 2 });
    expect(res.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.results.map((r) => r.index)).toEqual([2, 0]);
    expect(res.results[0]!.relevanceScore).toBeGreaterThan(res.results[1]!.relevanceScore);
    expect(res.meta?.apiVersion?.version).toBe("2");
    expect(res.meta?.billedUnits?.searchUnits).toBe(1);
  });

  it("CohereClient.rerank (v1): object documents sent back with returnDocuments", async () => {
    const co = new CohereClient({ token: "co-test", baseUrl: h.url, maxRetries: 0 });
    const res = await co.rerank({ query: QUERY, documents: DOCS.map((text) => ({ text })), returnDocuments: true });
    expect(res.results.map((r) => r.index)).toEqual([2, 0, 1]);
    expect(res.results[0]!.document).toEqual({ text: DOCS[2] });
    expect(res.meta?.apiVersion?.version).toBe("1");
  });

  it("a scripted 429 is TooManyRequestsError in Cohere's shape; the next call gets the scripted order", async () => {
    const co = new CohereClientV2({ token: "co-test", baseUrl: `${h.url}/s/rr-sdk/run-1`, maxRetries: 0 });
    const err = await co.rerank({ model: "rerank-v3.5", query: QUERY, documents: DOCS }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Cohere.TooManyRequestsError);
    expect((err as CohereError).statusCode).toBe(429);
    expect((err as CohereError).body).toEqual({ message: "You are past the per minute request limit, please wait and try again later." });
    const res = await co.rerank({ model: "rerank-v3.5", query: QUERY, documents: DOCS });
    expect(res.results[0]).toEqual({ index: 1, relevanceScore: 0.99 });
    expect(res.results.slice(1).map((r) => r.index)).toEqual([2, 0]);
    for (const r of res.results.slice(1)) expect(r.relevanceScore).toBeLessThan(0.5);
    const journal = await h.journal("rr-sdk", "run-1");
    expect(journal.map((e) => [e.provider, e.endpoint, e.step, e.outcome, e.status])).toEqual([
      ["cohere", "rerank", "limited", "failure", 429],
      ["cohere", "rerank", "limited", "response", 200],
    ]);
  });

  it("an empty document list is BadRequestError with Cohere's message", async () => {
    const co = new CohereClientV2({ token: "co-test", environment: h.url, maxRetries: 0 });
    const err = await co.rerank({ model: "rerank-v3.5", query: "q", documents: [] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Cohere.BadRequestError);
    expect((err as CohereError).body).toEqual({ message: "invalid request: list of documents must not be empty" });
  });
});
