/**
 * What clients send to Cohere's `POST /v2/chat` (`CohereClientV2.chat` / `chatStream`, `@ai-sdk/cohere`, LangChain's
 * `ChatCohere`). Loose: unknown fields pass; the fields mockllm reads are typed, the rest ride along.
 */
import { z } from "zod";
import { lazily } from "../../util/memo";

/** Built on the first `/v2/chat` request (util/memo.ts `lazily`): a start pays for no provider's schemas. */
export const cohereChatWire = lazily(() => {
  /** A content item: `text`, `thinking` (assistant), `image_url` (user), `document` (user, tool); others pass. */
  const ContentItemSchema = z.looseObject({
    type: z.string(),
    text: z.string().nullish(),
    thinking: z.string().nullish(),
    document: z.unknown().optional(),
  });
  const ContentSchema = z.union([z.string(), z.array(ContentItemSchema)]);

  const ToolCallSchema = z.looseObject({
    id: z.string().nullish(),
    type: z.string().nullish(),
    function: z.looseObject({ name: z.string().nullish(), arguments: z.string().nullish() }).nullish(),
  });

  const MessageSchema = z.looseObject({
    role: z.enum(["system", "user", "assistant", "tool"]),
    content: ContentSchema.nullish(),
    tool_calls: z.array(ToolCallSchema).nullish(),
    tool_plan: z.string().nullish(),
    tool_call_id: z.string().nullish(),
  });

  const ToolSchema = z.looseObject({
    type: z.literal("function"),
    function: z.looseObject({ name: z.string(), description: z.string().nullish(), parameters: z.unknown().optional() }),
  });

  const ResponseFormatSchema = z.looseObject({
    type: z.enum(["text", "json_object"]),
    json_schema: z.record(z.string(), z.unknown()).nullish(),
  });

  const ThinkingSchema = z.looseObject({ type: z.enum(["enabled", "disabled"]), token_budget: z.number().int().nullish() });

  const ChatRequestSchema = z.looseObject({
    model: z.string(),
    messages: z.array(MessageSchema),
    stream: z.boolean().nullish(),
    tools: z.array(ToolSchema).nullish(),
    strict_tools: z.boolean().nullish(),
    documents: z.array(z.unknown()).nullish(),
    citation_options: z.looseObject({ mode: z.string().nullish() }).nullish(),
    response_format: ResponseFormatSchema.nullish(),
    safety_mode: z.enum(["CONTEXTUAL", "STRICT", "OFF"]).nullish(),
    max_tokens: z.number().int().nullish(),
    stop_sequences: z.array(z.string()).nullish(),
    temperature: z.number().nullish(),
    seed: z.number().int().nullish(),
    frequency_penalty: z.number().nullish(),
    presence_penalty: z.number().nullish(),
    k: z.number().int().nullish(),
    p: z.number().nullish(),
    logprobs: z.boolean().nullish(),
    tool_choice: z.enum(["REQUIRED", "NONE"]).nullish(),
    thinking: ThinkingSchema.nullish(),
    priority: z.number().int().nullish(),
  });
  return { ChatRequestSchema };
});

export type CohereChatBody = z.infer<ReturnType<typeof cohereChatWire>["ChatRequestSchema"]>;
export type CohereChatMessage = CohereChatBody["messages"][number];
export type CohereContent = NonNullable<CohereChatMessage["content"]>;

/** The parsed request the renderers read. */
export interface CohereChatRequest {
  body: CohereChatBody;
}
