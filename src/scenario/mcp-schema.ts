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
  /** Default `{ "type": "object" }`. */
  inputSchema: ObjectJsonSchema.optional(),
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
    /** What `resources/read` answers: text, or base64 `blob`. */
    text: z.string().optional(),
    blob: z.string().optional(),
  })
  .refine((r) => r.text === undefined || r.blob === undefined, "a resource has text or blob, not both");

export const McpPromptSchema = z.strictObject({
  name: z.string().min(1),
  title: z.string().optional(),
  description: z.string().optional(),
  arguments: z
    .array(z.strictObject({ name: z.string().min(1), description: z.string().optional(), required: z.boolean().optional() }))
    .optional(),
  /** `{{args.name}}` in text content is the prompt argument's value. */
  messages: z.array(z.strictObject({ role: z.enum(["user", "assistant"]), content: McpContentSchema })),
});

/** A tool result: `content`, optional `structuredContent`, `isError` for a tool-level error the model sees. */
export const McpToolResultSchema = z.strictObject({
  content: z.array(McpContentSchema),
  structuredContent: z.record(z.string(), z.unknown()).optional(),
  isError: z.boolean().optional(),
});
export type McpToolResult = z.output<typeof McpToolResultSchema>;

/** A JSON-RPC error object answered instead of a result. */
export const McpErrorSchema = z.strictObject({
  code: z.number().int(),
  message: z.string(),
  data: z.unknown().optional(),
});
export type McpError = z.output<typeof McpErrorSchema>;

export const McpProgressSchema = z.strictObject({
  progress: z.number(),
  total: z.number().optional(),
  message: z.string().optional(),
});

export const McpCallSchema = z
  .strictObject({
    /** Default `call-{n}`, 1-based. */
    id: z.string().min(1).optional(),
    /** `tool`: the tool name (StringMatch); `arguments`: a subset of the call's arguments, as `toolCall.arguments`. */
    match: z
      .strictObject({ tool: StringMatchSchema.optional(), arguments: z.record(z.string(), z.unknown()).optional() })
      .optional(),
    result: McpToolResultSchema.optional(),
    /** A JSON-RPC error: the answer when there is no `result`, and the scripted failure before it. */
    error: McpErrorSchema.optional(),
    /** Attempts 1..n answer `error` (default: -32603 "mockllm: scripted failure k of n"); attempt n+1 answers. */
    failuresBeforeSuccess: z.number().int().min(0).optional(),
    /** Default true: answers once per session. */
    consume: z.boolean().optional(),
    /** Before the answer (and spread over the progress notifications). */
    delayMs: z.number().min(0).optional(),
    /** `notifications/progress` sent before the answer when the client asked (`_meta.progressToken`) over SSE. */
    progress: z.array(McpProgressSchema).optional(),
  })
  .refine((c) => c.result !== undefined || c.error !== undefined, "a call answers with `result` or `error` (or both)");
export type McpCall = z.output<typeof McpCallSchema>;

export const McpSchema = z
  .strictObject({
    /** How POST answers: `application/json` (default) or an SSE stream. */
    responseMode: z.enum(["json", "sse"]).optional(),
    /** `instructions` in the initialize result. */
    instructions: z.string().optional(),
    tools: z.array(McpToolSchema).optional(),
    resources: z.array(McpResourceSchema).optional(),
    prompts: z.array(McpPromptSchema).optional(),
    calls: z.array(McpCallSchema).optional(),
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
    unique((mcp.tools ?? []).map((t) => ({ key: t.name })), "tool name", "tools", (i) => ["tools", i, "name"]);
    unique((mcp.resources ?? []).map((r) => ({ key: r.uri })), "resource uri", "resources", (i) => ["resources", i, "uri"]);
    unique((mcp.prompts ?? []).map((p) => ({ key: p.name })), "prompt name", "prompts", (i) => ["prompts", i, "name"]);
    unique((mcp.calls ?? []).map((c, i) => ({ key: mcpCallId(c, i) })), "call id", "calls", (i) => ["calls", i, "id"]);
  });
export type McpBlock = z.output<typeof McpSchema>;

/** A call's id as the journal and verify show it. */
export function mcpCallId(call: { id?: string | undefined }, index: number): string {
  return call.id ?? `call-${index + 1}`;
}
