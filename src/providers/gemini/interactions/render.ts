/**
 * Canonical reply → an Interaction (`object: "interaction"`, its output `steps`, `usage`) and its SSE transcript:
 * `interaction.created`, `interaction.status_update` (in progress), each step as `step.start`, `step.delta`s and
 * `step.stop`, the final `interaction.status_update`, `interaction.completed` (with `usage`, without steps, as
 * streaming lifecycle payloads are), then `event: done` / `data: [DONE]`. Every event's JSON repeats its
 * `event_type` as the last key, as the API's own transcripts do (docs/providers/fidelity.md, "Gemini Interactions").
 *
 * Steps, in order: a `thought` (its summary from the scripted reasoning; its `signature` the scripted one, or on a
 * Gemini 3 model a derived one, as generateContent's `thoughtSignature`), the `model_output` text and an image or
 * audio block after it (when the request asks for one: parse.ts, `interactionMedia`), one
 * `function_call` per tool call (`arguments` an object; streamed as one `arguments_delta` string). Status:
 * `requires_action` when the answer ends in calls, `incomplete` when cut by `max_output_tokens`, else `completed`.
 */
import type { Reply } from "../../../canonical/outcome";
import { makeId } from "../../../http/ids";
import { argumentsObject } from "../../../http/json";
import { wordPieces } from "../../../util/text";
import type { Failure } from "../../../scenario/schema";
import type { RenderContext, SseEvent } from "../../types";
import { GEMINI_FAILURE_MESSAGES } from "../errors";
import { thoughtSignature } from "../render-json";
import { mediaPieceRanges, replyMedia, type InlineMedia } from "../media-output";
import type { InteractionsWire, Step } from "./wire";

/** An interaction id: `v1_` and 40 base62 characters, the same for the same reply seed. */
export function interactionId(reply: Reply): string {
  return makeId("v1_", `interaction|${reply.idSeed}`, 40);
}

/** The id of the reply's `index`-th function call: the scripted one, else derived (8 base62 characters). */
export function functionCallId(reply: Reply, index: number): string {
  return reply.toolCalls[index]?.id ?? makeId("", `interaction-call|${reply.idSeed}|${index}`, 8);
}

/** `YYYY-MM-DDThh:mm:ssZ`, as the API's `created` and `updated` are. */
export function isoSeconds(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

type Status = "completed" | "requires_action" | "incomplete";

export function interactionStatus(reply: Reply): Status {
  if (reply.toolCalls.length > 0) return "requires_action";
  return reply.finishReason === "length" ? "incomplete" : "completed";
}

/** An image or audio answer as a content block (`ImageContent`, `AudioContent`). */
function mediaBlock(media: InlineMedia): Record<string, unknown> {
  return { type: media.modality === "IMAGE" ? "image" : "audio", data: media.data, mime_type: media.mimeType };
}

/** The output steps of `reply`, as a non-streaming Interaction carries them (and as they are stored); `media` after the text. */
export function outputSteps(reply: Reply, media?: InlineMedia): Step[] {
  const steps: Step[] = [];
  const summary = reply.reasoning.flatMap((r) => (r.type === "thinking" && r.text !== "" ? [{ type: "text", text: r.text }] : []));
  const signature = thoughtSignature(reply, reply.model);
  if (summary.length > 0 || signature !== undefined) {
    steps.push({ type: "thought", ...(signature !== undefined ? { signature } : {}), ...(summary.length > 0 ? { summary } : {}) });
  }
  const text = [reply.text, reply.refusal].filter((t): t is string => t !== undefined && t !== "").join("\n");
  const content: Record<string, unknown>[] = text !== "" || (media === undefined && reply.toolCalls.length === 0) ? [{ type: "text", text }] : [];
  if (media !== undefined) content.push(mediaBlock(media));
  if (content.length > 0) steps.push({ type: "model_output", content });
  reply.toolCalls.forEach((call, i) => {
    steps.push({ type: "function_call", id: functionCallId(reply, i), name: call.name, arguments: argumentsObject(call.arguments) });
  });
  return steps;
}

/**
 * `usage`: output tokens without thinking, which is `total_thought_tokens`, with an image's or audio's (by modality
 * too); the total adds them up.
 */
export function interactionUsage(reply: Reply, media?: InlineMedia): Record<string, unknown> {
  const u = reply.usage;
  const thoughts = Math.min(u.reasoningTokens, u.outputTokens);
  const text = u.outputTokens - thoughts;
  const output = text + (media?.tokens ?? 0);
  const byModality = [...(text > 0 ? [{ modality: "text", tokens: text }] : []), ...(media !== undefined ? [{ modality: media.modality.toLowerCase(), tokens: media.tokens }] : [])];
  return {
    total_input_tokens: u.inputTokens,
    total_output_tokens: output,
    ...(thoughts > 0 ? { total_thought_tokens: thoughts } : {}),
    ...(u.cacheReadTokens > 0 ? { total_cached_tokens: u.cacheReadTokens } : {}),
    total_tokens: u.inputTokens + output + thoughts,
    input_tokens_by_modality: [{ modality: "text", tokens: u.inputTokens }],
    ...(byModality.length > 0 ? { output_tokens_by_modality: byModality } : {}),
  };
}

/** Who answers: the `agent` of an agent interaction, else the `model`. */
function answerer(reply: Reply, ctx: RenderContext<InteractionsWire>): { agent: string } | { model: string } {
  const { agent, model } = ctx.wire.body;
  return typeof agent === "string" && agent !== "" ? { agent } : { model: model ?? reply.model };
}

/** The Interaction's head: what every form of it starts with. */
function head(reply: Reply, ctx: RenderContext<InteractionsWire>, status: string): Record<string, unknown> {
  return { id: interactionId(reply), status, object: "interaction", ...answerer(reply, ctx) };
}

/** Whether the request runs in the background: answered `in_progress` at once, done when polled after the scenario's `async.processingMs` (a stream is sent whole). */
export function runsInBackground(wire: InteractionsWire): boolean {
  return wire.body.background === true && wire.body.stream !== true && wire.body.store !== false;
}

/**
 * An interaction as it stands before its run is done (`in_progress`) or after it was cancelled: its head and times,
 * no output steps, no usage.
 */
export function pendingInteraction<T extends { steps?: unknown; usage?: unknown; status?: unknown }>(finished: T, status: "in_progress" | "cancelled", steps: Step[] = []): T {
  const { usage: _usage, ...rest } = finished;
  return { ...rest, status, steps } as T;
}

/** The non-streaming body (what `POST` answers: the output steps only; a background run's `in_progress` head). */
export function renderInteractionJson(reply: Reply, ctx: RenderContext<InteractionsWire>): Record<string, unknown> {
  const finished = buildInteraction(reply, ctx);
  return runsInBackground(ctx.wire) ? pendingInteraction(finished, "in_progress") : finished;
}

/** The finished interaction: what a foreground request answers and what is kept. */
export function buildInteraction(reply: Reply, ctx: RenderContext<InteractionsWire>): Record<string, unknown> {
  const media = replyMedia(reply, ctx);
  const at = isoSeconds(ctx.created);
  const previous = ctx.wire.body.previous_interaction_id;
  return {
    ...head(reply, ctx, interactionStatus(reply)),
    created: at,
    updated: at,
    ...(typeof previous === "string" ? { previous_interaction_id: previous } : {}),
    steps: outputSteps(reply, media),
    usage: interactionUsage(reply, media),
  };
}

function event(type: string, fields: Record<string, unknown>, words = 0): SseEvent {
  return { event: type, data: JSON.stringify({ ...fields, event_type: type }), ...(words > 0 ? { words } : {}), oneLine: true };
}

/** One step as `step.start`, its deltas and `step.stop`. */
function stepEvents(step: Step, index: number, chunkWords: number): SseEvent[] {
  const out: SseEvent[] = [];
  switch (step.type) {
    case "thought": {
      out.push(event("step.start", { index, step: { type: "thought" } }));
      for (const part of (step.summary as { text: string }[] | undefined) ?? []) {
        for (const p of wordPieces(part.text, chunkWords)) out.push(event("step.delta", { index, delta: { content: { text: p.text, type: "text" }, type: "thought_summary" } }, p.words));
      }
      if (typeof step.signature === "string") out.push(event("step.delta", { index, delta: { signature: step.signature, type: "thought_signature" } }));
      break;
    }
    case "model_output": {
      out.push(event("step.start", { index, step: { type: "model_output" } }));
      for (const block of step.content as Record<string, unknown>[]) {
        if (block.type === "text") {
          for (const p of wordPieces(String(block.text), chunkWords)) out.push(event("step.delta", { index, delta: { text: p.text, type: "text" } }, p.words));
        } else {
          // An image in one delta; audio a second a delta (`ImageDelta`, `AudioDelta`).
          const data = String(block.data);
          for (const [at, end] of mediaPieceRanges(block.type === "audio" ? "AUDIO" : "IMAGE", data.length)) {
            out.push(event("step.delta", { index, delta: { data: data.slice(at, end), mime_type: block.mime_type, type: block.type } }, 1));
          }
        }
      }
      break;
    }
    case "function_call":
      out.push(event("step.start", { index, step: { type: "function_call", id: step.id, name: step.name, arguments: {} } }));
      out.push(event("step.delta", { index, delta: { arguments: JSON.stringify(step.arguments), type: "arguments_delta" } }, 1));
      break;
  }
  out.push(event("step.stop", { index }));
  return out;
}

/** A stored or rendered Interaction, as its transcript reads it. */
export interface InteractionView {
  id: string;
  status: string;
  model?: unknown;
  agent?: unknown;
  created?: unknown;
  updated?: unknown;
  steps: Step[];
  usage?: unknown;
}

/** A stored or rendered interaction's head at `status`: its id, the object, and who answers (`agent` or `model`). */
export function viewHead(view: InteractionView, status: string): Record<string, unknown> {
  return { id: view.id, status, object: "interaction", ...(view.agent !== undefined ? { agent: view.agent } : { model: view.model }) };
}

/**
 * The transcript of an Interaction's output steps (a reply's, or a stored one that `GET ?stream=true` plays again),
 * `[DONE]` last.
 */
export function interactionEvents(view: InteractionView, chunkWords: number): SseEvent[] {
  const head = viewHead(view, "in_progress");
  return [
    event("interaction.created", { interaction: head }),
    event("interaction.status_update", { interaction_id: view.id, status: "in_progress" }),
    ...view.steps.flatMap((step, i) => stepEvents(step, i, chunkWords)),
    event("interaction.status_update", { interaction_id: view.id, status: view.status }),
    event("interaction.completed", {
      interaction: { ...head, status: view.status, created: view.created, updated: view.updated, ...(view.usage !== undefined ? { usage: view.usage } : {}) },
    }),
    { event: "done", data: "[DONE]", oneLine: true },
  ];
}

/**
 * The reply's transcript.
 * @example renderInteractionEvents(reply, ctx).map((e) => e.event) // ["interaction.created", "interaction.status_update", "step.start", …, "done"]
 */
export function renderInteractionEvents(reply: Reply, ctx: RenderContext<InteractionsWire>): SseEvent[] {
  return interactionEvents(buildInteraction(reply, ctx) as unknown as InteractionView, reply.pacing.chunkWords);
}

/**
 * A `stream_error`: the `error` event (`ErrorT`: a string `code` and a `message`); `errorType` is the code (default
 * `UNAVAILABLE`, the real API's overload).
 */
export function renderInteractionStreamError(failure: Extract<Failure, { kind: "stream_error" }>): SseEvent {
  const code = failure.errorType ?? "UNAVAILABLE";
  const message = failure.message ?? (code === "UNAVAILABLE" ? GEMINI_FAILURE_MESSAGES.overloaded : GEMINI_FAILURE_MESSAGES.model_error);
  return event("error", { error: { code, message } });
}
