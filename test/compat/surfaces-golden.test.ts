/**
 * Golden JSON answers of the surfaces beside the chat, compared byte for byte: a scripted moderation (multimodal,
 * flagged) and a legacy-model one, and Cohere rerank v2 (scripted order) and v1 (default ranking, documents returned).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectGolden } from "../support/golden";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const OPENAI = { authorization: "Bearer sk", "content-type": "application/json" };
const IMAGE = { type: "image_url", image_url: { url: "https://example.com/a.png" } };

const CASES: { name: string; path: string; respond: Record<string, unknown>; body: Record<string, unknown> }[] = [
  {
    name: "moderations/flagged-multimodal.json",
    path: "/v1/moderations",
    respond: { moderation: { categories: ["violence", "violence/graphic"], scores: { violence: 0.96 } } },
    body: { model: "omni-moderation-latest", input: [{ type: "text", text: "a gory scene" }, IMAGE] },
  },
  {
    name: "moderations/legacy-text.json",
    path: "/v1/moderations",
    respond: { moderation: {} },
    body: { model: "text-moderation-latest", input: ["first", "second"] },
  },
  {
    name: "rerank/v2-scripted-order.json",
    path: "/v2/rerank",
    respond: { rerank: { order: [2, 0] } },
    body: { model: "rerank-v3.5", query: "capital of France", documents: ["Berlin is in Germany.", "Madrid is in Spain.", "Paris is the capital of France."], top_n: 3 },
  },
  {
    name: "rerank/v1-default-documents.json",
    path: "/v1/rerank",
    respond: { rerank: {} },
    body: { query: "capital of France", documents: [{ text: "Berlin is in Germany.", id: "de" }, "Paris is the capital of France."], return_documents: true },
  },
];

const scenario = (c: (typeof CASES)[number]) => `golden-${c.name.replace(/[/.]/g, "-")}`;

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...CASES.map((c) => ({ name: scenario(c), steps: [{ respond: c.respond }] })));
});
afterAll(() => h?.stop());

describe("golden answers of moderations and rerank", () => {
  it.each(CASES)("$name", async (c) => {
    const res = await fetch(`${h.url}/s/${scenario(c)}${c.path}`, { method: "POST", headers: OPENAI, body: JSON.stringify(c.body) });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/json");
    expectGolden(c.name, await res.text());
  });
});
