/**
 * The Interactions API's request (`POST /v1beta/interactions`, the steps schema that is the default since May 2026):
 * the body's schema, read loosely (unknown fields pass), and its `input` in its one normal form — an array of steps.
 * `input` comes as a string, one content block, an array of content blocks, or an array of steps
 * (`InteractionsInput` in `@google/genai`); content blocks are one `user_input` step.
 */
import type { MediaPlan } from "../media-output";
import { z } from "zod";
import { lazily } from "../../../util/memo";

/** A content block (`text`, `image`, `audio`, `document`, `video`): kept whole, its text read. */
export interface ContentBlock {
  type: string;
  text?: string;
  [key: string]: unknown;
}

/** One step of a conversation, as sent and as stored: its `type` and the fields of that type. */
export interface Step {
  type: string;
  [key: string]: unknown;
}

export const CONTENT_TYPES: ReadonlySet<string> = new Set(["text", "image", "audio", "document", "video"]);

const loose = <T extends z.core.$ZodLooseShape>(shape: T) => z.looseObject(shape);

/** A content block inside a step (a type this schema does not know passes). */
const contentSchema = lazily(() => loose({ type: z.string(), text: z.string().optional() }));

/** A content block where `input` may hold a block or a step: one of the block types. */
const inputBlockSchema = lazily(() => loose({ type: z.string().refine((t) => CONTENT_TYPES.has(t)), text: z.string().optional() }));

/** The steps a client sends back; other step types (built-in tools' calls and results) pass as they are. */
const stepSchema = lazily(() =>
  z.union([
    loose({ type: z.literal("user_input"), content: z.array(contentSchema()).nullish() }),
    loose({ type: z.literal("model_output"), content: z.array(contentSchema()).nullish() }),
    loose({ type: z.literal("thought"), signature: z.string().nullish(), summary: z.array(contentSchema()).nullish() }),
    loose({ type: z.literal("function_call"), id: z.string(), name: z.string(), arguments: z.record(z.string(), z.unknown()).nullish() }),
    loose({ type: z.literal("function_result"), call_id: z.string(), name: z.string().nullish(), is_error: z.boolean().nullish(), result: z.unknown() }),
    loose({ type: z.string().refine((t) => !KNOWN_STEPS.has(t)) }),
  ]),
);

const KNOWN_STEPS: ReadonlySet<string> = new Set(["user_input", "model_output", "thought", "function_call", "function_result"]);

/** One element of an `input` list: a content block or a step. */
export const inputElementSchema = lazily(() => z.union([inputBlockSchema(), stepSchema()]));

const functionToolSchema = lazily(() => loose({ type: z.string(), name: z.string().nullish(), description: z.string().nullish(), parameters: z.unknown().optional() }));

const generationConfigSchema = lazily(() =>
  loose({
    temperature: z.number().nullish(),
    top_p: z.number().nullish(),
    top_k: z.number().int().nullish(),
    seed: z.number().int().nullish(),
    max_output_tokens: z.number().int().nullish(),
    stop_sequences: z.array(z.string()).nullish(),
    thinking_level: z.string().nullish(),
    thinking_summaries: z.string().nullish(),
    tool_choice: z.union([z.string(), loose({ allowed_tools: loose({ mode: z.string().nullish(), tools: z.array(z.string()).nullish() }).nullish() })]).nullish(),
  }),
);

export const interactionBodySchema = lazily(() =>
  loose({
    model: z.string().nullish(),
    agent: z.string().nullish(),
    input: z.union([z.string(), z.array(inputElementSchema()), inputBlockSchema()]),
    system_instruction: z.string().nullish(),
    tools: z.array(functionToolSchema()).nullish(),
    generation_config: generationConfigSchema().nullish(),
    response_format: z.union([z.array(z.record(z.string(), z.unknown())), z.record(z.string(), z.unknown())]).nullish(),
    response_mime_type: z.string().nullish(),
    response_modalities: z.array(z.string()).nullish(),
    previous_interaction_id: z.string().nullish(),
    store: z.boolean().nullish(),
    stream: z.boolean().nullish(),
    background: z.boolean().nullish(),
  }),
);

export type InteractionBody = z.infer<ReturnType<typeof interactionBodySchema>>;

/** The parsed request: the body, its own input as steps, and (after `previous_interaction_id`) the stored ones before it. */
export interface InteractionsWire {
  body: InteractionBody;
  steps: Step[];
  history: Step[];
  /** The image or audio the request asks for (parse.ts, `interactionMedia`). */
  media?: MediaPlan;
}

/**
 * `input` as steps: a string or content blocks are one `user_input` step; in an array of steps, a run of content
 * blocks between steps is one `user_input` step too.
 * @example inputSteps("Hi") // [{ type: "user_input", content: [{ type: "text", text: "Hi" }] }]
 */
export function inputSteps(input: InteractionBody["input"]): Step[] {
  if (typeof input === "string") return [{ type: "user_input", content: [{ type: "text", text: input }] }];
  if (!Array.isArray(input)) return [{ type: "user_input", content: [input] }];
  const steps: Step[] = [];
  let run: ContentBlock[] = [];
  const flush = () => {
    if (run.length > 0) steps.push({ type: "user_input", content: run });
    run = [];
  };
  for (const element of input) {
    if (CONTENT_TYPES.has(element.type)) run.push(element as ContentBlock);
    else {
      flush();
      steps.push(element as Step);
    }
  }
  flush();
  return steps;
}

/** The text of content blocks, joined with "\n" (images and other media carry none). */
export function blocksText(content: unknown): string {
  if (!Array.isArray(content)) return "";
  return content.flatMap((c: ContentBlock) => (c.type === "text" && typeof c.text === "string" ? [c.text] : [])).join("\n");
}
