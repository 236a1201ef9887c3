// The provider registry (issue 30): one module per provider declares what it adds; the closed lists in
// src/canonical/request.ts and the record schema's upstream keys agree with it, and the tables derived from it keep
// the precedence the hand-kept ones had.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { ENDPOINTS, PROVIDERS } from "../../src/canonical/request";
import { moduleEndpoints, type ProviderModule } from "../../src/providers/registry/module";
import { errorSurfaceFor, PROVIDER_MODULES, RECORDABLE, SIDE_ROUTES, SOCKETS, socketFor, SURFACES, wireToolCallIds } from "../../src/providers/registry";
import { anthropicMessages } from "../../src/providers/anthropic";
import { bedrockConverse } from "../../src/providers/bedrock";
import { geminiGenerateContent } from "../../src/providers/gemini";
import { ollamaChat } from "../../src/providers/ollama";
import { openaiChat } from "../../src/providers/openai/chat";
import { openaiEmbeddings } from "../../src/providers/openai/embeddings";
import { splitPrefix } from "../../src/router";
import { resolveReply } from "../../src/scenario/engine";
import { RecordSchema } from "../../src/scenario/schema";
import { req } from "./fixtures";

describe("provider registry", () => {
  it("every module's name and endpoints are in canonical/request.ts's lists, and every listed name is served", () => {
    const names = PROVIDER_MODULES.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(PROVIDERS).toContain(name);
    const served = new Set(PROVIDER_MODULES.flatMap(moduleEndpoints));
    for (const endpoint of served) expect(ENDPOINTS).toContain(endpoint);
    expect(PROVIDERS.filter((p) => !names.includes(p))).toEqual([]);
    expect(ENDPOINTS.filter((e) => !served.has(e))).toEqual([]);
  });

  it("a module's surfaces are its own provider's, and SURFACES is every module's surfaces in registry order", () => {
    for (const m of PROVIDER_MODULES) for (const s of m.surfaces) expect(s.provider).toBe(m.name);
    expect(SURFACES.slice(0, 4)).toEqual([openaiChat, expect.anything(), expect.anything(), openaiEmbeddings]);
    expect(SURFACES.map((s) => `${s.provider} ${s.endpoint}`)).toEqual([
      "openai chat.completions",
      "openai responses",
      "openai responses",
      "openai embeddings",
      "openai completions",
      "openai images",
      "openai speech",
      "openai transcriptions",
      "openai moderations",
      "openai decisions",
      "anthropic messages",
      "gemini generateContent",
      "gemini interactions",
      "gemini embeddings",
      "gemini images",
      "gemini decisions",
      "ollama chat",
      "ollama generate",
      "bedrock converse",
      "bedrock messages",
      "vertex generateContent",
      "vertex messages",
      "vertex embeddings",
      "vertex images",
      "azure chat.completions",
      "azure responses",
      "azure embeddings",
      "azure completions",
      "azure images",
      "azure speech",
      "azure transcriptions",
      "cohere chat",
      "cohere chat",
      "cohere rerank",
      "cohere rerank",
      "cohere embeddings",
      "cohere embeddings",
    ]);
  });

  it("the recordable providers are exactly the record schema's upstream keys", () => {
    expect(RECORDABLE).toEqual(["openai", "anthropic", "gemini", "ollama", "cohere"]);
    expect(Object.keys(RecordSchema.shape.upstream.shape).sort()).toEqual([...RECORDABLE].sort());
  });

  it("socket protocols: unique kinds, each path to its own", () => {
    expect(SOCKETS.map((s) => `${s.kind} ${s.endpoint}`)).toEqual(["responses responses", "realtime realtime", "live bidiGenerateContent"]);
    expect(socketFor("/v1/responses")?.kind).toBe("responses");
    expect(socketFor("/realtime")?.kind).toBe("realtime");
    expect(socketFor("//ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent")?.kind).toBe("live");
    expect(socketFor("/v1/chat/completions")).toBeUndefined();
  });

  it("side routes run in order: Gemini's listing, then Anthropic's, then OpenAI's", () => {
    const orders = SIDE_ROUTES.map((r) => r.order ?? 0);
    expect(orders).toEqual([...orders].sort((a, b) => a - b));
    expect(SIDE_ROUTES.at(-1)?.paths).toEqual(["/v1/models"]);
  });

  it("early errors keep the old precedence: surface, Ollama, Bedrock, Anthropic path, Gemini, Anthropic headers, OpenAI", () => {
    const at = (url: string, headers: Record<string, string> = {}) => {
      const request = new Request(`http://x${url}`, { headers });
      return errorSurfaceFor(request, splitPrefix(new URL(request.url).pathname).path);
    };
    expect(at("/v1/chat/completions", { "anthropic-version": "2023-06-01" })).toBe(openaiChat);
    expect(at("/api/tags", { "x-goog-api-key": "k" })).toBe(ollamaChat);
    expect(at("/s/demo/model/anthropic.claude/converse-x", { "anthropic-version": "1" })).toBe(bedrockConverse);
    expect(at("/v1/messages/batches", { "x-goog-api-key": "k" })).toBe(anthropicMessages);
    expect(at("/v1beta/files", { "anthropic-version": "1" })).toBe(geminiGenerateContent);
    expect(at("/v1/models?key=k", { "x-api-key": "k" })).toBe(geminiGenerateContent);
    expect(at("/v1/unknown", { "x-goog-api-key": "k", "anthropic-version": "1" })).toBe(geminiGenerateContent);
    expect(at("/v1/models/x", { "x-api-key": "k" })).toBe(anthropicMessages);
    expect(at("/v1/unknown", { "x-api-key": "k" })).toBe(openaiChat);
    expect(at("/v1/unknown")).toBe(openaiChat);
  });

  it("side-route paths are known routes: never taken for a session name", () => {
    expect(splitPrefix("/s/demo/api/tags")).toEqual({ prefix: { scenario: "demo" }, path: "/api/tags", root: false });
    expect(splitPrefix("/s/demo/messages/count_tokens").path).toBe("/messages/count_tokens");
    expect(splitPrefix("/s/demo/v1/models/gpt-5").path).toBe("/v1/models/gpt-5");
    const vertex = "/v1/projects/p/locations/us-east5/publishers/anthropic/models/count-tokens:rawPredict";
    expect(splitPrefix(`/s/demo${vertex}`).path).toBe(vertex);
    expect(splitPrefix("/s/demo/t1/api/tags")).toEqual({ prefix: { scenario: "demo", session: "t1" }, path: "/api/tags", root: false });
  });

  it("tool-call ids: each module's own; a module that declares none (an OpenAI-compatible one) gets OpenAI's", () => {
    const reply = resolveReply(undefined, { respond: { toolCalls: [{ name: "get_weather" }] } }, req(), "seed");
    const openai = wireToolCallIds("openai", reply);
    expect(openai).toHaveLength(1);
    expect(openai[0]).toMatch(/^call_/);
    expect(wireToolCallIds("azure", reply)).toEqual(openai);
    expect(wireToolCallIds("anthropic", reply)[0]).toMatch(/^toolu_01/);
    expect(wireToolCallIds("bedrock", reply, "converse")[0]).toMatch(/^tooluse_/);
    expect(wireToolCallIds("bedrock", reply, "messages")).toEqual(wireToolCallIds("anthropic", reply));
    expect(wireToolCallIds("vertex", reply, "generateContent")).toEqual([null]);
    expect(wireToolCallIds("vertex", reply, "messages")).toEqual(wireToolCallIds("anthropic", reply));
  });

  it("a module with only a name and surfaces is a whole module", () => {
    const cohere: ProviderModule = { name: "cohere", surfaces: [] };
    expect(moduleEndpoints(cohere)).toEqual([]);
  });

  it("outside src/providers/, only the registry and the shared types are imported: no table names a provider", () => {
    const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");
    const walk = (dir: string): string[] => readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : f.endsWith(".ts") ? [join(dir, f)] : []));
    const SHARED = new Set(["providers/registry", "providers/registry/module", "providers/types", "providers/surface"]);
    // The default responder's stored ids count in the `__responses/{session}` object, named by Responses' state.
    const KNOWN = new Set(["turn/default-ids.ts → providers/openai/responses/state"]);
    const bad: string[] = [];
    for (const file of walk(SRC)) {
      const from = relative(SRC, file);
      if (from.startsWith("providers/") || from.startsWith("client/")) continue;
      for (const m of readFileSync(file, "utf8").matchAll(/from\s+"(\.{1,2}\/[^"]+)"/g)) {
        const to = relative(SRC, resolve(dirname(file), m[1]!));
        if (!to.startsWith("providers/") || SHARED.has(to)) continue;
        if (!KNOWN.has(`${from} → ${to}`)) bad.push(`${from} → ${to}`);
      }
    }
    expect(bad).toEqual([]);
  });
});
