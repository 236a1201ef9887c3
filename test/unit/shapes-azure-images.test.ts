/**
 * Shape test of Azure OpenAI Images through the Azure surface's own renderers: a DALL·E 3 answer (url and b64), the
 * blocked prompt's 400 and a filtered image, against the `azureImages` table of test/shapes/azure.ts (every entry
 * exercised, every source named).
 */
import { describe, expect, it } from "vitest";
import { filteredReply } from "../../src/canonical/safety";
import { azureImages as surface } from "../../src/providers/azure";
import type { RenderContext } from "../../src/providers/types";
import { resolveReply } from "../../src/scenario/engine";
import { azureImages } from "../shapes/azure";
import { compareShape } from "../shapes/shape";

function render(responseFormat: "url" | "b64_json", filtered: boolean): unknown {
  const target = { path: "/openai/deployments/dalle3/images/generations", query: new URLSearchParams("api-version=2024-10-21"), url: "http://mock/openai/deployments/dalle3/images/generations" };
  const parsed = surface.parse({ model: "dall-e-3", prompt: "a fox", response_format: responseFormat }, new Headers(), target);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const base = resolveReply(undefined, { respond: { image: {} } }, parsed.request, "shapes/azure-images");
  const reply = filtered ? filteredReply({ kind: "content_filter", on: "completion", categories: ["violence"] }, base) : base;
  const ctx: RenderContext<typeof parsed.wire> = { wire: parsed.wire, request: parsed.request, requestId: "r", created: 1 };
  return surface.renderJson(reply, ctx);
}

describe("Azure images wire shapes against recordings", () => {
  it("the table names its sources", () => {
    for (const [kind, entry] of Object.entries(azureImages.shapes)) {
      expect(entry.from.length, kind).toBeGreaterThan(0);
      for (const s of entry.from) expect(azureImages.sources[s], `${kind} → ${s}`).toBeDefined();
    }
  });

  it("answers, the prompt block and a filtered image stay inside the table, every entry exercised", () => {
    const out = [
      { kind: "images", value: render("url", false) },
      { kind: "images", value: render("b64_json", false) },
      { kind: "filtered_image", value: render("url", true) },
      { kind: "error:content_policy_violation", value: surface.renderPromptBlock!({ on: "prompt", categories: ["sexual"] }, "r").body },
    ];
    const findings: string[] = [];
    const exercised = new Set<string>();
    for (const { kind, value } of out) {
      const entry = azureImages.shapes[kind]!;
      exercised.add(kind);
      for (const f of compareShape(value, entry, azureImages.opaque)) findings.push(`${kind}: ${f}`);
    }
    for (const kind of Object.keys(azureImages.shapes)) if (!exercised.has(kind)) findings.push(`${kind}: table entry not exercised`);
    expect([...new Set(findings)]).toEqual([]);
  });
});
