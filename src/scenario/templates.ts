/**
 * Templates in response strings (contract section 8): `{{vars.name}}` (a scenario variable, `.key` reaching into an
 * object), `{{request.model}}`, `{{request.lastUserMessage}}`, `{{request.turn}}` and `{{session}}`. Other `{{…}}`
 * text is sent as written. References are checked when the document is validated and expanded by the engine
 * when a step answers. Pure.
 */
import type { ScenarioResponse } from "./schema";
import { closest } from "./hints";

export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const REQUEST_FIELDS = ["model", "lastUserMessage", "turn"] as const;

/** `{{ vars.city }}`, `{{request.model}}`, `{{session}}`: spaces inside the braces allowed. */
const TEMPLATE = /\{\{\s*((?:vars|request)\.[A-Za-z0-9_.]+|session)\s*\}\}/g;
const WHOLE = new RegExp(`^${TEMPLATE.source}$`);

/** What templates are expanded from. */
export interface TemplateValues {
  vars: Record<string, unknown>;
  request: { model: string; lastUserMessage: string; turn: number };
  session: string;
}

type Lookup = { ok: true; value: unknown } | { ok: false; message: string };

function lookup(ref: string, values: Pick<TemplateValues, "vars"> & Partial<TemplateValues>): Lookup {
  if (ref === "session") return { ok: true, value: values.session ?? "" };
  const [root, ...rest] = ref.split(".");
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
  let value: unknown = values.vars[name];
  for (const key of keys) {
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, key)) {
      return { ok: false, message: `unknown reference {{${ref}}}: vars.${name} has no "${keys.join(".")}"` };
    }
    value = (value as Record<string, unknown>)[key];
  }
  return { ok: true, value };
}

function asText(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value) ?? "");
}

/**
 * `text` with every reference replaced: strings as they are, other JSON values as JSON text.
 * @example expandString("Weather in {{vars.city}}", values) // "Weather in Paris"
 */
export function expandString(text: string, values: TemplateValues): string {
  return text.replace(TEMPLATE, (whole, ref: string) => {
    const found = lookup(ref, values);
    return found.ok ? asText(found.value) : whole;
  });
}

/** Inside tool-call arguments a string that is one whole reference becomes the value itself (a number stays a number). */
function expandJson(value: unknown, values: TemplateValues): unknown {
  if (typeof value === "string") {
    const whole = WHOLE.exec(value);
    if (whole) {
      const found = lookup(whole[1]!, values);
      if (found.ok) return found.value;
    }
    return expandString(value, values);
  }
  if (Array.isArray(value)) return value.map((v) => expandJson(v, values));
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandJson(v, values)]));
  }
  return value;
}

/**
 * A step's response with the templates in its text, reasoning, refusal, tool-call arguments and header values expanded.
 * @example expandResponse({ text: "{{vars.city}}" }, { vars: { city: "Paris" }, request, session: "s1" }) // { text: "Paris" }
 */
export function expandResponse(r: ScenarioResponse, values: TemplateValues): ScenarioResponse {
  const str = (s: string) => expandString(s, values);
  return {
    ...r,
    ...(r.text !== undefined ? { text: str(r.text) } : {}),
    ...(r.refusal !== undefined ? { refusal: str(r.refusal) } : {}),
    ...(r.reasoning !== undefined
      ? {
          reasoning:
            typeof r.reasoning === "string" ? str(r.reasoning) : r.reasoning.map((b) => ("text" in b ? { ...b, text: str(b.text) } : b)),
        }
      : {}),
    ...(r.toolCalls !== undefined
      ? {
          toolCalls: r.toolCalls.map((c) =>
            c.arguments === undefined
              ? c
              : { ...c, arguments: typeof c.arguments === "string" ? str(c.arguments) : (expandJson(c.arguments, values) as Record<string, unknown>) },
          ),
        }
      : {}),
    ...(r.headers !== undefined ? { headers: Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, str(v)])) } : {}),
  };
}

/** Every string of a response templates apply to, with its path below the response. */
function* responseStrings(r: ScenarioResponse): Generator<{ path: PropertyKey[]; text: string }> {
  if (r.text !== undefined) yield { path: ["text"], text: r.text };
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
}): { path: PropertyKey[]; message: string }[] {
  const issues: { path: PropertyKey[]; message: string }[] = [];
  const values = { vars: doc.variables ?? {} };
  for (const [i, step] of doc.steps.entries()) {
    if (!step.respond) continue;
    for (const { path, text } of responseStrings(step.respond)) {
      for (const m of text.matchAll(TEMPLATE)) {
        const found = lookup(m[1]!, values);
        if (!found.ok) issues.push({ path: ["steps", i, "respond", ...path], message: found.message });
      }
    }
  }
  return issues;
}
