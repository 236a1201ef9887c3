/**
 * What clients send to `POST /v1/messages`. Loose: unknown fields and unknown content-block types pass;
 * only what the real API itself rejects fails, with its pydantic-style wording (`max_tokens: Field required`).
 */
import { z } from "zod";
import { safeParseFast } from "../../util/fast-parse";
import { lazily } from "../../util/memo";

/** Error param for a required field: "Field required" when absent, `wrong` when of the wrong type. */
function required(wrong: string) {
  return { error: (issue: { input?: unknown }) => (issue.input === undefined ? "Field required" : wrong) };
}
/** pydantic's wording for a non-object where an object belongs. */
const OBJECT = { error: "Input should be a valid dictionary or object to extract fields from" };
const str = () => z.string(required("Input should be a valid string"));
const optNumber = () => z.number({ error: "Input should be a valid number" }).optional();

/** The known content blocks, built on the first Messages request (util/memo.ts `lazily`), as is everything below. */
const blockWire = lazily(() => {
  const TextBlockSchema = z.looseObject({ type: z.literal("text"), text: str() });

  const ToolUseBlockSchema = z.looseObject({
    type: z.literal("tool_use"),
    id: str(),
    name: str(),
    input: z.record(z.string(), z.unknown(), required("Input should be a valid dictionary")),
  });

  /** A block inside `tool_result.content`: text is read, everything else (images, documents) is kept opaque. */
  const ResultPartSchema = z.looseObject({ type: str(), text: z.unknown().optional() }, OBJECT);

  const ToolResultBlockSchema = z.looseObject({
    type: z.literal("tool_result"),
    tool_use_id: str(),
    content: z.union([z.string(), z.array(ResultPartSchema)], { error: "Input should be a valid string or a list of content blocks" }).optional(),
    is_error: z.boolean({ error: "Input should be a valid boolean" }).optional(),
  });

  /** `signature` is optional here so that `validate` (skipped with `strict: false`) can name what is wrong. */
  const ThinkingBlockSchema = z.looseObject({
    type: z.literal("thinking"),
    thinking: str(),
    signature: z.string({ error: "Input should be a valid string" }).optional(),
  });

  const RedactedThinkingBlockSchema = z.looseObject({ type: z.literal("redacted_thinking"), data: str() });

  /** A compaction block sent back (beta `compact-2026-01-12`): the API ignores every block before the last one. */
  const CompactionBlockSchema = z.looseObject({
    type: z.literal("compaction"),
    content: z.string({ error: "Input should be a valid string" }).nullable(),
    encrypted_content: z.string({ error: "Input should be a valid string" }).nullish(),
  });
  return { TextBlockSchema, ToolUseBlockSchema, ToolResultBlockSchema, ThinkingBlockSchema, RedactedThinkingBlockSchema, CompactionBlockSchema };
});
type BlockWire = ReturnType<typeof blockWire>;

type Known =
  | z.output<BlockWire["TextBlockSchema"]>
  | z.output<BlockWire["ToolUseBlockSchema"]>
  | z.output<BlockWire["ToolResultBlockSchema"]>
  | z.output<BlockWire["ThinkingBlockSchema"]>
  | z.output<BlockWire["RedactedThinkingBlockSchema"]>
  | z.output<BlockWire["CompactionBlockSchema"]>;

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
  const w = blockWire();
  switch (type) {
    case "text":
      return w.TextBlockSchema;
    case "tool_use":
      return w.ToolUseBlockSchema;
    case "tool_result":
      return w.ToolResultBlockSchema;
    case "thinking":
      return w.ThinkingBlockSchema;
    case "redacted_thinking":
      return w.RedactedThinkingBlockSchema;
    case "compaction":
      return w.CompactionBlockSchema;
    default:
      return undefined;
  }
}

/** Built on the first Messages (or count_tokens) request (util/memo.ts `lazily`): a start pays for no provider's schemas. */
export const anthropicWire = lazily(() => {
  /**
   * One content block, tagged by `type`. Known types are validated (errors at `….{type}.{field}`, as the
   * real API's tagged union reports them); unknown types become `{ type: "other" }`. The block's object and its
   * `type` are checked here, with the wording an object schema would give, so that a known block is copied once, by
   * its own schema (through src/util/fast-parse.ts's closures, which also run this transform, as the request is:
   * parse.ts) — not first by an object schema for its `type`.
   */
  const ContentBlockSchema = z.unknown().transform((input, ctx): ContentBlock => {
    if (typeof input !== "object" || input === null || Array.isArray(input)) {
      ctx.addIssue({ code: "invalid_type", expected: "object", input, message: OBJECT.error });
      return z.NEVER;
    }
    const block = input as { type?: unknown; source?: unknown };
    if (typeof block.type !== "string") {
      ctx.addIssue({ code: "invalid_type", expected: "string", input: block.type, path: ["type"], message: block.type === undefined ? "Field required" : "Input should be a valid string" });
      return z.NEVER;
    }
    const schema = knownSchema(block.type);
    if (!schema) {
      const source = block.source;
      const fileId = typeof source === "object" && source !== null && (source as { type?: unknown }).type === "file" ? (source as { file_id?: unknown }).file_id : undefined;
      return typeof fileId === "string" ? { type: "other", sent: block.type, fileId } : { type: "other", sent: block.type };
    }
    const parsed = safeParseFast(schema, block);
    if (parsed.success) return parsed.data;
    for (const issue of parsed.error.issues) {
      ctx.addIssue({ code: "custom", message: issue.message, path: [block.type, ...issue.path] });
    }
    return z.NEVER;
  });

  const ContentSchema = z.union([z.string(), z.array(ContentBlockSchema)], required("Input should be a valid list"));

  const MessageSchema = z.looseObject(
    {
      role: z.enum(["user", "assistant", "system"], required("Input should be 'user' or 'assistant'")),
      content: ContentSchema,
    },
    OBJECT,
  );

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
  const MessagesRequestSchema = z.looseObject({
    model: str(),
    max_tokens: z.number(required("Input should be a valid integer")).int({ error: "Input should be a valid integer" }).min(1, { error: "Input should be greater than or equal to 1" }),
    ...fields,
  });

  /** `POST /v1/messages/count_tokens`: the same body without `max_tokens`. */
  const CountTokensRequestSchema = z.looseObject({
    model: str(),
    ...fields,
    max_tokens: z.unknown().optional(),
  });
  return { MessageSchema, MessagesRequestSchema, CountTokensRequestSchema };
});
type AnthropicWire = ReturnType<typeof anthropicWire>;
export type WireMessage = z.output<AnthropicWire["MessageSchema"]>;
export type MessagesRequest = z.output<AnthropicWire["MessagesRequestSchema"]>;
export type CountTokensRequest = z.output<AnthropicWire["CountTokensRequestSchema"]>;

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
