/**
 * A small JSON Schema validator for the subset the providers' structured outputs allow (OpenAI strict mode,
 * Anthropic's, Gemini's OpenAPI subset with upper-case types and `nullable`, Ollama's): `type` (a list too),
 * `nullable`, `const`, `enum`, `properties` / `required` / `additionalProperties` / `minProperties` /
 * `maxProperties`, `items` / `prefixItems` / `minItems` / `maxItems` / `uniqueItems`, `minimum` / `maximum` /
 * `exclusiveMinimum` / `exclusiveMaximum` / `multipleOf`, `minLength` / `maxLength` / `pattern`, the formats
 * `date-time`, `date`, `time`, `email`, `uuid`, `uri`, `ipv4`, `ipv6`, `hostname`, `duration`, `anyOf` / `oneOf` /
 * `allOf`, `not`, and local `$ref` (`#/$defs/…`, `#/definitions/…`, `#`). Errors carry JSON-pointer paths into the
 * value. Pure; a schema keyword it does not know is ignored (the check errs on the side of passing), and so is a
 * `pattern` the linear-time engine (util/linear-regex.ts) does not follow — a lookahead, a backreference.
 */
import { safeDecode } from "../http/url";
import { compileLinear, linearRegex, type LinearRegex } from "../util/linear-regex";
import { own } from "../util/own";

type Schema = Record<string, unknown>;

export interface SchemaError {
  /** JSON pointer into the value (`""` = the value itself). */
  path: string;
  message: string;
}

/** Errors past this are dropped: a huge answer against a wrong schema must not make a huge journal entry. */
const MAX_ERRORS = 20;
const MAX_DEPTH = 64;

/**
 * Steps of pattern tests one validation takes at most (a step: one instruction at one character): a schema's patterns
 * are the client's, the value may be long, and past this the remaining patterns go unchecked.
 */
const MAX_PATTERN_WORK = 1_000_000;

interface Ctx {
  root: unknown;
  errors: SchemaError[];
  work: { left: number };
}

function isSchema(v: unknown): v is Schema {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function pointer(path: string, key: string | number): string {
  return `${path}/${String(key).replace(/~/g, "~0").replace(/\//g, "~1")}`;
}

/** The schema a local `$ref` (`#`, `#/$defs/x`, `#/definitions/x`, any JSON pointer) points to; undefined otherwise. */
export function resolveRef(root: unknown, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let node = root;
  for (const raw of ref.slice(2).split("/")) {
    const key = safeDecode(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isSchema(node) && Object.hasOwn(node, key)) node = node[key];
    else return undefined;
  }
  return node;
}

/** The JSON type of a value, as schemas name it (`integer` for whole numbers). */
function jsonType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  if (typeof v === "number") return Number.isInteger(v) ? "integer" : "number";
  return typeof v;
}

function typeMatches(value: unknown, type: string): boolean {
  const actual = jsonType(value);
  if (type === "number") return actual === "number" || actual === "integer";
  return actual === type;
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== "object") return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((x, i) => deepEqual(x, (b as unknown[])[i]));
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  return ka.length === kb.length && ka.every((k) => Object.hasOwn(b as object, k) && deepEqual((a as Schema)[k], (b as Schema)[k]));
}

/**
 * The formats' expressions, each tested in linear time where the engine follows it (a scripted value may carry a
 * client's text through a template, and `hostname`'s nested repeats backtrack on a crafted one); `duration`'s
 * lookaheads stay on V8 (nothing in it repeats a repeat).
 */
const FORMATS: Record<string, { test(text: string): boolean | undefined }> = linearFormats({
  "date-time": /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/,
  date: /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/,
  time: /^\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})?$/,
  email: /^[^\s@]+@[^\s@]+\.[^\s@]+$/,
  uuid: /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/,
  uri: /^[a-zA-Z][a-zA-Z0-9+.-]*:\S*$/,
  ipv4: /^((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/,
  ipv6: /^[0-9a-fA-F:]+$/,
  hostname: /^[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(\.[a-zA-Z0-9]([a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/,
  duration: /^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+(\.\d+)?S)?)?$/,
});

function linearFormats(formats: Record<string, RegExp>): Record<string, { test(text: string): boolean | undefined }> {
  return Object.fromEntries(Object.entries(formats).map(([name, re]) => [name, compileLinear(re.source, re.flags) ?? re]));
}

/**
 * A `pattern` (the client's) compiled for a linear-time test — with `u` as JSON Schema means it, else without — or
 * undefined: invalid, or using what the linear engine does not follow (lookarounds, backreferences), left unchecked.
 */
function patternOf(source: string): LinearRegex | undefined {
  return linearRegex(source, "u") ?? linearRegex(source);
}

function add(ctx: Ctx, path: string, message: string) {
  if (ctx.errors.length < MAX_ERRORS) ctx.errors.push({ path, message });
}

/** The errors `value` has against `raw`, appended to a scratch list (for anyOf/oneOf branches). */
function errorsOf(ctx: Ctx, raw: unknown, value: unknown, path: string, depth: number): SchemaError[] {
  const sub: Ctx = { root: ctx.root, errors: [], work: ctx.work };
  check(sub, raw, value, path, depth);
  return sub.errors;
}

function check(ctx: Ctx, raw: unknown, value: unknown, path: string, depth: number): void {
  if (raw === true || raw === undefined) return;
  if (raw === false) return add(ctx, path, "no value is allowed here");
  if (!isSchema(raw) || depth > MAX_DEPTH || ctx.errors.length >= MAX_ERRORS) return;
  const s = raw;
  if (typeof s.$ref === "string") {
    const target = resolveRef(ctx.root, s.$ref);
    if (target !== undefined) check(ctx, target, value, path, depth + 1);
  }
  if (Array.isArray(s.allOf)) for (const sub of s.allOf) check(ctx, sub, value, path, depth + 1);
  for (const key of ["anyOf", "oneOf"] as const) {
    const list = s[key];
    if (!Array.isArray(list) || list.length === 0) continue;
    const results = list.map((sub) => errorsOf(ctx, sub, value, path, depth + 1));
    const passing = results.filter((r) => r.length === 0).length;
    if (passing === 0) {
      // The branch that came closest says what is wrong; with none close, the keyword does.
      const best = results.reduce((a, b) => (b.length < a.length ? b : a));
      if (best.length === 1 && results.filter((r) => r.length === 1).length === 1) add(ctx, best[0]!.path, best[0]!.message);
      else add(ctx, path, `must match ${key === "anyOf" ? "at least one" : "exactly one"} schema in ${key}`);
    } else if (key === "oneOf" && passing > 1) add(ctx, path, "must match exactly one schema in oneOf");
  }
  if (s.not !== undefined && errorsOf(ctx, s.not, value, path, depth + 1).length === 0) add(ctx, path, "must not match the schema in not");

  if (value === null && s.nullable === true) return;
  const types = (Array.isArray(s.type) ? s.type : s.type === undefined ? [] : [s.type]).flatMap((t) => (typeof t === "string" ? [t.toLowerCase()] : []));
  if (types.length > 0 && !types.some((t) => typeMatches(value, t))) {
    return add(ctx, path, `must be ${types.join(" or ")}, got ${jsonType(value) === "integer" ? "number" : jsonType(value)}`);
  }
  if (Object.hasOwn(s, "const") && !deepEqual(value, s.const)) add(ctx, path, `must be equal to constant ${JSON.stringify(s.const)}`);
  if (Array.isArray(s.enum) && !s.enum.some((e) => deepEqual(e, value))) {
    add(ctx, path, `must be one of ${s.enum.map((e) => JSON.stringify(e)).join(", ")}`);
  }
  if (typeof value === "string") checkString(ctx, s, value, path);
  else if (typeof value === "number") checkNumber(ctx, s, value, path);
  else if (Array.isArray(value)) checkArray(ctx, s, value, path, depth);
  else if (isSchema(value)) checkObject(ctx, s, value, path, depth);
}

function checkString(ctx: Ctx, s: Schema, value: string, path: string) {
  const length = [...value].length;
  if (typeof s.minLength === "number" && length < s.minLength) add(ctx, path, `must NOT have fewer than ${s.minLength} characters`);
  if (typeof s.maxLength === "number" && length > s.maxLength) add(ctx, path, `must NOT have more than ${s.maxLength} characters`);
  if (typeof s.pattern === "string") {
    if (patternOf(s.pattern)?.test(value, ctx.work) === false) add(ctx, path, `must match pattern "${s.pattern}"`);
  }
  if (typeof s.format === "string") {
    // Own keys only: a client's `"format": "constructor"` names no format (and no function of Object's prototype).
    const re = own(FORMATS, s.format);
    if (re?.test(value) === false) add(ctx, path, `must match format "${s.format}"`);
  }
}

function checkNumber(ctx: Ctx, s: Schema, value: number, path: string) {
  const num = (k: string) => (typeof s[k] === "number" ? (s[k] as number) : undefined);
  const min = num("minimum");
  const max = num("maximum");
  const exMin = num("exclusiveMinimum") ?? (s.exclusiveMinimum === true ? min : undefined);
  const exMax = num("exclusiveMaximum") ?? (s.exclusiveMaximum === true ? max : undefined);
  if (min !== undefined && s.exclusiveMinimum !== true && value < min) add(ctx, path, `must be >= ${min}`);
  if (max !== undefined && s.exclusiveMaximum !== true && value > max) add(ctx, path, `must be <= ${max}`);
  if (exMin !== undefined && value <= exMin) add(ctx, path, `must be > ${exMin}`);
  if (exMax !== undefined && value >= exMax) add(ctx, path, `must be < ${exMax}`);
  const multiple = num("multipleOf");
  if (multiple !== undefined && multiple > 0) {
    const q = value / multiple;
    if (Math.abs(q - Math.round(q)) > 1e-9) add(ctx, path, `must be multiple of ${multiple}`);
  }
}

function checkArray(ctx: Ctx, s: Schema, value: unknown[], path: string, depth: number) {
  if (typeof s.minItems === "number" && value.length < s.minItems) add(ctx, path, `must NOT have fewer than ${s.minItems} items`);
  if (typeof s.maxItems === "number" && value.length > s.maxItems) add(ctx, path, `must NOT have more than ${s.maxItems} items`);
  const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : [];
  const rest = Array.isArray(s.items) ? s.additionalItems : s.items;
  value.forEach((item, i) => check(ctx, i < prefix.length ? prefix[i] : rest, item, pointer(path, i), depth + 1));
  if (s.uniqueItems === true) {
    for (let i = 1; i < value.length; i++) {
      if (value.slice(0, i).some((x) => deepEqual(x, value[i]))) {
        add(ctx, path, `must NOT have duplicate items (item ${i} is a repeat)`);
        break;
      }
    }
  }
}

function checkObject(ctx: Ctx, s: Schema, value: Schema, path: string, depth: number) {
  const properties = isSchema(s.properties) ? s.properties : {};
  if (Array.isArray(s.required)) {
    for (const k of s.required) if (typeof k === "string" && !Object.hasOwn(value, k)) add(ctx, path, `must have required property '${k}'`);
  }
  const keys = Object.keys(value);
  if (typeof s.minProperties === "number" && keys.length < s.minProperties) add(ctx, path, `must NOT have fewer than ${s.minProperties} properties`);
  if (typeof s.maxProperties === "number" && keys.length > s.maxProperties) add(ctx, path, `must NOT have more than ${s.maxProperties} properties`);
  for (const k of keys) {
    if (Object.hasOwn(properties, k)) check(ctx, properties[k], value[k], pointer(path, k), depth + 1);
    else if (s.additionalProperties === false) add(ctx, pointer(path, k), `must NOT be an additional property`);
    else if (isSchema(s.additionalProperties)) check(ctx, s.additionalProperties, value[k], pointer(path, k), depth + 1);
  }
}

/**
 * The errors `value` has against `schema` (empty: valid).
 * @example validateSchema({ type: "object", properties: { total: { type: "number" } }, required: ["total"] }, { total: "x" }) // [{ path: "/total", message: "must be number, got string" }]
 */
export function validateSchema(schema: unknown, value: unknown): SchemaError[] {
  const ctx: Ctx = { root: schema, errors: [], work: { left: MAX_PATTERN_WORK } };
  check(ctx, schema, value, "", 0);
  return ctx.errors;
}
