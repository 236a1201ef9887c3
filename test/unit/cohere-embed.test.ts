/**
 * Cohere Embed (src/providers/cohere/embed.ts, embed-image.ts): parsing both versions, the model's dimensions, the quantisations as
 * test vectors, image headers, the refusals as a table, and the large answer's pieces against the whole.
 */
import { describe, expect, it } from "vitest";
import { joinText, type TextChunks } from "../../src/http/byte-source";
import {
  type CohereEmbedWire,
  cohereEmbedV2,
  modelDimensions,
  parseEmbedV1,
  parseEmbedV2,
  quantize,
  renderEmbedJson,
  renderEmbedRaw,
  toBinary,
  toInt8,
  toUbinary,
  toUint8,
} from "../../src/providers/cohere/embed";
import { readImage } from "../../src/providers/cohere/embed-image";
import { hashVector, toBase64 } from "../../src/providers/openai/embeddings/render";
import type { ParseResult, RenderContext } from "../../src/providers/types";
import type { Reply } from "../../src/canonical/outcome";
import type { ScenarioResponse } from "../../src/scenario/schema";
import { resolveReply } from "../../src/scenario/engine";

const headers = new Headers({ authorization: "Bearer co-test" });

function ok(result: ParseResult<CohereEmbedWire>) {
  if (!result.ok) throw new Error(result.error.message);
  return result;
}

function rendered(result: ParseResult<CohereEmbedWire>, respond: ScenarioResponse = {}, seed = "s/default/step-1/1") {
  const { wire, request } = ok(result);
  const reply: Reply = resolveReply(undefined, { respond } as never, request, seed);
  const ctx: RenderContext<CohereEmbedWire> = { wire, request, requestId: "r", created: 1 };
  return { reply, ctx, body: renderEmbedJson(reply, ctx) as Record<string, any> };
}

const dataUri = (mime: string, bytes: number[]) => `data:image/${mime};base64,${Buffer.from(bytes).toString("base64")}`;
const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));
const PNG = dataUri("png", [0x89, ...ascii("PNG\r\n\x1a\n"), 0, 0, 0, 13, ...ascii("IHDR"), 0, 0, 2, 0x80, 0, 0, 1, 0xe0, 8, 6, 0, 0, 0]);
const JPEG = dataUri("jpeg", [0xff, 0xd8, 0xff, 0xe1, 0, 4, 0, 0, 0xff, 0xc0, 0, 17, 8, 0x05, 0x46, 0x04, 0x38, 3, 1, 0x22, 0, 2, 0x11, 1]);
const WEBP = dataUri("webp", [...ascii("RIFF"), 30, 0, 0, 0, ...ascii("WEBPVP8X"), 10, 0, 0, 0, 0x10, 0, 0, 0, 99, 0, 0, 49, 0, 0, 0, 0]);
const GIF = dataUri("gif", [...ascii("GIF89a"), 3, 0, 2, 0, 0, 0, 0]);

describe("modelDimensions", () => {
  it.each([
    ["embed-v4.0", undefined, 1536],
    ["embed-v4.0", 256, 256],
    ["embed-english-v3.0", undefined, 1024],
    ["embed-multilingual-v3.0", undefined, 1024],
    ["embed-english-light-v3.0", undefined, 384],
    ["embed-multilingual-light-v3.0", undefined, 384],
    ["embed-english-v2.0", undefined, 4096],
    ["embed-english-light-v2.0", undefined, 1024],
    ["embed-multilingual-v2.0", undefined, 768],
    ["my-embedder", undefined, 1024],
  ])("%s (output_dimension %s) → %i", (model, dims, want) => {
    expect(modelDimensions(model, dims)).toBe(want);
  });
});

describe("parse", () => {
  it("v2 texts: one user message each, the asked types in order (duplicates once), the model's dimensions", () => {
    const { wire, request } = ok(
      parseEmbedV2({ model: "embed-english-v3.0", texts: ["sunny day", "rainy night"], input_type: "search_document", embedding_types: ["int8", "float", "int8"] }, headers),
    );
    expect(request).toMatchObject({ provider: "cohere", endpoint: "embeddings", model: "embed-english-v3.0", stream: false });
    expect(request.messages).toEqual([
      { role: "user", text: "sunny day" },
      { role: "user", text: "rainy night" },
    ]);
    expect(wire).toEqual({ version: "2", seeds: ["sunny day", "rainy night"], texts: ["sunny day", "rainy night"], images: [], types: ["int8", "float"], dimensions: 1024, textTokens: 6 });
  });

  it("v2 without embedding_types answers float; v1 without them answers the floats shape, by embed-english-v2.0", () => {
    expect(ok(parseEmbedV2({ model: "embed-v4.0", texts: ["a"], input_type: "classification" }, headers)).wire.types).toEqual(["float"]);
    const v1 = ok(parseEmbedV1({ texts: ["a"] }, headers));
    expect([v1.wire.types, v1.wire.dimensions, v1.request.model, v1.wire.version]).toEqual([undefined, 4096, "embed-english-v2.0", "1"]);
    expect(ok(parseEmbedV1({ texts: ["a"], embedding_types: ["uint8"], model: "embed-english-light-v3.0", input_type: "clustering" }, headers)).wire.types).toEqual(["uint8"]);
  });

  it("v1 reads none of v2's fields (a loose body's inputs are ignored)", () => {
    const v1 = ok(parseEmbedV1({ texts: ["a"], inputs: "not checked", output_dimension: 256 }, headers));
    expect([v1.wire.seeds, v1.wire.dimensions]).toEqual([["a"], 4096]);
  });

  it("inputs: text parts joined with a newline are the message; images count and are described", () => {
    const { wire, request } = ok(
      parseEmbedV2(
        {
          model: "embed-v4.0",
          input_type: "search_document",
          output_dimension: 512,
          inputs: [
            {
              content: [
                { type: "text", text: "a cat" },
                { type: "image_url", image_url: { url: PNG } },
                { type: "text", text: "on a mat" },
              ],
            },
            { content: [{ type: "text", text: "plain" }] },
          ],
        },
        headers,
      ),
    );
    expect(request.messages.map((m) => (m.role === "user" ? m.text : ""))).toEqual(["a cat\non a mat", "plain"]);
    expect(wire.seeds).toEqual([`a cat\nimage|${PNG}\non a mat`, "plain"]);
    expect(wire).toMatchObject({ texts: [], dimensions: 512, images: [{ width: 640, height: 480, format: "png", bit_depth: 32 }] });
  });

  it("images: each an input with no text, its data URI the seed", () => {
    const { wire, request } = ok(parseEmbedV2({ model: "embed-v4.0", input_type: "image", images: [JPEG, GIF] }, headers));
    expect(request.messages).toEqual([
      { role: "user", text: "" },
      { role: "user", text: "" },
    ]);
    expect(wire.seeds).toEqual([`image|${JPEG}`, `image|${GIF}`]);
    expect(wire.textTokens).toBeUndefined();
  });

  it.each([
    ["model missing (v2)", { texts: ["a"] }, "model is required"],
    ["model empty", { model: " ", texts: ["a"] }, "model is required"],
    ["no input", { model: "m", texts: [] }, "one of texts, images or inputs must be provided"],
    ["two inputs", { model: "m", texts: ["a"], images: [GIF] }, "only one of texts, images or inputs may be provided"],
    ["97 texts", { model: "m", texts: Array(97).fill("a") }, "total number of texts must be at most 96 - received 97"],
    ["97 inputs", { model: "m", inputs: Array(97).fill({ content: [{ type: "text", text: "a" }] }) }, "total number of inputs must be at most 96 - received 97"],
    ["empty text", { model: "m", texts: ["a", ""] }, "texts[1] must not be empty"],
    ["empty content", { model: "m", inputs: [{ content: [] }] }, "inputs[0].content must not be empty"],
    ["empty text part", { model: "m", inputs: [{ content: [{ type: "text", text: "" }] }] }, "inputs[0].content[0].text must not be empty"],
    ["no input_type (v3)", { model: "embed-english-v3.0", texts: ["a"] }, "valid input_type must be provided with the provided model"],
    ["no input_type (v4)", { model: "embed-v4.0", texts: ["a"] }, "valid input_type must be provided with the provided model"],
    ["unknown input_type", { model: "m", texts: ["a"], input_type: "search" }, "valid input_type must be provided with the provided model"],
    ["unknown embedding type", { model: "m", texts: ["a"], embedding_types: ["float", "int4"] }, "int4 is not a valid embedding_types value, [float int8 uint8 binary ubinary base64] is supported"],
    [
      "output_dimension 768",
      { model: "embed-v4.0", input_type: "search_query", texts: ["a"], output_dimension: 768 },
      "768 is not a valid output_dimension value for this model, [256 512 1024 1536] is supported",
    ],
    ["output_dimension on v3", { model: "embed-english-v3.0", input_type: "search_query", texts: ["a"], output_dimension: 1024 }, "output_dimension is only supported by embed-v4.0 and newer models"],
    ["max_tokens 0", { model: "m", texts: ["a"], max_tokens: 0 }, "max_tokens must be greater than 0"],
    ["not a data URI", { model: "m", images: ["https://example.com/cat.png"] }, "images[0] must be a base64 data URI of a jpeg, png, webp or gif image"],
    ["not an image", { model: "m", images: ["data:image/png;base64,AAAAAAAA"] }, "images[0] must be a base64 data URI of a jpeg, png, webp or gif image"],
    [
      "bad image in inputs",
      { model: "m", inputs: [{ content: [{ type: "image_url", image_url: { url: "data:image/gif;base64,!!" } }] }] },
      "inputs[0] must be a base64 data URI of a jpeg, png, webp or gif image",
    ],
    ["texts of numbers", { model: "m", texts: [1] }, "texts[0] is invalid: Invalid input: expected string, received number"],
    ["bad truncate", { model: "m", texts: ["a"], truncate: "MIDDLE" }, 'truncate is invalid: Invalid option: expected one of "NONE"|"START"|"END"'],
  ])("%s → 400", (_name, body, message) => {
    const result = parseEmbedV2(body, headers);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toEqual({ code: "invalid_request", message: `invalid request: ${message}` });
  });

  it.each([
    [null],
    [7],
    [[]],
    [{ texts: "a" }],
    [{ texts: [null] }],
    [{ texts: [["a"]] }],
    [{ images: [7] }],
    [{ images: ["data:image/png;base64,"] }],
    [{ inputs: "x" }],
    [{ inputs: [null] }],
    [{ inputs: [{}] }],
    [{ inputs: [{ content: "x" }] }],
    [{ inputs: [{ content: [null] }] }],
    [{ inputs: [{ content: [{ type: "image_url" }] }] }],
    [{ inputs: [{ content: [{ type: "image_url", image_url: { url: 7 } }] }] }],
    [{ inputs: [{ content: [{ type: "text", text: { toString: 1 } }] }] }],
    [{ texts: ["a"], embedding_types: "float" }],
    [{ texts: ["a"], embedding_types: [7] }],
    [{ texts: ["a"], input_type: 7 }],
    [{ texts: ["a"], model: 7 }],
    // v2's own fields: v1 has none of them and ignores them, as a loose body's unknown keys.
    [{ texts: ["a"], output_dimension: "256" }, "v2"],
    [{ texts: ["a"], output_dimension: 1.5 }, "v2"],
    [{ texts: ["a"], max_tokens: "x" }, "v2"],
  ])("garbage %j: a 400 in Cohere's words, never a throw", (body, only?: string) => {
    for (const parse of only === "v2" ? [parseEmbedV2] : [parseEmbedV2, parseEmbedV1]) {
      const raw = body !== null && typeof body === "object" && !Array.isArray(body) ? { model: "m", ...body } : body;
      const result = parse(raw, headers);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.message).toMatch(/^invalid request: /);
    }
  });

  it("v1 refuses the same way, and takes an unknown model without input_type", () => {
    const result = parseEmbedV1({ texts: Array(97).fill("a") }, headers);
    expect(result.ok ? "" : result.error.message).toBe("invalid request: total number of texts must be at most 96 - received 97");
    expect(parseEmbedV1({ model: "embed-multilingual-v3.0", texts: ["a"] }, headers).ok).toBe(false);
    expect(parseEmbedV1({ model: "custom", texts: ["a"] }, headers).ok).toBe(true);
  });
});

describe("readImage", () => {
  it.each([
    ["png (RGBA)", PNG, { width: 640, height: 480, format: "png", bit_depth: 32 }],
    ["jpeg (RGB, after an APP1 segment)", JPEG, { width: 1080, height: 1350, format: "jpeg", bit_depth: 24 }],
    ["webp (VP8X with alpha)", WEBP, { width: 100, height: 50, format: "webp", bit_depth: 32 }],
    ["gif", GIF, { width: 3, height: 2, format: "gif", bit_depth: 8 }],
    ["the docs example", "data:image/gif;base64,R0lGODlhAQABAAAAACw=", { width: 1, height: 1, format: "gif", bit_depth: 8 }],
  ])("%s", (_name, url, want) => {
    expect(readImage(url)).toEqual(want);
  });

  it.each([["https://example.com/a.png"], ["data:image/svg+xml;base64,PHN2Zz4="], ["data:image/png;base64,AAAA"], ["data:image/png,raw"]])("%s is no image it reads", (url) => {
    expect(readImage(url)).toBeUndefined();
  });
});

describe("quantisation", () => {
  const v = [0.5, -1, 0.25, 0, -0.125, 1, 0.01, -0.3, 0.7];
  it("int8 scales by the largest magnitude to ±127; uint8 adds 128", () => {
    expect(toInt8(v)).toEqual([64, -127, 32, 0, -16, 127, 1, -38, 89]);
    expect(toUint8(v)).toEqual([192, 1, 160, 128, 112, 255, 129, 90, 217]);
    expect(toInt8([0, 0])).toEqual([0, 0]);
    // Halves round away from zero (a vector and its negation quantise to negations); no -0, which JSON sends as 0.
    expect(toInt8([0.5, -0.5, -1, 0])).toEqual([64, -64, -127, 0]);
    expect(toInt8([-0.001, 1])).toEqual([0, 127]);
  });

  it("ubinary packs the signs of 8 values per byte, most significant first, padding the tail; binary is ubinary − 128", () => {
    // 0.5 -1 0.25 0 -0.125 1 0.01 -0.3 → 1 0 1 0 0 1 1 0 = 0xA6; 0.7 → 1000 0000 = 0x80
    expect(toUbinary(v)).toEqual([0xa6, 0x80]);
    expect(toBinary(v)).toEqual([0xa6 - 128, 0]);
    expect(toUbinary([1, -1, 1, -1, 1, -1, 1, -1])).toEqual([170]);
  });

  it("base64 is the little-endian float32 bytes", () => {
    const b64 = quantize("base64", [1, -2]) as string;
    expect(b64).toBe("AACAPwAAAMA=");
    expect(Array.from(new Float32Array(new Uint8Array(Buffer.from(b64, "base64")).buffer))).toEqual([1, -2]);
    expect(quantize("float", v)).toBe(v);
  });
});

describe("render", () => {
  it("v2: id, texts, each asked type in order from the same float vector, meta, response_type", () => {
    const { body } = rendered(
      parseEmbedV2({ model: "embed-english-light-v3.0", texts: ["hello"], input_type: "search_query", embedding_types: ["ubinary", "float", "int8", "uint8", "binary", "base64"] }, headers),
    );
    expect(Object.keys(body)).toEqual(["id", "texts", "embeddings", "meta", "response_type"]);
    expect(body.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Object.keys(body.embeddings)).toEqual(["ubinary", "float", "int8", "uint8", "binary", "base64"]);
    const float = hashVector({ kind: "text", text: "hello" }, 384);
    expect(body.embeddings.float).toEqual([float]);
    expect(body.embeddings.int8).toEqual([toInt8(float)]);
    expect(body.embeddings.uint8).toEqual([toUint8(float)]);
    expect(body.embeddings.binary).toEqual([toBinary(float)]);
    expect(body.embeddings.ubinary[0]).toHaveLength(48);
    expect(body.embeddings.base64).toEqual([toBase64(float)]);
    expect([body.texts, body.meta, body.response_type]).toEqual([["hello"], { api_version: { version: "2" }, billed_units: { input_tokens: 2 } }, "embeddings_by_type"]);
  });

  it("v1 without embedding_types: embeddings is the list of floats, embeddings_floats, version 1", () => {
    const { body } = rendered(parseEmbedV1({ texts: ["a", "bb"], model: "embed-multilingual-v2.0" }, headers));
    expect(body.embeddings).toHaveLength(2);
    expect(body.embeddings[1]).toEqual(hashVector({ kind: "text", text: "bb" }, 768));
    expect([body.meta, body.response_type]).toEqual([{ api_version: { version: "1" }, billed_units: { input_tokens: 2 } }, "embeddings_floats"]);
  });

  it("scripted vectors answer by index and are quantised as given; the rest get hash vectors", () => {
    const { body } = rendered(parseEmbedV2({ model: "embed-v4.0", input_type: "search_query", texts: ["a", "b"], embedding_types: ["float", "int8", "ubinary"] }, headers), {
      embeddings: [[0.5, -0.25, 1]],
    });
    expect(body.embeddings.float[0]).toEqual([0.5, -0.25, 1]);
    expect(body.embeddings.int8[0]).toEqual([64, -32, 127]);
    expect(body.embeddings.ubinary[0]).toEqual([0b1010_0000]);
    expect(body.embeddings.float[1]).toEqual(hashVector({ kind: "text", text: "b" }, 1536));
  });

  it("images: described after embeddings, billed as images", () => {
    const { body } = rendered(parseEmbedV2({ model: "embed-v4.0", input_type: "image", images: [JPEG] }, headers));
    expect(Object.keys(body)).toEqual(["id", "texts", "embeddings", "images", "meta", "response_type"]);
    expect(body.images).toEqual([{ width: 1080, height: 1350, format: "jpeg", bit_depth: 24 }]);
    expect(body.meta.billed_units).toEqual({ images: 1 });
  });

  it("the id is stable per reply seed and differs between seeds", () => {
    const parsed = parseEmbedV2({ model: "m", texts: ["a"] }, headers);
    expect(rendered(parsed).body.id).toBe(rendered(parsed).body.id);
    expect(rendered(parsed, {}, "other").body.id).not.toBe(rendered(parsed).body.id);
  });

  it("answers the stream interface with the body as one event", () => {
    const { reply, ctx, body } = rendered(parseEmbedV2({ model: "m", texts: ["a"] }, headers));
    expect(cohereEmbedV2.renderEvents(reply, ctx)).toEqual([{ data: JSON.stringify(body) }]);
  });
});

describe("renderEmbedRaw", () => {
  it("leaves a small answer whole", () => {
    const { reply, ctx } = rendered(parseEmbedV2({ model: "embed-english-v3.0", input_type: "search_query", texts: ["a", "b"] }, headers));
    expect(renderEmbedRaw(reply, ctx)).toBeUndefined();
  });

  it.each([
    [
      "v2, every type",
      parseEmbedV2({ model: "embed-english-v2.0", texts: Array.from({ length: 96 }, (_, i) => `text ${i}`), embedding_types: ["float", "int8", "uint8", "binary", "ubinary", "base64"] }, headers),
    ],
    ["v1 floats", parseEmbedV1({ texts: Array.from({ length: 40 }, (_, i) => `t${i}`) }, headers)],
    ["v2 images", parseEmbedV2({ model: "embed-english-v2.0", images: Array(20).fill(PNG) }, headers)],
  ])("%s: the pieces are byte for byte the JSON of the whole", (_name, parsed) => {
    const { reply, ctx, body } = rendered(parsed, { embeddings: [[0.1, -0.2]] });
    const raw = renderEmbedRaw(reply, ctx);
    expect(raw?.contentType).toBe("application/json");
    expect(joinText(raw!.body as TextChunks)).toBe(JSON.stringify(body));
  });
});
