/**
 * Cohere Embed through the official `cohere-ai` client: `CohereClientV2.embed` (`/v2/embed`) and the v1
 * `CohereClient.embed` (`/v1/embed`) pointed at the mock, every embedding type derived from the float vector, image
 * inputs described, scripted vectors after a 429 as the client's TooManyRequestsError, and a refusal as BadRequestError.
 */
import { CohereClient, CohereClientV2, type CohereError, Cohere } from "cohere-ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toInt8, toUint8 } from "../../src/providers/cohere/embed";
import { startHarness, type Harness } from "./harness";

let h: Harness;

const TEXTS = ["sunny day at the beach", "rainy day in the city"];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** A 640 × 480 RGBA PNG's signature and header (all the mock reads of it). */
const PNG = `data:image/png;base64,${Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 2, 0x80, 0, 0, 1, 0xe0, 8, 6, 0, 0, 0]).toString("base64")}`;

const SCENARIO = {
  name: "embed-sdk",
  steps: [
    {
      id: "vectors",
      match: { provider: "cohere", endpoint: "embeddings", lastUserMessage: "the query" },
      failures: [{ kind: "rate_limit" }],
      respond: { embeddings: [[0.5, -0.25, 1, 0, -1, 0.125, 0.75, -0.5, 0.25]] },
    },
  ],
};

/** Each byte the signs of 8 consecutive values, most significant first (the tail padded with zeros). */
function signBits(vector: number[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < vector.length; i += 8) {
    out.push(vector.slice(i, i + 8).reduce((byte, x, k) => byte | (x > 0 ? 0x80 >> k : 0), 0));
  }
  return out;
}

beforeAll(async () => {
  h = await startHarness();
  await h.upload(SCENARIO);
});
afterAll(() => h?.stop());

describe("cohere-ai embed", () => {
  it("CohereClientV2.embed: every type in one answer, each derived from the float vector", async () => {
    const co = new CohereClientV2({ token: "co-test", environment: h.url, maxRetries: 0 });
    const res = await co.embed({
      model: "embed-english-v3.0",
      texts: TEXTS,
      inputType: "search_document",
      embeddingTypes: ["float", "int8", "uint8", "binary", "ubinary", "base64"],
    });
    expect(res.id).toMatch(UUID);
    expect(res.responseType).toBe("embeddings_by_type");
    expect(res.texts).toEqual(TEXTS);
    expect(res.meta).toEqual({ apiVersion: { version: "2" }, billedUnits: { inputTokens: 12 } });
    const { float, int8, uint8, binary, ubinary, base64 } = res.embeddings;
    expect(float!.map((v) => v.length)).toEqual([1024, 1024]);
    expect(float![0]).not.toEqual(float![1]);
    for (const [i, v] of float!.entries()) {
      expect(int8![i]).toEqual(toInt8(v));
      expect(uint8![i]).toEqual(toUint8(v));
      expect(ubinary![i]).toEqual(signBits(v));
      expect(binary![i]).toEqual(signBits(v).map((b) => b - 128));
      expect(Array.from(new Float32Array(new Uint8Array(Buffer.from(base64![i]!, "base64")).buffer))).toEqual(v);
    }
    expect(Math.max(...int8!.flat())).toBe(127);
  });

  it("the same text gets the same vector on every request and model of one size", async () => {
    const co = new CohereClientV2({ token: "co-test", environment: h.url, maxRetries: 0 });
    const a = await co.embed({ model: "embed-english-v3.0", texts: [TEXTS[0]!], inputType: "search_query" });
    const b = await co.embed({ model: "embed-multilingual-v3.0", texts: [TEXTS[0]!], inputType: "clustering", embeddingTypes: ["float"] });
    expect(a.embeddings.float).toEqual(b.embeddings.float);
    expect(Object.keys(a.embeddings)).toEqual(["float"]);
  });

  it("embed-v4.0 takes output_dimension; images are described and billed as images", async () => {
    const co = new CohereClientV2({ token: "co-test", environment: h.url, maxRetries: 0 });
    const res = await co.embed({ model: "embed-v4.0", images: [PNG], inputType: "image", outputDimension: 256, embeddingTypes: ["float", "ubinary"] });
    expect([res.embeddings.float![0]!.length, res.embeddings.ubinary![0]!.length]).toEqual([256, 32]);
    expect(res.texts).toEqual([]);
    expect(res.images).toEqual([{ width: 640, height: 480, format: "png", bitDepth: 32 }]);
    expect(res.meta?.billedUnits).toEqual({ images: 1 });
  });

  it("inputs mix text and images, one vector per input", async () => {
    const co = new CohereClientV2({ token: "co-test", environment: h.url, maxRetries: 0 });
    const res = await co.embed({
      model: "embed-v4.0",
      inputType: "search_document",
      inputs: [
        {
          content: [
            { type: "text", text: "a cat" },
            { type: "image_url", imageUrl: { url: PNG } },
          ],
        },
        { content: [{ type: "text", text: "a dog" }] },
      ],
    });
    expect(res.embeddings.float!.map((v) => v.length)).toEqual([1536, 1536]);
    expect(res.images).toHaveLength(1);
    expect(res.meta?.billedUnits).toEqual({ inputTokens: 4, images: 1 });
  });

  it("CohereClient.embed (v1): the floats answer without embeddingTypes, by embed-english-v2.0", async () => {
    const co = new CohereClient({ token: "co-test", baseUrl: h.url, maxRetries: 0 });
    const res = await co.embed({ texts: TEXTS });
    expect(res.responseType).toBe("embeddings_floats");
    if (res.responseType !== "embeddings_floats") return;
    expect(res.id).toMatch(UUID);
    expect(res.embeddings.map((v) => v.length)).toEqual([4096, 4096]);
    expect(res.texts).toEqual(TEXTS);
    expect(res.meta?.apiVersion?.version).toBe("1");
  });

  it("CohereClient.embed (v1) with embeddingTypes: the by-type answer", async () => {
    const co = new CohereClient({ token: "co-test", baseUrl: h.url, maxRetries: 0 });
    const res = await co.embed({ texts: TEXTS, model: "embed-english-light-v3.0", inputType: "classification", embeddingTypes: ["int8"] });
    expect(res.responseType).toBe("embeddings_by_type");
    if (res.responseType !== "embeddings_by_type") return;
    expect(Object.keys(res.embeddings)).toEqual(["int8"]);
    expect(res.embeddings.int8!.map((v) => v.length)).toEqual([384, 384]);
    expect(res.meta?.apiVersion?.version).toBe("1");
  });

  it("a scripted 429 is TooManyRequestsError in Cohere's shape; the next call gets the scripted vector exactly", async () => {
    const co = new CohereClientV2({ token: "co-test", baseUrl: `${h.url}/s/embed-sdk/run-1`, maxRetries: 0 });
    const request = { model: "embed-english-v3.0", texts: ["the query"], inputType: "search_query" as const, embeddingTypes: ["float" as const, "int8" as const, "ubinary" as const] };
    const err = await co.embed(request).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Cohere.TooManyRequestsError);
    expect((err as CohereError).statusCode).toBe(429);
    expect((err as CohereError).body).toEqual({ message: "You are past the per minute request limit, please wait and try again later." });
    const res = await co.embed(request);
    expect(res.embeddings.float).toEqual([[0.5, -0.25, 1, 0, -1, 0.125, 0.75, -0.5, 0.25]]);
    expect(res.embeddings.int8).toEqual([[64, -32, 127, 0, -127, 16, 95, -64, 32]]);
    expect(res.embeddings.ubinary).toEqual([[0b1010_0110, 0b1000_0000]]);
    const journal = await h.journal("embed-sdk", "run-1");
    expect(journal.map((e) => [e.provider, e.endpoint, e.step, e.outcome, e.status])).toEqual([
      ["cohere", "embeddings", "vectors", "failure", 429],
      ["cohere", "embeddings", "vectors", "response", 200],
    ]);
  });

  it("a refusal is BadRequestError with Cohere's message", async () => {
    const co = new CohereClientV2({ token: "co-test", environment: h.url, maxRetries: 0 });
    const tooMany = await co.embed({ model: "embed-english-v3.0", texts: Array(97).fill("x"), inputType: "search_query" }).catch((e: unknown) => e);
    expect(tooMany).toBeInstanceOf(Cohere.BadRequestError);
    expect((tooMany as CohereError).body).toEqual({ message: "invalid request: total number of texts must be at most 96 - received 97" });
    const dims = await co.embed({ model: "embed-v4.0", texts: ["x"], inputType: "search_query", outputDimension: 768 }).catch((e: unknown) => e);
    expect(dims).toBeInstanceOf(Cohere.BadRequestError);
    expect((dims as CohereError).body).toEqual({ message: "invalid request: 768 is not a valid output_dimension value for this model, [256 512 1024 1536] is supported" });
    const v1 = new CohereClient({ token: "co-test", baseUrl: h.url, maxRetries: 0 });
    const noType = await v1.embed({ texts: ["x"], model: "embed-english-v3.0" }).catch((e: unknown) => e);
    expect(noType).toBeInstanceOf(Cohere.BadRequestError);
    expect((noType as CohereError).body).toEqual({ message: "invalid request: valid input_type must be provided with the provided model" });
  });
});
