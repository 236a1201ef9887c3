/**
 * A request body the OpenAI API refuses, in the API's own words. The API phrases each kind of fault one way on every
 * surface (captures in docs/providers/fidelity.md, "Request bodies the schema refuses"):
 *
 * - a missing member: `Missing required parameter: 'messages[0].role'.`, `missing_required_parameter`;
 * - a wrong type: `Invalid type for 'temperature': expected a decimal, but got a string instead.`, `invalid_type`
 *   (the expected type read from the schema at that place, the received one from the value);
 * - a value outside an enum: `Invalid value: 'bogus'. Supported values are: 'a', 'b', and 'c'.`, `invalid_value`;
 * - sizes and bounds: `Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array
 *   instead.` (`empty_array`), `… array too long …` (`array_above_max_length`), `… integer below minimum value …`
 *   (`integer_below_min_value`), and their string and decimal kin.
 *
 * A zod issue of another kind keeps the general sentence (`Invalid value for 'x': …`, no code).
 */
import type { z } from "zod";
import { apiError, type ApiError } from "../../http/errors";
import { valueAt } from "../../http/json";
import { wirePath } from "../wire-issues";
import { echoed, echoedValue } from "../../util/text";

/** The zod internals read here (zod 4's `_zod.def`), loosely typed. */
interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  innerType?: z.ZodType;
  in?: z.ZodType;
  getter?: () => z.ZodType;
  entries?: Record<string, string | number>;
  values?: unknown[];
  format?: string;
  checks?: { _zod: { def: { check: string; format?: string } } }[];
}
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** Wrappers whose inner schema decides what a value must be. */
const WRAPPERS: ReadonlySet<string> = new Set(["optional", "nullable", "default", "prefault", "readonly", "catch", "nonoptional"]);

function unwrapped(s: z.ZodType): z.ZodType {
  for (let d = defOf(s); ; d = defOf(s)) {
    if (WRAPPERS.has(d.type) && d.innerType) s = d.innerType;
    else if (d.type === "pipe" && d.in) s = d.in;
    else if (d.type === "lazy" && d.getter) s = d.getter();
    else return s;
  }
}

/** The schema that checks the value at `path` below `s` (through objects, arrays, records and unions), if any. */
function schemaAt(s: z.ZodType, path: readonly PropertyKey[]): z.ZodType | undefined {
  let at: z.ZodType | undefined = s;
  for (const key of path) {
    if (at === undefined) return undefined;
    at = childOf(unwrapped(at), key);
  }
  return at;
}

function childOf(s: z.ZodType, key: PropertyKey): z.ZodType | undefined {
  const d = defOf(s);
  switch (d.type) {
    case "object":
      return (typeof key === "string" && d.shape && Object.hasOwn(d.shape, key) ? d.shape[key] : undefined) ?? d.catchall;
    case "array":
      return typeof key === "number" ? d.element : undefined;
    case "record":
      return d.valueType;
    case "union":
      for (const o of d.options ?? []) {
        const child = childOf(unwrapped(o), key);
        if (child !== undefined) return child;
      }
      return undefined;
    default:
      return undefined;
  }
}

function isInteger(d: Def): boolean {
  return d.format?.includes("int") === true || (d.checks ?? []).some((c) => c._zod.def.check === "number_format" && c._zod.def.format?.includes("int") === true);
}

/** `a, b, or c` (the API's lists: two joined by the word alone, more with a comma before it). */
function listed(items: readonly string[], word: "or" | "and"): string {
  if (items.length <= 2) return items.join(` ${word} `);
  return `${items.slice(0, -1).join(", ")}, ${word} ${items[items.length - 1]}`;
}

const quoted = (values: readonly unknown[]): string[] => values.map((v) => `'${String(v)}'`);

/** An enum's or a literal's allowed values (a union's first enum's), else undefined. */
function valuesOf(d: Def): unknown[] | undefined {
  if (d.type === "enum") return Object.values(d.entries ?? {});
  if (d.type === "literal") return d.values;
  if (d.type === "union") {
    for (const o of d.options ?? []) {
      const values = valuesOf(defOf(unwrapped(o)));
      if (values !== undefined) return values;
    }
  }
  return undefined;
}

/**
 * What a value must be, as the API says it after "expected": `a string`, `an integer`, `a decimal`, `an array of
 * objects`, `one of a string or array of objects`, `one of 'none', 'auto', or 'required'`. Inside a union an object
 * or an array drops its article, as the API's own "one of a string or array of objects" does; `null` is not named.
 */
export function expectedOf(schema: z.ZodType, top = true): string {
  const s = unwrapped(schema);
  const d = defOf(s);
  const values = d.type === "union" ? undefined : valuesOf(d);
  if (values !== undefined) return values.length === 1 ? quoted(values)[0]! : `one of ${listed(quoted(values), "or")}`;
  switch (d.type) {
    case "string":
      return "a string";
    case "number":
      return isInteger(d) ? "an integer" : "a decimal";
    case "int":
    case "bigint":
      return "an integer";
    case "boolean":
      return "a boolean";
    case "object":
    case "record":
      return top ? "an object" : "object";
    case "array":
      return `${top ? "an " : ""}array of ${pluralOf(d.element)}`;
    case "union": {
      const options = (d.options ?? []).filter((o) => !["null", "undefined"].includes(defOf(unwrapped(o)).type));
      if (options.length === 1) return expectedOf(options[0]!, top);
      return `one of ${listed(
        options.map((o) => expectedOf(o, false)),
        "or",
      )}`;
    }
    case "null":
      return "null";
    default:
      return "a value";
  }
}

/** An array's elements, as "array of …" names them (a schema's `describe()` names them itself: "input items"). */
function pluralOf(element: z.ZodType | undefined): string {
  if (element === undefined) return "values";
  if (element.description !== undefined) return element.description;
  const d = defOf(unwrapped(element));
  switch (d.type) {
    case "object":
    case "record":
      return "objects";
    case "string":
      return "strings";
    case "number":
      return isInteger(d) ? "integers" : "numbers";
    case "boolean":
      return "booleans";
    case "array":
      return "arrays";
    default:
      return "values";
  }
}

/** What a value is, as the API says it after "but got": `a string`, `an integer`, `a decimal number`, `null`, … */
export function receivedOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "object":
      return "an object";
    case "number":
      return Number.isInteger(value) ? "an integer" : "a decimal number";
    case "boolean":
      return "a boolean";
    case "string":
      return "a string";
    default:
      return "a value";
  }
}

/** The zod 4 issue fields read here. */
interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  errors?: Issue[][];
}

/**
 * The issue to report for a union every option refused: the first option that took the value's own type and failed
 * inside it (a content array with a bad part names the part), else the union itself.
 */
function deepest(issue: Issue): Issue {
  if (issue.code !== "invalid_union") return issue;
  for (const branch of issue.errors ?? []) {
    const first = branch[0];
    if (first !== undefined && (first.path.length > 0 || first.code !== "invalid_type")) {
      return deepest({ ...first, path: [...issue.path, ...first.path] });
    }
  }
  return issue;
}

/**
 * The API's refusal of a request without `param`.
 * @example missingParameter("messages[0].role").message // "Missing required parameter: 'messages[0].role'."
 */
export function missingParameter(param: string): ApiError {
  return invalid(`Missing required parameter: '${param}'.`, param, "missing_required_parameter");
}

/**
 * The API's refusal of `value` at `param` for its type, `expected` as the API names it (`expectedOf`).
 * @example invalidType("items", "an array of objects", {}).message // "Invalid type for 'items': expected an array of objects, but got an object instead."
 */
export function invalidType(param: string, expected: string, value: unknown): ApiError {
  return invalid(`Invalid type for '${param}': expected ${expected}, but got ${receivedOf(value)} instead.`, param, "invalid_type");
}

/**
 * The API's refusal of a value outside `values`, the value quoted as sent (cut past 64 characters).
 * @example unsupportedValue("bogus", ["none", "auto", "required"], "tool_choice").message // "Invalid value: 'bogus'. Supported values are: 'none', 'auto', and 'required'."
 */
export function unsupportedValue(value: unknown, values: readonly unknown[], param: string): ApiError {
  return invalid(`Invalid value: '${echoedValue(value)}'. Supported values are: ${listed(quoted(values), "and")}.`, param, "invalid_value");
}

const invalid = (message: string, param: string, providerCode?: string): ApiError => apiError("invalid_request", message, { param, ...(providerCode ? { providerCode } : {}) });

/** A size or bound fault (`too_small` / `too_big`), in the API's words. */
function boundError(issue: Issue, param: string, value: unknown, schema: z.ZodType | undefined): ApiError | undefined {
  const below = issue.code === "too_small";
  const bound = Number(below ? issue.minimum : issue.maximum);
  if (Array.isArray(value)) {
    if (below && value.length === 0) return emptyArrayError(param, bound);
    const [what, code] = below ? ["too short", "array_below_min_length"] : ["too long", "array_above_max_length"];
    return invalid(`Invalid '${param}': array ${what}. Expected an array with ${below ? "minimum" : "maximum"} length ${bound}, but got an array with length ${value.length} instead.`, param, code);
  }
  if (typeof value === "string") {
    if (below && value.length === 0) {
      return invalid(`Invalid '${param}': empty string. Expected a string with minimum length ${bound}, but got an empty string instead.`, param, "empty_string");
    }
    const [what, code] = below ? ["too short", "string_below_min_length"] : ["too long", "string_above_max_length"];
    return invalid(`Invalid '${param}': string ${what}. Expected a string with ${below ? "minimum" : "maximum"} length ${bound}, but got a string with length ${value.length} instead.`, param, code);
  }
  if (typeof value === "number") {
    const kind = schema !== undefined && isInteger(defOf(unwrapped(schema))) ? "integer" : "decimal";
    return numberBoundError(param, value, below ? { min: bound } : { max: bound }, kind);
  }
  return undefined;
}

/**
 * The API's refusal of a number outside `[min, max]`, else undefined.
 * @example numberBoundError("temperature", 3, { min: 0, max: 2 }, "decimal")?.message // "Invalid 'temperature': decimal above maximum value. Expected a value <= 2, but got 3 instead."
 */
export function numberBoundError(param: string, value: number, range: { min?: number; max?: number }, kind: "integer" | "decimal"): ApiError | undefined {
  if (range.min !== undefined && value < range.min) {
    return invalid(`Invalid '${param}': ${kind} below minimum value. Expected a value >= ${range.min}, but got ${value} instead.`, param, `${kind}_below_min_value`);
  }
  if (range.max !== undefined && value > range.max) {
    return invalid(`Invalid '${param}': ${kind} above maximum value. Expected a value <= ${range.max}, but got ${value} instead.`, param, `${kind}_above_max_value`);
  }
  return undefined;
}

/** A numeric parameter's range as the API checks it. */
export interface NumberBound {
  param: string;
  min?: number;
  max?: number;
  kind: "integer" | "decimal";
}

/**
 * The refusal of the first of `bounds` whose number in `body` is out of its range, else undefined.
 * @example firstBoundError({ temperature: 3 }, [{ param: "temperature", min: 0, max: 2, kind: "decimal" }])?.providerCode // "decimal_above_max_value"
 */
export function firstBoundError(body: Readonly<Record<string, unknown>>, bounds: readonly NumberBound[]): ApiError | undefined {
  for (const { param, min, max, kind } of bounds) {
    const value = body[param];
    const refused = typeof value === "number" ? numberBoundError(param, value, { min, max }, kind) : undefined;
    if (refused) return refused;
  }
  return undefined;
}

/**
 * The API's refusal of an empty array where `bound` items at least are needed.
 * @example emptyArrayError("prompt").providerCode // "empty_array"
 */
export function emptyArrayError(param: string, bound = 1): ApiError {
  return invalid(`Invalid '${param}': empty array. Expected an array with minimum length ${bound}, but got an empty array instead.`, param, "empty_array");
}

/**
 * The API's refusal of an array longer than `max`, else undefined.
 * @example arrayLengthError("stop", ["a", "b", "c", "d", "e"], 4)?.providerCode // "array_above_max_length"
 */
export function arrayLengthError(param: string, value: readonly unknown[] | null | undefined, max: number): ApiError | undefined {
  if (!Array.isArray(value) || value.length <= max) return undefined;
  return invalid(`Invalid '${param}': array too long. Expected an array with maximum length ${max}, but got an array with length ${value.length} instead.`, param, "array_above_max_length");
}

/** `prefix` (where the body sits in the request, e.g. `input[2]`) joined to a path inside it. */
function paramOf(prefix: string, path: readonly PropertyKey[]): string {
  if (prefix === "") return wirePath(path);
  return path.length === 0 || typeof path[0] === "number" ? `${prefix}${wirePath(path)}` : `${prefix}.${wirePath(path)}`;
}

/**
 * The first fault of a body `schema` refused, as the OpenAI API words it; `prefix` names where the body sits when it
 * is a part of the request (`input[2]`).
 * @example openaiRequestError(schema.safeParse(body).error!, schema, { model: "m", messages: [] }).message // "Invalid 'messages': empty array. …"
 */
export function openaiRequestError(error: z.ZodError, schema: z.ZodType, body: unknown, prefix = ""): ApiError {
  const first = error.issues[0] as Issue | undefined;
  if (first === undefined) return invalid("Invalid request body.", prefix);
  const issue = deepest(first);
  const param = paramOf(prefix, issue.path);
  const value = valueAt(body, issue.path);
  const at = schemaAt(schema, issue.path);
  if (value === undefined && (issue.code === "invalid_type" || issue.code === "invalid_union" || issue.code === "invalid_value")) {
    return missingParameter(param);
  }
  switch (issue.code) {
    case "invalid_type":
    case "invalid_union":
      if (at !== undefined) return invalidType(param, expectedOf(at), value);
      break;
    case "invalid_value": {
      const values = at === undefined ? undefined : valuesOf(defOf(unwrapped(at)));
      if (values === undefined) break;
      // A value of another type than the enum's: its type is the fault (`expected one of 'a' or 'b'`).
      if (typeof value !== "string") return invalidType(param, expectedOf(at!), value);
      return unsupportedValue(value, values, param);
    }
    case "unrecognized_keys": {
      // A strict object's field the API does not know, in the API's words.
      const key = (issue as { keys?: string[] }).keys?.[0] ?? "";
      const at = param === "" ? key : `${param}.${key}`;
      return apiError("invalid_request", `Unknown parameter: '${echoed(at)}'.`, { param: at, providerCode: "unknown_parameter" });
    }
    case "too_small":
    case "too_big": {
      const bound = boundError(issue, param, value, at);
      if (bound !== undefined) return bound;
      break;
    }
  }
  return invalid(`Invalid value for '${param}': ${issue.message}.`, param);
}
