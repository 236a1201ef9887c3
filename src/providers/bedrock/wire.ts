/**
 * What clients send to Bedrock's `POST /model/{modelId}/converse` (and `/converse-stream`): the Converse API's
 * request body, loose (unknown fields and content kinds pass). Field names are the API's own camelCase.
 */
import { z } from "zod";
import { lazily } from "../../util/memo";

/** Built on the first Converse request (util/memo.ts `lazily`): a start pays for no provider's schemas. */
export const converseWire = lazily(() => {
  /** A tool result's content: text, JSON, or anything else (images, documents) kept as is. */
  const ToolResultContentSchema = z.looseObject({ text: z.string().optional(), json: z.unknown().optional() });

  /** One content block: exactly one member is set, as in the API's union. */
  const ContentBlockSchema = z.looseObject({
    text: z.string().optional(),
    toolUse: z.looseObject({ toolUseId: z.string(), name: z.string(), input: z.unknown() }).optional(),
    toolResult: z
      .looseObject({
        toolUseId: z.string(),
        content: z.array(ToolResultContentSchema).optional(),
        status: z.enum(["success", "error"]).optional(),
      })
      .optional(),
    reasoningContent: z
      .looseObject({
        reasoningText: z.looseObject({ text: z.string(), signature: z.string().optional() }).optional(),
        redactedContent: z.string().optional(),
      })
      .optional(),
  });

  const MessageSchema = z.looseObject({
    role: z.enum(["user", "assistant"]),
    content: z.array(ContentBlockSchema),
  });

  const ConverseRequestSchema = z.looseObject({
    messages: z.array(MessageSchema).optional(),
    system: z.array(z.looseObject({ text: z.string().optional() })).optional(),
    inferenceConfig: z
      .looseObject({
        maxTokens: z.number().int().min(1).optional(),
        temperature: z.number().optional(),
        topP: z.number().optional(),
        stopSequences: z.array(z.string()).optional(),
      })
      .optional(),
    toolConfig: z
      .looseObject({
        tools: z.array(z.looseObject({ toolSpec: z.looseObject({ name: z.string() }).optional() })),
      })
      .optional(),
    /** Model-specific fields; Claude's `thinking: { type: "enabled", budget_tokens }` turns reasoning on. */
    additionalModelRequestFields: z.record(z.string(), z.unknown()).optional(),
  });
  return { ContentBlockSchema, ConverseRequestSchema };
});
type ConverseWireSchemas = ReturnType<typeof converseWire>;
export type ContentBlock = z.output<ConverseWireSchemas["ContentBlockSchema"]>;
export type ConverseRequest = z.output<ConverseWireSchemas["ConverseRequestSchema"]>;

/** What the Converse surface keeps of a request: the body, and which operation the path named. */
export interface ConverseWire {
  body: ConverseRequest;
  modelId: string;
}
