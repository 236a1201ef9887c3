/**
 * `POST /{version}/interactions` → canonical request. Steps map to messages: `user_input` is a user turn (its text
 * blocks joined with "\n"); a run of `thought`, `model_output` and `function_call` steps is one assistant turn (its
 * reasoning, text and tool calls keyed by the call's `id`); `function_result` is a tool result keyed by `call_id`.
 * `system_instruction` is the system text, `generation_config` the sampling fields, `response_format` (or the
 * deprecated `response_mime_type`) a structured output. An `agent` interaction (Deep Research, …) is answered as a
 * model's, the agent's name in `model`'s place.
 */
import type { z } from "zod";
import { headerRecord } from "../../../http/headers";
import { valueAt } from "../../../http/json";
import { assistantTurn, toolChoiceFields, type CanonicalMessage, type CanonicalRequest, type CanonicalToolChoice } from "../../../canonical/request";
import type { CanonicalOutputSchema } from "../../../canonical/output-schema";
import { stopField } from "../../../canonical/stop";
import { apiError, type ApiError } from "../../../http/errors";
import { echoed } from "../../../util/text";
import { safeParseFast } from "../../../util/fast-parse";
import { isObject, jsonSchemaOutput } from "../../output-schema-wire";
import type { ParseResult } from "../../types";
import { protoPath } from "../wire";
import { mediaPlan, type MediaPlan } from "../media-output";
import { blocksText, inputElementSchema, inputSteps, interactionBodySchema, type InteractionBody, type InteractionsWire, type Step } from "./wire";

/** A wrong body's first fault, naming the field: missing, or not what the field takes (the value shown, cut short). */
function issueError(body: unknown, issue: z.core.$ZodIssue): ApiError {
  let field = protoPath(issue.path);
  let value = valueAt(body, issue.path);
  // A list `input` that fails: name its first element that is neither a content block nor a step.
  if (field === "input" && Array.isArray(value)) {
    const index = value.findIndex((element) => !inputElementSchema().safeParse(element).success);
    if (index >= 0) [field, value] = [`input[${index}]`, value[index]];
  }
  if (value === undefined) return apiError("invalid_request", `Missing required field: '${field}'.`, { param: field });
  const shown = echoed(JSON.stringify(value).slice(0, 64));
  const wanted =
    field === "input"
      ? "a string, a content block, or a list of content blocks and steps"
      : /^input\[\d+\]$/.test(field)
        ? "a content block or a step of a known shape"
        : issue.code === "invalid_type"
          ? `a value of type ${issue.expected}`
          : "a valid value";
  return apiError("invalid_request", `Invalid value at '${field}': expected ${wanted}, got ${shown}.`, { param: field });
}

function resultText(result: unknown): string {
  if (typeof result === "string") return result;
  if (Array.isArray(result)) {
    const text = blocksText(result);
    if (text !== "" || result.length === 0) return text;
  }
  return JSON.stringify(result ?? null);
}

/** Steps → canonical messages (steps of other types — built-in tools' calls and results — carry no message). */
export function stepMessages(steps: readonly Step[]): CanonicalMessage[] {
  const messages: CanonicalMessage[] = [];
  const assistant = () => assistantTurn(messages);
  for (const step of steps) {
    switch (step.type) {
      case "user_input":
        messages.push({ role: "user", text: blocksText(step.content) });
        break;
      case "model_output": {
        const turn = assistant();
        const text = blocksText(step.content);
        turn.text = turn.text === "" ? text : text === "" ? turn.text : `${turn.text}\n${text}`;
        break;
      }
      case "thought":
        assistant().reasoning.push({ text: blocksText(step.summary), ...(typeof step.signature === "string" ? { signature: step.signature } : {}) });
        break;
      case "function_call":
        assistant().toolCalls.push({ id: String(step.id), name: String(step.name), arguments: JSON.stringify(step.arguments ?? {}) });
        break;
      case "function_result":
        messages.push({
          role: "tool",
          toolCallId: String(step.call_id),
          ...(typeof step.name === "string" ? { name: step.name } : {}),
          content: resultText(step.result),
          isError: step.is_error === true,
        });
        break;
    }
  }
  return messages;
}

/**
 * `generation_config.tool_choice`: `any` is `required` (within `allowed_tools.tools` when the mode is `any` or
 * `validated`, what `@ai-sdk/google` sends for one named tool), `none` none; `auto` and the rest are left out (auto).
 */
function toolChoiceOf(raw: unknown): CanonicalToolChoice | undefined {
  if (raw === "any") return { kind: "required" };
  if (raw === "none") return { kind: "none" };
  if (!isObject(raw) || !isObject(raw.allowed_tools)) return undefined;
  const { mode, tools } = raw.allowed_tools;
  const named = Array.isArray(tools) ? tools.filter((t): t is string => typeof t === "string") : [];
  if (mode !== "any" && mode !== "validated") return undefined;
  return named.length > 0 ? { kind: "required", allowed: named } : { kind: "required" };
}

/**
 * `response_format` (one entry or a list; the JSON one is `{ type: "text", mime_type: "application/json", schema }`),
 * or the deprecated form: `response_mime_type: "application/json"` with `response_format` the schema itself.
 */
function outputOf(body: InteractionBody): { outputSchema?: CanonicalOutputSchema } {
  const formats = Array.isArray(body.response_format) ? body.response_format : body.response_format ? [body.response_format] : [];
  const json = formats.find((f) => f.mime_type === "application/json" && (f.type === undefined || f.type === "text"));
  if (json) return { outputSchema: json.schema !== undefined && json.schema !== null ? jsonSchemaOutput(json.schema, undefined, true) : { kind: "json_object" } };
  if (body.response_mime_type !== "application/json") return {};
  const legacy = !Array.isArray(body.response_format) ? body.response_format : undefined;
  return { outputSchema: legacy && legacy.type !== "text" ? jsonSchemaOutput(legacy, undefined, true) : { kind: "json_object" } };
}

/** The modalities an interaction may ask for (`ResponseModality`); the model answers text, images or audio. */
const MODALITIES = ["text", "image", "audio", "video", "document"];

/**
 * The image or audio an interaction asks for — `response_modalities`, or `response_format` entries of type `image`
 * (with `aspect_ratio`, `image_size`) and `audio` — as generateContent's `responseModalities` and `imageConfig` would
 * (`mediaPlan`: an image model asked nothing answers an image too, a TTS model audio); the 400 for a modality the
 * model does not produce or a value the enum lacks; undefined for text.
 */
function interactionMedia(body: InteractionBody): MediaPlan | ApiError | undefined {
  const formats = Array.isArray(body.response_format) ? body.response_format : body.response_format ? [body.response_format] : [];
  const image = formats.find((f) => f.type === "image");
  let modalities = body.response_modalities ?? undefined;
  if (modalities === undefined && formats.some((f) => f.type === "image" || f.type === "audio")) {
    modalities = formats.map((f) => (typeof f.type === "string" ? f.type : "text"));
  }
  for (const [i, m] of (modalities ?? []).entries()) {
    if (!MODALITIES.includes(m.toLowerCase())) {
      return apiError("invalid_request", `Invalid value at 'response_modalities[${i}]': expected one of ${MODALITIES.join(", ")}, got ${echoed(JSON.stringify(m))}.`, {
        param: `response_modalities[${i}]`,
      });
    }
  }
  const produced = modalities?.map((m) => m.toUpperCase());
  const other = produced?.find((m) => m === "VIDEO" || m === "DOCUMENT");
  if (other !== undefined) return apiError("invalid_request", `Model does not support the requested response modalities: ${produced!.map((m) => m.toLowerCase()).join(",")}`);
  const config = {
    ...(produced !== undefined && produced.length > 0 ? { responseModalities: produced } : {}),
    ...(image !== undefined
      ? { imageConfig: { ...(image.aspect_ratio !== undefined ? { aspectRatio: image.aspect_ratio } : {}), ...(image.image_size !== undefined ? { imageSize: image.image_size } : {}) } }
      : {}),
  };
  return mediaPlan(typeof body.model === "string" ? body.model : "", config, "google.ai.generativelanguage.v1beta");
}

/** The canonical request of `wire` (its stored history first); `headers` are the request's. */
export function canonicalInteraction(wire: InteractionsWire, headers: Record<string, string>): CanonicalRequest {
  const { body } = wire;
  const g = body.generation_config ?? undefined;
  const functions = (body.tools ?? []).filter((t) => t.type === "function" && typeof t.name === "string");
  return {
    provider: "gemini",
    endpoint: "interactions",
    // An agent interaction (Deep Research, …) is scripted like a model's: `match.model` is the agent's name.
    model: body.model || body.agent || "",
    stream: body.stream === true,
    system: body.system_instruction ?? "",
    messages: stepMessages([...wire.history, ...wire.steps]),
    tools: functions.map((f) => f.name as string),
    ...toolChoiceFields(toolChoiceOf(g?.tool_choice), () => functions.map((f) => ({ name: f.name as string, schema: f.parameters }))),
    ...(typeof g?.temperature === "number" ? { temperature: g.temperature } : {}),
    ...(typeof g?.top_p === "number" ? { topP: g.top_p } : {}),
    ...(typeof g?.max_output_tokens === "number" && g.max_output_tokens > 0 ? { maxTokens: g.max_output_tokens } : {}),
    ...stopField(g?.stop_sequences ?? undefined),
    ...outputOf(body),
    reasoning: g?.thinking_summaries === "auto" ? "enabled" : "disabled",
    ...(wire.media !== undefined ? { mediaOutput: { kind: wire.media.kind, withText: wire.media.text } } : {}),
    headers,
  };
}

/**
 * Validates an Interactions body loosely and maps it to the canonical request.
 * @example parseInteraction({ model: "gemini-3-flash-preview", input: "Hi" }, headers)
 */
export function parseInteraction(body: unknown, headers: Headers): ParseResult<InteractionsWire> {
  const parsed = safeParseFast(interactionBodySchema(), body, { reportInput: true });
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    return { ok: false, error: first ? issueError(body, first) : apiError("invalid_request", "Invalid interaction request.") };
  }
  const data = parsed.data;
  const agent = typeof data.agent === "string" && data.agent !== "";
  const model = typeof data.model === "string" && data.model !== "";
  if (agent && model) return { ok: false, error: apiError("invalid_request", "Only one of 'model' or 'agent' may be set.", { param: "agent" }) };
  if (!agent && !model) return { ok: false, error: apiError("invalid_request", "Missing required field: 'model'.", { param: "model" }) };
  const unnamed = (data.tools ?? []).findIndex((t) => t.type === "function" && (typeof t.name !== "string" || t.name === ""));
  if (unnamed >= 0) return { ok: false, error: apiError("invalid_request", `Missing required field: 'tools[${unnamed}].name'.`, { param: `tools[${unnamed}].name` }) };
  const steps = inputSteps(data.input);
  if (steps.length === 0) return { ok: false, error: apiError("invalid_request", "Missing required field: 'input'.", { param: "input" }) };
  const media = interactionMedia(data);
  if (media !== undefined && !("kind" in media)) return { ok: false, error: media };
  const wire: InteractionsWire = { body: data, steps, history: [], ...(media !== undefined ? { media } : {}) };
  return { ok: true, wire, request: canonicalInteraction(wire, headerRecord(headers)) };
}
