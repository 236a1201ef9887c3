/**
 * Server-side tools on the Messages API (`respond.serverTools`, contract section 11): `server_tool_use` blocks
 * (web_search, web_fetch, code_execution) each followed by its `*_tool_result` block, the MCP connector's
 * `mcp_tool_use` / `mcp_tool_result`, `web_search_result_location` citations on the text, and
 * `usage.server_tool_use`. OpenAI's file search and image generation have no Messages form and are not rendered.
 */
import type { Reply } from "../../canonical/outcome";
import { citations, webResults } from "../../canonical/server-tools";
import { makeId } from "../../http/ids";
import type { OutBlock } from "./blocks";
import type { McpServerRef } from "../types";

/** `retrieved_at` of a scripted fetch: fixed, so transcripts stay byte-identical. */
const RETRIEVED_AT = "2026-01-01T00:00:00.000000+00:00";

/** A citation on a text block, as the API sends it. */
export interface WebSearchCitation {
  type: "web_search_result_location";
  cited_text: string;
  encrypted_index: string;
  title: string;
  url: string;
}

/** The server tools a Messages request offers (`tools[].type` `web_search_2025…`, …; `mcp_servers`), each once. */
export function offeredServerTools(tools: Record<string, unknown>[] | undefined, mcpServers: unknown): string[] {
  const out = new Set<string>();
  for (const t of tools ?? []) {
    const type = typeof t.type === "string" ? t.type : "";
    for (const kind of ["web_search", "web_fetch", "code_execution"]) if (type.startsWith(`${kind}_`)) out.add(kind);
    if (type.startsWith("bash_code_execution") || type.startsWith("text_editor_code_execution")) out.add("code_execution");
    if (type === "mcp_toolset") out.add("mcp");
  }
  if (Array.isArray(mcpServers) && mcpServers.length > 0) out.add("mcp");
  return [...out];
}

function encrypted(kind: string, seed: string, length: number): string {
  return makeId("Eu", `${kind}|${seed}`, length);
}

/** The blocks of the reply's server tools, in order: each use, then its result. */
export function serverToolBlocks(reply: Reply): OutBlock[] {
  const blocks: OutBlock[] = [];
  (reply.serverTools ?? []).forEach((use, i) => {
    const seed = `${reply.idSeed}#server${i}`;
    const id = makeId(use.type === "mcp" ? "mcptoolu_01" : "srvtoolu_01", seed, 22);
    const serverUse = (name: string, input: Record<string, unknown>): OutBlock => ({ type: "server_tool_use", id, name, input, json: JSON.stringify(input) });
    switch (use.type) {
      case "web_search":
        blocks.push(serverUse("web_search", { query: use.query }));
        blocks.push({
          type: "server_result",
          block: {
            type: "web_search_tool_result",
            tool_use_id: id,
            content: (use.results ?? []).map((r) => ({ type: "web_search_result", title: r.title, url: r.url, encrypted_content: encrypted("result", `${seed}|${r.url}`, 120), page_age: null })),
          },
        });
        break;
      case "web_fetch":
        blocks.push(serverUse("web_fetch", { url: use.url }));
        blocks.push({
          type: "server_result",
          block: {
            type: "web_fetch_tool_result",
            tool_use_id: id,
            content: {
              type: "web_fetch_result",
              url: use.url,
              content: { type: "document", source: { type: "text", media_type: "text/plain", data: use.content ?? "" }, title: use.title ?? null, citations: null },
              retrieved_at: RETRIEVED_AT,
            },
          },
        });
        break;
      case "code_execution": {
        // The tool's later versions run bash commands (module/code-execution.ts says which the request offered).
        const kind = use.container?.form === "bash" ? "bash_code_execution" : "code_execution";
        const outputs = (use.container?.files ?? []).map((f) => ({ type: `${kind}_output`, file_id: f.fileId }));
        blocks.push(serverUse(kind, kind === "bash_code_execution" ? { command: use.code } : { code: use.code }));
        blocks.push({
          type: "server_result",
          block: {
            type: `${kind}_tool_result`,
            tool_use_id: id,
            content: { type: `${kind}_result`, stdout: use.output ?? "", stderr: use.error ?? "", return_code: use.returnCode ?? 0, content: outputs },
          },
        });
        break;
      }
      case "mcp": {
        const input = use.arguments ?? {};
        blocks.push({ type: "mcp_tool_use", id, name: use.tool, server_name: use.server, input, json: JSON.stringify(input) });
        blocks.push({
          type: "server_result",
          block: { type: "mcp_tool_result", tool_use_id: id, is_error: use.error !== undefined, content: [{ type: "text", text: use.error ?? use.result ?? "" }] },
        });
        break;
      }
      default:
        // file_search, image_generation: the Messages API has no such server tool.
        break;
    }
  });
  return blocks;
}

/** The citations of the reply's text (none without web search results): its `[n]` markers, else every result. */
export function textCitations(reply: Reply, text: string): WebSearchCitation[] | undefined {
  const found = citations(text, webResults(reply.serverTools));
  if (found.length === 0) return undefined;
  return found.map((c) => ({
    type: "web_search_result_location",
    cited_text: c.result.snippet ?? c.result.title,
    encrypted_index: encrypted("index", `${reply.idSeed}|${c.result.url}|${c.start}`, 40),
    title: c.result.title,
    url: c.result.url,
  }));
}

/**
 * The message's `container` (`{ id, expires_at, skills }`) when the request loaded skills into one or code ran in one;
 * absent otherwise, as the API leaves it out.
 */
export function containerField(reply: Reply): { container: { id: string; expires_at: string; skills: { type: string; skill_id: string; version: string }[] | null } } | Record<string, never> {
  const box = reply.container;
  if (box !== undefined) return { container: { id: box.id, expires_at: box.expiresAt, skills: box.skills.map((s) => ({ type: s.type, skill_id: s.skillId, version: s.version })) } };
  for (const use of reply.serverTools ?? []) {
    if (use.type === "code_execution" && use.container?.expiresAt !== undefined) return { container: { id: use.container.id, expires_at: use.container.expiresAt, skills: null } };
  }
  return {};
}

/** `usage.server_tool_use`: the searches and fetches the reply made; absent when it made none. */
export function serverToolUsage(reply: Reply): { server_tool_use: { web_search_requests: number; web_fetch_requests: number } } | Record<string, never> {
  const uses = reply.serverTools ?? [];
  const search = uses.filter((u) => u.type === "web_search").length;
  const fetch = uses.filter((u) => u.type === "web_fetch").length;
  return search + fetch > 0 ? { server_tool_use: { web_search_requests: search, web_fetch_requests: fetch } } : {};
}

/** The server tool a `tool_choice: { type: "tool", name }` forces, when `name` is a server tool's (`web_search`, …). */
export function forcedServerTool(choice: unknown, tools: Record<string, unknown>[] | undefined): string | undefined {
  if (choice === null || typeof choice !== "object") return undefined;
  const c = choice as { type?: unknown; name?: unknown };
  if (c.type !== "tool" || typeof c.name !== "string") return undefined;
  const tool = (tools ?? []).find((t) => t.name === c.name);
  return tool === undefined ? undefined : offeredServerTools([tool], undefined)[0];
}

/** The request's `mcp_servers` (`type: "url"`): `name`, `url`, `authorization_token`. */
export function messagesMcpServers(mcpServers: unknown): McpServerRef[] {
  if (!Array.isArray(mcpServers)) return [];
  return mcpServers.flatMap((s) => {
    const x = s as { name?: unknown; url?: unknown; authorization_token?: unknown };
    if (typeof x !== "object" || x === null || typeof x.name !== "string" || typeof x.url !== "string") return [];
    const headers: Record<string, string> = typeof x.authorization_token === "string" ? { authorization: `Bearer ${x.authorization_token}` } : {};
    return [{ label: x.name, url: x.url, headers }];
  });
}
