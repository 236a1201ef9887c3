/**
 * Server-side tools' shared pieces: citations on `[n]` markers (or the text's end), and the offered tools each
 * provider's request names.
 */
import { describe, expect, it } from "vitest";
import { citations, webResults } from "../../src/canonical/server-tools";
import { offeredServerTools as anthropicOffered } from "../../src/providers/anthropic/server-tools";
import { offeredServerTools as geminiOffered } from "../../src/providers/gemini/server-tools";
import { forcedServerTool, offeredServerTools as openaiOffered } from "../../src/providers/openai/responses/server-tools";
import { defaultServerUse } from "../../src/default/server-tools";

const A = { url: "https://a.example", title: "A" };
const B = { url: "https://b.example", title: "B" };

describe("citations", () => {
  it("cite the n-th result on each [n] marker, ignoring markers past the results", () => {
    expect(citations("x [2] y [1] z [3]", [A, B])).toEqual([
      { start: 2, end: 5, result: B },
      { start: 8, end: 11, result: A },
    ]);
  });
  it("without markers, cite every result at the end; without results, nothing", () => {
    expect(citations("abc", [A, B])).toEqual([
      { start: 3, end: 3, result: A },
      { start: 3, end: 3, result: B },
    ]);
    expect(citations("abc [1]", [])).toEqual([]);
  });
  it("number results across searches, in order", () => {
    expect(
      webResults([
        { type: "web_search", query: "q", results: [A] },
        { type: "code_execution", code: "" },
        { type: "web_search", query: "r", results: [B] },
      ]),
    ).toEqual([A, B]);
  });
});

describe("offered server tools", () => {
  it("OpenAI Responses tools[].type and tool_choice", () => {
    expect(openaiOffered([{ type: "function" }, { type: "web_search_preview" }, { type: "web_search" }, { type: "code_interpreter" }, { type: "mcp" }])).toEqual([
      "web_search",
      "code_execution",
      "mcp",
    ]);
    expect(forcedServerTool({ type: "file_search" })).toBe("file_search");
    expect(forcedServerTool("required")).toBeUndefined();
    // A type naming a property of every object names no tool.
    expect(openaiOffered([{ type: "constructor" }, { type: "toString" }, { type: "__proto__" }])).toEqual([]);
    expect(forcedServerTool({ type: "constructor" })).toBeUndefined();
  });
  it("Anthropic versioned tool types and mcp_servers", () => {
    expect(
      anthropicOffered([{ type: "web_search_20250305", name: "web_search" }, { type: "web_fetch_20250910" }, { type: "bash_code_execution_20250825" }, { name: "get_weather" }], [{ url: "u" }]),
    ).toEqual(["web_search", "web_fetch", "code_execution", "mcp"]);
    expect(anthropicOffered(undefined, [])).toEqual([]);
  });
  it("Gemini googleSearch, urlContext, codeExecution", () => {
    expect(geminiOffered([{ googleSearch: {} }, { urlContext: {} }, { codeExecution: {} }, { functionDeclarations: [] }])).toEqual(["web_search", "web_fetch", "code_execution"]);
  });
});

describe("the default responder's server-tool uses", () => {
  it("are deterministic", () => {
    expect(defaultServerUse("code_execution", "  hi   there ")).toEqual({
      serverTools: [{ type: "code_execution", code: 'print("hi there")', output: "hi there\n" }],
      text: "The code printed: hi there",
    });
    expect(defaultServerUse("web_fetch", "read https://example.net/page please")?.serverTools[0]).toMatchObject({ type: "web_fetch", url: "https://example.net/page" });
    expect(defaultServerUse("mcp", "x")).toBeUndefined();
  });
});
