import { describe, expect, it } from "vitest";
import { filteredReply } from "../../src/canonical/safety";
import { renderConverseJson } from "../../src/providers/bedrock/render-converse";
import type { ConverseWire } from "../../src/providers/bedrock/wire";
import type { RenderContext } from "../../src/providers/types";
import { resolveReply } from "../../src/scenario/engine";
import { req } from "./fixtures";

const request = req({ provider: "bedrock", endpoint: "converse", model: "amazon.nova-lite-v1:0" });
const reply = filteredReply({ kind: "content_filter", on: "prompt", categories: ["jailbreak"] }, resolveReply(undefined, { respond: { text: "x" } }, request, "s"));
const render = (body: ConverseWire["body"]) => {
  const ctx: RenderContext<ConverseWire> = { wire: { body, modelId: request.model }, request, requestId: "r", created: 1 };
  return renderConverseJson(reply, ctx) as Record<string, any>;
};

describe("Bedrock guardrail trace", () => {
  it("is sent when the request's guardrailConfig enables it, keyed by its guardrail", () => {
    for (const trace of ["enabled", "enabled_full"]) {
      const body = render({ guardrailConfig: { guardrailIdentifier: "gr-1", guardrailVersion: "DRAFT", trace } });
      expect(body.trace.guardrail.inputAssessment["gr-1"].contentPolicy.filters.map((f: { type: string }) => f.type)).toEqual(["PROMPT_ATTACK"]);
    }
  });

  it("is left out when the guardrailConfig leaves it off (default disabled), as the service does", () => {
    for (const config of [
      { guardrailIdentifier: "gr-1", guardrailVersion: "1" },
      { guardrailIdentifier: "gr-1", guardrailVersion: "1", trace: "disabled" },
    ]) {
      const body = render({ guardrailConfig: config });
      expect([body.stopReason, body.trace, body.output.message.content]).toEqual(["guardrail_intervened", undefined, [{ text: "Sorry, the model cannot answer this question." }]]);
    }
  });

  it("is keyed by mockllm-guardrail when the request names no guardrail", () => {
    expect(Object.keys(render({}).trace.guardrail.inputAssessment)).toEqual(["mockllm-guardrail"]);
  });
});
