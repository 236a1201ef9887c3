/**
 * The scenario document's JSON Schema, generated from the zod schema (the single source of truth).
 */
import { z } from "zod";
import { ScenarioSchema } from "./schema";

export const SCHEMA_ID = "https://mockllm.dev/scenario.schema.json";

export function scenarioJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(ScenarioSchema, { io: "input", unrepresentable: "any", target: "draft-2020-12" }),
    $id: SCHEMA_ID,
    title: "mockllm scenario",
  };
}
