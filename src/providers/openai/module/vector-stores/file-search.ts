/**
 * The Responses `file_search` tool over the namespace's vector stores: a `file_search` use the session or the default
 * responder decided without `results` is completed here, after the decision and before rendering (the search reads
 * the object store, so it cannot run in the pure engine), by searching the request's `vector_store_ids` for its query.
 * The OpenAI module (module/index.ts) sets it as the Responses surface's `complete` hook.
 */
import type { Reply } from "../../../../canonical/outcome";
import { lastUserMessage, type CanonicalRequest } from "../../../../canonical/request";
import { queryOf } from "../../../../default/server-tools";
import type { ServerToolUse } from "../../../../canonical/server-tools";
import type { ApiError } from "../../../../http/errors";
import type { Runtime } from "../../../../runtime/types";
import { checkFilter } from "./search";
import { invalid } from "../../platform";
import { loadStore, noStore, searchStores } from "./routes";
import type { ResponsesRequest } from "../../responses/wire";

/** Results per search when the tool sets no `max_num_results` (the API's default for file search). */
const DEFAULT_RESULTS = 10;

interface FileSearchTool {
  ids: string[];
  maxResults: number;
  filters?: unknown;
}

/** The request's `file_search` tool, checked: its store ids, result count and filters; an error for a bad one. */
function fileSearchTool(wire: ResponsesRequest): FileSearchTool | ApiError | undefined {
  const at = (wire.body.tools ?? []).findIndex((t) => t.type === "file_search");
  if (at < 0) return undefined;
  const t = (wire.body.tools ?? [])[at] as Record<string, unknown>;
  const ids = t.vector_store_ids;
  if (!Array.isArray(ids) || !ids.every((id) => typeof id === "string")) {
    return invalid(
      ids === undefined ? `Missing required parameter: 'tools[${at}].vector_store_ids'.` : `Invalid type for 'tools[${at}].vector_store_ids': expected an array of strings.`,
      `tools[${at}].vector_store_ids`,
    );
  }
  const max = t.max_num_results ?? DEFAULT_RESULTS;
  if (typeof max !== "number" || !Number.isInteger(max) || max < 1 || max > 50) {
    return invalid(`Invalid 'tools[${at}].max_num_results': expected an integer between 1 and 50.`, `tools[${at}].max_num_results`);
  }
  if (t.filters !== undefined && t.filters !== null) {
    const bad = checkFilter(t.filters, `tools[${at}].filters`);
    if (bad) return invalid(bad, `tools[${at}].filters`);
  }
  return { ids: ids as string[], maxResults: max, ...(t.filters ? { filters: t.filters } : {}) };
}

function isError(v: FileSearchTool | ApiError): v is ApiError {
  return "code" in v;
}

/**
 * Fills each `file_search` use of the reply that has no `results` with the search of the request's vector stores
 * (in the caller's namespace) for its query (default: the last user message, as the default responder words it); a
 * store id the namespace does not hold is the API's 404.
 * @example await completeFileSearch(wire, reply, rt) // reply.serverTools[0].results: [{ fileId: "file-…", filename: "notes.txt", … }]
 */
export async function completeFileSearch(wire: ResponsesRequest, request: CanonicalRequest, reply: Reply, rt: Runtime): Promise<Reply | ApiError> {
  const uses = reply.serverTools;
  if (uses === undefined || !uses.some((u) => u.type === "file_search" && (u.results === undefined || u.query === undefined))) return reply;
  const fallback = queryOf(lastUserMessage(request) ?? "");
  const queried = uses.map((u) => (u.type === "file_search" && u.query === undefined ? { ...u, query: fallback } : u));
  const tool = fileSearchTool(wire);
  if (tool === undefined) return { ...reply, serverTools: queried };
  if (isError(tool)) return tool;
  for (const id of tool.ids) if ((await loadStore(rt, id)) === undefined) return noStore(id);
  const completed: ServerToolUse[] = [];
  for (const use of queried) {
    if (use.type !== "file_search" || use.results !== undefined) {
      completed.push(use);
      continue;
    }
    const found = await searchStores(rt, tool.ids, {
      queries: [use.query ?? fallback],
      maxResults: tool.maxResults,
      scoreThreshold: 0,
      ...(tool.filters !== undefined ? { filters: tool.filters } : {}),
    });
    completed.push({
      ...use,
      results: found.map((r) => ({ fileId: r.file_id, filename: r.filename, score: r.score, text: r.content.map((c) => c.text).join("\n"), attributes: r.attributes })),
    });
  }
  return { ...reply, serverTools: completed };
}
