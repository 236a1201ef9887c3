/**
 * What clients send to `POST /v1/responses`. Loose: SDKs add fields every month, and unknown input item types
 * (hosted tool calls, computer-use output, …) are accepted and ignored by the engine.
 */
import { z } from "zod";
import { lazily } from "../../../util/memo";

/** Built on the first Responses request (util/memo.ts `lazily`): a start pays for no provider's schemas. */
export const responsesWire = lazily(() => {
  /** A content part of a message: `input_text`, `output_text`, `refusal`, `input_image`, `input_file`, … */
  const ContentPart = z.looseObject({
    type: z.string(),
    text: z.string().optional(),
    refusal: z.string().optional(),
  });

  const Content = z.union([z.string(), z.array(ContentPart)]);

  /** `{ role, content }`, with or without `type: "message"`. */
  const MessageItemSchema = z.looseObject({
    type: z.literal("message"),
    role: z.enum(["user", "assistant", "system", "developer"]),
    content: Content,
    id: z.string().optional(),
  });

  /** The model's earlier call, echoed back; `call_id` is what the tool result refers to. */
  const FunctionCallItemSchema = z.looseObject({
    type: z.literal("function_call"),
    call_id: z.string().min(1),
    name: z.string().min(1),
    arguments: z.string(),
    id: z.string().optional(),
  });

  /** The tool result, keyed by `call_id` (not the `fc_` item id). */
  const FunctionCallOutputItemSchema = z.looseObject({
    type: z.literal("function_call_output"),
    call_id: z.string().min(1),
    output: Content,
  });

  const ReasoningItemSchema = z.looseObject({
    type: z.literal("reasoning"),
    id: z.string().optional(),
    summary: z.array(z.looseObject({ text: z.string() })).optional(),
    content: z.array(z.looseObject({ text: z.string().optional() })).nullish(),
    encrypted_content: z.string().nullish(),
  });

  /** A stored output item, by id (the Vercel AI SDK sends these by default). */
  const ItemReferenceSchema = z.looseObject({
    type: z.literal("item_reference"),
    id: z.string().min(1),
  });

  /** A compaction sent back (the `/v1/responses/compact` window, or a response's output): stands for what it summarised. */
  const CompactionItemSchema = z.looseObject({
    type: z.literal("compaction"),
    encrypted_content: z.string(),
    id: z.string().nullish(),
  });

  /** Codex's "remote compaction v2": compact the context now. Must be the final input item. */
  const CompactionTriggerItemSchema = z.looseObject({
    type: z.literal("compaction_trigger"),
    id: z.string().nullish(),
  });

  /** Item types the engine reads; anything else is accepted and skipped. */
  const KNOWN_ITEMS = {
    message: MessageItemSchema,
    function_call: FunctionCallItemSchema,
    function_call_output: FunctionCallOutputItemSchema,
    reasoning: ReasoningItemSchema,
    item_reference: ItemReferenceSchema,
    compaction: CompactionItemSchema,
    compaction_trigger: CompactionTriggerItemSchema,
  } as const;

  const Tool = z.looseObject({ type: z.string(), name: z.string().optional() });

  const ResponsesRequestSchema = z.looseObject({
    model: z.string().min(1),
    /** A string, or input items; validated item by item in parse.ts for precise error paths. */
    input: z.union([z.string(), z.array(z.unknown().describe("input items"))]).optional(),
    instructions: z.string().nullish(),
    tools: z.array(Tool).nullish(),
    /** One of the three words, or an object (its shapes read leniently by tool-choice.ts). */
    tool_choice: z.union([z.enum(["none", "auto", "required"]), z.looseObject({})]).nullish(),
    previous_response_id: z.string().nullish(),
    store: z.boolean().nullish(),
    stream: z.boolean().nullish(),
    /** Background mode: answered `queued`, done on the scenario's `async.processingMs` clock (background.ts). */
    background: z.boolean().nullish(),
    reasoning: z.looseObject({ effort: z.string().nullish(), summary: z.string().nullish() }).nullish(),
    temperature: z.number().nullish(),
    top_p: z.number().nullish(),
    max_output_tokens: z.number().int().nullish(),
    parallel_tool_calls: z.boolean().nullish(),
    text: z.looseObject({}).nullish(),
    metadata: z.record(z.string(), z.string()).nullish(),
    user: z.string().nullish(),
    truncation: z.string().nullish(),
    service_tier: z.string().nullish(),
    include: z.array(z.string()).nullish(),
    stream_options: z.looseObject({ include_obfuscation: z.boolean().nullish() }).nullish(),
    conversation: z.unknown().optional(),
    prompt: z.unknown().optional(),
    /** Server-side compaction: `[{ type: "compaction", compact_threshold }]` (checked in compaction.ts). */
    context_management: z.array(z.looseObject({ type: z.string(), compact_threshold: z.number().nullish() })).nullish(),
  });
  return {
    ContentPart,
    MessageItemSchema,
    FunctionCallItemSchema,
    FunctionCallOutputItemSchema,
    ReasoningItemSchema,
    ItemReferenceSchema,
    CompactionItemSchema,
    CompactionTriggerItemSchema,
    KNOWN_ITEMS,
    ResponsesRequestSchema,
  };
});
type ResponsesWire = ReturnType<typeof responsesWire>;

/** A content part of a message: `input_text`, `output_text`, `refusal`, `input_image`, `input_file`, … */
export type ContentPart = z.output<ResponsesWire["ContentPart"]>;
export type MessageItem = z.output<ResponsesWire["MessageItemSchema"]>;
export type FunctionCallItem = z.output<ResponsesWire["FunctionCallItemSchema"]>;
export type ReasoningItem = z.output<ResponsesWire["ReasoningItemSchema"]>;

/** One input item after validation; `other` keeps unknown types as sent. */
export type InputItem =
  | MessageItem
  | FunctionCallItem
  | z.output<ResponsesWire["FunctionCallOutputItemSchema"]>
  | ReasoningItem
  | z.output<ResponsesWire["ItemReferenceSchema"]>
  | z.output<ResponsesWire["CompactionItemSchema"]>
  | z.output<ResponsesWire["CompactionTriggerItemSchema"]>
  | { type: "other"; raw: Record<string, unknown> };

export type ResponsesBody = z.output<ResponsesWire["ResponsesRequestSchema"]>;

/**
 * The parsed request the renderers see: the body, plus its input as validated items. After `prepare`,
 * `items` has every `item_reference` replaced by the stored item, and `history` holds what
 * `previous_response_id` stands for (earlier inputs and outputs, oldest first).
 */
export interface ResponsesRequest {
  body: ResponsesBody;
  items: InputItem[];
  history: InputItem[];
  /** The `conversation` the request continues (its id), once `prepare` found it; its items lead `history`. */
  conversation?: string;
}
