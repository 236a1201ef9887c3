/**
 * What clients send to `POST /v1/messages`. Loose: unknown fields and unknown content-block types pass;
 * only what the real API itself rejects fails, with its pydantic-style wording (`max_tokens: Field required`).
 */
import { z } from "zod";

/** Error param for a required field: "Field required" when absent, `wrong` when of the wrong type. */
function required(wrong: string) {
  return { error: (issue: { input?: unknown }) => (issue.input === undefined ? "Field required" : wrong) };
}
/** pydantic's wording for a non-object where an object belongs. */
const OBJECT = { error: "Input should be a valid dictionary or object to extract fields from" };
const str = () => z.string(required("Input should be a valid string"));
const optNumber = () => z.number({ error: "Input should be a valid number" }).optional();

export const TextBlockSchema = z.looseObject({ type: z.literal("text"), text: str() });

export const ToolUseBlockSchema = z.looseObject({
  type: z.literal("tool_use"),
  id: str(),
  name: str(),
  input: z.record(z.string(), z.unknown(), required("Input should be a valid dictionary")),
});

/** A block inside `tool_result.content`: text is read, everything else (images, documents) is kept opaque. */
const ResultPartSchema = z.looseObject({ type: str(), text: z.unknown().optional() }, OBJECT);

export const ToolResultBlockSchema = z.looseObject({
  type: z.literal("tool_result"),
  tool_use_id: str(),
  content: z.union([z.string(), z.array(ResultPartSchema)], { error: "Input should be a valid string or a list of content blocks" }).optional(),
  is_error: z.boolean({ error: "Input should be a valid boolean" }).optional(),
});

/** `signature` is optional here so that `validate` (skipped with `strict: false`) can name what is wrong. */
export const ThinkingBlockSchema = z.looseObject({
  type: z.literal("thinking"),
  thinking: str(),
  signature: z.string({ error: "Input should be a valid string" }).optional(),
});

export const RedactedThinkingBlockSchema = z.looseObject({ type: z.literal("redacted_thinking"), data: str() });

/** A compaction block sent back (beta `compact-2026-01-12`): the API ignores every block before the last one. */
export const CompactionBlockSchema = z.looseObject({
  type: z.literal("compaction"),
  content: z.string({ error: "Input should be a valid string" }).nullable(),
  encrypted_content: z.string({ error: "Input should be a valid string" }).nullish(),
});

type Known =
  | z.output<typeof TextBlockSchema>
  | z.output<typeof ToolUseBlockSchema>
  | z.output<typeof ToolResultBlockSchema>
  | z.output<typeof ThinkingBlockSchema>
  | z.output<typeof RedactedThinkingBlockSchema>
  | z.output<typeof CompactionBlockSchema>;

/** A content-block type mockllm does not interpret (image, document, server_tool_use, …): accepted, ignored. */
export interface OtherBlock {
  type: "other";
  /** The `type` the client sent. */
  sent: string;
  /** A `document` / `image` block's `source: { type: "file", file_id }` (Files API): checked against the namespace's files. */
  fileId?: string;
}
export type ContentBlock = Known | OtherBlock;

function knownSchema(type: string) {
  switch (type) {
    case "text":
      return TextBlockSchema;
    case "tool_use":
      return ToolUseBlockSchema;
    case "tool_result":
      return ToolResultBlockSchema;
    case "thinking":
      return ThinkingBlockSchema;
    case "redacted_thinking":
      return RedactedThinkingBlockSchema;
    case "compaction":
      return CompactionBlockSchema;
    default:
      return undefined;
  }
}

/**
 * One content block, tagged by `type`. Known types are validated (errors at `….{type}.{field}`, as the
 * real API's tagged union reports them); unknown types become `{ type: "other" }`.
 */
export const ContentBlockSchema = z.looseObject({ type: str() }, OBJECT).transform((block, ctx): ContentBlock => {
  const schema = knownSchema(block.type);
  if (!schema) {
    const source = (block as { source?: unknown }).source;
    const fileId = typeof source === "object" && source !== null && (source as { type?: unknown }).type === "file" ? (source as { file_id?: unknown }).file_id : undefined;
    return typeof fileId === "string" ? { type: "other", sent: block.type, fileId } : { type: "other", sent: block.type };
  }
  const parsed = schema.safeParse(block);
  if (parsed.success) return parsed.data;
  for (const issue of parsed.error.issues) {
    ctx.addIssue({ code: "custom", message: issue.message, path: [block.type, ...issue.path] });
  }
  return z.NEVER;
});

const ContentSchema = z.union([z.string(), z.array(ContentBlockSchema)], required("Input should be a valid list"));

export const MessageSchema = z.looseObject(
  {
    role: z.enum(["user", "assistant", "system"], required("Input should be 'user' or 'assistant'")),
    content: ContentSchema,
  },
  OBJECT,
);
export type WireMessage = z.output<typeof MessageSchema>;

const SystemBlockSchema = z.looseObject({ type: str(), text: z.unknown().optional() }, OBJECT);

const ToolSchema = z.looseObject({ name: z.unknown().optional() }, OBJECT);

const ThinkingConfigSchema = z.looseObject({ type: str(), budget_tokens: z.unknown().optional() }, OBJECT);

const fields = {
  messages: z.array(MessageSchema, required("Input should be a valid list")).min(1, { error: "at least one message is required" }),
  system: z.union([z.string(), z.array(SystemBlockSchema)], { error: "Input should be a valid list" }).optional(),
  stream: z.boolean({ error: "Input should be a valid boolean" }).optional(),
  tools: z.array(ToolSchema, { error: "Input should be a valid list" }).optional(),
  tool_choice: z.unknown().optional(),
  thinking: ThinkingConfigSchema.optional(),
  temperature: optNumber(),
  top_p: optNumber(),
  top_k: optNumber(),
  stop_sequences: z.unknown().optional(),
  metadata: z.unknown().optional(),
  /** Beta context management: `{ edits: [{ type: "compact_20260112", trigger, pause_after_compaction }, …] }` (compaction.ts). */
  context_management: z.looseObject({ edits: z.array(z.looseObject({ type: str() }, OBJECT), { error: "Input should be a valid list" }).optional() }, OBJECT).nullish(),
};

/** `POST /v1/messages`: `model`, `max_tokens` (integer ≥ 1) and a non-empty `messages` are required. */
export const MessagesRequestSchema = z.looseObject({
  model: str(),
  max_tokens: z.number(required("Input should be a valid integer")).int({ error: "Input should be a valid integer" }).min(1, { error: "Input should be greater than or equal to 1" }),
  ...fields,
});
export type MessagesRequest = z.output<typeof MessagesRequestSchema>;

/** `POST /v1/messages/count_tokens`: the same body without `max_tokens`. */
export const CountTokensRequestSchema = z.looseObject({
  model: str(),
  ...fields,
  max_tokens: z.unknown().optional(),
});
export type CountTokensRequest = z.output<typeof CountTokensRequestSchema>;

/**
 * The first issue of a failed parse as the real API words it: `messages.0.content: Field required`.
 * A union's issue is reported from the branch whose type matched, so the path goes as deep as the fault.
 */
export function describeIssue(issues: readonly z.core.$ZodIssue[], prefix: PropertyKey[] = []): string {
  const issue = issues[0];
  if (!issue) return "Invalid request body.";
  if (issue.code === "invalid_union") {
    const deeper = issue.errors.find((branch) => branch.some((i) => i.path.length > 0 || i.code !== "invalid_type"));
    if (deeper) return describeIssue(deeper, [...prefix, ...issue.path]);
  }
  const path = [...prefix, ...issue.path].map(String).join(".");
  return path === "" ? issue.message : `${path}: ${issue.message}`;
}
