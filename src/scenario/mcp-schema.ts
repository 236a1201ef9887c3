/**
 * The scenario's `mcp` block (contract section 9): what the session's MCP server at `/s/{scenario}/{session}/mcp`
 * lists (tools, resources, prompts) and how it answers `tools/call` (ordered `calls`, matched on tool name and an
 * argument subset like the model matchers). Strict objects, as everything users write.
 */
import { z } from "zod";
import { StringMatchSchema } from "./string-match";

const Annotations = z.record(z.string(), z.unknown()).optional();
const Meta = z.record(z.string(), z.unknown()).optional();

/** A resource's contents: text or base64 `blob`. */
const ResourceContentsSchema = z.union([
  z.strictObject({ uri: z.string().min(1), mimeType: z.string().optional(), text: z.string(), _meta: Meta }),
  z.strictObject({ uri: z.string().min(1), mimeType: z.string().optional(), blob: z.string(), _meta: Meta }),
]);

/** One content block of a tool result or prompt message, as the MCP spec defines them. */
export const McpContentSchema = z.discriminatedUnion("type", [
  z.strictObject({ type: z.literal("text"), text: z.string(), annotations: Annotations, _meta: Meta }),
  z.strictObject({ type: z.literal("image"), data: z.string(), mimeType: z.string(), annotations: Annotations, _meta: Meta }),
  z.strictObject({ type: z.literal("audio"), data: z.string(), mimeType: z.string(), annotations: Annotations, _meta: Meta }),
  z.strictObject({
    type: z.literal("resource_link"),
    uri: z.string().min(1),
    name: z.string().min(1),
    title: z.string().optional(),
    description: z.string().optional(),
    mimeType: z.string().optional(),
    annotations: Annotations,
    _meta: Meta,
  }),
  z.strictObject({ type: z.literal("resource"), resource: ResourceContentsSchema, annotations: Annotations, _meta: Meta }),
]);
export type McpContent = z.output<typeof McpContentSchema>;

/** A JSON Schema object whose `type` is `"object"` (what MCP requires of tool input and output schemas). */
const ObjectJsonSchema = z.looseObject({ type: z.literal("object") });

export const McpToolSchema = z.strictObject({
  name: z.string().min(1),
  title: z.string().optional(),
  description: z.string().optional(),
  inputSchema: ObjectJsonSchema.optional().describe('Default `{ "type": "object" }`.'),
  outputSchema: ObjectJsonSchema.optional(),
  annotations: Annotations,
});

export const McpResourceSchema = z
  .strictObject({
    uri: z.string().min(1),
    name: z.string().min(1),
    title: z.string().optional(),
    description: z.string().optional(),
    mimeType: z.string().optional(),
    text: z.string().optional().describe("What `resources/read` answers: text, or base64 `blob`."),
    blob: z.string().optional(),
  })
  .refine((r) => r.text === undefined || r.blob === undefined, "a resource has text or blob, not both");

export const McpPromptSchema = z.strictObject({
  name: z.string().min(1),
  title: z.string().optional(),
  description: z.string().optional(),
  arguments: z.array(z.strictObject({ name: z.string().min(1), description: z.string().optional(), required: z.boolean().optional() })).optional(),
  messages: z.array(z.strictObject({ role: z.enum(["user", "assistant"]), content: McpContentSchema })).describe("`{{args.name}}` in text content is the prompt argument's value."),
});

/** A tool result: `content`, optional `structuredContent`, `isError` for a tool-level error the model sees. */
export const McpToolResultSchema = z.strictObject({
  content: z.array(McpContentSchema).describe("The result's content blocks (MCP `text`, `image`, `audio`, `resource_link`, `resource`)."),
  structuredContent: z.record(z.string(), z.unknown()).optional().describe("Structured output, for tools with an `outputSchema`."),
  isError: z.boolean().optional().describe("A tool-level error the model sees (not a JSON-RPC error)."),
});
export type McpToolResult = z.output<typeof McpToolResultSchema>;

/** A JSON-RPC error object answered instead of a result. */
export const McpErrorSchema = z.strictObject({
  code: z.number().int().describe("The JSON-RPC error code (e.g. -32603)."),
  message: z.string().describe("The error message."),
  data: z.unknown().optional().describe("Any extra data."),
});
export type McpError = z.output<typeof McpErrorSchema>;

export const McpProgressSchema = z.strictObject({
  progress: z.number().describe("Progress so far."),
  total: z.number().optional().describe("The total, when known."),
  message: z.string().optional().describe("A message for people."),
});

export const McpCallSchema = z
  .strictObject({
    id: z.string().min(1).optional().describe("Default `call-{n}`, 1-based."),
    match: z
      .strictObject({
        tool: StringMatchSchema.optional().describe("The called tool's name."),
        arguments: z.record(z.string(), z.unknown()).optional().describe("A subset of the call's arguments (values compared exactly, nested objects as subsets, or StringMatch objects)."),
      })
      .optional()
      .describe("`tool`: the tool name (StringMatch); `arguments`: a subset of the call's arguments, as `toolCall.arguments`."),
    result: McpToolResultSchema.optional().describe("The tool result answered (after any scripted failures)."),
    error: McpErrorSchema.optional().describe("A JSON-RPC error: the answer when there is no `result`, and the scripted failure before it."),
    failuresBeforeSuccess: z.number().int().min(0).optional().describe('Attempts 1..n answer `error` (default: -32603 "mockllm: scripted failure k of n"); attempt n+1 answers.'),
    consume: z.boolean().optional().describe("Default true: answers once per session."),
    delayMs: z.number().min(0).optional().describe("Before the answer (and spread over the progress notifications)."),
    progress: z.array(McpProgressSchema).optional().describe("`notifications/progress` sent before the answer when the client asked (`_meta.progressToken`) over SSE."),
  })
  .refine((c) => c.result !== undefined || c.error !== undefined, "a call answers with `result` or `error` (or both)");
export type McpCall = z.output<typeof McpCallSchema>;

export const McpSchema = z
  .strictObject({
    responseMode: z.enum(["json", "sse"]).optional().describe("How POST answers: `application/json` (default) or an SSE stream."),
    instructions: z.string().optional().describe("`instructions` in the initialize result."),
    tools: z.array(McpToolSchema).optional().describe("What `tools/list` answers (fields as the MCP specification defines a tool)."),
    resources: z.array(McpResourceSchema).optional().describe("What `resources/list` answers and `resources/read` reads (fields as the MCP specification defines a resource)."),
    prompts: z.array(McpPromptSchema).optional().describe("What `prompts/list` answers and `prompts/get` renders (fields as the MCP specification defines a prompt)."),
    calls: z.array(McpCallSchema).optional().describe("How `tools/call` answers: the first unused call whose `match` holds, in order, like the model's steps."),
  })
  .superRefine((mcp, ctx) => {
    const unique = (list: { key: string }[], what: string, field: string, path: (i: number) => PropertyKey[]) => {
      const seen = new Map<string, number>();
      list.forEach(({ key }, i) => {
        const prev = seen.get(key);
        if (prev !== undefined) ctx.addIssue({ code: "custom", path: path(i), message: `duplicate ${what} "${key}" (also ${field}[${prev}])` });
        else seen.set(key, i);
      });
    };
    unique(
      (mcp.tools ?? []).map((t) => ({ key: t.name })),
      "tool name",
      "tools",
      (i) => ["tools", i, "name"],
    );
    unique(
      (mcp.resources ?? []).map((r) => ({ key: r.uri })),
      "resource uri",
      "resources",
      (i) => ["resources", i, "uri"],
    );
    unique(
      (mcp.prompts ?? []).map((p) => ({ key: p.name })),
      "prompt name",
      "prompts",
      (i) => ["prompts", i, "name"],
    );
    unique(
      (mcp.calls ?? []).map((c, i) => ({ key: mcpCallId(c, i) })),
      "call id",
      "calls",
      (i) => ["calls", i, "id"],
    );
  });
export type McpBlock = z.output<typeof McpSchema>;

/** A call's id as the journal and verify show it. */
export function mcpCallId(call: { id?: string | undefined }, index: number): string {
  return call.id ?? `call-${index + 1}`;
}
