/**
 * Matchers and expectations: pure checks of a canonical request that say exactly what failed.
 */
import { assistantMessages, earlierToolCalls, firstUserMessage, lastUserMessage, pendingToolResults, turnOf, type CanonicalRequest } from "../canonical/request";
import { StringMatchSchema, type Expectations, type Matcher, type StringMatch } from "./schema";
import type { OutputSchemaMatch } from "./structured";
import { compileLinear, type LinearRegex } from "../util/linear-regex";

/** One condition that did not hold, with what was expected and what the request had. */
export interface Miss {
  field: string;
  expected: string;
  actual: string;
}

export function describeMiss(m: Miss): string {
  return `${m.field}: expected ${m.expected}, got ${m.actual}`;
}

/** Whether `value` satisfies a StringMatch. */
export function stringMatches(match: StringMatch, value: string | undefined): boolean {
  if (value === undefined) return false;
  if (typeof match === "string") return value === match;
  if ("equals" in match) return value === match.equals;
  if ("contains" in match) return value.includes(match.contains);
  // The linear-time engine where it follows the expression (a client's long message must not make `.*refund.*`
  // backtrack for seconds); V8's for what it does not (backreferences, lookarounds, `v`).
  let linear = compiledMatchers.get(match);
  if (linear === undefined) {
    linear = compileLinear(match.regex, match.flags ?? "") ?? null;
    compiledMatchers.set(match, linear);
  }
  if (linear !== null) return linear.test(value) === true;
  return new RegExp(match.regex, (match.flags ?? "").replace(/[gy]/g, "")).test(value);
}

/** Each regex matcher's program, kept with the matcher itself (a scenario document is parsed once per version). */
const compiledMatchers = new WeakMap<object, LinearRegex | null>();

export function describeStringMatch(match: StringMatch): string {
  if (typeof match === "string") return JSON.stringify(match);
  if ("equals" in match) return JSON.stringify(match.equals);
  if ("contains" in match) return `contains ${JSON.stringify(match.contains)}`;
  return `matching /${match.regex}/${match.flags ?? ""}`;
}

const MAX_ACTUAL = 200;

/**
 * Each string, at any depth, cut to MAX_ACTUAL characters before it is serialised: its first MAX_ACTUAL characters
 * make at least the first MAX_ACTUAL of its JSON (an escape only lengthens), and its JSON starts within the text
 * `show` keeps or not at all — the same text, without serialising a large message or tool result whole.
 */
function cutLongStrings(_key: string, v: unknown): unknown {
  return typeof v === "string" && v.length > MAX_ACTUAL ? v.slice(0, MAX_ACTUAL) : v;
}

export function show(value: unknown): string {
  if (value === undefined) return "(none)";
  const s = JSON.stringify(value, cutLongStrings) ?? String(value);
  return s.length > MAX_ACTUAL ? `${s.slice(0, MAX_ACTUAL)}…` : s;
}

function checkString(misses: Miss[], field: string, match: StringMatch | undefined, value: string | undefined) {
  if (match !== undefined && !stringMatches(match, value)) {
    misses.push({ field, expected: describeStringMatch(match), actual: show(value) });
  }
}

function asList<T>(v: T | T[]): T[] {
  return Array.isArray(v) ? v : [v];
}

/**
 * Every matcher condition that does not hold for this request (empty = match).
 * @example matchMisses({ lastUserMessage: { contains: "weather" } }, req)
 */
export function matchMisses(matcher: Matcher | undefined, req: CanonicalRequest, prefix = "match"): Miss[] {
  const misses: Miss[] = [];
  if (!matcher) return misses;
  if (matcher.provider !== undefined && !asList(matcher.provider).includes(req.provider)) {
    misses.push({ field: `${prefix}.provider`, expected: show(matcher.provider), actual: show(req.provider) });
  }
  if (matcher.endpoint !== undefined && !asList(matcher.endpoint).includes(req.endpoint)) {
    misses.push({ field: `${prefix}.endpoint`, expected: show(matcher.endpoint), actual: show(req.endpoint) });
  }
  checkString(misses, `${prefix}.model`, matcher.model, req.model);
  if (matcher.stream !== undefined && matcher.stream !== req.stream) {
    misses.push({ field: `${prefix}.stream`, expected: show(matcher.stream), actual: show(req.stream) });
  }
  if (matcher.turn !== undefined && matcher.turn !== turnOf(req)) {
    misses.push({ field: `${prefix}.turn`, expected: show(matcher.turn), actual: show(turnOf(req)) });
  }
  if (matcher.firstUserMessage !== undefined) {
    checkString(misses, `${prefix}.firstUserMessage`, matcher.firstUserMessage, firstUserMessage(req));
  }
  if (matcher.lastUserMessage !== undefined) {
    checkString(misses, `${prefix}.lastUserMessage`, matcher.lastUserMessage, lastUserMessage(req));
  }
  checkString(misses, `${prefix}.system`, matcher.system, req.system);
  if (matcher.customId !== undefined) checkString(misses, `${prefix}.customId`, matcher.customId, req.customId);
  if (matcher.toolResult !== undefined) {
    const want = matcher.toolResult;
    const results = pendingToolResults(req);
    const hit = results.some(
      (r) =>
        (want.name === undefined || stringMatches(want.name, r.name)) &&
        (want.toolCallId === undefined || stringMatches(want.toolCallId, r.toolCallId)) &&
        (want.content === undefined || stringMatches(want.content, r.content)),
    );
    if (!hit) {
      const expected = Object.entries(want)
        .map(([k, v]) => `${k} ${describeStringMatch(v as StringMatch)}`)
        .join(", ");
      misses.push({
        field: `${prefix}.toolResult`,
        expected: expected === "" ? "a tool result after the last assistant turn" : `a tool result with ${expected}`,
        actual: results.length === 0 ? "no tool result after the last assistant turn" : show(results.map((r) => ({ name: r.name, toolCallId: r.toolCallId, content: r.content }))),
      });
    }
  }
  if (matcher.tools !== undefined) {
    const missing = matcher.tools.filter((t) => !req.tools.includes(t));
    if (missing.length > 0) {
      misses.push({ field: `${prefix}.tools`, expected: `tools ${show(matcher.tools)} offered`, actual: show(req.tools) });
    }
  }
  if (matcher.compacted !== undefined && matcher.compacted !== (req.compaction !== undefined)) {
    const actual = req.compaction !== undefined ? "a compaction item/block" : "no compaction item/block";
    misses.push({ field: `${prefix}.compacted`, expected: show(matcher.compacted), actual });
  }
  if (matcher.outputSchema !== undefined) checkOutputSchema(misses, prefix, matcher.outputSchema, req);
  if (matcher.serverTool !== undefined) {
    const wanted = Array.isArray(matcher.serverTool) ? matcher.serverTool : [matcher.serverTool];
    const offered = req.serverTools ?? [];
    if (!wanted.some((t) => offered.includes(t))) misses.push({ field: `${prefix}.serverTool`, expected: `${show(matcher.serverTool)} offered`, actual: show(offered) });
  }
  checkAssistantMessage(misses, prefix, matcher.assistantMessage, req);
  checkToolCall(misses, prefix, matcher.toolCall, req);
  for (const [name, match] of Object.entries(matcher.headers ?? {})) {
    checkString(misses, `${prefix}.headers.${name.toLowerCase()}`, match, req.headers[name.toLowerCase()]);
  }
  return misses;
}

// The `toolCall.arguments` matcher: a subset of a tool call's arguments object. Each value is a JSON value
// (compared exactly; a nested object is again a subset) or a StringMatch object (`{ "contains": "Par" }`), which a
// string argument must satisfy (any other argument: its JSON text).

/** A StringMatch written as an object; a plain string is a JSON value (an exact match either way). */
function asStringMatch(value: unknown): StringMatch | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const parsed = StringMatchSchema.safeParse(value);
  return parsed.success ? parsed.data : undefined;
}

/**
 * Whether `actual` holds `want`: StringMatch objects match strings, objects match as subsets, arrays element by
 * element (same length), anything else by equality.
 * @example argumentsMatch({ city: { contains: "Par" } }, { city: "Paris", days: 3 }) // true
 */
export function argumentsMatch(want: unknown, actual: unknown): boolean {
  const sm = asStringMatch(want);
  if (sm !== undefined) return stringMatches(sm, typeof actual === "string" ? actual : JSON.stringify(actual));
  if (Array.isArray(want)) {
    return Array.isArray(actual) && actual.length === want.length && want.every((w, i) => argumentsMatch(w, actual[i]));
  }
  if (want !== null && typeof want === "object") {
    if (actual === null || typeof actual !== "object" || Array.isArray(actual)) return false;
    return Object.entries(want).every(([k, w]) => Object.hasOwn(actual, k) && argumentsMatch(w, (actual as Record<string, unknown>)[k]));
  }
  return want === actual;
}

/** A tool call's arguments text as JSON, or undefined when it is not valid JSON. */
export function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** `outputSchema`: true / false (asks for structured output or not), or `{ name }` (the schema's name). */
function checkOutputSchema(misses: Miss[], prefix: string, want: OutputSchemaMatch, req: CanonicalRequest) {
  const out = req.outputSchema;
  const actual =
    out === undefined
      ? "no structured output"
      : out.kind === "json_object"
        ? "a JSON object (no schema)"
        : `a JSON schema${out.name !== undefined ? ` named ${JSON.stringify(out.name)}` : " (no name)"}`;
  const field = `${prefix}.outputSchema`;
  if (typeof want === "boolean") {
    if (want !== (out !== undefined)) misses.push({ field, expected: want ? "structured output" : "no structured output", actual });
  } else if (out === undefined) misses.push({ field, expected: "structured output", actual });
  else if (want.name !== undefined && !stringMatches(want.name, out.name)) misses.push({ field: `${field}.name`, expected: describeStringMatch(want.name), actual });
}

function checkAssistantMessage(misses: Miss[], prefix: string, match: StringMatch | undefined, req: CanonicalRequest) {
  if (match === undefined) return;
  const texts = assistantMessages(req);
  if (!texts.some((t) => stringMatches(match, t))) {
    misses.push({
      field: `${prefix}.assistantMessage`,
      expected: `an earlier assistant message ${describeStringMatch(match)}`,
      actual: texts.length === 0 ? "no assistant message" : show(texts),
    });
  }
}

function checkToolCall(misses: Miss[], prefix: string, want: Matcher["toolCall"], req: CanonicalRequest) {
  if (want === undefined) return;
  const calls = earlierToolCalls(req);
  const hit = calls.some((c) => (want.name === undefined || stringMatches(want.name, c.name)) && (want.arguments === undefined || argumentsMatch(want.arguments, parseArguments(c.arguments))));
  if (hit) return;
  const parts = [...(want.name !== undefined ? [`name ${describeStringMatch(want.name)}`] : []), ...(want.arguments !== undefined ? [`arguments including ${show(want.arguments)}`] : [])];
  misses.push({
    field: `${prefix}.toolCall`,
    expected: `an earlier tool call${parts.length > 0 ? ` with ${parts.join(", ")}` : ""}`,
    actual: calls.length === 0 ? "no tool call earlier in the conversation" : show(calls.map((c) => ({ name: c.name, arguments: parseArguments(c.arguments) ?? c.arguments }))),
  });
}

const TOLERANCE = 1e-6;

/**
 * Every expectation this request fails. `scenarioSystem` is the scenario-level systemPromptMustInclude.
 * @example expectationMisses({ temperature: 0.2 }, req)
 */
export function expectationMisses(expect: Expectations | undefined, req: CanonicalRequest, scenarioSystem: string[] = []): Miss[] {
  const misses: Miss[] = [];
  const fragments = [...scenarioSystem, ...(expect?.systemPromptMustInclude ?? [])];
  const missingFragments = fragments.filter((f) => !req.system.includes(f));
  if (missingFragments.length > 0) {
    misses.push({
      field: "expect.systemPromptMustInclude",
      expected: `system prompt including ${show(missingFragments)}`,
      actual: show(req.system),
    });
  }
  if (!expect) return misses;
  if (expect.tools !== undefined && !expect.allowMissingTools) {
    const missing = expect.tools.filter((t) => !t.startsWith("agent__") && !req.tools.includes(t));
    if (missing.length > 0) {
      misses.push({ field: "expect.tools", expected: `tools ${show(missing)} offered`, actual: show(req.tools) });
    }
  }
  if (expect.temperature !== undefined) {
    if (req.temperature === undefined || Math.abs(req.temperature - expect.temperature) > TOLERANCE) {
      misses.push({ field: "expect.temperature", expected: show(expect.temperature), actual: show(req.temperature) });
    }
  }
  if (expect.topP !== undefined) {
    if (req.topP === undefined || Math.abs(req.topP - expect.topP) > TOLERANCE) {
      misses.push({ field: "expect.topP", expected: show(expect.topP), actual: show(req.topP) });
    }
  }
  if (expect.reasoning !== undefined && expect.reasoning !== req.reasoning) {
    misses.push({ field: "expect.reasoning", expected: show(expect.reasoning), actual: show(req.reasoning) });
  }
  checkString(misses, "expect.model", expect.model, req.model);
  if (expect.maxTokens !== undefined && expect.maxTokens !== req.maxTokens) {
    misses.push({ field: "expect.maxTokens", expected: show(expect.maxTokens), actual: show(req.maxTokens) });
  }
  return misses;
}
