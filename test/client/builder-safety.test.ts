import { describe, expect, it } from "vitest";
import { scenario, ScenarioValidationError, step } from "../../src/client/index";
import { parseScenarioDocument } from "../../src/scenario/document";

describe("builder: content_filter failures", () => {
  it("contentFilter() and fail('content_filter', …) write the contract's failure, which the server's parser accepts", () => {
    const doc = scenario("guarded")
      .step((s) =>
        s
          .contentFilter("prompt", { categories: ["violence"], message: "No." })
          .contentFilter("completion", { afterChunks: 3 })
          .text("Here is how"),
      )
      .step((s) => s.fail("content_filter", { on: "completion", categories: ["self_harm", "jailbreak"] }).text("ok"))
      .build();
    expect(doc.steps.map((s) => s.failures)).toStrictEqual([
      [
        { kind: "content_filter", on: "prompt", categories: ["violence"], message: "No." },
        { kind: "content_filter", on: "completion", afterChunks: 3 },
      ],
      [{ kind: "content_filter", on: "completion", categories: ["self_harm", "jailbreak"] }],
    ]);
    expect(parseScenarioDocument(JSON.parse(JSON.stringify(doc)))).toStrictEqual({ ok: true, scenario: doc });
  });

  it("an unknown category fails the build with its path", () => {
    const bad = step().fail("content_filter", { on: "prompt", categories: ["gore" as "hate"] });
    expect(() => scenario("bad").step(bad).build()).toThrow(ScenarioValidationError);
    expect(() => scenario("bad").step(bad).build()).toThrow(/steps\[0\]\.failures\[0\]\.categories\[0\]/);
  });
});
