/**
 * The default responder's answer to a tool choice that forces a server-side tool (OpenAI `tool_choice:
 * { type: "web_search" }`, Anthropic `tool_choice: { type: "tool", name: "web_search" }`): a plausible,
 * deterministic use of it — a search with example.com results cited in the text, a code run echoing the message,
 * a fetch of the URL the message names — and a short text about it.
 */
import type { ServerToolUse } from "../canonical/server-tools";

export interface DefaultServerUse {
  serverTools: ServerToolUse[];
  text: string;
}

/** The message cut to one line of at most 100 characters (the default query). */
export function queryOf(message: string): string {
  const line = message.replace(/\s+/g, " ").trim().slice(0, 100);
  return line === "" ? "example" : line;
}

function slug(s: string): string {
  return (
    s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 48) || "example"
  );
}

/**
 * The default use of server tool `kind` (a matcher name: `web_search`, `code_execution`, …) for `message`;
 * undefined for a tool it cannot script (`mcp`: the server's tools are unknown).
 * @example defaultServerUse("web_search", "paris weather")?.serverTools[0] // { type: "web_search", query: "paris weather", results: [ … ] }
 */
export function defaultServerUse(kind: string, message: string): DefaultServerUse | undefined {
  const query = queryOf(message);
  switch (kind) {
    case "web_search":
      return {
        serverTools: [
          {
            type: "web_search",
            query,
            results: [
              { url: `https://example.com/${slug(query)}`, title: `Example: ${query}`, snippet: `What example.com says about ${query}.` },
              { url: `https://example.org/${slug(query)}`, title: `Example Org: ${query}`, snippet: `More on ${query} from example.org.` },
            ],
          },
        ],
        text: `Example.com covers ${query} [1], and example.org adds more [2].`,
      };
    case "web_fetch": {
      const url = /https?:\/\/[^\s"'<>)]+/.exec(message)?.[0] ?? "https://example.com/";
      return { serverTools: [{ type: "web_fetch", url, title: "Example Domain", content: "This domain is for use in documentation examples." }], text: `I read ${url}.` };
    }
    case "code_execution":
      return { serverTools: [{ type: "code_execution", code: `print(${JSON.stringify(query)})`, output: `${query}\n` }], text: `The code printed: ${query}` };
    case "file_search":
      // No results: the provider searches the request's stores (OpenAI Responses: `vector_store_ids`) for the query.
      return { serverTools: [{ type: "file_search", query }], text: `The files say: a passage about ${query}.` };
    case "image_generation":
      return { serverTools: [{ type: "image_generation", prompt: query }], text: "Here is the image." };
    default:
      return undefined;
  }
}
