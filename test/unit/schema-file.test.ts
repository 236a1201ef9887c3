import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { scenarioJsonSchema } from "../../src/scenario/json-schema";

describe("scenario.schema.json", () => {
  it("is what the zod schema generates (run `npm run generate` when this fails)", () => {
    const file = JSON.parse(readFileSync(new URL("../../scenario.schema.json", import.meta.url), "utf8"));
    expect(file).toEqual(scenarioJsonSchema());
  });
});
