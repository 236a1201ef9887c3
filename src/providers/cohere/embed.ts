/**
 * Cohere Embed: `POST /v2/embed` (`CohereClientV2.embed`) and `POST /v1/embed` (`CohereClient.embed`). Each text,
 * image or mixed input is one user message of the canonical request (provider `cohere`, endpoint `embeddings`), so a
 * step matches on it and `respond.embeddings[i]` scripts input `i`'s float vector; unscripted inputs get the
 * deterministic hash vectors of openai/embeddings/render.ts, as many values as the model gives (or `output_dimension`).
 * Every other embedding type is derived from the float vector (`quantize`). Messages follow
 * docs.cohere.com/reference/errors (`invalid request: …`).
 */
import type { Reply } from "../../canonical/outcome";
import { inputsRequest } from "../../canonical/request";
import { WHOLE_BODY_LIMIT } from "../../http/byte-source";
import type { ApiError } from "../../http/errors";
import { headerRecord } from "../../http/headers";
import { safeParseFast } from "../../util/fast-parse";
import { lazily } from "../../util/memo";
import { FLOAT_JSON_BYTES, promptTokens, toBase64, vectorFor } from "../openai/embeddings/render";
import type { ParseResult, ProviderSurface, RawBody, RenderContext, SseEvent } from "../types";
import { z } from "zod";
import { COHERE_ERRORS_AND_HEADERS } from "./errors";
import { invalid, issueError } from "./parse";
import { readImage, type ImageInfo } from "./embed-image";
import { renderRerankStreamError, rerankId } from "./render";

/** Most texts, images or inputs one request may carry. */
export const MAX_EMBED_INPUTS = 96;
/** The model a v1 request without one is embedded by. */
export const DEFAULT_V1_EMBED_MODEL = "embed-english-v2.0";
/** The `output_dimension` values embed-v4.0 takes; its default is the last. */
export const OUTPUT_DIMENSIONS = [256, 512, 1024, 1536] as const;
export const EMBEDDING_TYPES = ["float", "int8", "uint8", "binary", "ubinary", "base64"] as const;
export const INPUT_TYPES = ["search_document", "search_query", "classification", "clustering", "image"] as const;
export type EmbeddingType = (typeof EMBEDDING_TYPES)[number];

const isEmbeddingType = (t: string): t is EmbeddingType => (EMBEDDING_TYPES as readonly string[]).includes(t);

/** The models of docs.cohere.com/docs/cohere-embed and their (fixed) vector lengths. */
const FIXED_DIMENSIONS: Readonly<Record<string, number>> = {
  "embed-english-v3.0": 1024,
  "embed-multilingual-v3.0": 1024,
  "embed-english-light-v3.0": 384,
  "embed-multilingual-light-v3.0": 384,
  "embed-english-v2.0": 4096,
  "embed-english-light-v2.0": 1024,
  "embed-multilingual-v2.0": 768,
};

/** Built on the first embed request (util/memo.ts `lazily`): a start pays for no provider's schemas. Loose: unknown fields pass. */
const embedWire = lazily(() => {
  const content = z.discriminatedUnion("type", [
    z.looseObject({ type: z.literal("text"), text: z.string() }),
    z.looseObject({ type: z.literal("image_url"), image_url: z.looseObject({ url: z.string() }) }),
  ]);
  const common = {
    texts: z.array(z.string()).nullish(),
    images: z.array(z.string()).nullish(),
    input_type: z.string().nullish(),
    embedding_types: z.array(z.string()).nullish(),
    truncate: z.enum(["NONE", "START", "END"]).nullish(),
  };
  /** v2: `model` is required; `inputs` mix text and images; embed-v4.0 takes `output_dimension`. */
  const EmbedV2Schema = z.looseObject({
    ...common,
    model: z.string(),
    inputs: z.array(z.looseObject({ content: z.array(content) })).nullish(),
    output_dimension: z.number().int().nullish(),
    max_tokens: z.number().int().nullish(),
    priority: z.number().int().nullish(),
  });
  /** v1: `model` is optional (`embed-english-v2.0`); no `embedding_types` asks for the floats answer. */
  const EmbedV1Schema = z.looseObject({ ...common, model: z.string().nullish() });
  return { EmbedV2Schema, EmbedV1Schema };
});

type EmbedV2Body = z.output<ReturnType<typeof embedWire>["EmbedV2Schema"]>;
type EmbedInputWire = NonNullable<EmbedV2Body["inputs"]>[number];

/** The fields both versions read (v1 lacks `inputs`, `output_dimension` and `max_tokens`; its model is defaulted). */
interface EmbedFields {
  model: string;
  texts?: string[] | null;
  images?: string[] | null;
  inputs?: EmbedInputWire[] | null;
  input_type?: string | null;
  embedding_types?: string[] | null;
  output_dimension?: number | null;
  max_tokens?: number | null;
}

/** The parsed request: what the renderer needs. */
export interface CohereEmbedWire {
  version: "1" | "2";
  /** What each input's hash vector is seeded by: its text (as on OpenAI's surface), or its parts. */
  seeds: string[];
  /** The `texts` sent back (the request's `texts`; empty for images and `inputs`). */
  texts: string[];
  /** One entry per image, in order. */
  images: ImageInfo[];
  /** The types asked for, in order; undefined: v1's `embeddings_floats` answer. */
  types?: EmbeddingType[];
  dimensions: number;
  /** Estimated tokens of the text parts; undefined when there are none (images only). */
  textTokens?: number;
}

/** One input: the text a scenario matches, its hash seed and its image URLs. */
interface Item {
  text: string;
  seed: string;
  images: string[];
}

/**
 * The values a model's float vectors have.
 * @example modelDimensions("embed-english-light-v3.0") // 384
 */
export function modelDimensions(model: string, outputDimension?: number): number {
  return FIXED_DIMENSIONS[model] ?? outputDimension ?? (/^embed-v\d/.test(model) ? 1536 : 1024);
}

/** Cohere's v3 and newer models refuse a request without a (valid) `input_type`; older and unknown names do not. */
function needsInputType(model: string): boolean {
  return /^embed-(?:(?:english|multilingual)(?:-light)?-v3\.0|v[4-9])/.test(model);
}

function imageItem(url: string): Item {
  return { text: "", seed: `image|${url}`, images: [url] };
}

/** An `inputs` entry: its text parts joined with "\n", or the refusal naming the empty part. */
function inputItem(input: EmbedInputWire, at: string): Item | ApiError {
  if (input.content.length === 0) return invalid(`${at}.content must not be empty`);
  const texts: string[] = [];
  const seeds: string[] = [];
  const images: string[] = [];
  for (const [j, part] of input.content.entries()) {
    if (part.type === "text") {
      if (part.text === "") return invalid(`${at}.content[${j}].text must not be empty`);
      texts.push(part.text);
      seeds.push(part.text);
    } else {
      images.push(part.image_url.url);
      seeds.push(`image|${part.image_url.url}`);
    }
  }
  return { text: texts.join("\n"), seed: seeds.join("\n"), images };
}

/** The inputs of whichever of `texts`, `images` and `inputs` is given (exactly one must be). */
function itemsOf(body: EmbedFields): Item[] | ApiError {
  const given = (["texts", "images", "inputs"] as const).filter((f) => (body[f]?.length ?? 0) > 0);
  if (given.length === 0) return invalid("one of texts, images or inputs must be provided");
  if (given.length > 1) return invalid("only one of texts, images or inputs may be provided");
  const field = given[0]!;
  const count = body[field]!.length;
  if (count > MAX_EMBED_INPUTS) return invalid(`total number of ${field} must be at most ${MAX_EMBED_INPUTS} - received ${count}`);
  if (field === "images") return body.images!.map(imageItem);
  if (field === "texts") {
    const empty = body.texts!.indexOf("");
    if (empty >= 0) return invalid(`texts[${empty}] must not be empty`);
    return body.texts!.map((text) => ({ text, seed: text, images: [] }));
  }
  const items: Item[] = [];
  for (const [i, input] of body.inputs!.entries()) {
    const item = inputItem(input, `inputs[${i}]`);
    if ("code" in item) return item;
    items.push(item);
  }
  return items;
}

/** The width, height, format and bit depth of every image, or the refusal naming the first that is not one. */
function imagesOf(items: Item[], field: string): ImageInfo[] | ApiError {
  const out: ImageInfo[] = [];
  for (const [i, item] of items.entries()) {
    for (const url of item.images) {
      const info = readImage(url);
      if (info === undefined) return invalid(`${field}[${i}] must be a base64 data URI of a jpeg, png, webp or gif image`);
      out.push(info);
    }
  }
  return out;
}

/** `input_type`, `embedding_types`, `output_dimension` and `max_tokens`, checked against the model. */
function checkOptions(body: EmbedFields): ApiError | undefined {
  const inputType = body.input_type ?? undefined;
  const knownType = inputType !== undefined && (INPUT_TYPES as readonly string[]).includes(inputType);
  if ((inputType !== undefined && !knownType) || (inputType === undefined && needsInputType(body.model))) {
    return invalid("valid input_type must be provided with the provided model");
  }
  const badType = (body.embedding_types ?? []).find((t) => !isEmbeddingType(t));
  if (badType !== undefined) return invalid(`${badType} is not a valid embedding_types value, [${EMBEDDING_TYPES.join(" ")}] is supported`);
  const dims = body.output_dimension;
  if (dims !== undefined && dims !== null) {
    if (FIXED_DIMENSIONS[body.model] !== undefined) return invalid("output_dimension is only supported by embed-v4.0 and newer models");
    if (!(OUTPUT_DIMENSIONS as readonly number[]).includes(dims)) {
      return invalid(`${dims} is not a valid output_dimension value for this model, [${OUTPUT_DIMENSIONS.join(" ")}] is supported`);
    }
  }
  if (body.max_tokens !== undefined && body.max_tokens !== null && body.max_tokens < 1) return invalid("max_tokens must be greater than 0");
  return undefined;
}

/** The checks and the canonical request both versions share, once the body has its shape. */
function parseFields(version: "1" | "2", body: EmbedFields, headers: Headers): ParseResult<CohereEmbedWire> {
  if (body.model.trim() === "") return { ok: false, error: invalid("model is required") };
  const items = itemsOf(body);
  if ("code" in items) return { ok: false, error: items };
  const bad = checkOptions(body);
  if (bad) return { ok: false, error: bad };
  const images = imagesOf(items, body.inputs?.length ? "inputs" : "images");
  if ("code" in images) return { ok: false, error: images };
  const asked = body.embedding_types?.length ? [...new Set(body.embedding_types.filter(isEmbeddingType))] : undefined;
  const textParts = items.filter((i) => i.text !== "").map((i) => ({ kind: "text" as const, text: i.text }));
  const wire: CohereEmbedWire = {
    version,
    seeds: items.map((i) => i.seed),
    texts: body.texts ?? [],
    images,
    ...(asked !== undefined || version === "2" ? { types: asked ?? ["float"] } : {}),
    dimensions: modelDimensions(body.model, body.output_dimension ?? undefined),
    ...(textParts.length > 0 ? { textTokens: promptTokens(textParts) } : {}),
  };
  return {
    ok: true,
    wire,
    request: inputsRequest(
      "cohere",
      "embeddings",
      body.model,
      items.map((i) => i.text),
      headerRecord(headers),
    ),
  };
}

export function parseEmbedV2(raw: unknown, headers: Headers): ParseResult<CohereEmbedWire> {
  const parsed = safeParseFast(embedWire().EmbedV2Schema, raw);
  if (!parsed.success) return { ok: false, error: issueError(parsed.error) };
  return parseFields("2", parsed.data, headers);
}

export function parseEmbedV1(raw: unknown, headers: Headers): ParseResult<CohereEmbedWire> {
  const parsed = safeParseFast(embedWire().EmbedV1Schema, raw);
  if (!parsed.success) return { ok: false, error: issueError(parsed.error) };
  // Only v1's own fields: a loose body's other keys (`inputs`, `output_dimension`) are unchecked and not read.
  const { texts, images, input_type, embedding_types, model } = parsed.data;
  return parseFields("1", { texts, images, input_type, embedding_types, model: model ?? DEFAULT_V1_EMBED_MODEL }, headers);
}

/**
 * Signed int8: each value scaled by the vector's largest magnitude to [-127, 127] and rounded half away from zero
 * (so a vector and its negation quantise to negations).
 * @example toInt8([0.5, -0.5, -1, 0]) // [64, -64, -127, 0]
 */
export function toInt8(vector: number[]): number[] {
  const scale = vector.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
  // `+ 0` turns a rounded -0 into 0, as JSON sends it.
  return vector.map((x) => (scale === 0 ? 0 : Math.sign(x) * Math.round(Math.abs(x / scale) * 127) + 0));
}

/** Unsigned int8: the int8 values shifted by 128, into [1, 255]. */
export function toUint8(vector: number[]): number[] {
  return toInt8(vector).map((x) => x + 128);
}

/**
 * Packed bits, most significant first: bit k of byte j is set when value 8j + k is positive (a tail short of 8 is
 * padded with zeros), so a vector of n values gives ⌈n / 8⌉ bytes in [0, 255].
 * @example toUbinary([1, -1, 1, -1, 1, -1, 1, -1]) // [170]
 */
export function toUbinary(vector: number[]): number[] {
  const out = new Array<number>(Math.ceil(vector.length / 8)).fill(0);
  vector.forEach((x, i) => {
    if (x > 0) out[i >> 3]! |= 0x80 >> (i & 7);
  });
  return out;
}

/** Signed packed bits: the ubinary bytes minus 128, in [-128, 127]. */
export function toBinary(vector: number[]): number[] {
  return toUbinary(vector).map((x) => x - 128);
}

/**
 * The float vector in the asked type; `base64` is its little-endian float32 bytes, base64-encoded.
 * @example quantize("ubinary", [1, -1, 1, -1, 1, -1, 1, -1]) // [170]
 */
export function quantize(type: EmbeddingType, vector: number[]): number[] | string {
  if (type === "float") return vector;
  if (type === "int8") return toInt8(vector);
  if (type === "uint8") return toUint8(vector);
  if (type === "binary") return toBinary(vector);
  if (type === "ubinary") return toUbinary(vector);
  return toBase64(vector);
}

function vector(reply: Reply, wire: CohereEmbedWire, index: number): number[] {
  return vectorFor(reply, { kind: "text", text: wire.seeds[index]! }, index, wire.dimensions);
}

/** `meta`: the API version and what was billed (the counted usage when the scenario counts it). */
function meta(reply: Reply, wire: CohereEmbedWire): Record<string, unknown> {
  const tokens = reply.usageCounted === true ? reply.usage.inputTokens : wire.textTokens;
  const billed = { ...(tokens !== undefined ? { input_tokens: tokens } : {}), ...(wire.images.length > 0 ? { images: wire.images.length } : {}) };
  return { api_version: { version: wire.version }, billed_units: billed };
}

/** The answer's fields before `embeddings` and after it: `{ id, texts }` and `{ images?, meta, response_type }`. */
function frame(reply: Reply, wire: CohereEmbedWire): { head: { id: string; texts: string[] }; tail: Record<string, unknown> } {
  return {
    head: { id: rerankId(`embed|${reply.idSeed}`), texts: wire.texts },
    tail: {
      ...(wire.images.length > 0 ? { images: wire.images } : {}),
      meta: meta(reply, wire),
      response_type: wire.types === undefined ? "embeddings_floats" : "embeddings_by_type",
    },
  };
}

export function renderEmbedJson(reply: Reply, ctx: RenderContext<CohereEmbedWire>): unknown {
  const { wire } = ctx;
  const vectors = wire.seeds.map((_, i) => vector(reply, wire, i));
  const embeddings = wire.types === undefined ? vectors : Object.fromEntries(wire.types.map((t) => [t, vectors.map((v) => quantize(t, v))]));
  const { head, tail } = frame(reply, wire);
  return { ...head, embeddings, ...tail };
}

/** About how many bytes one value takes in the JSON of each type (`-0.012345678,`, `-123,`, 1/8 of a byte's, base64). */
const VALUE_BYTES: Readonly<Record<EmbeddingType, number>> = { float: FLOAT_JSON_BYTES, int8: 5, uint8: 4, binary: 5 / 8, ubinary: 4 / 8, base64: 16 / 3 };

/**
 * A large answer (past WHOLE_BODY_LIMIT: 96 inputs × 4,096 floats is about 8 MB) as pieces made as they are sent,
 * byte for byte `JSON.stringify` of `renderEmbedJson`; undefined for the others, which are built whole.
 */
export function renderEmbedRaw(reply: Reply, ctx: RenderContext<CohereEmbedWire>): RawBody | undefined {
  const { wire } = ctx;
  const perValue = (wire.types ?? ["float"]).reduce((n, t) => n + VALUE_BYTES[t], 0);
  if (wire.seeds.length * wire.dimensions * perValue <= WHOLE_BODY_LIMIT) return undefined;
  const { head, tail } = frame(reply, wire);
  function* list(type: EmbeddingType): Generator<string> {
    yield "[";
    for (let i = 0; i < wire.seeds.length; i++) yield (i > 0 ? "," : "") + JSON.stringify(quantize(type, vector(reply, wire, i)));
    yield "]";
  }
  function* pieces(): Generator<string> {
    yield `${JSON.stringify(head).slice(0, -1)},"embeddings":`;
    if (wire.types === undefined) yield* list("float");
    else {
      for (const [k, type] of wire.types.entries()) {
        yield `${k === 0 ? "{" : ","}${JSON.stringify(type)}:`;
        yield* list(type);
      }
      yield "}";
    }
    yield `,${JSON.stringify(tail).slice(1)}`;
  }
  return { body: { pieces }, contentType: "application/json" };
}

/** Embed never streams: the interface's transcript is the body as one event. */
function renderEmbedEvents(reply: Reply, ctx: RenderContext<CohereEmbedWire>): SseEvent[] {
  return [{ data: JSON.stringify(renderEmbedJson(reply, ctx)) }];
}

const shared = {
  provider: "cohere",
  endpoint: "embeddings",
  ...COHERE_ERRORS_AND_HEADERS,
  renderJson: renderEmbedJson,
  renderRaw: renderEmbedRaw,
  renderEvents: renderEmbedEvents,
  renderStreamError: renderRerankStreamError,
} as const satisfies Omit<ProviderSurface<CohereEmbedWire>, "paths" | "parse">;

export const cohereEmbedV2: ProviderSurface<CohereEmbedWire> = { ...shared, paths: ["/v2/embed"], parse: parseEmbedV2 };
export const cohereEmbedV1: ProviderSurface<CohereEmbedWire> = { ...shared, paths: ["/v1/embed"], parse: parseEmbedV1 };
