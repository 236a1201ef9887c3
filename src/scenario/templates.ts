/**
 * Templates in response strings (contract section 8): `{{vars.name}}` (a scenario variable, `.key` reaching into an
 * object), `{{request.model}}`, `{{request.lastUserMessage}}`, `{{request.turn}}` and `{{session}}`; in MCP results
 * and prompts (contract section 9) `{{args.name}}` (the tool call's or prompt's argument) instead of `request`.
 * Other `{{…}}` text is sent as written. References are checked when the document is validated and expanded by the engine
 * when a step answers. Pure.
 */
import type { McpBlock } from "./mcp-schema";
import type { ScenarioResponse } from "./schema";
import { closest } from "./hints";

export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const REQUEST_FIELDS = ["model", "lastUserMessage", "turn"] as const;

/** `{{ vars.city }}`, `{{request.model}}`, `{{session}}`: spaces inside the braces allowed. */
const TEMPLATE = /\{\{\s*((?:vars|request|args)\.[A-Za-z0-9_.]+|session)\s*\}\}/g;
const WHOLE = new RegExp(`^${TEMPLATE.source}$`);

/** What templates are expanded from. */
export interface TemplateValues {
  vars: Record<string, unknown>;
  /** Model responses only. */
  request?: { model: string; lastUserMessage: string; turn: number };
  /** MCP results and prompts only: the call's (or prompt's) arguments. */
  args?: Record<string, unknown>;
  session: string;
}

/** `ignore`: not a template where it stands (`{{args.…}}` in a model response), sent as written. */
type Lookup = { ok: true; value: unknown } | { ok: false; message: string; ignore?: true };

/** Where a template stands: a model response (`request.…`) or an MCP result or prompt (`args.…`). */
type Where = "model" | "mcp";

/** Walks `.key` after a root value; a missing key is an unknown reference. */
function reach(ref: string, root: unknown, keys: string[], what: string): Lookup {
  let value = root;
  for (const key of keys) {
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, key)) {
      return { ok: false, message: `unknown reference {{${ref}}}: ${what} has no "${keys.join(".")}"` };
    }
    value = (value as Record<string, unknown>)[key];
  }
  return { ok: true, value };
}

function lookup(ref: string, values: Pick<TemplateValues, "vars"> & Partial<TemplateValues>, where: Where = "model"): Lookup {
  if (ref === "session") return { ok: true, value: values.session ?? "" };
  const [root, ...rest] = ref.split(".");
  if (root === "args") {
    if (where === "model") return { ok: false, message: "", ignore: true };
    const [name, ...keys] = rest;
    // Arguments are known only when a call arrives: any name passes validation; an absent one is sent as written.
    if (values.args === undefined) return { ok: true, value: "" };
    if (name === undefined || !Object.hasOwn(values.args, name)) return { ok: false, message: `no argument "${name ?? ""}"` };
    return reach(ref, values.args[name], keys, `args.${name}`);
  }
  if (root === "request" && where === "mcp") {
    return { ok: false, message: `{{${ref}}} is for model responses; MCP results and prompts use {{args.name}}, {{vars.name}} and {{session}}` };
  }
  if (root === "request") {
    const field = rest.join(".");
    if (rest.length !== 1 || !(REQUEST_FIELDS as readonly string[]).includes(field)) {
      const hint = closest(field, REQUEST_FIELDS);
      return {
        ok: false,
        message: `unknown reference {{${ref}}}${hint ? `; did you mean {{request.${hint}}}?` : ""} (request fields: ${REQUEST_FIELDS.join(", ")})`,
      };
    }
    return { ok: true, value: values.request?.[field as (typeof REQUEST_FIELDS)[number]] ?? "" };
  }
  const [name, ...keys] = rest;
  const known = Object.keys(values.vars);
  if (name === undefined || !Object.hasOwn(values.vars, name)) {
    const hint = name === undefined ? undefined : closest(name, known);
    const list = known.length === 0 ? "the scenario has no variables" : `variables: ${known.join(", ")}`;
    return { ok: false, message: `unknown reference {{${ref}}}${hint ? `; did you mean {{vars.${hint}}}?` : ""} (${list})` };
  }
  return reach(ref, values.vars[name], keys, `vars.${name}`);
}

function asText(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value) ?? "");
}

/**
 * `text` with every reference replaced: strings as they are, other JSON values as JSON text.
 * @example expandString("Weather in {{vars.city}}", values) // "Weather in Paris"
 */
export function expandString(text: string, values: TemplateValues, where: Where = "model"): string {
  if (!text.includes("{{")) return text;
  return text.replace(TEMPLATE, (whole, ref: string) => {
    const found = lookup(ref, values, where);
    return found.ok ? asText(found.value) : whole;
  });
}

/** Inside tool-call arguments a string that is one whole reference becomes the value itself (a number stays a number). */
export function expandJson(value: unknown, values: TemplateValues, where: Where = "model"): unknown {
  if (typeof value === "string") {
    const whole = WHOLE.exec(value);
    if (whole) {
      const found = lookup(whole[1]!, values, where);
      if (found.ok) return found.value;
    }
    return expandString(value, values, where);
  }
  if (Array.isArray(value)) return value.map((v) => expandJson(v, values, where));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandJson(v, values, where)]));
  }
  return value;
}

/**
 * Every string of a JSON value with its templates expanded as text (a whole reference to a number becomes its JSON
 * text): for MCP content blocks, whose strings must stay strings.
 * @example expandStrings({ type: "text", text: "{{args.city}}" }, { vars: {}, args: { city: "Paris" }, session: "s" }, "mcp")
 */
export function expandStrings<T>(value: T, values: TemplateValues, where: Where = "model"): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") return expandString(v, values, where);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

/**
 * A step's response with the templates in its text, reasoning, refusal, tool-call arguments and header values expanded.
 * @example expandResponse({ text: "{{vars.city}}" }, { vars: { city: "Paris" }, request, session: "s1" }) // { text: "Paris" }
 */
export function expandResponse(r: ScenarioResponse, values: TemplateValues): ScenarioResponse {
  const str = (s: string) => expandString(s, values);
  // A copy with the templated fields replaced (assigned, not spread into a literal: this runs on every scripted turn).
  const out = { ...r };
  if (r.text !== undefined) out.text = str(r.text);
  if (r.json !== undefined) out.json = expandJson(r.json, values);
  if (r.refusal !== undefined) out.refusal = str(r.refusal);
  if (r.reasoning !== undefined) {
    out.reasoning = typeof r.reasoning === "string" ? str(r.reasoning) : r.reasoning.map((b) => ("text" in b ? { ...b, text: str(b.text) } : b));
  }
  if (r.toolCalls !== undefined) {
    out.toolCalls = r.toolCalls.map((c) =>
      c.arguments === undefined ? c : { ...c, arguments: typeof c.arguments === "string" ? str(c.arguments) : (expandJson(c.arguments, values) as Record<string, unknown>) },
    );
  }
  if (r.headers !== undefined) out.headers = Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, str(v)]));
  return out;
}

/** Whether a response has a template in a string `expandResponse` expands, worked out once per response object. */
const templated = new WeakMap<ScenarioResponse, boolean>();

/**
 * Whether `expandResponse` would change `r`: a string it expands holds `{{`. Most scripted responses hold none, and
 * their turns then skip the expansion's copy (and the conversation scans its values need). Cached per object: a
 * scenario's steps live as long as the document that holds them.
 * @example hasTemplates({ text: "Hello {{vars.name}}" }) // true
 */
export function hasTemplates(r: ScenarioResponse): boolean {
  let has = templated.get(r);
  if (has === undefined) {
    has = false;
    for (const s of responseStrings(r)) {
      if (s.text.includes("{{")) {
        has = true;
        break;
      }
    }
    templated.set(r, has);
  }
  return has;
}

/** Every string of a response templates apply to, with its path below the response. */
function* responseStrings(r: ScenarioResponse): Generator<{ path: PropertyKey[]; text: string }> {
  if (r.text !== undefined) yield { path: ["text"], text: r.text };
  if (r.json !== undefined) yield* jsonStrings(r.json, ["json"]);
  if (r.refusal !== undefined) yield { path: ["refusal"], text: r.refusal };
  if (typeof r.reasoning === "string") yield { path: ["reasoning"], text: r.reasoning };
  else if (r.reasoning !== undefined) {
    for (const [i, b] of r.reasoning.entries()) if ("text" in b) yield { path: ["reasoning", i, "text"], text: b.text };
  }
  for (const [i, c] of (r.toolCalls ?? []).entries()) {
    if (c.arguments !== undefined) yield* jsonStrings(c.arguments, ["toolCalls", i, "arguments"]);
  }
  for (const [k, v] of Object.entries(r.headers ?? {})) yield { path: ["headers", k], text: v };
}

function* jsonStrings(value: unknown, path: PropertyKey[]): Generator<{ path: PropertyKey[]; text: string }> {
  if (typeof value === "string") yield { path, text: value };
  else if (Array.isArray(value)) for (const [i, v] of value.entries()) yield* jsonStrings(v, [...path, i]);
  else if (value !== null && typeof value === "object") for (const [k, v] of Object.entries(value)) yield* jsonStrings(v, [...path, k]);
}

/**
 * Every reference in the document's responses that would not resolve, with its path (`steps.0.respond.text`).
 * @example templateIssues({ variables: { city: "Paris" }, steps: [{ respond: { text: "{{vars.town}}" } }] })
 */
export function templateIssues(doc: {
  variables?: Record<string, unknown> | undefined;
  steps: { respond?: ScenarioResponse | undefined }[];
  mcp?: McpBlock | undefined;
}): { path: PropertyKey[]; message: string }[] {
  const issues: { path: PropertyKey[]; message: string }[] = [];
  const values = { vars: doc.variables ?? {} };
  const check = (strings: Iterable<{ path: PropertyKey[]; text: string }>, where: Where) => {
    for (const { path, text } of strings) {
      for (const m of text.matchAll(TEMPLATE)) {
        const found = lookup(m[1]!, values, where);
        if (!found.ok && found.ignore !== true) issues.push({ path, message: found.message });
      }
    }
  };
  for (const [i, step] of doc.steps.entries()) {
    if (!step.respond) continue;
    check(
      [...responseStrings(step.respond)].map((s) => ({ ...s, path: ["steps", i, "respond", ...s.path] })),
      "model",
    );
  }
  for (const [i, call] of (doc.mcp?.calls ?? []).entries()) {
    if (call.result) check(jsonStrings(call.result, ["mcp", "calls", i, "result"]), "mcp");
    if (call.error) check(jsonStrings(call.error, ["mcp", "calls", i, "error"]), "mcp");
  }
  for (const [i, prompt] of (doc.mcp?.prompts ?? []).entries()) check(jsonStrings(prompt.messages, ["mcp", "prompts", i, "messages"]), "mcp");
  return issues;
}
