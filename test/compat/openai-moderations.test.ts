/**
 * `POST /v1/moderations` through the official `openai` SDK: text and multimodal inputs, a scripted flag, and a 429
 * the SDK retries by itself (retry-after-ms: 0) before the flagged answer.
 */
import OpenAI, { BadRequestError } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashScore } from "../../src/providers/openai/moderations/render";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const SCENARIO = {
  name: "mod-sdk",
  steps: [
    {
      id: "flag",
      match: { endpoint: "moderations", lastUserMessage: { contains: "idiot" } },
      failures: [{ kind: "rate_limit" }],
      respond: { moderation: { categories: ["harassment"], scores: { harassment: 0.91 } } },
    },
  ],
};

const client = (path = "", maxRetries = 0) => new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}${path}/v1`, maxRetries });

beforeAll(async () => {
  h = await startHarness();
  await h.upload(SCENARIO);
});
afterAll(() => h?.stop());

describe("openai moderations.create", () => {
  it("text: one result per string with every category, not flagged", async () => {
    const res = await client().moderations.create({ model: "omni-moderation-latest", input: ["hello there", "good morning"] });
    expect(res.id).toMatch(/^modr-[0-9a-f]{32}$/);
    expect(res.model).toBe("omni-moderation-latest");
    expect(res.results).toHaveLength(2);
    const [first] = res.results;
    expect(first!.flagged).toBe(false);
    expect(Object.keys(first!.categories)).toHaveLength(13);
    expect(first!.categories.harassment).toBe(false);
    expect(first!.category_scores.violence).toBe(hashScore("hello there", "violence", false));
    expect(first!.category_applied_input_types.sexual).toEqual(["text"]);
  });

  it("multimodal: one result, image applied to the image categories", async () => {
    const res = await client().moderations.create({
      model: "omni-moderation-latest",
      input: [
        { type: "text", text: "what is in this picture?" },
        { type: "image_url", image_url: { url: "https://example.com/cat.png" } },
      ],
    });
    expect(res.results).toHaveLength(1);
    expect(res.results[0]!.category_applied_input_types.violence).toEqual(["text", "image"]);
    expect(res.results[0]!.category_applied_input_types.hate).toEqual(["text"]);
  });

  it("a scripted flag after a 429 the SDK retries", async () => {
    const res = await client("/s/mod-sdk/run-1", 2).moderations.create({ input: "you idiot" });
    expect(res.results[0]!.flagged).toBe(true);
    expect(res.results[0]!.categories.harassment).toBe(true);
    expect(res.results[0]!.categories.violence).toBe(false);
    expect(res.results[0]!.category_scores.harassment).toBe(0.91);
    const journal = await h.journal("mod-sdk", "run-1");
    expect(journal.map((e) => [e.endpoint, e.step, e.outcome, e.status])).toEqual([
      ["moderations", "flag", "failure", 429],
      ["moderations", "flag", "response", 200],
    ]);
  });

  it("an empty input list is the SDK's BadRequestError", async () => {
    const err = await client()
      .moderations.create({ input: [] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).status).toBe(400);
  });
});
