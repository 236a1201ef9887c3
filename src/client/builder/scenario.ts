/**
 * A fluent, immutable builder for scenario documents. `build()` validates with the same zod
 * schema the server uses and returns exactly the contract's JSON.
 */
import { parseScenarioDocument } from "../../scenario/document";
import type { Scenario } from "../../scenario/schema";
import { ScenarioValidationError } from "./errors";
import { StepBuilder } from "./step";
import type { DefaultsInput, MatcherInput, McpCallOptions, McpInput, McpMatchInput, McpResultInput, McpToolInput, ScenarioInput, SideCallPreset, StepInput } from "./types";

type StepSpec = StepInput | StepBuilder | ((s: StepBuilder) => StepBuilder);

export class ScenarioBuilder {
  readonly #doc: ScenarioInput;

  constructor(doc: ScenarioInput) {
    this.#doc = doc;
  }

  /** @example scenario("x").description("asks for a tool, then answers") */
  description(description: string): ScenarioBuilder {
    return this.#with({ description });
  }

  /**
   * Priority for automatic selection by the top-level matcher (higher first).
   * @example scenario("x").match({ system: { contains: "pirate" } }).priority(10)
   */
  priority(priority: number): ScenarioBuilder {
    return this.#with({ priority });
  }

  /**
   * Top-level matcher: lets the scenario answer requests that don't name it. Merges with earlier calls.
   * @example scenario("x").match({ firstUserMessage: { contains: "weather" } })
   */
  match(matcher: MatcherInput): ScenarioBuilder {
    return this.#with({ match: { ...this.#doc.match, ...matcher } });
  }

  /**
   * Texts every request's system prompt must contain; appends.
   * @example scenario("x").systemPromptMustInclude("You are a weather bot")
   */
  systemPromptMustInclude(...texts: string[]): ScenarioBuilder {
    return this.#with({ systemPromptMustInclude: [...(this.#doc.systemPromptMustInclude ?? []), ...texts] });
  }

  /**
   * What a mismatch answers: an HTTP 400 (`"error"`, default) or a 200 failure report (`"report"`).
   * @example scenario("x").onMismatch("report")
   */
  onMismatch(onMismatch: "error" | "report"): ScenarioBuilder {
    return this.#with({ onMismatch });
  }

  /**
   * Anthropic: enforce the real API's checks such as echoed thinking signatures (default true).
   * @example scenario("x").strict(false)
   */
  strict(strict = true): ScenarioBuilder {
    return this.#with({ strict });
  }

  /**
   * Scenario-wide usage, stream pacing and latency; merges with earlier calls.
   * @example scenario("x").defaults({ latencyMs: 20, stream: { tokensPerSecond: 50 } })
   */
  defaults(defaults: DefaultsInput): ScenarioBuilder {
    return this.#with({ defaults: { ...this.#doc.defaults, ...defaults } });
  }

  /**
   * When asynchronous objects (batches) are done: `processingMs` after creation (default 0, the first read after it).
   * @example scenario("x").processingMs(60_000)
   */
  processingMs(processingMs: number): ScenarioBuilder {
    return this.#with({ async: { processingMs } });
  }

  /**
   * Scenario variables (any JSON values) that response strings use as `{{vars.name}}`; merges with earlier calls.
   * @example scenario("x").variables({ city: "Paris" }).step((s) => s.text("Sunny in {{vars.city}}."))
   */
  variables(variables: Record<string, unknown>): ScenarioBuilder {
    return this.#with({ variables: { ...this.#doc.variables, ...variables } });
  }

  /**
   * Appends a step: a callback on a fresh step builder, a builder, or a plain step object.
   * With an id first, names the step.
   * @example scenario("x").step("ask", (s) => s.match({ turn: 1 }).toolCall("search", { q: "x" }))
   */
  step(spec: StepSpec): ScenarioBuilder;
  step(id: string, spec: StepSpec): ScenarioBuilder;
  step(first: string | StepSpec, second?: StepSpec): ScenarioBuilder {
    const id = typeof first === "string" ? first : undefined;
    const spec = typeof first === "string" ? second : first;
    if (spec === undefined) throw new TypeError(`step("${String(id)}"): missing the step itself`);
    let built = toStep(spec);
    if (id !== undefined) built = { id, ...built };
    return this.#with({ steps: [...this.#doc.steps, built] });
  }

  /**
   * Answers agent CLIs' housekeeping calls (Gemini CLI's router, opencode's title, Qwen Code's memory extraction,
   * Claude Code's quota probe and title, and requests matching `match`) without spending a step; appends, so
   * `sideCalls("gemini")` and `sideCalls({ match: [...] })` combine. Journaled with outcome `side_call`.
   * @example scenario("x").sideCalls("gemini", "opencode").step((s) => s.shell("ls", { cli: "gemini" }))
   * @example scenario("x").sideCalls({ match: [{ system: { contains: "Summarize" } }] })
   */
  sideCalls(...presets: (SideCallPreset | { preset?: SideCallPreset[]; match?: MatcherInput[] })[]): ScenarioBuilder {
    const preset = [...(this.#doc.sideCalls?.preset ?? [])];
    const match = [...(this.#doc.sideCalls?.match ?? [])];
    for (const p of presets) {
      const add = typeof p === "string" ? { preset: [p] } : p;
      for (const name of add.preset ?? []) if (!preset.includes(name)) preset.push(name);
      match.push(...(add.match ?? []));
    }
    return this.#with({ sideCalls: { ...(preset.length > 0 ? { preset } : {}), ...(match.length > 0 ? { match } : {}) } });
  }

  /**
   * MCP server settings (`responseMode`, `instructions`, `resources`, `prompts`, …); merges with earlier calls.
   * @example scenario("x").mcp({ responseMode: "sse" })
   */
  mcp(settings: McpInput): ScenarioBuilder {
    return this.#with({ mcp: { ...this.#doc.mcp, ...settings } });
  }

  /**
   * A tool the session's MCP server lists (`tools/list`); appends.
   * @example scenario("x").mcpTool("get_weather", { description: "Weather", inputSchema: { type: "object" } })
   */
  mcpTool(name: string, options: Omit<McpToolInput, "name"> = {}): ScenarioBuilder {
    const tools = [...(this.#doc.mcp?.tools ?? []), { name, ...options }];
    return this.#with({ mcp: { ...this.#doc.mcp, tools } });
  }

  /**
   * A scripted `tools/call` answer, tried in order; a string result is one text block (`{{args.city}}` and
   * `{{vars.x}}` expand). Options: `id`, `failuresBeforeSuccess` (with `error`), `consume`, `delayMs`, `progress`.
   * @example scenario("x").mcpResult({ tool: "get_weather", arguments: { city: "Paris" } }, "18C in {{args.city}}")
   * @example scenario("x").mcpResult("flaky", "ok", { failuresBeforeSuccess: 2 })
   * @example scenario("x").mcpResult("get_weather", { content: [{ type: "text", text: "no such city" }], isError: true })
   */
  mcpResult(match: McpMatchInput, result: McpResultInput, options: McpCallOptions = {}): ScenarioBuilder {
    const content = typeof result === "string" ? { content: [{ type: "text" as const, text: result }] } : result;
    return this.#addCall({ ...(options.id !== undefined ? { id: options.id } : {}), match: toCallMatch(match), result: content, ...withoutId(options) });
  }

  /**
   * A scripted `tools/call` answered with a JSON-RPC error (every time, or as the failure before a later entry).
   * @example scenario("x").mcpError("get_weather", { code: -32000, message: "upstream down" })
   */
  mcpError(match: McpMatchInput, error: NonNullable<McpCallOptions["error"]>, options: Omit<McpCallOptions, "error"> = {}): ScenarioBuilder {
    return this.#addCall({ ...(options.id !== undefined ? { id: options.id } : {}), match: toCallMatch(match), error, ...withoutId(options) });
  }

  #addCall(call: NonNullable<McpInput["calls"]>[number]): ScenarioBuilder {
    return this.#with({ mcp: { ...this.#doc.mcp, calls: [...(this.#doc.mcp?.calls ?? []), call] } });
  }

  /**
   * The document as JSON, without validating (use `build()` to validate).
   * Only fields that were set, in contract order.
   */
  toJSON(): ScenarioInput {
    const d = this.#doc;
    return {
      ...(d.$schema !== undefined ? { $schema: d.$schema } : {}),
      name: d.name,
      ...(d.description !== undefined ? { description: d.description } : {}),
      ...(d.priority !== undefined ? { priority: d.priority } : {}),
      ...(d.match !== undefined ? { match: d.match } : {}),
      ...(d.systemPromptMustInclude !== undefined ? { systemPromptMustInclude: d.systemPromptMustInclude } : {}),
      ...(d.onMismatch !== undefined ? { onMismatch: d.onMismatch } : {}),
      ...(d.strict !== undefined ? { strict: d.strict } : {}),
      ...(d.defaults !== undefined ? { defaults: d.defaults } : {}),
      ...(d.variables !== undefined ? { variables: d.variables } : {}),
      steps: d.steps,
      ...(d.mcp !== undefined ? { mcp: d.mcp } : {}),
      ...(d.sideCalls !== undefined ? { sideCalls: d.sideCalls } : {}),
      ...(d.async !== undefined ? { async: d.async } : {}),
    };
  }

  /**
   * Validates and returns the scenario document.
   * @throws ScenarioValidationError listing every issue's JSON path.
   * @example const doc = scenario("hello").step((s) => s.text("Hi")).build()
   */
  build(): Scenario {
    const doc = this.toJSON();
    const result = parseScenarioDocument(doc);
    if (!result.ok) throw new ScenarioValidationError(this.#doc.name, result.issues);
    // The schema has no transforms, so the valid input is the output; returning it (not zod's copy)
    // keeps the key order as written, and with it the server's content-hash version.
    const valid: Scenario = doc;
    return valid;
  }

  #with(patch: Partial<ScenarioInput>): ScenarioBuilder {
    return new ScenarioBuilder({ ...this.#doc, ...patch });
  }
}

function toCallMatch(match: McpMatchInput): NonNullable<NonNullable<McpInput["calls"]>[number]["match"]> {
  return typeof match === "string" ? { tool: match } : match;
}

function withoutId<T extends { id?: string | undefined }>(options: T): Omit<T, "id"> {
  const { id: _id, ...rest } = options;
  return rest;
}

function toStep(spec: StepSpec): StepInput {
  if (spec instanceof StepBuilder) return spec.toJSON();
  if (typeof spec === "function") {
    const result: unknown = spec(new StepBuilder());
    if (!(result instanceof StepBuilder)) {
      throw new TypeError('step(fn): fn must return the step builder, e.g. (s) => s.text("hi")');
    }
    return result.toJSON();
  }
  return spec;
}

/**
 * Starts a scenario document named `name` (`[a-z0-9][a-z0-9._-]{0,63}`).
 * @example
 * scenario("weather")
 *   .step((s) => s.match({ lastUserMessage: { contains: "weather" } }).toolCall("get_weather", { city: "Paris" }))
 *   .step((s) => s.match({ toolResult: {} }).text("Sunny"))
 *   .build();
 */
export function scenario(name: string): ScenarioBuilder {
  return new ScenarioBuilder({ name, steps: [] });
}
