/**
 * `respond.serverTools` (contract section 11): tools the provider runs inside the model's own turn — web search,
 * web fetch, code execution, file search, image generation, remote MCP — scripted once, rendered per provider.
 */
import { z } from "zod";

const WebResultSchema = z.strictObject({
  url: z.string().min(1).describe("The result's URL."),
  title: z.string().describe("The result's title."),
  snippet: z.string().optional().describe("The text cited from it (Anthropic `cited_text`; default: the title)."),
});

export const ServerToolSchema = z.discriminatedUnion("type", [
  z.strictObject({
    type: z.literal("web_search"),
    query: z.string().describe("The query the model searched for."),
    results: z
      .array(WebResultSchema)
      .optional()
      .describe("The pages found (default none). A `[n]` marker in `text` cites the n-th result of all searches, in order; without markers every result is cited at the end."),
  }),
  z.strictObject({
    type: z.literal("web_fetch"),
    url: z.string().min(1).describe("The page the model fetched."),
    title: z.string().optional().describe("The page's title."),
    content: z.string().optional().describe("The page's text (default empty)."),
  }),
  z.strictObject({
    type: z.literal("code_execution"),
    code: z.string().describe("The code the model ran."),
    output: z.string().optional().describe("What it printed (stdout; default empty)."),
    error: z.string().optional().describe("What it printed to stderr (default empty)."),
    returnCode: z.number().int().optional().describe("Its exit status (default 0)."),
    files: z
      .array(
        z
          .strictObject({
            name: z.string().min(1).max(255).describe("The file's name: it is written to `/mnt/data/{name}`."),
            content: z.string().max(1_048_576).optional().describe("Its text (default empty; a `.png` file without `content` or `contentBase64` is a 640×480 picture in one colour)."),
            contentBase64: z
              .string()
              .max(1_398_104)
              .regex(/^[A-Za-z0-9+/]*={0,2}$/, "contentBase64 must be standard base64")
              .optional()
              .describe("Its bytes in base64, in place of `content`: a picture or any binary file (at most 1 MiB)."),
          })
          .refine((f) => f.content === undefined || f.contentBase64 === undefined, { message: "give a file's content or its contentBase64, not both" }),
      )
      .max(20)
      .optional()
      .describe(
        "Files the code wrote. OpenAI Responses with Code Interpreter: kept in the request's container (`source: \"assistant\"`), each a `container_file_citation` on the text — on its `sandbox:/mnt/data/{name}` link when the text has one, else at its end; a picture (`.png`, `.jpg`, `.gif`, `.webp`) is also an `image` output (a data URL) when `include` asks for the outputs. Anthropic with a code execution tool: downloadable Files API files, each named by an output block of the result. Gemini: a picture is an `inlineData` part after the run's result.",
      ),
  }),
  z.strictObject({
    type: z.literal("file_search"),
    query: z.string().optional().describe("The query the model searched the vector stores for (default on OpenAI Responses: the last user message)."),
    results: z
      .array(
        z.strictObject({
          fileId: z.string().optional().describe("The file's id (default: derived from the filename)."),
          filename: z.string().describe("The file's name."),
          text: z.string().optional().describe("The chunk found."),
          score: z.number().optional().describe("Its relevance (default 1, then decreasing)."),
          attributes: z
            .record(z.string(), z.union([z.string(), z.number(), z.boolean()]))
            .optional()
            .describe("The file's attributes (default none)."),
        }),
      )
      .optional()
      .describe("The chunks found. Absent on OpenAI Responses: the mock searches the request's vector stores (`vector_store_ids`) for `query` itself."),
  }),
  z.strictObject({
    type: z.literal("image_generation"),
    prompt: z.string().optional().describe("The prompt the model drew from (OpenAI `revised_prompt`)."),
  }),
  z.strictObject({
    type: z.literal("mcp"),
    server: z.string().min(1).describe("The MCP server's label (OpenAI `server_label`, Anthropic `server_name`)."),
    tool: z.string().min(1).describe("The tool called."),
    arguments: z.record(z.string(), z.unknown()).optional().describe("The call's arguments (default `{}`)."),
    result: z.string().optional().describe("What the tool answered (text)."),
    error: z.string().optional().describe("The call failed with this message instead."),
  }),
]);
export type ServerToolEntry = z.output<typeof ServerToolSchema>;

export const ServerToolsSchema = z
  .array(ServerToolSchema)
  .min(1)
  .describe(
    "Server-side tools the model used in this turn, in order, before its `text`: `web_search`, `web_fetch`, `code_execution`, `file_search`, `image_generation`, `mcp` (OpenAI Responses output items, Anthropic `server_tool_use`/`*_tool_result` and `mcp_tool_use`/`mcp_tool_result` blocks, Gemini grounding metadata and code parts).",
  );

/** The server tools a request can offer (matcher `serverTool`). */
export const SERVER_TOOL_KINDS = ["web_search", "web_fetch", "code_execution", "file_search", "image_generation", "mcp"] as const;
export type ServerToolKind = (typeof SERVER_TOOL_KINDS)[number];
