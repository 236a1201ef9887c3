/**
 * `POST /v1/moderations` on both runtimes: the default results (every category, hash scores), multimodal and legacy
 * models, a scenario that flags categories and fails, journalled and verified beside a chat turn, and the 400s.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { MODERATION_CATEGORIES } from "../../src/scenario/surface-replies";
import { hashScore } from "../../src/providers/openai/moderations/render";
import { admin, call, chat, upload, userTurn } from "./helpers";

const OPENAI = { authorization: "Bearer sk-test", "content-type": "application/json" };
const IMAGE_CATEGORIES = ["self-harm", "self-harm/instructions", "self-harm/intent", "sexual", "violence", "violence/graphic"];

function moderate(body: unknown, prefix = "", path = "/v1/moderations"): Promise<Response> {
  return call(`${prefix}${path}`, { method: "POST", headers: OPENAI, body: JSON.stringify(body) });
}

async function ok(res: Response): Promise<any> {
  expect(res.status).toBe(200);
  return res.json();
}

const all = <T>(value: (c: string) => T) => Object.fromEntries(MODERATION_CATEGORIES.map((c) => [c, value(c)]));

const GUARD = {
  name: "mod-guard",
  steps: [
    {
      id: "screen",
      match: { endpoint: "moderations", lastUserMessage: { contains: "hurt" } },
      failures: [{ kind: "rate_limit", retryAfterMs: 1500 }],
      respond: { moderation: { categories: ["violence", "harassment/threatening"], scores: { violence: 0.97 } } },
    },
    { id: "answer", match: { endpoint: "chat.completions" }, respond: { text: "I can't help with that." } },
    { id: "clean", match: { endpoint: "moderations", provider: "openai" }, respond: { moderation: { flagged: false, categories: ["hate"] } } },
    { id: "broken", match: { endpoint: "moderations" }, failures: [{ kind: "stream_error", message: "moderation backend fell over" }], respond: { moderation: {} } },
  ],
};

beforeAll(() => upload(GUARD));

describe("default answers (no scenario)", () => {
  it("one result per string, nothing flagged, every category with its hash score, text applied", async () => {
    const res = await moderate({ input: "I love sunny days." });
    expect(res.headers.get("x-mockllm-outcome")).toBe("default");
    const body = await ok(res);
    expect(body.id).toMatch(/^modr-[0-9a-f]{32}$/);
    expect(body.model).toBe("omni-moderation-latest");
    expect(body.results).toEqual([
      {
        flagged: false,
        categories: all(() => false),
        category_scores: all((c) => hashScore("I love sunny days.", c as never, false)),
        category_applied_input_types: all(() => ["text"]),
      },
    ]);
    expect(hashScore("I love sunny days.", "violence", false)).toBe(0.000101865);
    for (const s of Object.values(body.results[0].category_scores) as number[]) {
      expect(s).toBeGreaterThan(0);
      expect(s).toBeLessThan(0.002);
    }
    // Deterministic: the same request, the same id and scores; the alias path answers the same.
    const again = await ok(await moderate({ input: "I love sunny days." }, "", "/moderations"));
    expect(again).toEqual(body);
  });

  it("an array of strings gives one result each, in order; equal strings score equally", async () => {
    const body = await ok(await moderate({ model: "omni-moderation-2024-09-26", input: ["alpha", "beta", "alpha"] }));
    expect(body.model).toBe("omni-moderation-2024-09-26");
    expect(body.results).toHaveLength(3);
    expect(body.results[2]).toEqual(body.results[0]);
    expect(body.results[1].category_scores.hate).toBe(hashScore("beta", "hate", false));
    expect(body.results[1].category_scores.hate).not.toBe(body.results[0].category_scores.hate);
  });

  it("a multimodal array is one input: image applies to the image categories only", async () => {
    const image = { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } };
    const both = await ok(await moderate({ input: [{ type: "text", text: "look at this" }, image] }));
    expect(both.results).toHaveLength(1);
    expect(both.results[0].category_applied_input_types).toEqual(all((c) => (IMAGE_CATEGORIES.includes(c) ? ["text", "image"] : ["text"])));
    expect(both.results[0].category_scores.sexual).toBe(hashScore("look at this", "sexual", false));
    const imageOnly = await ok(await moderate({ input: [image] }));
    expect(imageOnly.results[0].category_applied_input_types).toEqual(all((c) => (IMAGE_CATEGORIES.includes(c) ? ["image"] : [])));
  });

  it("legacy text models have no illicit categories (null) and apply to text", async () => {
    const body = await ok(await moderate({ model: "text-moderation-latest", input: "hello" }));
    expect(body.model).toBe("text-moderation-latest");
    const [r] = body.results;
    expect(r.categories).toEqual(all((c) => (c.startsWith("illicit") ? null : false)));
    expect(r.category_scores.illicit).toBeNull();
    expect(r.category_scores["illicit/violent"]).toBeNull();
    expect(r.category_scores.hate).toBe(hashScore("hello", "hate", false));
    expect(r.category_applied_input_types).toEqual(all(() => ["text"]));
  });
});

describe("scripted by the scenario, in the same session as a chat turn", () => {
  it("a 429 with retry headers, the flagged retry, the chat turn, a second moderation, a stream_error as a 500; journal and verify", async () => {
    const p = "/s/mod-guard/g1";
    const limited = await moderate({ input: "I will hurt you" }, p);
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBe("2");
    expect(limited.headers.get("retry-after-ms")).toBe("1500");
    expect(limited.headers.get("x-ratelimit-remaining-requests")).toBe("0");
    expect(await limited.json()).toEqual({
      error: { message: "Rate limit reached for requests. Please try again later.", type: "requests", param: null, code: "rate_limit_exceeded" },
    });

    const flagged = await ok(await moderate({ input: "I will hurt you" }, p));
    const [r] = flagged.results;
    expect(r.flagged).toBe(true);
    expect(r.categories).toEqual(all((c) => c === "violence" || c === "harassment/threatening"));
    expect(r.category_scores.violence).toBe(0.97);
    expect(r.category_scores["harassment/threatening"]).toBe(hashScore("I will hurt you", "harassment/threatening", true));
    expect(r.category_scores["harassment/threatening"]).toBeGreaterThanOrEqual(0.9);
    expect(r.category_scores.hate).toBe(hashScore("I will hurt you", "hate", false));

    const answer = await chat(userTurn("I will hurt you"), p);
    expect(((await answer.json()) as any).choices[0].message.content).toBe("I can't help with that.");

    const clean = await ok(await moderate({ input: "never mind" }, p));
    expect(clean.results[0].flagged).toBe(false);
    expect(clean.results[0].categories.hate).toBe(true);

    const broken = await moderate({ input: "again" }, p);
    expect(broken.status).toBe(500);
    expect(await broken.json()).toEqual({ error: { message: "moderation backend fell over", type: "server_error", param: null, code: null } });

    const journal = (await (await admin("/sessions/mod-guard/g1/requests")).json()) as any[];
    expect(journal.map((e) => [e.provider, e.endpoint, e.step, e.outcome])).toEqual([
      ["openai", "moderations", "screen", "failure"],
      ["openai", "moderations", "screen", "response"],
      ["openai", "chat.completions", "answer", "response"],
      ["openai", "moderations", "clean", "response"],
      ["openai", "moderations", "broken", "failure"],
    ]);
    expect(journal[1].canonical).toMatchObject({ lastUserMessage: "I will hurt you", model: "omni-moderation-latest", stream: false });
    const verify = (await (await admin("/sessions/mod-guard/g1/verify")).json()) as any;
    expect(verify.unusedSteps).toEqual([]);
    expect(verify.requests).toBe(5);
  });
});

describe("a content_filter failure", () => {
  it("is a flagged result with its categories mapped onto the API's (moderations have no refusal)", async () => {
    await upload({
      name: "mod-filter",
      steps: [{ failures: [{ kind: "content_filter", on: "prompt", categories: ["self_harm", "dangerous"] }], respond: { moderation: { categories: ["hate"] } } }],
    });
    const body = await ok(await moderate({ input: "bad things" }, "/s/mod-filter/c1"));
    expect(body.results[0].flagged).toBe(true);
    expect(body.results[0].categories).toEqual(all((c) => c === "hate" || c === "self-harm" || c === "illicit"));
  });
});

describe("the scenario document", () => {
  it("refuses a category the API does not have, in categories and in scores", async () => {
    for (const moderation of [{ categories: ["violense"] }, { scores: { "self-harm/intention": 0.5 } }]) {
      const res = await admin("/scenarios", { method: "POST", body: JSON.stringify([{ name: "mod-typo", steps: [{ respond: { moderation } }] }]) });
      expect(res.status).toBe(400);
      expect(JSON.stringify(await res.json())).toContain("respond.moderation");
    }
  });
});

describe("bad requests: OpenAI's 400s, never a 5xx", () => {
  const BAD = "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.";
  it.each([
    { body: { model: "omni-moderation-latest" }, message: "Missing required parameter: 'input'.", param: "input", code: "missing_required_parameter" },
    { body: { input: [] }, message: BAD, param: null },
    { body: { input: 42 }, message: BAD, param: null },
    { body: { input: ["a", { type: "text", text: "b" }] }, message: BAD, param: null },
    { body: { input: [{ type: "video", url: "x" }] }, message: BAD, param: null },
    { body: { input: Array.from({ length: 2049 }, () => "x") }, message: BAD, param: null },
    { body: { input: "x", model: 7 }, message: "Invalid type for 'model': expected a string, but got an integer instead.", param: "model", code: "invalid_type" },
    { body: { input: "x", stream: true }, message: "Unrecognized request argument supplied: stream", param: null },
    {
      body: { model: "text-moderation-stable", input: [{ type: "image_url", image_url: { url: "https://x/y.png" } }] },
      message: "Model text-moderation-stable does not support image inputs. Use omni-moderation-latest.",
      param: "input",
    },
  ])("$message", async ({ body, message, param, code }) => {
    const res = await moderate(body);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ error: { message, type: "invalid_request_error", param, code: code ?? null } });
  });

  it("no key is a 401 in OpenAI's shape", async () => {
    const res = await call("/v1/moderations", { method: "POST", headers: { "content-type": "application/json" }, body: '{"input":"x"}' });
    expect(res.status).toBe(401);
    expect(((await res.json()) as any).error.code).toBe("invalid_api_key");
  });
});
