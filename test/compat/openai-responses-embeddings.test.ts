/**
 * `POST /v1/embeddings` with the official `openai` SDK (which asks for base64 by default and decodes float32 LE)
 * and raw HTTP: hash vectors, dimensions, scripted vectors, and the real API's 400s.
 */
import OpenAI, { BadRequestError } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const SCENARIOS = [
  {
    name: "e-scripted",
    steps: [
      {
        match: { endpoint: "embeddings" },
        consume: false,
        respond: {
          embeddings: [
            [1, 0, 0],
            [0.6, 0.8, 0],
          ],
          model: "text-embedding-3-small",
        },
      },
    ],
  },
];

const client = (path = "") => new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}${path}/v1`, maxRetries: 0 });
const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

async function post(body: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(`${h.url}/v1/embeddings`, {
    method: "POST",
    headers: { authorization: "Bearer sk", "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: await res.json() };
}

beforeAll(async () => {
  h = await startHarness();
  await h.upload(...SCENARIOS);
});
afterAll(() => h?.stop());

describe("hash vectors", () => {
  it("decode to the same numbers from base64 (the SDK default) and float", async () => {
    const c = client();
    const b64 = await c.embeddings.create({ model: "text-embedding-3-small", input: "The food was delicious." });
    const float = await c.embeddings.create({ model: "text-embedding-3-small", input: "The food was delicious.", encoding_format: "float" });
    const v = b64.data[0]!.embedding;
    expect(v).toHaveLength(1536);
    expect(float.data[0]!.embedding).toEqual(v);
    expect(norm(v)).toBeCloseTo(1, 6);
    expect(b64).toMatchObject({ object: "list", model: "text-embedding-3-small", usage: { prompt_tokens: 6, total_tokens: 6 } });
    expect(b64.data[0]).toMatchObject({ object: "embedding", index: 0 });
  });

  it("sends base64 as a string of little-endian float32 bytes", async () => {
    const r = await post({ model: "text-embedding-3-small", input: "abc", encoding_format: "base64", dimensions: 4 });
    const f = await post({ model: "text-embedding-3-small", input: "abc", encoding_format: "float", dimensions: 4 });
    const bytes = Buffer.from(r.json.data[0].embedding, "base64");
    expect(bytes).toHaveLength(16);
    expect([0, 1, 2, 3].map((i) => bytes.readFloatLE(i * 4))).toEqual(f.json.data[0].embedding);
  });

  it("are stable per input, distinct across inputs, one per input in order", async () => {
    const c = client();
    const many = await c.embeddings.create({ model: "m", input: ["alpha", "beta", "alpha"], encoding_format: "float" });
    const [a, b, a2] = many.data.map((d) => d.embedding);
    expect(many.data.map((d) => d.index)).toEqual([0, 1, 2]);
    expect(a2).toEqual(a);
    expect(b).not.toEqual(a);
    const again = await c.embeddings.create({ model: "m", input: "alpha", encoding_format: "float" });
    expect(again.data[0]!.embedding).toEqual(a);
  });

  it("honour dimensions as a renormalised prefix of the full vector", async () => {
    const c = client();
    const full = (await c.embeddings.create({ model: "m", input: "prefix", encoding_format: "float" })).data[0]!.embedding;
    const short = (await c.embeddings.create({ model: "m", input: "prefix", dimensions: 256 })).data[0]!.embedding;
    expect(short).toHaveLength(256);
    expect(norm(short)).toBeCloseTo(1, 6);
    const scale = norm(full.slice(0, 256));
    short.forEach((x, i) => expect(x).toBeCloseTo(full[i]! / scale, 6));
  });

  it("accept token arrays, counting one prompt token per token", async () => {
    const r = await post({
      model: "m",
      input: [
        [1, 2, 3],
        [4, 5],
      ],
      encoding_format: "float",
      dimensions: 8,
    });
    expect(r.status).toBe(200);
    expect(r.json.data).toHaveLength(2);
    expect(r.json.usage).toEqual({ prompt_tokens: 5, total_tokens: 5 });
    const single = await post({ model: "m", input: [1, 2, 3], encoding_format: "float", dimensions: 8 });
    expect(single.json.data[0].embedding).toEqual(r.json.data[0].embedding);
  });
});

describe("scripted vectors", () => {
  it("answer input i with embeddings[i], and later inputs with the hash vector", async () => {
    const c = client("/s/e-scripted");
    const res = await c.embeddings.create({ model: "text-embedding-3-small", input: ["a", "b", "c"], encoding_format: "float" });
    expect(res.data[0]!.embedding).toEqual([1, 0, 0]);
    expect(res.data[1]!.embedding).toEqual([0.6, 0.8, 0]);
    const hashC = (await client().embeddings.create({ model: "x", input: "c", encoding_format: "float" })).data[0]!.embedding;
    expect(res.data[2]!.embedding).toEqual(hashC);
    const b64 = await c.embeddings.create({ model: "text-embedding-3-small", input: ["a", "b"] });
    expect(b64.data[1]!.embedding).toEqual([Math.fround(0.6), Math.fround(0.8), 0]);
    const journal = await h.journal("e-scripted");
    expect(journal[0]).toMatchObject({ provider: "openai", endpoint: "embeddings", outcome: "response" });
  });
});

describe("bad input", () => {
  const BAD = "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.";
  it.each([
    { body: { model: "m" }, message: "Missing required parameter: 'input'.", param: "input", code: "missing_required_parameter" },
    { body: { input: "x" }, message: "Missing required parameter: 'model'.", param: "model", code: "missing_required_parameter" },
    { body: { model: "m", input: "" }, message: BAD, param: null },
    { body: { model: "m", input: [] }, message: BAD, param: null },
    { body: { model: "m", input: ["ok", ""] }, message: BAD, param: null },
    { body: { model: "m", input: { text: "x" } }, message: BAD, param: null },
    { body: { model: "m", input: "x", dimensions: 0 }, message: "Invalid value for 'dimensions' = 0. Must be between 1 and 3072.", param: "dimensions" },
    { body: { model: "text-embedding-ada-002", input: "x", dimensions: 8 }, message: "This model does not support specifying dimensions.", param: null },
    { body: { model: 7, input: "x" }, message: "Invalid type for 'model': expected a string, but got an integer instead.", param: "model", code: "invalid_type" },
  ])("$message ($body.input)", async ({ body, message, param, code }) => {
    const r = await post(body);
    expect(r.status).toBe(400);
    expect(r.json.error).toEqual({ message, type: "invalid_request_error", param, code: code ?? null });
  });

  it("reaches the SDK as BadRequestError", async () => {
    await expect(client().embeddings.create({ model: "m", input: "" })).rejects.toBeInstanceOf(BadRequestError);
  });
});
