/**
 * `POST /{version}/models/{model}:generateContent` (or `:streamGenerateContent`) → canonical request.
 *
 * The model and the streaming choice come from the path (`?alt=sse` picks server-sent events). Text parts of
 * one content join with "\n"; `systemInstruction` is the system text. A user content's `functionResponse`
 * parts become canonical `{ role: "tool" }` messages keyed by the response's `id`, or its function name when
 * there is none (Gemini matches results to calls by name); a model content's `functionCall` parts become
 * tool calls keyed the same way, and its thought parts (`thought: true`) its reasoning.
 */
import { offeredServerTools } from "./server-tools";
import { echoed, joinText } from "../../util/text";
import { z } from "zod";
import { headerRecord } from "../../http/headers";
import { addUserTurn, toolChoiceFields, type CanonicalMessage, type CanonicalToolResult, type CanonicalRequest, type CanonicalToolChoice } from "../../canonical/request";
import { stopField } from "../../canonical/stop";
import { safeDecode } from "../../http/url";
import type { ParseResult, RequestTarget } from "../types";
import { camelizeKeys, geminiWire, issuesError, protoNumbers, type Content, type GeminiMethod, type GeminiWire, type GenerateContentRequest, type Part } from "./wire";
import { safeParseFast } from "../../util/fast-parse";
import { lazily } from "../../util/memo";
import type { CanonicalOutputSchema } from "../../canonical/output-schema";
import { geminiOutputSchema } from "./structured";
import { schemaViolations } from "./schema-violations";
import { mediaPlan } from "./media-output";

/** `{ outputSchema }` when the generation config asks for JSON, else nothing. */
function outputOf(config: unknown): { outputSchema?: CanonicalOutputSchema } {
  const outputSchema = geminiOutputSchema(config);
  return outputSchema !== undefined ? { outputSchema } : {};
}

/** API versions the SDKs address (`apiVersion` option) and the two methods, e.g. `/v1beta/models/x:generateContent`. */
const PATH = /^\/(?:v1beta|v1|v1alpha)\/((?:models|tunedModels)\/[^/:]+)(?::|%3A)(generateContent|streamGenerateContent)$/i;

/**
 * The model and method a path names, if it is a Gemini generate path.
 * @example geminiTarget("/v1beta/models/gemini-2.5-flash:streamGenerateContent") // { model: "gemini-2.5-flash", method: "streamGenerateContent" }
 */
export function geminiTarget(path: string): { model: string; method: GeminiMethod } | undefined {
  const m = PATH.exec(path);
  if (!m) return undefined;
  const resource = safeDecode(m[1]!);
  const method = m[2]!.toLowerCase() === "generatecontent" ? "generateContent" : "streamGenerateContent";
  return { model: resource.startsWith("models/") ? resource.slice("models/".length) : resource, method };
}

function textOf(parts: readonly Part[]): string {
  return joinText(parts, (p) => (typeof p.text === "string" && p.thought !== true ? p.text : undefined));
}

/** A function response as text: its `output` (or `error`) when that is a string, else the response as JSON. */
function responseText(response: Record<string, unknown> | undefined): string {
  if (response === undefined) return "";
  const output = response.output;
  if (typeof output === "string") return output;
  const error = response.error;
  if (typeof error === "string") return error;
  return JSON.stringify(response);
}

/** A function response as a canonical tool result; undefined for a part of another kind. */
function toolResult(p: Part): CanonicalToolResult | undefined {
  const r = p.functionResponse;
  if (!r) return undefined;
  const isError = r.response !== undefined && "error" in r.response && !("output" in r.response);
  return { role: "tool", toolCallId: r.id ?? r.name, name: r.name, content: responseText(r.response), isError };
}

function modelMessage(parts: readonly Part[]): CanonicalMessage {
  const message: Extract<CanonicalMessage, { role: "assistant" }> = { role: "assistant", text: textOf(parts), toolCalls: [], reasoning: [] };
  for (const p of parts) {
    const call = p.functionCall;
    if (call) message.toolCalls.push({ id: call.id ?? call.name, name: call.name, arguments: JSON.stringify(call.args ?? {}) });
    if (p.thought === true) message.reasoning.push({ text: p.text ?? "", ...(p.thoughtSignature !== undefined ? { signature: p.thoughtSignature } : {}) });
  }
  return message;
}

function systemText(system: GenerateContentRequest["systemInstruction"]): string[] {
  if (system === undefined) return [];
  return [typeof system === "string" ? system : textOf(system.parts ?? [])];
}

/**
 * Reasoning is asked for when `thinkingConfig` sets a non-zero `thinkingBudget` (-1 is dynamic), `includeThoughts`,
 * or a `thinkingLevel`.
 */
export function reasoningOf(w: GenerateContentRequest): "enabled" | "disabled" {
  const t = w.generationConfig?.thinkingConfig;
  if (!t) return "disabled";
  const on = (t.thinkingBudget !== undefined && t.thinkingBudget !== 0) || t.includeThoughts === true || t.thinkingLevel !== undefined;
  return on ? "enabled" : "disabled";
}

/** The roles a content may name (none, or empty, is the user's). */
const ROLES: ReadonlySet<string> = new Set(["user", "model", "function", "system"]);

/** A part's fields that are not its data (the `data` oneof: `text`, `inlineData`, `functionCall`, …, and any field mockllm does not know). */
const PART_METADATA = new Set(["thought", "thoughtSignature", "videoMetadata", "partMetadata", "mediaResolution", "mediaProcessing", "speechMetadata"]);

/** Whether a part carries data: a field other than the metadata ones (a null is unset: `camelizeKeys` dropped it). */
function hasData(part: Part): boolean {
  if (part.text !== undefined || part.functionCall !== undefined || part.functionResponse !== undefined) return true;
  for (const key in part) if (!PART_METADATA.has(key) && part[key as keyof Part] !== undefined) return true;
  return false;
}

/**
 * The checks the real API makes of `contents` beyond types: contents present, a role it does not know, then every
 * content without parts and every
 * part without data, a `*` line each (`* GenerateContentRequest.contents[1].parts[0].data: required oneof field 'data'
 * must have one initialized field`).
 */
function checkContents(contents: readonly Content[]): string | undefined {
  if (contents.length === 0) return "* GenerateContentRequest.contents: contents is not specified\n";
  let lines = "";
  for (let i = 0; i < contents.length; i++) {
    const c = contents[i]!;
    if (c.role !== undefined && c.role !== "" && !ROLES.has(c.role)) {
      return "Please use a valid role: user, model.";
    }
    const parts = c.parts ?? [];
    if (parts.length === 0) lines += `* GenerateContentRequest.contents[${i}].parts: contents.parts must not be empty.\n`;
    for (let j = 0; j < parts.length; j++) {
      if (!hasData(parts[j]!)) lines += `* GenerateContentRequest.contents[${i}].parts[${j}].data: required oneof field 'data' must have one initialized field\n`;
    }
  }
  return lines === "" ? undefined : lines;
}

/** Built on the first tool config read (util/memo.ts `lazily`). */
const toolConfigSchema = lazily(() =>
  z.looseObject({
    functionCallingConfig: z.looseObject({ mode: z.string().optional(), allowedFunctionNames: z.array(z.string()).optional() }),
  }),
);

/**
 * `toolConfig.functionCallingConfig` → the canonical choice: `ANY` is `required` (within `allowedFunctionNames`),
 * `NONE` none; `AUTO`, `VALIDATED` and anything else are left out (auto).
 * @example geminiToolChoice({ functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["f"] } }) // { kind: "required", allowed: ["f"] }
 */
export function geminiToolChoice(raw: unknown): CanonicalToolChoice | undefined {
  // Most requests name no tool choice: answered before the schema, whose failed union would build issues to discard.
  if (raw === undefined || raw === null) return undefined;
  const parsed = toolConfigSchema().safeParse(raw);
  if (!parsed.success) return undefined;
  const { mode, allowedFunctionNames } = parsed.data.functionCallingConfig;
  switch (mode?.toUpperCase()) {
    case "ANY":
      return allowedFunctionNames !== undefined && allowedFunctionNames.length > 0 ? { kind: "required", allowed: allowedFunctionNames } : { kind: "required" };
    case "NONE":
      return { kind: "none" };
    default:
      return undefined;
  }
}

/** A function declaration's schema: `parametersJsonSchema` (JSON Schema) or `parameters` (the OpenAPI subset). */
function declarationSchema(f: Record<string, unknown>): unknown {
  return f.parametersJsonSchema ?? f.parameters;
}

function toCanonical(w: GenerateContentRequest, headers: Headers, model: string, stream: boolean): CanonicalRequest {
  const system = systemText(w.systemInstruction);
  const messages: CanonicalMessage[] = [];
  for (const c of w.contents) {
    const parts = c.parts ?? [];
    if (c.role === "model") messages.push(modelMessage(parts));
    else if (c.role === "system") system.push(textOf(parts));
    else addUserTurn(messages, parts, toolResult, () => textOf(parts));
  }
  const g = w.generationConfig;
  const toolChoice = geminiToolChoice(w.toolConfig);
  const serverTools = offeredServerTools(w.tools);
  return {
    provider: "gemini",
    endpoint: "generateContent",
    model,
    stream,
    system: system.filter((s) => s !== "").join("\n\n"),
    messages,
    tools: (w.tools ?? []).flatMap((t) => (t.functionDeclarations ?? []).map((f) => f.name)),
    ...toolChoiceFields(toolChoice, () => (w.tools ?? []).flatMap((t) => (t.functionDeclarations ?? []).map((f) => ({ name: f.name, schema: declarationSchema(f) })))),
    ...(g?.temperature !== undefined ? { temperature: g.temperature } : {}),
    ...(g?.topP !== undefined ? { topP: g.topP } : {}),
    // proto3: 0 is the unset value (the model's own limit).
    ...(g?.maxOutputTokens !== undefined && g.maxOutputTokens > 0 ? { maxTokens: g.maxOutputTokens } : {}),
    ...stopField(g?.stopSequences),
    ...outputOf(g),
    reasoning: reasoningOf(w),
    headers: headerRecord(headers),
    ...(serverTools.length > 0 ? { serverTools } : {}),
  };
}

/**
 * Validates a generateContent body loosely and maps it to the canonical request; the target's path names the
 * model and whether to stream.
 * @example parseGenerateContent({ contents: [{ role: "user", parts: [{ text: "Hi" }] }] }, headers, { path: "/v1beta/models/gemini-2.5-flash:generateContent", query })
 */
export function parseGenerateContent(body: unknown, headers: Headers, target: RequestTarget): ParseResult<GeminiWire> {
  return parseGemini(body, headers, target, `google.ai.generativelanguage.${/^\/(v1beta|v1alpha|v1)\//i.exec(target.path)?.[1]?.toLowerCase() ?? "v1beta"}`);
}

/**
 * `parseGenerateContent`, the API's messages named in `pkg` (`google.ai.generativelanguage.v1beta`; Vertex's
 * `google.cloud.aiplatform.v1`): the schemas the proto parser would refuse are kept on the wire as `refused`
 * (the surface's `validate` answers them; not for a scenario with `strict: false`: src/providers/surface.ts).
 */
export function parseGemini(body: unknown, headers: Headers, target: RequestTarget, pkg: string): ParseResult<GeminiWire> {
  const where = geminiTarget(target.path);
  if (!where) return { ok: false, error: { code: "not_found", message: `Unknown request URL: ${echoed(target.path)}.` } };
  const parsed = safeParseFast(geminiWire().GenerateContentRequestSchema, protoNumbers(camelizeKeys(body)), { reportInput: true });
  if (!parsed.success) return { ok: false, error: issuesError(parsed.error.issues, pkg) };
  const invalid = checkContents(parsed.data.contents);
  if (invalid) return { ok: false, error: { code: "invalid_request", message: invalid } };
  const sse = target.query.get("alt") === "sse";
  const stream = where.method === "streamGenerateContent" && sse;
  const media = mediaPlan(where.model, parsed.data.generationConfig, pkg);
  if (media !== undefined && !("kind" in media)) return { ok: false, error: media };
  const refused = schemaViolations(body, pkg);
  const wire: GeminiWire = { body: parsed.data, model: where.model, method: where.method, sse, ...(refused !== undefined ? { refused } : {}) };
  const request = toCanonical(parsed.data, headers, where.model, stream);
  if (media !== undefined) {
    wire.media = media;
    request.mediaOutput = { kind: media.kind, withText: media.text };
  }
  return { ok: true, wire, request };
}
