/**
 * Server-side tools on the Responses API (`respond.serverTools`, contract section 11): the output items the real API
 * adds before the message — `web_search_call`, `code_interpreter_call`, `file_search_call`, `image_generation_call`,
 * `mcp_list_tools` + `mcp_call` — the `url_citation` annotations on its text, and their stream events.
 */
import { citations, codeFileBytes, pictureType, webResults, type ServerToolUse } from "../../../canonical/server-tools";
import { base64 } from "../../../util/base64";
import type { Reply } from "../../../canonical/outcome";
import { stableHex } from "../../../util/hash";
import { streamFragments } from "../../../util/text";
import type { InputItem, ResponsesBody } from "./wire";
import type { McpServerRef } from "../../types";
import { own } from "../../../util/own";

/** A server tool's output item: the fields each type carries, in the real API's order. */
export interface ServerToolItem {
  id: string;
  type: "web_search_call" | "code_interpreter_call" | "file_search_call" | "image_generation_call" | "mcp_list_tools" | "mcp_call" | "mcp_approval_request";
  [field: string]: unknown;
}

export interface UrlCitation {
  type: "url_citation";
  end_index: number;
  start_index: number;
  title: string;
  url: string;
}

/** The container a reply's code runs in when the request names none of its own (Code Interpreter's `auto`). */
export function autoContainerId(idSeed: string): string {
  return `cntr_${stableHex(`container|${idSeed}`, 48)}`;
}

/** A 1×1 transparent PNG: the `result` of a scripted image generation. */
const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";

/** The request's `include` asks for this. */
type Includes = (what: string) => boolean;

/** The tool types the Responses API runs itself, as the matcher `serverTool` names them. */
const OFFERED: Record<string, string> = {
  web_search: "web_search",
  web_search_preview: "web_search",
  web_search_2025_08_26: "web_search",
  web_search_preview_2025_03_11: "web_search",
  code_interpreter: "code_execution",
  file_search: "file_search",
  image_generation: "image_generation",
  mcp: "mcp",
};

/** The matcher name of a client's tool type; own keys only (`constructor` names no tool). */
function offered(type: string): string | undefined {
  return own(OFFERED, type);
}

/** The server tools a Responses request offers (`tools[].type`), as matcher names, each once. */
export function offeredServerTools(tools: { type: string }[] | null | undefined): string[] {
  const out = new Set<string>();
  for (const t of tools ?? []) {
    const kind = offered(t.type);
    if (kind !== undefined) out.add(kind);
  }
  return [...out];
}

/** The `url_citation` annotations of the reply's text: on its `[n]` markers, else every result at its end. */
export function urlCitations(reply: Reply, text: string): UrlCitation[] {
  return citations(text, webResults(reply.serverTools)).map((c) => ({
    type: "url_citation",
    end_index: c.end,
    start_index: c.start,
    title: c.result.title,
    url: c.result.url,
  }));
}

export interface FileCitation {
  type: "file_citation";
  file_id: string;
  filename: string;
  index: number;
}

/** The `file_citation` annotations of the reply's text: each file its file searches found, best first, once, at the text's end. */
export function fileCitations(reply: Reply, text: string): FileCitation[] {
  const seen = new Set<string>();
  const out: FileCitation[] = [];
  for (const use of reply.serverTools ?? []) {
    if (use.type !== "file_search") continue;
    for (const r of use.results ?? []) {
      const fileId = r.fileId ?? `file-${stableHex(`file|${r.filename}`, 22)}`;
      if (seen.has(fileId)) continue;
      seen.add(fileId);
      out.push({ type: "file_citation", file_id: fileId, filename: r.filename, index: text.length });
    }
  }
  return out;
}

export interface ContainerFileCitation {
  type: "container_file_citation";
  container_id: string;
  end_index: number;
  file_id: string;
  filename: string;
  start_index: number;
}

/**
 * The `container_file_citation` annotations of the reply's text: each file its code wrote (kept in the container by
 * module/containers/code-interpreter.ts), spanning the text's first `sandbox:/mnt/data/{name}` link (or bare path)
 * to it, else at the text's end.
 */
export function containerCitations(reply: Reply, text: string): ContainerFileCitation[] {
  const out: ContainerFileCitation[] = [];
  for (const use of reply.serverTools ?? []) {
    if (use.type !== "code_execution" || use.container === undefined) continue;
    for (const f of use.container.files) {
      const link = text.indexOf(`sandbox:${f.path}`);
      const bare = link >= 0 ? link : text.indexOf(f.path);
      const [start, end] = bare < 0 ? [text.length, text.length] : [bare, bare + (link >= 0 ? "sandbox:".length : 0) + f.path.length];
      out.push({ type: "container_file_citation", container_id: use.container.id, end_index: end, file_id: f.fileId, filename: f.name, start_index: start });
    }
  }
  return out;
}

export type Annotation = UrlCitation | FileCitation | ContainerFileCitation;

/** Every annotation of the reply's text, in the order the API lists them: web citations, file citations, container files. */
export function textAnnotations(reply: Reply, text: string): Annotation[] {
  if (reply.serverTools === undefined) return [];
  return [...urlCitations(reply, text), ...fileCitations(reply, text), ...containerCitations(reply, text)];
}

/** A code run's pictures as Code Interpreter outputs: `{ type: "image", url }`, the file as a data URL. */
function pictureOutputs(use: Extract<ServerToolUse, { type: "code_execution" }>): { type: "image"; url: string }[] {
  return (use.files ?? []).flatMap((f) => {
    const type = pictureType(f.name);
    return type === undefined ? [] : [{ type: "image" as const, url: `data:${type};base64,${base64(codeFileBytes(f))}` }];
  });
}

function mcpArguments(use: Extract<ServerToolUse, { type: "mcp" }>): string {
  return JSON.stringify(use.arguments ?? {});
}

/** What the request says about its MCP servers: which calls need approval, which were approved, which were listed. */
export interface McpContext {
  /** The server's `require_approval` asks approval for this tool (absent or `"always"`: every tool, as the API defaults). */
  needsApproval(server: string, tool: string): boolean;
  /** The id of an `mcp_approval_request` for this call that an `mcp_approval_response` approved (`approve: false`: null). */
  approval(server: string, tool: string): string | null | undefined;
  /** The conversation already carries the server's `mcp_list_tools` item. */
  listed(server: string): boolean;
}

/** The MCP context of a request: its `mcp` tools and the `mcp_*` items of its input and history. */
export function mcpContext(tools: ResponsesBody["tools"], input: InputItem[]): McpContext {
  const raws = input.flatMap((i) => (i.type === "other" ? [i.raw] : []));
  const requests = new Map<string, string>();
  for (const r of raws) {
    // A label or name that is not a string names no scripted server or tool (and `String` would throw on `{"toString":1}`).
    if (r.type === "mcp_approval_request" && typeof r.id === "string" && typeof r.server_label === "string" && typeof r.name === "string") {
      requests.set(r.id, `${r.server_label}/${r.name}`);
    }
  }
  const answers = new Map<string, string | null>();
  for (const r of raws) {
    if (r.type !== "mcp_approval_response" || typeof r.approval_request_id !== "string") continue;
    const call = requests.get(r.approval_request_id);
    if (call !== undefined) answers.set(call, r.approve === true ? r.approval_request_id : null);
  }
  const listed = new Set(raws.flatMap((r) => (r.type === "mcp_list_tools" && typeof r.server_label === "string" ? [r.server_label] : [])));
  return {
    needsApproval(server, tool) {
      const t = (tools ?? []).find((x) => x.type === "mcp" && x.server_label === server);
      if (t === undefined) return false;
      const rule = t.require_approval;
      if (rule === "never") return false;
      if (rule !== null && typeof rule === "object") {
        const never = (rule as { never?: { tool_names?: unknown } }).never?.tool_names;
        return !(Array.isArray(never) && never.includes(tool));
      }
      return true;
    },
    approval: (server, tool) => answers.get(`${server}/${tool}`),
    listed: (server) => listed.has(server),
  };
}

const NO_MCP: McpContext = { needsApproval: () => false, approval: () => undefined, listed: () => false };

/**
 * The output items of the reply's server tools, in order; `nextId(prefix)` names each as the response's other
 * items are named. An `mcp` use is preceded by its server's `mcp_list_tools` the first time the server appears (unless
 * the conversation carries it); one needing approval that has none yet is an `mcp_approval_request`, and the response
 * stops there (`paused`); one whose approval was refused is left out.
 */
export function serverToolItems(reply: Reply, nextId: (prefix: string) => string, includes: Includes, mcp: McpContext = NO_MCP): { items: ServerToolItem[]; paused: boolean } {
  const items: ServerToolItem[] = [];
  const listed = new Set<string>();
  const container = autoContainerId(reply.idSeed);
  for (const use of reply.serverTools ?? []) {
    const id = nextId;
    switch (use.type) {
      case "web_search": {
        const sources = (use.results ?? []).map((r) => ({ type: "url", url: r.url }));
        const action = includes("web_search_call.action.sources") ? { type: "search", query: use.query, sources } : { type: "search", query: use.query };
        items.push({ id: id("ws"), type: "web_search_call", status: "completed", action });
        break;
      }
      case "web_fetch":
        items.push({ id: id("ws"), type: "web_search_call", status: "completed", action: { type: "open_page", url: use.url } });
        break;
      case "code_execution": {
        const logs = [use.output ?? "", use.error ?? ""].filter((s) => s !== "").join("\n");
        items.push({
          id: id("ci"),
          type: "code_interpreter_call",
          status: "completed",
          code: use.code,
          container_id: use.container?.id ?? container,
          outputs: includes("code_interpreter_call.outputs") ? [{ type: "logs", logs }, ...pictureOutputs(use)] : null,
        });
        break;
      }
      case "file_search": {
        const results = (use.results ?? []).map((r, i) => ({
          attributes: r.attributes ?? {},
          file_id: r.fileId ?? `file-${stableHex(`file|${r.filename}`, 22)}`,
          filename: r.filename,
          score: r.score ?? Math.max(0, 1 - i * 0.05),
          text: r.text ?? "",
        }));
        items.push({ id: id("fs"), type: "file_search_call", status: "completed", queries: [use.query ?? ""], results: includes("file_search_call.results") ? results : null });
        break;
      }
      case "image_generation":
        items.push({
          id: id("ig"),
          type: "image_generation_call",
          status: "completed",
          background: "opaque",
          output_format: "png",
          quality: "high",
          result: PIXEL,
          revised_prompt: use.prompt ?? "",
          size: "1024x1024",
        });
        break;
      case "mcp": {
        if (!listed.has(use.server) && !mcp.listed(use.server)) {
          listed.add(use.server);
          const tools = [...new Set((reply.serverTools ?? []).flatMap((u) => (u.type === "mcp" && u.server === use.server ? [u.tool] : [])))];
          // Answered by the server (src/turn/mcp-client.ts): what its `tools/list` said, or why listing failed.
          const remote = use.listedTools?.map((t) => ({ annotations: t.annotations, description: t.description, input_schema: t.inputSchema, name: t.name }));
          items.push({
            id: id("mcpl"),
            type: "mcp_list_tools",
            server_label: use.server,
            tools: remote ?? (use.listError !== undefined ? [] : tools.map((name) => ({ annotations: null, description: null, input_schema: { type: "object", properties: {} }, name }))),
            ...(use.listError !== undefined ? { error: use.listError } : {}),
          });
        }
        listed.add(use.server);
        const approval = mcp.needsApproval(use.server, use.tool) ? mcp.approval(use.server, use.tool) : null;
        if (approval === undefined) {
          items.push({ id: id("mcpr"), type: "mcp_approval_request", arguments: mcpArguments(use), name: use.tool, server_label: use.server });
          return { items, paused: true };
        }
        if (approval === null && mcp.needsApproval(use.server, use.tool)) break;
        items.push({
          id: id("mcp"),
          type: "mcp_call",
          status: use.error !== undefined ? "failed" : "completed",
          approval_request_id: approval,
          arguments: mcpArguments(use),
          // A tool that answers an error is an `mcp_tool_execution_error` carrying its content, as the API reports it.
          error: use.error !== undefined ? { type: "mcp_tool_execution_error", content: [{ type: "text", text: use.error }] } : null,
          name: use.tool,
          output: use.error !== undefined ? null : (use.result ?? ""),
          server_label: use.server,
        });
        break;
      }
    }
  }
  return { items, paused: false };
}

/** The item as `response.output_item.added` shows it: in progress, nothing found or run yet. */
export function addedServerToolItem(item: ServerToolItem): Record<string, unknown> {
  switch (item.type) {
    case "web_search_call":
      return { id: item.id, type: item.type, status: "in_progress", action: { type: (item.action as { type: string }).type } };
    case "code_interpreter_call":
      return { ...item, status: "in_progress", code: "", outputs: null };
    case "file_search_call":
      return { ...item, status: "in_progress", results: null };
    case "image_generation_call":
      return { id: item.id, type: item.type, status: "in_progress" };
    case "mcp_list_tools":
      return { ...item, tools: [] };
    case "mcp_call":
      return { ...item, status: "in_progress", arguments: "", error: null, output: null };
    case "mcp_approval_request":
      return item;
  }
}

/** An event between `output_item.added` and `output_item.done`: its type and fields after `item_id`/`output_index`. */
export interface ServerToolEvent {
  type: string;
  fields?: Record<string, unknown>;
}

/** Characters of code or MCP arguments per delta. */
const FRAGMENT = 16;

/** The events a server tool's item streams between `added` and `done`, in the real API's order. */
export function serverToolEvents(item: ServerToolItem): ServerToolEvent[] {
  switch (item.type) {
    case "web_search_call":
      return [{ type: "response.web_search_call.in_progress" }, { type: "response.web_search_call.searching" }, { type: "response.web_search_call.completed" }];
    case "file_search_call":
      return [{ type: "response.file_search_call.in_progress" }, { type: "response.file_search_call.searching" }, { type: "response.file_search_call.completed" }];
    case "code_interpreter_call": {
      const code = String(item.code ?? "");
      return [
        { type: "response.code_interpreter_call.in_progress" },
        ...streamFragments(code, FRAGMENT).map((delta) => ({ type: "response.code_interpreter_call_code.delta", fields: { delta } })),
        { type: "response.code_interpreter_call_code.done", fields: { code } },
        { type: "response.code_interpreter_call.interpreting" },
        { type: "response.code_interpreter_call.completed" },
      ];
    }
    case "image_generation_call":
      return [{ type: "response.image_generation_call.in_progress" }, { type: "response.image_generation_call.generating" }, { type: "response.image_generation_call.completed" }];
    case "mcp_list_tools":
      return [{ type: "response.mcp_list_tools.in_progress" }, { type: "response.mcp_list_tools.completed" }];
    case "mcp_call": {
      const args = String(item.arguments);
      return [
        { type: "response.mcp_call.in_progress" },
        ...streamFragments(args, FRAGMENT).map((delta) => ({ type: "response.mcp_call_arguments.delta", fields: { delta } })),
        { type: "response.mcp_call_arguments.done", fields: { arguments: args } },
        { type: item.status === "failed" ? "response.mcp_call.failed" : "response.mcp_call.completed" },
      ];
    }
    case "mcp_approval_request":
      // `output_item.added` then `done`, nothing between.
      return [];
  }
}

/** The server tool a `tool_choice` forces (`{ type: "web_search" }`, `{ type: "code_interpreter" }`, …), as a matcher name. */
export function forcedServerTool(choice: unknown): string | undefined {
  if (choice === null || typeof choice !== "object") return undefined;
  const type = (choice as { type?: unknown }).type;
  return typeof type === "string" ? offered(type) : undefined;
}

/** The request's remote MCP servers (`tools[]` of `type: "mcp"` with a `server_url`): URL, `headers`, `authorization`. */
export function responsesMcpServers(tools: ResponsesBody["tools"], input: InputItem[]): McpServerRef[] {
  const mcp = mcpContext(tools, input);
  return (tools ?? []).flatMap((t) => {
    const x = t as { type: string; server_label?: unknown; server_url?: unknown; headers?: unknown; authorization?: unknown };
    if (x.type !== "mcp" || typeof x.server_label !== "string" || typeof x.server_url !== "string") return [];
    const headers: Record<string, string> = {};
    if (typeof x.headers === "object" && x.headers !== null) {
      for (const [k, v] of Object.entries(x.headers)) if (typeof v === "string") headers[k] = v;
    }
    if (typeof x.authorization === "string") headers.authorization = `Bearer ${x.authorization}`;
    const label = x.server_label;
    // An approval not yet given (or refused): the call waits, as the API's does.
    const listOnly = (tool: string) => mcp.needsApproval(label, tool) && (mcp.approval(label, tool) ?? null) === null;
    return [{ label, url: x.server_url, headers, listOnly }];
  });
}
