/**
 * Chat Completions' web search (the search models, `web_search_options`; contract section 11): the reply's
 * `web_search` results as the message's `url_citation` annotations — on its `[n]` markers, else at the end.
 */
import type { Reply } from "../../../canonical/outcome";
import { citations, webResults } from "../../../canonical/server-tools";

export interface ChatUrlCitation {
  type: "url_citation";
  url_citation: { end_index: number; start_index: number; title: string; url: string };
}

/** The message's annotations: the citations of its text, none without web search results. */
export function chatAnnotations(reply: Reply): ChatUrlCitation[] {
  if (reply.serverTools === undefined || reply.text === undefined) return [];
  return citations(reply.text, webResults(reply.serverTools)).map((c) => ({
    type: "url_citation",
    url_citation: { end_index: c.end, start_index: c.start, title: c.result.title, url: c.result.url },
  }));
}

/** A request with `web_search_options` offers web search (matcher `serverTool: "web_search"`). */
export function offeredServerTools(body: Record<string, unknown>): string[] {
  return body.web_search_options !== undefined && body.web_search_options !== null ? ["web_search"] : [];
}
