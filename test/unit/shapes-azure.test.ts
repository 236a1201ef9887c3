/**
 * Shape test of Azure OpenAI Chat Completions through the Azure surface's own renderers: a plain answer (JSON and
 * stream), a filtered completion, the prompt block's 400 and the gateway's errors, against test/shapes/azure.ts
 * (every entry exercised, every source named).
 */
import { describe, expect, it } from "vitest";
import { filteredReply } from "../../src/canonical/safety";
import { apiError } from "../../src/http/errors";
import { azureChat as surface } from "../../src/providers/azure";
import type { RenderContext } from "../../src/providers/types";
import { resolveReply } from "../../src/scenario/engine";
import type { Failure } from "../../src/scenario/schema";
import { azureChat } from "../shapes/azure";
import { compareShape } from "../shapes/shape";

type Kinded = { kind: string; value: unknown }[];
type Chunk = { choices: { delta: Record<string, unknown>; finish_reason: string | null }[] };

function azureKind(c: Chunk): string {
  if (c.choices.length === 0) return "chunk:prompt_filter";
  const [choice] = c.choices;
  if (choice!.finish_reason === "content_filter") return "chunk:finish:content_filter";
  if (choice!.finish_reason !== null) return "chunk:finish";
  return "role" in choice!.delta ? "chunk:role" : "chunk:content";
}

function render(stream: boolean, failure?: Extract<Failure, { kind: "content_filter" }>): { json: unknown; chunks: Chunk[] } {
  const target = { path: "/openai/deployments/prod-4o/chat/completions", query: new URLSearchParams("api-version=2024-10-21") };
  const parsed = surface.parse({ messages: [{ role: "user", content: "Hello" }], stream }, new Headers(), target);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const base = resolveReply(undefined, { respond: { text: "Here is how you would do that.", stream: { chunkWords: 2 } } }, parsed.request, "shapes/azure");
  const reply = failure ? filteredReply(failure, base) : base;
  const ctx: RenderContext<typeof parsed.wire> = { wire: parsed.wire, request: parsed.request, requestId: "r", created: 1 };
  const chunks = surface.renderEvents(reply, ctx).flatMap((e) => (e.data === "[DONE]" ? [] : [JSON.parse(e.data) as Chunk]));
  return { json: surface.renderJson(reply, ctx), chunks };
}

describe("Azure chat wire shapes against recordings", () => {
  it("the table names its sources", () => {
    for (const [kind, entry] of Object.entries(azureChat.shapes)) {
      expect(entry.from.length, kind).toBeGreaterThan(0);
      for (const s of entry.from) expect(azureChat.sources[s], `${kind} → ${s}`).toBeDefined();
    }
  });

  it("answers, a filtered completion, the prompt block and the gateway's errors stay inside the table, every entry exercised", () => {
    const out: Kinded = [];
    const cut: Extract<Failure, { kind: "content_filter" }> = { kind: "content_filter", on: "completion", afterChunks: 1, categories: ["violence"] };
    for (const failure of [undefined, cut]) {
      const { json, chunks } = render(true, failure);
      for (const c of chunks) out.push({ kind: azureKind(c), value: c });
      if (!failure) out.push({ kind: "chat.completion", value: json });
    }
    const block = surface.renderPromptBlock!({ on: "prompt", categories: ["self_harm"] }, "r");
    out.push({ kind: "error:content_filter", value: block.body });
    for (const code of ["authentication", "not_found", "rate_limit"] as const) out.push({ kind: "error:gateway", value: surface.renderError(apiError(code, "x"), "r").body });
    const findings: string[] = [];
    const exercised = new Set<string>();
    for (const { kind, value } of out) {
      const entry = azureChat.shapes[kind];
      if (!entry) {
        findings.push(`${kind}: no recording has this event`);
        continue;
      }
      exercised.add(kind);
      for (const f of compareShape(value, entry, azureChat.opaque)) findings.push(`${kind}: ${f}`);
    }
    for (const kind of Object.keys(azureChat.shapes)) if (!exercised.has(kind)) findings.push(`${kind}: table entry not exercised`);
    expect([...new Set(findings)]).toEqual([]);
  });
});
