/**
 * What clients send to `POST /v1/chat/completions`. Loose: SDKs add fields every month.
 */
import { z } from "zod";
import { lazily } from "../../../util/memo";

/** Built on the first Chat request (util/memo.ts `lazily`): a start pays for no provider's schemas. */
export const chatWire = lazily(() => {
  const TextPart = z.looseObject({ type: z.string(), text: z.string().optional(), refusal: z.string().optional() });
  const Content = z.union([z.string(), z.array(TextPart), z.null()]);

  const ToolCall = z.looseObject({
    id: z.string(),
    type: z.string().optional(),
    function: z.looseObject({ name: z.string(), arguments: z.string() }),
  });

  const ChatMessageSchema = z.looseObject({
    // In the order the real API lists them when it refuses another ("Supported values are: …").
    role: z.enum(["system", "assistant", "user", "function", "tool", "developer"]),
    content: Content.optional(),
    name: z.string().optional(),
    tool_calls: z.array(ToolCall).nullish(),
    tool_call_id: z.string().optional(),
    reasoning_content: z.string().nullish(),
    reasoning: z.string().nullish(),
  });

  const Tool = z.looseObject({
    type: z.string(),
    function: z.looseObject({ name: z.string() }).optional(),
    custom: z.looseObject({ name: z.string() }).optional(),
  });

  const ChatRequestSchema = z.looseObject({
    model: z.string().min(1),
    messages: z.array(ChatMessageSchema).min(1),
    stream: z.boolean().nullish(),
    stream_options: z.looseObject({ include_usage: z.boolean().nullish(), include_obfuscation: z.boolean().nullish() }).nullish(),
    service_tier: z.string().nullish(),
    tools: z.array(Tool).nullish(),
    /** One of the three words, or an object (its shapes read leniently by tool-choice.ts). */
    tool_choice: z.union([z.enum(["none", "auto", "required"]), z.looseObject({})]).nullish(),
    temperature: z.number().nullish(),
    top_p: z.number().nullish(),
    presence_penalty: z.number().nullish(),
    frequency_penalty: z.number().nullish(),
    max_tokens: z.number().int().nullish(),
    max_completion_tokens: z.number().int().nullish(),
    reasoning_effort: z.string().nullish(),
    reasoning: z.looseObject({ effort: z.string().nullish(), enabled: z.boolean().nullish() }).nullish(),
    n: z.number().int().nullish(),
    seed: z.number().int().nullish(),
    store: z.boolean().nullish(),
    user: z.string().nullish(),
    /** Its `type` in the order the real API lists them when it refuses another. */
    response_format: z.looseObject({ type: z.enum(["json_object", "json_schema", "text"]) }).nullish(),
    stop: z.union([z.string(), z.array(z.string())]).nullish(),
  });
  return { ChatMessageSchema, ChatRequestSchema };
});
type ChatWire = ReturnType<typeof chatWire>;
export type ChatMessage = z.output<ChatWire["ChatMessageSchema"]>;
export type ChatRequest = z.output<ChatWire["ChatRequestSchema"]>;
