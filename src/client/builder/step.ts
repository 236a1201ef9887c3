/**
 * A fluent, immutable builder for one scenario step. Every method returns a new builder,
 * so a half-built step can be shared and varied safely.
 */
import type {
  ExpectationsInput,
  FailureArgs,
  FailureInput,
  FailureKind,
  FailureOptions,
  MatcherInput,
  ReasoningBlockInput,
  ResponseInput,
  StepInput,
  StreamOptionsInput,
  StringMatchInput,
  ToolCallInput,
  UsageInput,
} from "./types";
import { shellCall, shellTool, type ShellOptions } from "./shell";

type FinishReason = NonNullable<ResponseInput["finishReason"]>;

export class StepBuilder {
  readonly #step: StepInput;

  constructor(step: StepInput = {}) {
    this.#step = step;
  }

  /**
   * Names the step (default `step-{n}`); the journal and session state show it.
   * @example s.id("ask-tool")
   */
  id(id: string): StepBuilder {
    return this.#with({ id });
  }

  /**
   * Adds matcher conditions; every condition must hold. Called twice, the conditions merge.
   * @example s.match({ lastUserMessage: { contains: "weather" }, provider: "openai" })
   */
  match(matcher: MatcherInput): StepBuilder {
    return this.#with({ match: { ...this.#step.match, ...matcher } });
  }

  /**
   * Matches only when an earlier assistant message in the conversation has matching text.
   * @example s.matchAssistantMessage({ contains: "Let me check" }).text("Done.")
   */
  matchAssistantMessage(match: StringMatchInput): StepBuilder {
    return this.match({ assistantMessage: match });
  }

  /**
   * Matches only when a tool call earlier in the conversation has this name and (a subset of) these arguments;
   * argument values are JSON values or StringMatch objects.
   * @example s.matchToolCall("get_weather", { city: { contains: "Par" } }).text("Sunny in Paris.")
   */
  matchToolCall(name?: StringMatchInput, args?: Record<string, unknown>): StepBuilder {
    return this.match({
      toolCall: { ...(name !== undefined ? { name } : {}), ...(args !== undefined ? { arguments: args } : {}) },
    });
  }

  /**
   * Matches only when the request carries a compaction item/block (`true`) or does not (`false`).
   * @example s.matchCompacted().match({ lastUserMessage: "Go on." }).text("Continuing.")
   */
  matchCompacted(compacted = true): StepBuilder {
    return this.match({ compacted });
  }

  /**
   * Matches only a batch line whose `custom_id` matches (contract section 11); a live call has none.
   * @example s.matchCustomId("q1").text("Paris")
   */
  matchCustomId(customId: StringMatchInput): StepBuilder {
    return this.match({ customId });
  }

  /**
   * Matches only when the request asks for structured output (`true`), does not (`false`), or names its schema
   * (`{ name }`: OpenAI, Azure, Bedrock carry one).
   * @example s.matchOutputSchema({ name: "Invoice" }).json({ total: 42.5 })
   */
  matchOutputSchema(outputSchema: boolean | { name?: StringMatchInput } = true): StepBuilder {
    return this.match({ outputSchema });
  }

  /**
   * Whether a `json` or `text` answer to a strict schema is checked against it (default true); `false` to send
   * deliberately malformed output without failing verify.
   * @example s.schemaCheck(false).text('{"total": 4')
   */
  schemaCheck(enabled: boolean): StepBuilder {
    return this.#with({ schemaCheck: enabled });
  }

  /**
   * Adds expectations, checked after a match: a miss is a mismatch, not a skip.
   * @example s.expect({ tools: ["get_weather"], temperature: 0 })
   */
  expect(expectations: ExpectationsInput): StepBuilder {
    return this.#with({ expect: { ...this.#step.expect, ...expectations } });
  }

  /**
   * Whether answering uses the step up (default true). `consume(false)` answers every time it matches.
   * @example s.match({ turn: 1 }).consume(false)
   */
  consume(consume = true): StepBuilder {
    return this.#with({ consume });
  }

  /**
   * Appends one scripted failure: the next attempt at this step gets it instead of the response.
   * Options: `message`, `retryAfterMs`, `retryable`, `headers`; `delayMs` (`timeout`); `status`, `body` (`http`);
   * `afterChunks` (`network_error`, `invalid_response`, `stream_error`; default 0): a stream sends exactly that many
   * events (`data:` chunks, NDJSON lines) first, counted as the wire has them, so on Chat Completions the role-only
   * first chunk is one of them (`afterChunks: 2` = the role chunk and one content chunk); `errorType` (`stream_error`).
   * @example s.fail("rate_limit", { retryAfterMs: 10 }).text("ok")
   * @example s.fail("stream_error", { afterChunks: 2 }).text("cut off after the role chunk and one content chunk")
   */
  fail<K extends FailureKind>(kind: K, ...args: FailureArgs<K>): StepBuilder {
    const failure = { kind, ...args[0] } as FailureInput; // kind + that kind's own options
    return this.#with({ failures: [...(this.#step.failures ?? []), failure] });
  }

  /**
   * Appends `times` identical failures: attempts 1..times fail, the next one gets the response.
   * @example s.failTimes(2, "overloaded").text("finally")
   */
  failTimes<K extends FailureKind>(times: number, kind: K, ...args: FailureArgs<K>): StepBuilder {
    if (!Number.isInteger(times) || times < 0) {
      throw new RangeError(`failTimes: times must be a whole number >= 0, got ${String(times)}`);
    }
    let next: StepBuilder = this;
    for (let i = 0; i < times; i++) next = next.fail(kind, ...args);
    return next;
  }

  /**
   * Appends a `content_filter` failure: the provider's safety system blocks the prompt (`"prompt"`: OpenAI a refusal,
   * Anthropic `stop_reason: "refusal"`, Gemini `promptFeedback.blockReason`, Bedrock `guardrail_intervened`) or stops
   * the answer after `afterChunks` text chunks (`"completion"`: the provider's filter finish reason). Categories are
   * `hate`, `sexual`, `violence`, `self_harm`, `harassment`, `dangerous` (default) and `jailbreak`.
   * Same as `s.fail("content_filter", { on, ...options })`.
   * @example s.contentFilter("completion", { afterChunks: 3, categories: ["violence"] }).text("Here is how to")
   */
  contentFilter(on: "prompt" | "completion", options: Omit<FailureOptions<"content_filter">, "on"> = {}): StepBuilder {
    return this.fail("content_filter", { on, ...options });
  }

  /**
   * Merges fields into the step's response, as written in the document.
   * @example s.respond({ text: "hi", finishReason: "length" })
   */
  respond(response: ResponseInput): StepBuilder {
    return this.#with({ respond: { ...this.#step.respond, ...response } });
  }

  /** @example s.text("It is sunny.") */
  text(text: string): StepBuilder {
    return this.respond({ text });
  }

  /**
   * A structured answer: any JSON value, sent as the surface's text content as compact JSON, keys in the order written.
   * @example s.json({ total: 42.5, currency: "EUR" })
   */
  json(value: unknown): StepBuilder {
    return this.respond({ json: value });
  }

  /**
   * Reasoning before the answer: a string, or blocks with signatures / redacted data.
   * @example s.reasoning([{ text: "Look it up.", signature: "sig" }])
   */
  reasoning(reasoning: string | ReasoningBlockInput[]): StepBuilder {
    return this.respond({ reasoning });
  }

  /**
   * Appends one tool call; `arguments` may be an object or a raw (even invalid JSON) string.
   * @example s.toolCall("get_weather", { city: "Paris" }, { id: "call_1" })
   */
  toolCall(name: string, args?: ToolCallInput["arguments"], options: { id?: string } = {}): StepBuilder {
    const call: ToolCallInput = {
      ...(options.id !== undefined ? { id: options.id } : {}),
      name,
      ...(args !== undefined ? { arguments: args } : {}),
    };
    return this.respond({ toolCalls: [...(this.#step.respond?.toolCalls ?? []), call] });
  }

  /**
   * Answers the turn with the surface's compaction carrying `summary` (OpenAI `compaction` item, Anthropic
   * `compaction` block), before any text; the step that answers `/v1/responses/compact` or a `compaction_trigger`.
   * @example s.compaction("The user asked about Paris.")
   */
  compaction(summary: string): StepBuilder {
    return this.respond({ compaction: { summary } });
  }

  /**
   * Appends the tool call that has an agent CLI run `command` in its own shell tool: `exec_command`/`cmd` (Codex
   * 0.169), `shell_command`/`command` (`"codex-0.94"`), `run_shell_command`/`command` (Gemini CLI, Qwen Code),
   * `bash`/`command` (opencode), `Bash`/`command` (Claude Code).
   * @example s.shell("ls -la", { cli: "codex" })
   * @example s.shell("npm test", { cli: "claude", args: { description: "Run the tests" } })
   */
  shell(command: string, options: ShellOptions): StepBuilder {
    const call = shellCall(command, options);
    return this.toolCall(call.name, call.arguments, call.id !== undefined ? { id: call.id } : {});
  }

  /**
   * Matches the turn that carries the result of `cli`'s shell tool, its output containing `output` when given.
   * @example s.matchShellResult({ cli: "gemini", output: "package.json" }).text("There is a package.json.")
   */
  matchShellResult(options: { cli: ShellOptions["cli"]; output?: StringMatchInput }): StepBuilder {
    return this.match({ toolResult: { name: shellTool(options.cli), ...(options.output !== undefined ? { content: options.output } : {}) } });
  }

  /** @example s.refusal("I can't help with that.") */
  refusal(refusal: string): StepBuilder {
    return this.respond({ refusal });
  }

  /** @example s.text("cut").finishReason("length") */
  finishReason(finishReason: FinishReason): StepBuilder {
    return this.respond({ finishReason });
  }

  /**
   * Token usage to report (fields not given keep the defaults).
   * @example s.usage({ inputTokens: 10, outputTokens: 5 })
   */
  usage(usage: UsageInput): StepBuilder {
    return this.respond({ usage: { ...this.#step.respond?.usage, ...usage } });
  }

  /** @example s.model("gpt-4o-2024-08-06") */
  model(model: string): StepBuilder {
    return this.respond({ model });
  }

  /**
   * Delay before the first byte, in ms.
   * @example s.latency(250)
   */
  latency(latencyMs: number): StepBuilder {
    return this.respond({ latencyMs });
  }

  /**
   * Streaming pacing; merges with earlier calls.
   * @example s.stream({ ttftMs: 100, tokensPerSecond: 20, chunkWords: 2 })
   */
  stream(stream: StreamOptionsInput): StepBuilder {
    return this.respond({ stream: { ...this.#step.respond?.stream, ...stream } });
  }

  /**
   * Extra response headers; merges with earlier calls.
   * @example s.headers({ "x-extra": "1" })
   */
  headers(headers: Record<string, string>): StepBuilder {
    return this.respond({ headers: { ...this.#step.respond?.headers, ...headers } });
  }

  /** The step as the document holds it: only the fields that were set, in contract order. */
  toJSON(): StepInput {
    const s = this.#step;
    const out: StepInput = {};
    if (s.id !== undefined) out.id = s.id;
    if (s.match !== undefined) out.match = s.match;
    if (s.expect !== undefined) out.expect = s.expect;
    if (s.consume !== undefined) out.consume = s.consume;
    if (s.failures !== undefined) out.failures = s.failures;
    if (s.respond !== undefined) out.respond = s.respond;
    if (s.schemaCheck !== undefined) out.schemaCheck = s.schemaCheck;
    return out;
  }

  #with(patch: Partial<StepInput>): StepBuilder {
    return new StepBuilder({ ...this.#step, ...patch });
  }
}

/**
 * Starts a standalone step, for sharing between scenarios.
 * @example const ask = step().match({ turn: 1 }).toolCall("search", { q: "x" })
 */
export function step(): StepBuilder {
  return new StepBuilder();
}
