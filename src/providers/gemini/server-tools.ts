/**
 * Server-side tools on generateContent (`respond.serverTools`, contract section 11): a code run as
 * `executableCode` + `codeExecutionResult` (+ an `inlineData` part per picture it saved) parts before the text; web searches as the candidate's
 * `groundingMetadata` (queries, `groundingChunks`, `groundingSupports` on the text, `searchEntryPoint`); fetched
 * pages as `urlContextMetadata`. Gemini has no file search, image generation or MCP server tool: those are not rendered.
 */
import type { Reply } from "../../canonical/outcome";
import { citations, codeFileBytes, pictureType, webResults } from "../../canonical/server-tools";
import { base64 } from "../../util/base64";

/** The server tools a Gemini request offers (`tools[].googleSearch`, `urlContext`, `codeExecution`), each once. */
export function offeredServerTools(tools: Record<string, unknown>[] | undefined): string[] {
  const out = new Set<string>();
  for (const t of tools ?? []) {
    if (t.googleSearch !== undefined || t.googleSearchRetrieval !== undefined) out.add("web_search");
    if (t.urlContext !== undefined) out.add("web_fetch");
    if (t.codeExecution !== undefined) out.add("code_execution");
  }
  return [...out];
}

/** The code parts of the reply's code runs, in order: `executableCode`, its `codeExecutionResult`, then the pictures it saved (`inlineData`). */
export function codeParts(reply: Reply): Record<string, unknown>[] {
  return (reply.serverTools ?? []).flatMap((u) =>
    u.type === "code_execution"
      ? [
          { executableCode: { language: "PYTHON", code: u.code } },
          {
            codeExecutionResult: { outcome: (u.returnCode ?? 0) === 0 && u.error === undefined ? "OUTCOME_OK" : "OUTCOME_FAILED", output: [u.output, u.error].filter((s) => s !== undefined).join("") },
          },
          // The pictures the run saved (a chart), each an inline part after the result, as the API sends them.
          ...(u.files ?? []).flatMap((f) => {
            const mimeType = pictureType(f.name);
            return mimeType === undefined ? [] : [{ inlineData: { mimeType, data: base64(codeFileBytes(f)) } }];
          }),
        ]
      : [],
  );
}

const utf8 = new TextEncoder();
const bytes = (s: string) => utf8.encode(s).length;

/** The search widget's HTML, as `searchEntryPoint.renderedContent` carries it: one chip per query. */
function renderedContent(queries: string[]): string {
  const chips = queries.map((q) => `<a class="chip" href="https://www.google.com/search?q=${encodeURIComponent(q)}">${q.replace(/[<>&"]/g, "")}</a>`).join("");
  return `<style>.container{display:flex}.chip{margin:4px}</style><div class="container"><div class="carousel">${chips}</div></div>`;
}

/**
 * The candidate's metadata: `groundingMetadata` when the reply searched the web, `urlContextMetadata` when it
 * fetched pages. Supports cover the text up to each `[n]` marker (byte offsets, as the API counts), citing result
 * n; without markers one support covers the whole text, citing every result.
 */
export function candidateMetadata(reply: Reply): Record<string, unknown> {
  const uses = reply.serverTools ?? [];
  const out: Record<string, unknown> = {};
  const queries = uses.flatMap((u) => (u.type === "web_search" ? [u.query] : []));
  if (queries.length > 0) {
    const results = webResults(uses);
    const text = reply.text ?? "";
    let from = 0;
    const supports = citations(text, results).map((c) => {
      const start = c.start === c.end ? 0 : from;
      const segment = text.slice(start, c.end).replace(/^[\s,;:.!?]+/, "");
      const startIndex = bytes(text.slice(0, c.end)) - bytes(segment);
      from = c.end;
      return { segment: { startIndex, endIndex: bytes(text.slice(0, c.end)), text: segment }, groundingChunkIndices: [results.indexOf(c.result)] };
    });
    // Without markers every citation spans the whole text: one support citing them all.
    const merged =
      supports.length > 0 && supports.every((s) => s.segment.endIndex === bytes(text)) && !/\[\d+\]/.test(text) ? [{ ...supports[0]!, groundingChunkIndices: results.map((_, i) => i) }] : supports;
    out.groundingMetadata = {
      searchEntryPoint: { renderedContent: renderedContent(queries) },
      groundingChunks: results.map((r) => ({ web: { uri: r.url, title: r.title } })),
      groundingSupports: merged,
      webSearchQueries: queries,
    };
  }
  const fetched = uses.flatMap((u) => (u.type === "web_fetch" ? [u.url] : []));
  if (fetched.length > 0) out.urlContextMetadata = { urlMetadata: fetched.map((retrievedUrl) => ({ retrievedUrl, urlRetrievalStatus: "URL_RETRIEVAL_STATUS_SUCCESS" })) };
  return out;
}
