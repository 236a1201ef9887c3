/**
 * What clients send to `POST /v1beta/models/{model}:generateContent` (and `:streamGenerateContent`). Loose:
 * unknown fields and part kinds pass; only what the real API itself rejects fails, in its wording.
 *
 * The real API parses proto JSON, so every field may be spelled in camelCase or snake_case (`system_instruction`,
 * `function_declarations`, `inline_data` — Google's curl examples use the latter). `camelizeKeys` folds the body
 * to camelCase before validation, leaving free-form values (`args`, `response`, schemas) untouched.
 */
import { z } from "zod";
import { lazily } from "../../util/memo";
import { apiError, type ApiError } from "../../http/errors";
import { invalidValue, MAX_VIOLATIONS, violationsError, type FieldViolation } from "./field-violations";
import type { MediaPlan } from "./media-output";

/** Fields whose values are user data (Struct / JSON Schema), never renamed. */
const OPAQUE = new Set(["args", "response", "parameters", "parametersJsonSchema", "responseSchema", "responseJsonSchema", "labels", "metadata"]);

/** A proto field name's JSON (camelCase) spelling: `function_declarations` → `functionDeclarations`. */
export const camel = (k: string) => (k.includes("_") ? k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()) : k);

/**
 * `value` with snake_case keys in camelCase, except below the free-form fields. A field set to `null` is dropped, as
 * proto JSON treats it as unset. Copy on write: an object or array none of whose keys or values changes is returned
 * itself (most bodies are camelCase already: the SDKs send it), so a long conversation is walked, not copied.
 */
export function camelizeKeys(value: unknown): unknown {
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const v: unknown = value[i];
      const next = camelizeKeys(v);
      if (out === undefined && next !== v) out = value.slice(0, i);
      out?.push(next);
    }
    return out ?? value;
  }
  if (typeof value !== "object" || value === null) return value;
  const input = value as Record<string, unknown>;
  const keys = Object.keys(input);
  let out: Record<string, unknown> | undefined;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const v = input[k];
    const key = camel(k);
    const next = v === null || OPAQUE.has(key) ? v : camelizeKeys(v);
    if (out === undefined) {
      // `__proto__` is written as it always was (an assignment): a change of its own.
      if (key === k && v !== null && next === v && k !== "__proto__") continue;
      out = {};
      for (let j = 0; j < i; j++) out[keys[j]!] = input[keys[j]!];
    }
    // A null is unset; the camelCase spelling wins when a client sends both.
    if (v === null || (key !== k && key in input)) continue;
    out[key] = next;
  }
  return out ?? input;
}

/**
 * Fields whose proto type is not the one their JSON type suggests (v1beta `GenerationConfig`, `ThinkingConfig`,
 * `Part`, `Blob`): the type a refused value is named by, and how a number sent as text is read.
 */
const SCALARS: Record<string, string> = {
  temperature: "TYPE_FLOAT",
  topP: "TYPE_FLOAT",
  presencePenalty: "TYPE_FLOAT",
  frequencyPenalty: "TYPE_FLOAT",
  topK: "TYPE_INT32",
  maxOutputTokens: "TYPE_INT32",
  candidateCount: "TYPE_INT32",
  thinkingBudget: "TYPE_INT32",
  seed: "TYPE_INT32",
  logprobs: "TYPE_INT32",
  data: "TYPE_BYTES",
  thoughtSignature: "TYPE_BYTES",
};

/** A JSON number's text (proto JSON's float as a string); an integer's, for an `int32`. */
const FLOAT_TEXT = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const INT_TEXT = /^-?(?:0|[1-9]\d*)$/;
const INT32_MAX = 2 ** 31 - 1;

/** A field's value as proto JSON reads it: the number, where a `float` or `int32` field has the number's text; else itself. */
function protoNumber(value: unknown, type: string | undefined): unknown {
  if (typeof value !== "string") return value;
  if (type === "TYPE_FLOAT") return FLOAT_TEXT.test(value) ? Number(value) : value;
  if (type !== "TYPE_INT32" || !INT_TEXT.test(value)) return value;
  const n = Number(value);
  return n >= -INT32_MAX - 1 && n <= INT32_MAX ? n : value;
}

/** A config's number fields (by `SCALARS`) read as proto JSON reads them; the same object when none is text. */
function configNumbers(config: Record<string, unknown>): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const key in config) {
    const v = config[key];
    const next = protoNumber(v, SCALARS[key]);
    if (next !== v) (out ??= { ...config })[key] = next;
  }
  const thinking = config.thinkingConfig;
  if (typeof thinking === "object" && thinking !== null && !Array.isArray(thinking)) {
    const read = configNumbers(thinking as Record<string, unknown>);
    if (read !== thinking) (out ??= { ...config }).thinkingConfig = read;
  }
  return out ?? config;
}

/**
 * The body (camelCase, `camelizeKeys`) with its generation config's numbers sent as text read as numbers: proto JSON
 * takes `"temperature": "0.5"` and `"maxOutputTokens": "64"` as it takes `0.5` and `64` (an `int32`'s text an
 * integer within its range; other text stays, for the parse to refuse as before). Copy on write.
 * @example (protoNumbers({ generationConfig: { topK: "3" } }) as any).generationConfig.topK // 3
 */
export function protoNumbers(body: unknown): unknown {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return body;
  const config = (body as Record<string, unknown>).generationConfig;
  if (typeof config !== "object" || config === null || Array.isArray(config)) return body;
  const read = configNumbers(config as Record<string, unknown>);
  return read === config ? body : { ...body, generationConfig: read };
}

/** Built on the first generateContent request (util/memo.ts `lazily`): a start pays for no provider's schemas. */
export const geminiWire = lazily(() => {
  const Struct = z.record(z.string(), z.unknown());

  const FunctionCallSchema = z.looseObject({
    id: z.string().optional(),
    name: z.string(),
    args: Struct.optional(),
  });

  const FunctionResponseSchema = z.looseObject({
    id: z.string().optional(),
    name: z.string(),
    response: Struct.optional(),
  });

  /** One part; a part may carry any one kind of data (text, functionCall, inlineData, fileData, …). */
  const PartSchema = z.looseObject({
    text: z.string().optional(),
    thought: z.boolean().optional(),
    thoughtSignature: z.string().optional(),
    functionCall: FunctionCallSchema.optional(),
    functionResponse: FunctionResponseSchema.optional(),
    inlineData: z.looseObject({ mimeType: z.string().optional(), data: z.string() }).optional(),
    fileData: z.looseObject({ mimeType: z.string().optional(), fileUri: z.string() }).optional(),
  });

  /** `role` may be omitted on single-turn requests (it then means `user`). */
  const ContentSchema = z.looseObject({
    role: z.string().optional(),
    parts: z.array(PartSchema).optional(),
  });

  const ToolSchema = z.looseObject({
    functionDeclarations: z.array(z.looseObject({ name: z.string() })).optional(),
  });

  const ThinkingConfigSchema = z.looseObject({
    thinkingBudget: z.number().int().optional(),
    includeThoughts: z.boolean().optional(),
    thinkingLevel: z.string().optional(),
  });

  const GenerationConfigSchema = z.looseObject({
    temperature: z.number().optional(),
    topP: z.number().optional(),
    topK: z.number().optional(),
    maxOutputTokens: z.number().int().optional(),
    candidateCount: z.number().int().optional(),
    stopSequences: z.array(z.string()).optional(),
    responseMimeType: z.string().optional(),
    thinkingConfig: ThinkingConfigSchema.optional(),
  });

  /** The body of `generateContent` / `streamGenerateContent` (the model is in the path). */
  const GenerateContentRequestSchema = z.looseObject({
    contents: z.array(ContentSchema),
    /** A Content; a bare string is accepted too (liberal). */
    systemInstruction: z.union([z.string(), ContentSchema]).optional(),
    tools: z.array(ToolSchema).optional(),
    toolConfig: z.looseObject({}).optional(),
    safetySettings: z.array(z.looseObject({})).optional(),
    generationConfig: GenerationConfigSchema.optional(),
    cachedContent: z.string().optional(),
  });
  return { PartSchema, ContentSchema, GenerateContentRequestSchema };
});
type GeminiWireSchemas = ReturnType<typeof geminiWire>;
export type Part = z.output<GeminiWireSchemas["PartSchema"]>;
export type Content = z.output<GeminiWireSchemas["ContentSchema"]>;
export type GenerateContentRequest = z.output<GeminiWireSchemas["GenerateContentRequestSchema"]>;

export type GeminiMethod = "generateContent" | "streamGenerateContent";

/** What the surface keeps of a request: the body and what the path and query said. */
export interface GeminiWire {
  body: GenerateContentRequest;
  /** The model id without its `models/` prefix, e.g. `gemini-2.5-flash`. */
  model: string;
  method: GeminiMethod;
  /** `?alt=sse`: a streaming method answers server-sent events; without it, one JSON array of chunks. */
  sse: boolean;
  /** The field violations the API's proto parser would answer for the body's schemas (schema-violations.ts). */
  refused?: ApiError;
  /** The image or speech the request asks for (`responseModalities`, `imageConfig`; media-output.ts). */
  media?: MediaPlan;
}

/** The message a field holds, for the API's `(type.googleapis.com/…)` names. */
const MESSAGES: Record<string, string> = {
  contents: "Content",
  systemInstruction: "Content",
  parts: "Part",
  functionCall: "FunctionCall",
  functionResponse: "FunctionResponse",
  inlineData: "Blob",
  fileData: "FileData",
  tools: "Tool",
  functionDeclarations: "FunctionDeclaration",
  toolConfig: "ToolConfig",
  safetySettings: "SafetySetting",
  generationConfig: "GenerationConfig",
  thinkingConfig: "ThinkingConfig",
};

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A zod path as the API names it: proto field names, indexes in brackets (`generation_config.max_output_tokens`). */
export function protoPath(path: readonly PropertyKey[]): string {
  return path.map((k, i) => (typeof k === "number" ? `[${k}]` : `${i === 0 ? "" : "."}${snake(String(k))}`)).join("");
}

/** The type the API names for the field at `path` that zod expected as `expected`. */
function protoType(path: readonly PropertyKey[], expected: string, pkg: string): string {
  const field = String(path.findLast((k) => typeof k === "string") ?? "");
  const element = typeof path.at(-1) === "number";
  if (expected === "array") return "TYPE_LIST";
  if (expected === "object" || expected === "record") {
    if (field === "args" || field === "response") return "type.googleapis.com/google.protobuf.Struct";
    const message = MESSAGES[field];
    return message !== undefined ? `type.googleapis.com/${pkg}.${message}` : "TYPE_MESSAGE";
  }
  if (!element && SCALARS[field] !== undefined) return SCALARS[field];
  return { string: "TYPE_STRING", number: "TYPE_DOUBLE", int: "TYPE_INT32", boolean: "TYPE_BOOL" }[expected] ?? expected.toUpperCase();
}

/**
 * A failed parse as the real API words it. Values of the wrong type are the proto parser's, every one listed
 * (field-violations.ts): `Invalid value at 'contents[0].parts[0].text' (TYPE_STRING), 42`,
 * `Invalid value at 'generation_config.temperature' (TYPE_FLOAT), "hot"`. Else the fields the API requires and did not
 * get, a `*` line each: `* GenerateContentRequest.contents: contents is not specified\n`.
 */
export function issuesError(issues: readonly z.core.$ZodIssue[], pkg: string): ApiError {
  const missing = (i: z.core.$ZodIssue) => i.code === "invalid_type" && i.input === undefined;
  // One past the listed ones is enough to say there were more (field-violations.ts): a huge body's thousands of
  // issues are not all described.
  const wrong = issues.filter((i) => !missing(i)).slice(0, MAX_VIOLATIONS + 1);
  if (wrong.length > 0) {
    const violations = wrong.map((i): FieldViolation => {
      const at = protoPath(i.path);
      if (i.code === "invalid_type") return invalidValue(at, protoType(i.path, i.expected, pkg), i.input);
      // `systemInstruction` is a Content (or, liberally, a string): neither is a Content's wrong value.
      if (i.code === "invalid_union") return invalidValue(at, protoType(i.path, "object", pkg), i.input);
      return { field: at, description: `* GenerateContentRequest.${at}: ${i.message}\n` };
    });
    return violationsError(violations) ?? apiError("invalid_request", "Invalid request body.");
  }
  const lines = issues.slice(0, MAX_VIOLATIONS).map((i) => `* GenerateContentRequest.${protoPath(i.path)}: ${snake(String(i.path.at(-1) ?? "body"))} is not specified\n`);
  return apiError("invalid_request", lines.length > 0 ? lines.join("") : "Invalid request body.");
}
