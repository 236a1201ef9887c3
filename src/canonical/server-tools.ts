/**
 * Server-side tool uses on a reply (`respond.serverTools`), provider-neutral, and the citations their text carries.
 */
import type { ServerToolEntry } from "../scenario/server-tools-schema";
import { fromBase64 } from "../util/base64";
import { stableHash } from "../util/hash";
import { encodePng } from "../util/png";

/** A tool an MCP server listed (`tools/list`), for the provider's `mcp_list_tools`. */
export interface McpListedTool {
  name: string;
  description: string | null;
  inputSchema: unknown;
  annotations: unknown;
}

/**
 * The container a `code_execution` use ran in and the files its code wrote there (OpenAI Responses' Code Interpreter,
 * Anthropic's code execution tool).
 */
export interface ContainerUse {
  id: string;
  files: { fileId: string; name: string; path: string }[];
  /** Anthropic: when the container expires (ISO 8601), and whether the tool runs bash commands or Python code. */
  expiresAt?: string;
  form?: "bash" | "python";
}

/**
 * A scripted use; an `mcp` use answered by a remote server (src/turn/mcp-client.ts) also carries what the server
 * listed, or why listing failed; a `code_execution` use on OpenAI Responses, the container it ran in.
 */
export type ServerToolUse = ServerToolEntry & { listedTools?: McpListedTool[]; listError?: string; container?: ContainerUse };
export type { ServerToolKind } from "../scenario/server-tools-schema";

/** A file a `code_execution` use's code wrote, as scripted, with where it sits in the reply. */
export interface WrittenFile {
  name: string;
  /** Its bytes (the scripted text, UTF-8). */
  bytes: Uint8Array;
  /** The use's index among the reply's server tools and the file's among the use's, for ids derived from the reply. */
  use: number;
  index: number;
}

const encoder = new TextEncoder();

/** A scripted file a `code_execution` use wrote. */
type CodeFile = NonNullable<Extract<ServerToolEntry, { type: "code_execution" }>["files"]>[number];

const PICTURES: Record<string, string> = { png: "image/png", jpg: "image/jpeg", jpeg: "image/jpeg", gif: "image/gif", webp: "image/webp" };

/**
 * The media type of a picture a code run wrote, by its name's extension; undefined for any other file.
 * @example pictureType("chart.PNG") // "image/png"
 */
export function pictureType(name: string): string | undefined {
  const ext = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase();
  return ext === undefined || !Object.hasOwn(PICTURES, ext) ? undefined : PICTURES[ext];
}

/**
 * A scripted file's bytes: its `contentBase64` decoded, its `content` as UTF-8, or — a `.png` given neither — a
 * 640×480 picture in one colour (from the name's hash), as a chart a run saved would be.
 * @example codeFileBytes({ name: "a.txt", content: "hi" }) // Uint8Array [104, 105]
 */
export function codeFileBytes(f: CodeFile): Uint8Array {
  if (f.contentBase64 !== undefined) return fromBase64(f.contentBase64) ?? new Uint8Array(0);
  if (f.content === undefined && pictureType(f.name) === "image/png") {
    const n = stableHash(`picture|${f.name}`);
    return encodePng(640, 480, { r: (n >> 16) & 0xff, g: (n >> 8) & 0xff, b: n & 0xff });
  }
  return encoder.encode(f.content ?? "");
}

/**
 * The uses with each `code_execution` use run in a container: `write` keeps each scripted file (a provider's file
 * store) and answers its entry, `container` names the container around the files.
 * @example await runCodeUses(uses, async (f) => ({ fileId: "f1", name: f.name, path: f.name }), (files) => ({ id: "c1", files }))
 */
export async function runCodeUses(
  uses: ServerToolUse[],
  write: (file: WrittenFile) => Promise<ContainerUse["files"][number]>,
  container: (files: ContainerUse["files"]) => ContainerUse,
): Promise<ServerToolUse[]> {
  const ran: ServerToolUse[] = [];
  for (const [i, use] of uses.entries()) {
    if (use.type !== "code_execution") {
      ran.push(use);
      continue;
    }
    const files: ContainerUse["files"] = [];
    for (const [j, f] of (use.files ?? []).entries()) files.push(await write({ name: f.name, bytes: codeFileBytes(f), use: i, index: j }));
    ran.push({ ...use, container: container(files) });
  }
  return ran;
}

export interface WebResult {
  url: string;
  title: string;
  snippet?: string;
}

/** A citation on the reply's text: the `[n]` marker's span (or the end of the text), citing a search result. */
export interface Citation {
  start: number;
  end: number;
  result: WebResult;
}

/** Every web search result of the reply, in order. */
export function webResults(uses: ServerToolUse[] | undefined): WebResult[] {
  return (uses ?? []).flatMap((u) => (u.type === "web_search" ? (u.results ?? []) : []));
}

/**
 * The citations of a text: each `[n]` marker (1-based) naming a result cites it, spanning the marker; a text with
 * no such marker cites every result at its end (start = end = its length).
 * @example citations("Sunny [1].", [{ url: "u", title: "t" }]) // [{ start: 6, end: 9, result: { url: "u", title: "t" } }]
 */
export function citations(text: string, results: WebResult[]): Citation[] {
  if (results.length === 0) return [];
  const out: Citation[] = [];
  for (const m of text.matchAll(/\[(\d+)\]/g)) {
    const result = results[Number(m[1]) - 1];
    if (result !== undefined && m.index !== undefined) out.push({ start: m.index, end: m.index + m[0].length, result });
  }
  if (out.length > 0) return out;
  return results.map((result) => ({ start: text.length, end: text.length, result }));
}
