/**
 * Arguments for a forced tool call (contract section 7): a value valid against the tool's JSON Schema, derived from a
 * seed (the request), so the same request always gets the same arguments. Pure; never Math.random.
 *
 * Honoured: `type` (a list takes its first non-null type; Gemini's upper-case names too), `const`, `enum` (one
 * member, picked by the seed), `properties` (every one while shallow, the required ones deeper), `required`,
 * `additionalProperties` / `minProperties`, `items` / `prefixItems` / `minItems` / `maxItems` / `uniqueItems`,
 * `minimum` / `maximum` / `exclusiveMinimum` / `exclusiveMaximum` (numbers and draft-4 booleans) / `multipleOf`,
 * `minLength` / `maxLength`, common `format`s, `allOf` (merged), `anyOf` / `oneOf` (the first branch), `$ref` into
 * the same document (`#/$defs/…`, `#/definitions/…`, any local pointer), `pattern` (best effort: a string made
 * from the pattern when it is simple, src/default/plausible.ts). Where a property's name suggests a kind of value
 * (`city`, `email`, `created_at`, `price`, …) and the schema leaves room, the value is of that kind rather than lorem.
 * The one generator for forced tool arguments and structured outputs (`schemaValue`).
 */
import { stableHash } from "../util/hash";
import { resolveRef } from "../canonical/schema-validate";
import { LOREM_WORDS } from "./lorem";
import type { LinearRegex } from "../util/linear-regex";
import { impliedFormat, nameWords, patternString, plausibleNumber, plausibleString } from "./plausible";

type Schema = Record<string, unknown>;

/** Past this depth an object holds only its required properties and an array only its `minItems`. */
const LEAN_DEPTH = 6;
/** Past this depth nothing is generated (a schema that requires itself forever): `{}`. */
const MAX_DEPTH = 32;
/** `$ref` / `allOf` / `anyOf` steps taken to flatten one schema before giving up. */
const MAX_FLATTEN = 32;
/**
 * Values generated for one call at most, the longest string, and the characters of text in all (strings, and `const`
 * and `enum` values by their JSON): the schema is the client's, and `minItems: 1e9`, nested `minItems: 1000`s, ten
 * thousand strings of `minLength: 65536` or of a megabyte `enum` value must not hold the server. Past them the
 * arguments stop being complete.
 */
const MAX_VALUES = 10_000;
const MAX_STRING = 65_536;
const MAX_CHARS = 1_048_576;
/** Steps of `pattern` checks for one call: past them a string with a pattern is lorem (its check would fail). */
const MAX_PATTERN_WORK = 1_000_000;

interface Ctx {
  root: unknown;
  seed: string;
  /** Values still to generate (MAX_VALUES at the start). */
  left: number;
  /** Characters of text still to generate (MAX_CHARS at the start). */
  chars: number;
  /** Steps the `pattern` checks may still take (MAX_PATTERN_WORK at the start; util/linear-regex.ts). */
  work: { left: number };
  /** Each `pattern`'s program, compiled once for the call. */
  patterns: Map<string, LinearRegex | undefined>;
}

function isSchema(v: unknown): v is Schema {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function num(v: unknown): number | undefined {
  return typeof v === "number" && Number.isFinite(v) ? v : undefined;
}

function count(v: unknown): number | undefined {
  const n = num(v);
  return n !== undefined && n >= 0 ? Math.floor(n) : undefined;
}

/** A number in 0…n-1 derived from the seed and where the value sits. */
function pick(ctx: Ctx, path: string, n: number): number {
  return n <= 1 ? 0 : Math.abs(stableHash(`${ctx.seed}|${path}`)) % n;
}

/** `a` with `b`'s keywords added: properties merged, required joined, anything else kept from `a` when both have it. */
function merge(a: Schema, b: Schema): Schema {
  const out: Schema = { ...b, ...a };
  if (isSchema(a.properties) || isSchema(b.properties)) {
    const pa = isSchema(a.properties) ? a.properties : {};
    const pb = isSchema(b.properties) ? b.properties : {};
    out.properties = { ...pb, ...pa };
    // A property both constrain takes both (a `oneOf` branch's `const` over the base's `type`).
    for (const k of Object.keys(pa)) {
      const [x, y] = [pa[k], pb[k]];
      if (isSchema(x) && isSchema(y)) (out.properties as Schema)[k] = merge(x, y);
    }
  }
  const required = [a.required, b.required].flatMap((r) => (Array.isArray(r) ? r.filter((k) => typeof k === "string") : []));
  if (required.length > 0) out.required = [...new Set(required)];
  return out;
}

/** Booleans as schemas: `true` → `{}`; `false` (nothing is valid) → undefined. */
function asSchema(v: unknown): Schema | undefined {
  if (v === true) return {};
  return isSchema(v) ? v : undefined;
}

/** The schema with `$ref`, `allOf`, `anyOf` and `oneOf` folded in, so only plain keywords are left. */
function flatten(ctx: Ctx, schema: Schema): Schema {
  let s: Schema = schema;
  for (let step = 0; step < MAX_FLATTEN; step++) {
    const { $ref, allOf, anyOf, oneOf, ...rest } = s;
    if (typeof $ref === "string") {
      const target = asSchema(resolveRef(ctx.root, $ref));
      s = target === undefined ? rest : merge(rest, target);
    } else if (Array.isArray(allOf) && allOf.length > 0) {
      s = allOf.reduce<Schema>((acc, sub) => merge(acc, asSchema(sub) ?? {}), { ...rest, ...(anyOf !== undefined ? { anyOf } : {}), ...(oneOf !== undefined ? { oneOf } : {}) });
    } else if (Array.isArray(anyOf) && anyOf.length > 0) {
      s = merge({ ...rest, ...(oneOf !== undefined ? { oneOf } : {}) }, asSchema(anyOf[0]) ?? {});
    } else if (Array.isArray(oneOf) && oneOf.length > 0) {
      s = merge(rest, asSchema(oneOf[0]) ?? {});
    } else return s;
  }
  return s;
}

/** The type to generate: the first non-null of `type`, else what the keywords imply; undefined for an empty schema. */
function typeOf(s: Schema): string | undefined {
  const types = (Array.isArray(s.type) ? s.type : [s.type]).flatMap((t) => (typeof t === "string" ? [t.toLowerCase()] : []));
  const first = types.find((t) => t !== "null") ?? types[0];
  if (first !== undefined) return first;
  if (s.properties !== undefined || s.required !== undefined || s.additionalProperties !== undefined) return "object";
  if (s.items !== undefined || s.prefixItems !== undefined || s.minItems !== undefined) return "array";
  if (s.minLength !== undefined || s.maxLength !== undefined || s.format !== undefined || s.pattern !== undefined) return "string";
  if (s.minimum !== undefined || s.maximum !== undefined || s.multipleOf !== undefined) return "number";
  return undefined;
}

function generate(ctx: Ctx, raw: unknown, path: string, depth: number): unknown {
  // Every value counts, one with no schema too (an array's items past its `prefixItems` when `items` is absent).
  if (ctx.left-- <= 0 || ctx.chars <= 0) return raw === false ? null : {};
  const base = asSchema(raw);
  if (base === undefined || depth > MAX_DEPTH) return raw === false ? null : {};
  const s = flatten(ctx, base);
  if (Object.hasOwn(s, "const")) return charged(ctx, s.const);
  if (Array.isArray(s.enum) && s.enum.length > 0) return charged(ctx, s.enum[pick(ctx, path, s.enum.length)]);
  switch (typeOf(s)) {
    case "object":
      return objectValue(ctx, s, path, depth);
    case "array":
      return arrayValue(ctx, s, path, depth);
    case "string":
      return stringValue(ctx, s, path);
    case "integer":
      return numberValue(ctx, s, path, true);
    case "number":
      return numberValue(ctx, s, path, false);
    case "boolean":
      return pick(ctx, path, 2) === 0;
    case "null":
      return null;
    default:
      return {};
  }
}

/** A `const` or `enum` value, its text taken from what is left; `{}` when more than is left. */
function charged(ctx: Ctx, value: unknown): unknown {
  const size = typeof value === "string" ? value.length : typeof value === "object" && value !== null ? JSON.stringify(value).length : 8;
  if (size > ctx.chars) {
    ctx.chars = 0;
    return {};
  }
  ctx.chars -= size;
  return value;
}

function objectValue(ctx: Ctx, s: Schema, path: string, depth: number): Record<string, unknown> {
  const properties = isSchema(s.properties) ? s.properties : {};
  const required = Array.isArray(s.required) ? s.required.filter((k): k is string => typeof k === "string") : [];
  // Every property while shallow (but none whose schema is `false`), only the required ones deeper.
  const optional = depth < LEAN_DEPTH ? Object.keys(properties).filter((k) => properties[k] !== false) : [];
  const keys = [...new Set([...optional, ...required])];
  const extra = s.additionalProperties === false ? undefined : (asSchema(s.additionalProperties) ?? {});
  const entries: [string, unknown][] = keys.map((k) => {
    const sub = Object.hasOwn(properties, k) ? properties[k] : extra;
    return [k, generate(ctx, sub, `${path}/${k}`, depth + 1)];
  });
  const min = count(s.minProperties) ?? 0;
  for (let i = 1; entries.length < min && extra !== undefined && ctx.left > 0; i++) {
    const k = `extra_${i}`;
    if (!keys.includes(k)) entries.push([k, generate(ctx, extra, `${path}/${k}`, depth + 1)]);
  }
  // fromEntries defines own properties: a key such as `__proto__` stays a plain key.
  return Object.fromEntries(entries);
}

function arrayValue(ctx: Ctx, s: Schema, path: string, depth: number): unknown[] {
  const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : [];
  const rest = Array.isArray(s.items) ? s.additionalItems : s.items;
  // `items: false` after a tuple: no more than the tuple.
  const max = Math.min(count(s.maxItems) ?? Infinity, rest === false ? prefix.length : Infinity);
  const n = Math.min(max, Math.max(count(s.minItems) ?? 0, depth < LEAN_DEPTH ? 1 : 0));
  const out: unknown[] = [];
  const seen = new Set<string>();
  for (let i = 0; i < n && ctx.left > 0; i++) {
    const schema = i < prefix.length ? prefix[i] : rest;
    let value = generate(ctx, schema, `${path}/${i}`, depth + 1);
    // uniqueItems: a few other seeds for a value already there (enums and booleans collide).
    for (let retry = 1; s.uniqueItems === true && seen.has(JSON.stringify(value)) && retry <= 8; retry++) {
      value = generate(ctx, schema, `${path}/${i}~${retry}`, depth + 1);
    }
    seen.add(JSON.stringify(value));
    out.push(value);
  }
  return out;
}

/** Two-digit decimal, zero-padded. */
const pad = (n: number, width = 2) => String(n).padStart(width, "0");

function formatted(ctx: Ctx, format: string, path: string): string | undefined {
  const h = Math.abs(stableHash(`${ctx.seed}|${path}|${format}`));
  const word = LOREM_WORDS[h % LOREM_WORDS.length]!;
  const date = `2024-${pad(1 + (h % 12))}-${pad(1 + (h % 28))}`;
  const time = `${pad(h % 24)}:${pad(h % 60)}:${pad((h >>> 8) % 60)}`;
  const hex = (h >>> 0).toString(16).padStart(8, "0");
  switch (format) {
    case "date-time":
      return `${date}T${time}Z`;
    case "date":
      return date;
    case "time":
      return `${time}Z`;
    case "email":
    case "idn-email":
      return `${word}@example.com`;
    case "uri":
    case "url":
    case "iri":
      return `https://example.com/${word}`;
    case "uri-reference":
    case "iri-reference":
      return `/${word}`;
    case "hostname":
    case "idn-hostname":
      return `${word}.example.com`;
    case "ipv4":
      return `192.0.2.${h % 256}`;
    case "ipv6":
      return `2001:db8::${hex.slice(0, 4)}`;
    case "uuid":
      return `${hex}-${hex.slice(0, 4)}-4${hex.slice(1, 4)}-8${hex.slice(4, 7)}-${hex}${hex.slice(0, 4)}`;
    case "duration":
      return `P${1 + (h % 30)}D`;
    default:
      return undefined;
  }
}

/** The words of the property a value sits under (`/order/customer_name` → ["customer", "name"]); none for an array item. */
function propertyWords(path: string): string[] {
  const key = path.slice(path.lastIndexOf("/") + 1);
  return /^\d+$/.test(key) ? [] : nameWords(key);
}

/** `text` when it fits the string's length bounds. */
function fits(s: Schema, text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  const length = [...text].length;
  return length >= (count(s.minLength) ?? 0) && length <= (count(s.maxLength) ?? Infinity) ? text : undefined;
}

function stringValue(ctx: Ctx, s: Schema, path: string): string {
  const text = stringText(ctx, s, path);
  ctx.chars -= text.length;
  return text;
}

function stringText(ctx: Ctx, s: Schema, path: string): string {
  const nameOf = propertyWords(path);
  const h = Math.abs(stableHash(`${ctx.seed}|${path}|plausible`));
  const named = typeof s.format === "string" ? s.format : impliedFormat(nameOf);
  if (typeof s.pattern === "string") {
    const matching = patternString(s.pattern, h, ctx.work, ctx.patterns);
    if (matching !== undefined && fits(s, matching) !== undefined) return matching;
  } else {
    const format = named !== undefined ? fits(s, formatted(ctx, named, path)) : undefined;
    if (format !== undefined) return format;
    if (typeof s.format !== "string") {
      const plausible = fits(s, plausibleString(nameOf, h));
      if (plausible !== undefined) return plausible;
    }
  }
  const start = pick(ctx, path, LOREM_WORDS.length);
  const words = 1 + pick(ctx, `${path}#words`, 3);
  let text = "";
  for (let i = 0; i < words; i++) text += (i > 0 ? " " : "") + LOREM_WORDS[(start + i) % LOREM_WORDS.length];
  const min = Math.min(count(s.minLength) ?? 0, MAX_STRING, ctx.chars);
  const max = count(s.maxLength) ?? Infinity;
  for (let i = words; text.length < min && text.length < 1000; i++) text += ` ${LOREM_WORDS[(start + i) % LOREM_WORDS.length]}`;
  if (text.length > max) text = text.slice(0, max);
  return text.length < min ? text.padEnd(min, "x") : text;
}

/** A bound: its value and whether it is exclusive (draft 6+ numbers, or draft 4's boolean beside min/max). */
function bound(s: Schema, inclusive: string, exclusive: string): { at: number; open: boolean } | undefined {
  const ex = num(s[exclusive]);
  const inc = num(s[inclusive]);
  if (ex !== undefined && (inc === undefined || (inclusive === "minimum" ? ex >= inc : ex <= inc))) return { at: ex, open: true };
  if (inc !== undefined) return { at: inc, open: s[exclusive] === true };
  return undefined;
}

function numberValue(ctx: Ctx, s: Schema, path: string, integer: boolean): number {
  const multiple = num(s.multipleOf);
  const plausible = multiple === undefined ? plausibleNumber(propertyWords(path), Math.abs(stableHash(`${ctx.seed}|${path}|plausible`)), integer) : undefined;
  const step = multiple !== undefined && multiple > 0 ? multiple : 1;
  const lo = bound(s, "minimum", "exclusiveMinimum");
  const hi = bound(s, "maximum", "exclusiveMaximum");
  // A value the property's name suggests, when the bounds allow it.
  if (plausible !== undefined && (lo === undefined || (lo.open ? plausible > lo.at : plausible >= lo.at)) && (hi === undefined || (hi.open ? plausible < hi.at : plausible <= hi.at))) {
    return plausible;
  }
  // The value is k × step, k within the bounds.
  let kLo = lo === undefined ? undefined : Math.ceil(lo.at / step);
  if (lo !== undefined && kLo !== undefined && lo.open && kLo * step <= lo.at) kLo++;
  let kHi = hi === undefined ? undefined : Math.floor(hi.at / step);
  if (hi !== undefined && kHi !== undefined && hi.open && kHi * step >= hi.at) kHi--;
  if (kLo === undefined && kHi === undefined) [kLo, kHi] = [1, 100];
  else if (kLo === undefined) kLo = kHi! - 99;
  else if (kHi === undefined) kHi = kLo + 99;
  // Bounds far apart (zod's integers say ±2^53): a value of everyday size when 1…100 is within them.
  else if (kLo <= 1 && kHi >= 100 && kHi - kLo > 10_000) [kLo, kHi] = [1, 100];
  if (kLo > kHi!) {
    // No multiple of the step fits: a plain number between the bounds, when fractions are allowed.
    if (!integer && multiple === undefined && lo !== undefined && hi !== undefined) return (lo.at + hi.at) / 2;
    return lo?.at ?? hi?.at ?? 0;
  }
  const span = Math.min(kHi! - kLo + 1, 100);
  const first = pick(ctx, path, span);
  // A fractional step: take a k whose product divides back exactly (0.07 / 0.01 is not an integer in floating point).
  for (let i = 0; i < span; i++) {
    const k = kLo + ((first + i) % span);
    const value = Number((k * step).toPrecision(15));
    if (Number.isInteger(value / step) && (!integer || Number.isInteger(value))) return value;
  }
  return Number((kLo * step).toPrecision(15));
}

/**
 * Arguments valid against `schema` (a tool's input JSON Schema), derived from `seed`; a schema that is not an object
 * schema, or empty, gives `{}`.
 * @example schemaArguments({ type: "object", properties: { unit: { enum: ["c", "f"] } }, required: ["unit"] }, "s") // { unit: "c" } or { unit: "f" }, the same every call
 */
export function schemaArguments(schema: unknown, seed: string): Record<string, unknown> {
  const value = schemaValue(schema, seed);
  return isSchema(value) ? value : {};
}

/**
 * A JSON value valid against `schema` (any JSON Schema, Gemini's upper-case OpenAPI subset too), derived from `seed`:
 * what the default responder answers a structured-output request with. An empty schema gives `{}`.
 * @example schemaValue({ type: "array", items: { type: "string", format: "email" }, minItems: 1 }, "s") // ["…@example.com"]
 */
export function schemaValue(schema: unknown, seed: string): unknown {
  return generate({ root: schema, seed, left: MAX_VALUES, chars: MAX_CHARS, work: { left: MAX_PATTERN_WORK }, patterns: new Map() }, schema, "", 0);
}
