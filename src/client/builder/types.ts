/**
 * The shapes users write, taken from the one zod scenario schema (contract section 3).
 * `z.input` so the builder accepts exactly what the schema accepts, no more.
 */
import type { z } from "zod";
import type {
  ExpectationsSchema,
  FailureSchema,
  MatcherSchema,
  ReasoningBlockSchema,
  ResponseSchema,
  ScenarioSchema,
  StepSchema,
  StreamOptionsSchema,
  StringMatchSchema,
  ToolCallSchema,
  UsageSchema,
} from "../../scenario/schema";

export type ScenarioInput = z.input<typeof ScenarioSchema>;
export type StepInput = z.input<typeof StepSchema>;
export type MatcherInput = z.input<typeof MatcherSchema>;
export type ExpectationsInput = z.input<typeof ExpectationsSchema>;
export type FailureInput = z.input<typeof FailureSchema>;
export type FailureKind = FailureInput["kind"];
export type ResponseInput = z.input<typeof ResponseSchema>;
export type UsageInput = z.input<typeof UsageSchema>;
export type StreamOptionsInput = z.input<typeof StreamOptionsSchema>;
export type StringMatchInput = z.input<typeof StringMatchSchema>;
export type ToolCallInput = z.input<typeof ToolCallSchema>;
export type ReasoningBlockInput = z.input<typeof ReasoningBlockSchema>;
export type DefaultsInput = NonNullable<ScenarioInput["defaults"]>;
/** The scenario's `sideCalls` block (contract section 10): presets per agent CLI and matchers. */
export type SideCallsInput = NonNullable<ScenarioInput["sideCalls"]>;
/** A CLI whose housekeeping calls `sideCalls.preset` answers. */
export type SideCallPreset = NonNullable<SideCallsInput["preset"]>[number];
/** The scenario's `mcp` block (contract section 9). */
export type McpInput = NonNullable<ScenarioInput["mcp"]>;
export type McpToolInput = NonNullable<McpInput["tools"]>[number];
export type McpCallInput = NonNullable<McpInput["calls"]>[number];
/** Which `tools/call` an entry answers: a tool name, or `{ tool, arguments }` (an argument subset). */
export type McpMatchInput = string | NonNullable<McpCallInput["match"]>;
/** A tool result: one text (a string), or `{ content, structuredContent, isError }`. */
export type McpResultInput = string | NonNullable<McpCallInput["result"]>;
/** The rest of a call entry: `id`, `failuresBeforeSuccess`, `error`, `consume`, `delayMs`, `progress`. */
export type McpCallOptions = Omit<McpCallInput, "match" | "result">;

/** What a failure of kind `K` takes besides its kind (`http` requires `status`). */
export type FailureOptions<K extends FailureKind> = Omit<Extract<FailureInput, { kind: K }>, "kind">;

/** Options are optional unless the kind has a required field. */
export type FailureArgs<K extends FailureKind> = Record<string, never> extends FailureOptions<K> ? [options?: FailureOptions<K>] : [options: FailureOptions<K>];
