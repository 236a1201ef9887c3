/**
 * Server-side tools' shared pieces: citations on `[n]` markers (or the text's end), OpenAI's container file citations
 * and containers' store, and the offered tools each provider's request names.
 */
import { describe, expect, it } from "vitest";
import { citations, codeFileBytes, pictureType, webResults } from "../../src/canonical/server-tools";
import { ScenarioSchema } from "../../src/scenario/schema";
import { offeredServerTools as anthropicOffered } from "../../src/providers/anthropic/server-tools";
import { offeredServerTools as geminiOffered } from "../../src/providers/gemini/server-tools";
import { forcedServerTool, offeredServerTools as openaiOffered } from "../../src/providers/openai/responses/server-tools";
import { defaultServerUse } from "../../src/default/server-tools";
import { containerCitations, textAnnotations } from "../../src/providers/openai/responses/server-tools";
import { containerExpired, ContainerStore } from "../../src/providers/openai/module/containers/store";
import { MemoryObjectStore } from "../../src/objects/store";
import type { Reply } from "../../src/canonical/outcome";

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

describe("container file citations (OpenAI Responses)", () => {
  const reply = (files: { fileId: string; name: string; path: string }[]) =>
    ({ idSeed: "s", serverTools: [{ type: "code_execution", code: "", container: { id: "cntr_1", files } }] }) as unknown as Reply;
  const file = (name: string) => ({ fileId: `cfile_${name}`, name, path: `/mnt/data/${name}` });

  it("span the file's sandbox link, else its bare path, else sit at the text's end", () => {
    const text = "See [a](sandbox:/mnt/data/a.csv), /mnt/data/b.png and more.";
    expect(containerCitations(reply([file("a.csv"), file("b.png"), file("c.txt")]), text)).toEqual([
      { type: "container_file_citation", container_id: "cntr_1", end_index: 31, file_id: "cfile_a.csv", filename: "a.csv", start_index: 8 },
      { type: "container_file_citation", container_id: "cntr_1", end_index: 49, file_id: "cfile_b.png", filename: "b.png", start_index: 34 },
      { type: "container_file_citation", container_id: "cntr_1", end_index: text.length, file_id: "cfile_c.txt", filename: "c.txt", start_index: text.length },
    ]);
    expect(text.slice(8, 31)).toBe("sandbox:/mnt/data/a.csv");
    expect(text.slice(34, 49)).toBe("/mnt/data/b.png");
  });

  it("come after web and file citations; a reply without server tools has none", () => {
    expect(textAnnotations({ idSeed: "s" } as Reply, "x")).toEqual([]);
    const mixed = {
      idSeed: "s",
      serverTools: [
        { type: "web_search", query: "q", results: [A] },
        { type: "code_execution", code: "", container: { id: "cntr_1", files: [file("a")] } },
      ],
    } as unknown as Reply;
    expect(textAnnotations(mixed, "t [1]").map((a) => a.type)).toEqual(["url_citation", "container_file_citation"]);
  });
});

describe("containers' store", () => {
  it("lists in creation order; an expired container keeps its record and loses its files", async () => {
    let now = 1_000_000_000;
    const store = new ContainerStore(new MemoryObjectStore(), () => now);
    const rec = (id: string, stamp: number) => ({ id, createdAt: 1_000_000, stamp, lastActiveAt: 1_000_000, minutes: 20, name: id, memoryLimit: "1g" });
    await store.create(rec("cntr_b", 2));
    await store.create(rec("cntr_a", 1));
    expect((await store.all()).map((r) => r.id)).toEqual(["cntr_a", "cntr_b"]);
    await store.putFile({ id: "cfile_1", containerId: "cntr_a", createdAt: 1_000_000, stamp: 3, bytes: 2, path: "/mnt/data/x", source: "user" }, new Uint8Array(2));
    expect((await store.files("cntr_a")).map((f) => f.id)).toEqual(["cfile_1"]);
    expect(containerExpired(rec("cntr_a", 1), 1_000_000 + 20 * 60 - 1)).toBe(false);
    now = (1_000_000 + 20 * 60) * 1000;
    expect(containerExpired((await store.get("cntr_a"))!, now / 1000)).toBe(true);
    expect(await store.files("cntr_a")).toEqual([]);
    await store.delete("cntr_b");
    expect((await store.all()).map((r) => r.id)).toEqual(["cntr_a"]);
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

describe("a code run's files", () => {
  it("are their base64 bytes, their text, or (a .png given neither) a 640×480 picture of one colour from the name", () => {
    expect([...codeFileBytes({ name: "a.bin", contentBase64: "AP8=" })]).toEqual([0, 255]);
    expect(new TextDecoder().decode(codeFileBytes({ name: "a.txt", content: "héllo" }))).toBe("héllo");
    expect(codeFileBytes({ name: "empty.csv" })).toEqual(new Uint8Array(0));
    const png = codeFileBytes({ name: "chart.png" });
    const view = new DataView(png.buffer, png.byteOffset);
    expect([[...png.subarray(1, 4)].map((c) => String.fromCharCode(c)).join(""), view.getUint32(16), view.getUint32(20)]).toEqual(["PNG", 640, 480]);
    expect(codeFileBytes({ name: "chart.png" })).toEqual(png);
    expect(codeFileBytes({ name: "other.png" })).not.toEqual(png);
    expect(new TextDecoder().decode(codeFileBytes({ name: "notes.png", content: "not a picture" }))).toBe("not a picture");
  });

  it("are pictures by their extension", () => {
    expect(["a.PNG", "b.jpg", "c.jpeg", "d.gif", "e.webp", "f.svg", "g", "h.constructor"].map(pictureType)).toEqual([
      "image/png",
      "image/jpeg",
      "image/jpeg",
      "image/gif",
      "image/webp",
      undefined,
      undefined,
      undefined,
    ]);
  });

  it("take content or contentBase64, not both, and only standard base64", () => {
    const doc = (file: Record<string, unknown>) =>
      ScenarioSchema.safeParse({ name: "f", steps: [{ respond: { serverTools: [{ type: "code_execution", code: "x", files: [{ name: "a.png", ...file }] }] } }] });
    expect(doc({ contentBase64: "AP8=" }).success).toBe(true);
    expect(doc({ content: "x", contentBase64: "AP8=" }).error?.issues[0]?.message).toBe("give a file's content or its contentBase64, not both");
    expect(doc({ contentBase64: "AP8_" }).error?.issues[0]?.message).toBe("contentBase64 must be standard base64");
  });
});
