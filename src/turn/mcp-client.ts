/**
 * Remote MCP (contract section 11): a scripted `mcp` server-tool use without `result` or `error` makes the
 * mock the MCP client the provider is. Before rendering, it connects to the server the request names (the surface's
 * `mcpServers`), speaks Streamable HTTP JSON-RPC 2.0 (`initialize`, `notifications/initialized`, `tools/list`,
 * `tools/call`), and fills the use with what the server answered. Every failure (a host the deployment does not
 * allow, an unreachable server, a timeout, garbage, an answer over 1 MB, a JSON-RPC error) becomes the use's `error`,
 * which the provider renders as its own: never a hang or a 500.
 */
import type { McpListedTool, ServerToolUse } from "../canonical/server-tools";
import type { Outcome } from "../canonical/outcome";
import type { McpServerRef, ProviderSurface } from "../providers/types";
import { resolveSurface } from "../providers/surface";
import type { RuntimeVars } from "../runtime/types";
import { hostList, hostListed } from "../util/host-list";

/** Default bound on each JSON-RPC call (`MCP_TIMEOUT_MS` overrides). */
export const MCP_TIMEOUT_MS = 10_000;
/** Largest answer read from an MCP server. */
export const MCP_MAX_ANSWER_BYTES = 1_000_000;
const PROTOCOL_VERSION = "2025-06-18";

/** How the client reaches servers: a same-host call goes through `local` (the router) rather than the network. */
export interface McpClientOptions {
  /** Hosts (`host` or `host:port`) the deployment allows. */
  allowed: string[];
  timeoutMs: number;
  /** The host the provider request came to: a call to it is answered by `local` when given. */
  ownHost?: string;
  local?: (request: Request) => Promise<Response>;
}

/** What the server answered for one use: the listed tools and the call's text, or why it failed. */
export type McpAnswer = { tools: McpListedTool[]; result?: string; isError: boolean } | { failed: string; tools?: McpListedTool[] };

class McpFailure extends Error {}

/** `MCP_ALLOWED_HOSTS` (a comma list), else the request's own host. */
export function mcpOptions(vars: RuntimeVars, requestUrl: string | undefined, local?: (request: Request) => Promise<Response>): McpClientOptions {
  const ownHost = requestUrl !== undefined ? new URL(requestUrl).host : undefined;
  const listed = hostList(vars.MCP_ALLOWED_HOSTS);
  const timeout = Number(vars.MCP_TIMEOUT_MS);
  const options: McpClientOptions = {
    allowed: listed.length > 0 ? listed : ownHost !== undefined ? [ownHost.toLowerCase()] : [],
    timeoutMs: Number.isFinite(timeout) && timeout > 0 ? timeout : MCP_TIMEOUT_MS,
  };
  if (ownHost !== undefined) options.ownHost = ownHost.toLowerCase();
  if (local !== undefined) options.local = local;
  return options;
}

/** The body read whole, refused past the limit. */
async function readBounded(response: Response): Promise<string> {
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > MCP_MAX_ANSWER_BYTES) throw new McpFailure(`the MCP server's answer is larger than ${MCP_MAX_ANSWER_BYTES} bytes`);
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MCP_MAX_ANSWER_BYTES) {
      await reader.cancel().catch(() => {});
      throw new McpFailure(`the MCP server's answer is larger than ${MCP_MAX_ANSWER_BYTES} bytes`);
    }
    parts.push(value);
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.byteLength;
  }
  return new TextDecoder().decode(all);
}

/** The JSON-RPC message answering `id`, from a JSON body or an SSE stream of them. */
function answerOf(text: string, contentType: string, id: number): Record<string, unknown> {
  const candidates: unknown[] = [];
  const parse = (s: string) => {
    try {
      candidates.push(JSON.parse(s));
    } catch {
      throw new McpFailure("the MCP server answered something that is not JSON-RPC");
    }
  };
  if (contentType.includes("text/event-stream")) {
    for (const event of text.split(/\r?\n\r?\n/)) {
      const data = event
        .split(/\r?\n/)
        .filter((l) => l.startsWith("data:"))
        .map((l) => l.slice(5).replace(/^ /, ""));
      if (data.length > 0) parse(data.join("\n"));
    }
  } else parse(text);
  const flat = candidates.flatMap((c) => (Array.isArray(c) ? c : [c]));
  const found = flat.find((m): m is Record<string, unknown> => typeof m === "object" && m !== null && (m as { id?: unknown }).id === id);
  if (found === undefined) throw new McpFailure("the MCP server answered something that is not JSON-RPC");
  return found;
}

/** One Streamable HTTP session with a server. */
class McpSession {
  private sessionId: string | undefined;
  private nextId = 1;
  private version: string | undefined;

  constructor(
    private readonly url: URL,
    private readonly headers: Record<string, string>,
    private readonly options: McpClientOptions,
  ) {}

  private async post(message: Record<string, unknown>): Promise<Response> {
    const headers = new Headers(this.headers);
    headers.set("content-type", "application/json");
    headers.set("accept", "application/json, text/event-stream");
    if (this.sessionId !== undefined) headers.set("mcp-session-id", this.sessionId);
    if (this.version !== undefined) headers.set("mcp-protocol-version", this.version);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), this.options.timeoutMs);
    // Redirects are not followed: they could lead to a host the deployment does not allow.
    const request = new Request(this.url, { method: "POST", headers, body: JSON.stringify(message), signal: controller.signal, redirect: "manual" });
    const local = this.options.local !== undefined && this.url.host.toLowerCase() === this.options.ownHost;
    const call = local ? this.options.local!(request) : fetch(request);
    const timeout = new Promise<never>((_, reject) => controller.signal.addEventListener("abort", () => reject(new McpFailure(`the MCP server did not answer within ${this.options.timeoutMs} ms`))));
    try {
      const response = await Promise.race([call, timeout]);
      // The body is read under the same bound.
      const text = await Promise.race([readBounded(response), timeout]);
      return new Response(text, { status: response.status, headers: response.headers });
    } catch (e) {
      if (e instanceof McpFailure) throw e;
      throw new McpFailure(`could not reach the MCP server at ${this.url.origin}: ${(e as Error).message}`);
    } finally {
      clearTimeout(timer);
      call.catch(() => {});
    }
  }

  async request(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    const response = await this.post({ jsonrpc: "2.0", id, method, params });
    if (response.status >= 300 && response.status < 400) throw new McpFailure(`the MCP server answered ${method} with a redirect (HTTP ${response.status}), which is not followed`);
    const text = await response.text();
    if (!response.ok && text === "") throw new McpFailure(`the MCP server answered HTTP ${response.status} to ${method}`);
    let answer: Record<string, unknown>;
    try {
      answer = answerOf(text, response.headers.get("content-type") ?? "", id);
    } catch (e) {
      if (!response.ok) throw new McpFailure(`the MCP server answered HTTP ${response.status} to ${method}`);
      throw e;
    }
    const session = response.headers.get("mcp-session-id");
    if (session !== null) this.sessionId = session;
    const error = answer.error as { message?: unknown; code?: unknown } | undefined;
    if (error !== undefined && error !== null)
      throw new McpFailure(`${method}: ${typeof error.message === "string" ? error.message : "JSON-RPC error"}${typeof error.code === "number" ? ` (${error.code})` : ""}`);
    const result = answer.result;
    if (typeof result !== "object" || result === null) throw new McpFailure(`the MCP server's answer to ${method} has no result`);
    return result as Record<string, unknown>;
  }

  async initialize(): Promise<void> {
    const result = await this.request("initialize", { protocolVersion: PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "mockllm", version: "1" } });
    this.version = typeof result.protocolVersion === "string" ? result.protocolVersion : PROTOCOL_VERSION;
    await this.post({ jsonrpc: "2.0", method: "notifications/initialized" });
  }
}

function listedTools(result: Record<string, unknown>): McpListedTool[] {
  const tools = Array.isArray(result.tools) ? result.tools : [];
  return tools.flatMap((t) => {
    if (typeof t !== "object" || t === null || typeof (t as { name?: unknown }).name !== "string") return [];
    const x = t as { name: string; description?: unknown; inputSchema?: unknown; annotations?: unknown };
    return [
      { name: x.name, description: typeof x.description === "string" ? x.description : null, inputSchema: x.inputSchema ?? { type: "object", properties: {} }, annotations: x.annotations ?? null },
    ];
  });
}

/** The text parts of a `tools/call` result, joined. */
function callText(result: Record<string, unknown>): string {
  const content = Array.isArray(result.content) ? result.content : [];
  return content
    .flatMap((c) => (typeof c === "object" && c !== null && (c as { type?: unknown }).type === "text" && typeof (c as { text?: unknown }).text === "string" ? [(c as { text: string }).text] : []))
    .join("");
}

/**
 * Lists the server's tools and calls one.
 * @example await callMcp({ url: "https://mcp.example/mcp", headers: {} }, "get_weather", { city: "Paris" }, options)
 */
export async function callMcp(server: McpServerRef, tool: string, args: Record<string, unknown>, options: McpClientOptions, listOnly = false): Promise<McpAnswer> {
  let url: URL;
  try {
    url = new URL(server.url);
  } catch {
    return { failed: `the MCP server URL "${server.url}" is not a valid URL` };
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return { failed: `the MCP server URL "${server.url}" is not http(s)` };
  if (!hostListed(url, options.allowed)) return { failed: `the MCP server host "${url.host}" is not allowed on this deployment (MCP_ALLOWED_HOSTS)` };
  const session = new McpSession(url, server.headers, options);
  let tools: McpListedTool[] | undefined;
  try {
    await session.initialize();
    tools = listedTools(await session.request("tools/list", {}));
    if (listOnly) return { tools, isError: false };
    const result = await session.request("tools/call", { name: tool, arguments: args });
    return { tools, result: callText(result), isError: result.isError === true };
  } catch (e) {
    const message = e instanceof McpFailure ? e.message : `the MCP client failed: ${(e as Error).message}`;
    return tools !== undefined ? { failed: message, tools } : { failed: message };
  }
}

/** Whether the reply has an `mcp` use the server must answer. */
function needsServer(use: ServerToolUse): boolean {
  return use.type === "mcp" && use.result === undefined && use.error === undefined;
}

/** Whether `outcome` has an unanswered `mcp` use for fillMcpResults to fill (a sync test: most turns have none). */
export function needsMcpResults<W>(surface: ProviderSurface<W>, outcome: Outcome): boolean {
  return outcome.kind === "reply" && surface.mcpServers !== undefined && outcome.reply.serverTools?.some(needsServer) === true;
}

/**
 * The outcome with every unanswered `mcp` use filled from its server (unchanged when there is none, or the surface
 * names no MCP servers). A use whose server the request does not name keeps its empty output.
 */
export async function fillMcpResults<W>(surface: ProviderSurface<W>, outcome: Outcome, wire: W, options: () => McpClientOptions): Promise<Outcome> {
  if (outcome.kind !== "reply") return outcome;
  const uses = outcome.reply.serverTools;
  if (uses === undefined || !uses.some(needsServer)) return outcome;
  const servers = resolveSurface(surface).mcpServers(wire);
  if (servers.length === 0) return outcome;
  const opts = options();
  const filled: ServerToolUse[] = [];
  for (const use of uses) {
    if (use.type !== "mcp" || !needsServer(use)) {
      filled.push(use);
      continue;
    }
    const server = servers.find((s) => s.label === use.server);
    if (server === undefined) {
      filled.push(use);
      continue;
    }
    const listOnly = server.listOnly?.(use.tool) === true;
    const answer = await callMcp(server, use.tool, use.arguments ?? {}, opts, listOnly);
    if ("failed" in answer) {
      filled.push({ ...use, error: answer.failed, ...(answer.tools !== undefined ? { listedTools: answer.tools } : { listError: answer.failed }) });
    } else {
      const text = answer.result;
      filled.push({ ...use, listedTools: answer.tools, ...(text === undefined ? {} : answer.isError ? { error: text } : { result: text }) });
    }
  }
  return { ...outcome, reply: { ...outcome.reply, serverTools: filled } };
}
