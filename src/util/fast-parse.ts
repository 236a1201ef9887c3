/**
 * zod's `safeParse` for request bodies, with a fast path for the input it accepts. On Workers zod cannot compile its
 * object parsers (no code generation from strings there), and its interpreted path costs ~180 µs of workerd CPU for a
 * 121-message agent conversation (11% of that turn). A schema is turned once into plain closures that check
 * a value and build zod's output for it — the same object: known keys in the shape's order, unknown keys after them as
 * a loose object keeps them, stripped otherwise, `__proto__` never copied; records of string keys; a transform of any
 * value (its function called as zod calls it). Anything else the closures do not model (transforms of a typed value,
 * defaults, refinements, formats, other pipes…) is handed to zod itself for that part. Input the fast path refuses is
 * parsed again by zod as a whole, so every error is zod's own.
 */
import type { z } from "zod";

/** What a compiled part answers for input its schema refuses. */
const FAIL: unique symbol = Symbol("refused");
type Run = (value: unknown) => unknown;

/** The zod internals read here (zod 4's `_zod.def`), loosely typed: only the fields each case uses. */
interface Def {
  type: string;
  checks?: { _zod: { def: CheckDef } }[];
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  element?: z.ZodType;
  /** A record's key and value types. */
  keyType?: z.ZodType;
  valueType?: z.ZodType;
  options?: z.ZodType[];
  innerType?: z.ZodType;
  /** A pipe's two sides. */
  in?: z.ZodType;
  out?: z.ZodType;
  /** A transform's function. */
  transform?: (input: unknown, payload: TransformPayload) => unknown;
  coerce?: boolean;
  /** A string or number format (`z.email()`, `z.int()`): not modelled. */
  format?: string;
  /** A discriminated union's key: not modelled. */
  discriminator?: string;
  /** `false` on an exclusive union (`z.xor`): not modelled. */
  inclusive?: boolean;
}
interface CheckDef {
  check: string;
  when?: unknown;
  minimum?: number;
  maximum?: number;
  value?: unknown;
  inclusive?: boolean;
  format?: string;
}

/** What zod hands a transform's function: the value and its issues, with `addIssue` (classic zod's). */
interface TransformPayload {
  value: unknown;
  issues: unknown[];
  addIssue: (issue: unknown) => void;
}

/** A transform's payload on the fast path: its issues only counted (any one hands the input to zod). */
class FastPayload implements TransformPayload {
  readonly issues: unknown[] = [];
  constructor(readonly value: unknown) {}
  addIssue(issue: unknown): void {
    this.issues.push(issue);
  }
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;
const optIn = (schema: z.ZodType): string | undefined => (schema as unknown as { _zod: { optin?: string } })._zod.optin;
const optOut = (schema: z.ZodType): string | undefined => (schema as unknown as { _zod: { optout?: string } })._zod.optout;
const hasTrait = (schema: z.ZodType, trait: string): boolean => (schema as unknown as { _zod: { traits: Set<string> } })._zod.traits.has(trait);
/** The values an enum or literal accepts, as zod works them out. */
const valuesOf = (schema: z.ZodType): Set<unknown> | undefined => (schema as unknown as { _zod: { values?: Set<unknown> } })._zod.values;

const compiled = new WeakMap<z.ZodType, Run | null>();

/**
 * `schema.safeParse(input, params)`, answered by the closures when the input is valid and the schema is built from the
 * kinds modelled here — on every runtime. Workers need them (zod interprets there); on Node zod compiles its object
 * parsers, which a hot loop over one schema once read faster, but in the server, where a request's parse runs among
 * everything else a turn does, the closures cost less (server CPU a request −2% for a short Chat body, −6% for a
 * 121-message conversation); and since they walk a plain object's keys once (`plainObject`) they are as fast or
 * faster in a hot loop too, but for Bedrock Converse's bodies (docs/performance.md, "The engine gate"). One path,
 * the same answers, on both runtimes.
 * @example const parsed = safeParseFast(ChatRequestSchema, body); if (!parsed.success) return issue(parsed.error)
 */
export function safeParseFast<S extends z.ZodType>(schema: S, input: unknown, params?: Parameters<S["safeParse"]>[1]): ReturnType<S["safeParse"]> {
  let run = compiled.get(schema);
  if (run === undefined) {
    run = compileOwn(schema, "") ?? null;
    compiled.set(schema, run);
  }
  if (run !== null) {
    const data = run(input);
    if (data !== FAIL) return { success: true, data } as ReturnType<S["safeParse"]>;
  }
  return schema.safeParse(input, params) as ReturnType<S["safeParse"]>;
}

/** Where compiling hands parts to zod, while `handedToZod` asks. */
let handed: string[] | undefined;

/**
 * The paths of the parts of `schema` that zod parses itself on the fast path ("" for the whole schema; `.key`,
 * `[]` for an array's elements, `|n` for a union's n-th option): what a test pins per request schema.
 * @example handedToZod(MessagesRequestSchema) // [".messages[].content|1[]", …]
 */
export function handedToZod(schema: z.ZodType): string[] {
  handed = [];
  try {
    compile(schema, "");
    return handed;
  } finally {
    handed = undefined;
  }
}

function compile(schema: z.ZodType, at: string): Run {
  return compileOwn(schema, at) ?? viaZod(schema, at);
}

/** The part parsed by zod itself: its output exactly, or FAIL. */
function viaZod(schema: z.ZodType, at: string): Run {
  handed?.push(at);
  return (value) => {
    const r = schema.safeParse(value);
    return r.success ? r.data : FAIL;
  };
}

/** A compiled check of the schema's own kind, or undefined when it is not modelled. */
function compileOwn(schema: z.ZodType, at: string): Run | undefined {
  const def = defOf(schema);
  if (def.coerce || def.format !== undefined) return undefined;
  const checks = def.checks ?? [];
  switch (def.type) {
    case "string": {
      const ok = lengthChecks(checks);
      return ok && ((v) => (typeof v === "string" && ok(v) ? v : FAIL));
    }
    case "number": {
      const ok = numberChecks(checks);
      return ok && ((v) => (typeof v === "number" && Number.isFinite(v) && ok(v) ? v : FAIL));
    }
    case "boolean":
      return checks.length === 0 ? (v) => (typeof v === "boolean" ? v : FAIL) : undefined;
    case "null":
      return checks.length === 0 ? (v) => (v === null ? v : FAIL) : undefined;
    case "unknown":
    case "any":
      return checks.length === 0 ? (v) => v : undefined;
    case "enum":
    case "literal": {
      const values = valuesOf(schema);
      if (checks.length > 0 || values === undefined) return undefined;
      return (v) => (values.has(v) ? v : FAIL);
    }
    case "optional": {
      // An exact optional runs its inner type on `undefined` too, and an optional default fills one in: not modelled.
      if (checks.length > 0 || def.innerType === undefined || optIn(def.innerType) === "defaulted" || hasTrait(schema, "$ZodExactOptional")) return undefined;
      const inner = compile(def.innerType, at);
      return (v) => (v === undefined ? undefined : inner(v));
    }
    case "nullable": {
      if (checks.length > 0 || def.innerType === undefined) return undefined;
      const inner = compile(def.innerType, at);
      return (v) => (v === null ? null : inner(v));
    }
    case "array": {
      const ok = lengthChecks(checks);
      if (!ok || def.element === undefined) return undefined;
      const element = compile(def.element, `${at}[]`);
      return (v) => {
        if (!Array.isArray(v) || !ok(v)) return FAIL;
        const out = new Array(v.length);
        for (let i = 0; i < v.length; i++) {
          const e = element(v[i]);
          if (e === FAIL) return FAIL;
          out[i] = e;
        }
        return out;
      };
    }
    case "union": {
      if (checks.length > 0 || def.options === undefined || def.discriminator !== undefined || def.inclusive === false) return undefined;
      const options = def.options.map((option, i) => compile(option, `${at}|${i}`));
      return (v) => {
        for (const option of options) {
          const out = option(v);
          if (out !== FAIL) return out;
        }
        return FAIL;
      };
    }
    case "object":
      return checks.length === 0 ? compileObject(def, at) : undefined;
    case "record":
      return checks.length === 0 ? compileRecord(def, at) : undefined;
    case "pipe":
      return checks.length === 0 ? compileTransformPipe(def) : undefined;
    default:
      return undefined;
  }
}

/** zod's guard on a check (`when`): the check applies only to a value it accepts (length checks: one with a length). */
type When = (payload: { value: unknown; issues: unknown[] }) => boolean;
const applies = (when: unknown, value: unknown): boolean => when === undefined || (when as When)({ value, issues: [] });

/** `min_length` / `max_length` checks as one predicate on a value's length; undefined if any other check is there. */
function lengthChecks(checks: NonNullable<Def["checks"]>): ((v: string | unknown[]) => boolean) | undefined {
  const tests: ((v: string | unknown[]) => boolean)[] = [];
  for (const { _zod } of checks) {
    const c = _zod.def;
    const { when } = c;
    if (c.check === "min_length" && typeof c.minimum === "number") {
      const min = c.minimum;
      tests.push((v) => !applies(when, v) || v.length >= min);
    } else if (c.check === "max_length" && typeof c.maximum === "number") {
      const max = c.maximum;
      tests.push((v) => !applies(when, v) || v.length <= max);
    } else return undefined;
  }
  return tests.length === 0 ? () => true : (v) => tests.every((t) => t(v));
}

/** Integer formats and bounds as one predicate on a finite number; undefined if any other check is there. */
function numberChecks(checks: NonNullable<Def["checks"]>): ((n: number) => boolean) | undefined {
  const tests: ((n: number) => boolean)[] = [];
  for (const { _zod } of checks) {
    const c = _zod.def;
    let test: ((n: number) => boolean) | undefined;
    if (c.check === "number_format" && c.format === "safeint") test = Number.isSafeInteger;
    else if (c.check === "greater_than" && typeof c.value === "number") {
      const bound = c.value;
      test = c.inclusive ? (n) => n >= bound : (n) => n > bound;
    } else if (c.check === "less_than" && typeof c.value === "number") {
      const bound = c.value;
      test = c.inclusive ? (n) => n <= bound : (n) => n < bound;
    } else return undefined;
    const { when } = c;
    const t = test;
    tests.push(when === undefined ? t : (n) => !applies(when, n) || t(n));
  }
  return tests.length === 0 ? () => true : (n) => tests.every((t) => t(n));
}

interface Field {
  key: string;
  run: Run;
  optin: string | undefined;
  /** Absent from the input and allowed to be: no key in the output. */
  skipsAbsent: boolean;
}

/**
 * An object as zod's object parser makes it: each known key in the shape's order (absent and optional: left out; a
 * value parsed to `undefined`: kept only if the key was there), then — with a catch-all of `unknown` (a loose object)
 * — every other key as it came, except `__proto__`; with none (strip) the others dropped; with `never` (strict) any
 * other key refused. Other catch-alls are not modelled.
 */
function compileObject(def: Def, at: string): Run | undefined {
  const shape = def.shape ?? {};
  if (Object.getOwnPropertySymbols(shape).length > 0) return undefined;
  const catchall = def.catchall === undefined ? "strip" : defOf(def.catchall).type;
  if (catchall !== "strip" && catchall !== "unknown" && catchall !== "never") return undefined;
  const keys = Object.keys(shape).filter((key) => key !== "__proto__");
  // A default fills in an absent key: not modelled (checked before any part is compiled, so none is listed).
  if (keys.some((key) => optIn(shape[key]!) === "defaulted")) return undefined;
  const fields: Field[] = keys.map((key) => {
    const el = shape[key]!;
    const optin = optIn(el);
    return { key, run: compile(el, `${at}.${key}`), optin, skipsAbsent: optOut(el) === "optional" && optin === "optional" };
  });
  const known = new Set(Object.keys(shape));
  // A plain object's keys read once (`plainObject`): each field's place in a bit mask, when the fields fit in one and
  // no key of the shape is a name a plain object inherits (`toString`: `in` finds it on the prototype, where the walk
  // over own keys does not); the map of places only for a shape too large to compare names (`slotOf`).
  const walks = fields.length <= 30 && ![...known].some((key) => key in Object.prototype);
  const slots = walks && fields.length > SMALL_SHAPE ? new Map(fields.map((f, i) => [f.key, 1 << i])) : undefined;
  return (v) => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) return FAIL;
    const input = v as Record<string, unknown>;
    if (walks && Object.getPrototypeOf(input) === Object.prototype) return plainObject(input, fields, slots, catchall);
    const out: Record<string, unknown> = {};
    for (const f of fields) {
      const present = f.key in input;
      if (!present && f.skipsAbsent) continue;
      const r = f.run(input[f.key]);
      if (r === FAIL || (!present && f.optin === undefined)) return FAIL;
      if (r !== undefined || present) out[f.key] = r;
    }
    if (catchall === "strip") return out;
    for (const key in input) {
      if (known.has(key)) continue;
      if (catchall === "never") return FAIL;
      if (key !== "__proto__") out[key] = input[key];
    }
    return out;
  };
}

/**
 * `compileObject`'s object for a plain object: one walk over its keys finds which fields are present (a bit each) and
 * whether any other key is, instead of an `in` test for every field of the shape — most of a request's objects carry
 * a few of their schema's optional fields (a message: its role and content of eight). The same output and the same
 * refusals as the walk field by field.
 */
function plainObject(input: Record<string, unknown>, fields: readonly Field[], slots: ReadonlyMap<string, number> | undefined, catchall: string): unknown {
  let present = 0;
  let others = false;
  for (const key in input) {
    const bit = slotOf(fields, slots, key);
    if (bit === undefined) others = true;
    else present |= bit;
  }
  if (others && catchall === "never") return FAIL;
  const out: Record<string, unknown> = {};
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i]!;
    if ((present & (1 << i)) === 0) {
      if (f.skipsAbsent) continue;
      const r = f.run(undefined);
      if (r === FAIL || f.optin === undefined) return FAIL;
      if (r !== undefined) out[f.key] = r;
      continue;
    }
    const r = f.run(input[f.key]);
    if (r === FAIL) return FAIL;
    out[f.key] = r;
  }
  if (others && catchall !== "strip") {
    for (const key in input) if (slotOf(fields, slots, key) === undefined && key !== "__proto__") out[key] = input[key];
  }
  return out;
}

/** Fields up to which `slotOf` compares names rather than looking the key up in a map. */
const SMALL_SHAPE = 8;

/**
 * A field's bit in `plainObject`'s mask, or undefined for a key of no field: in a shape of up to SMALL_SHAPE fields by
 * comparing the names in turn (a few comparisons of interned strings cost less than hashing the key: a Chat body's
 * parse −7–9% in a hot loop), by the map (`slots`) in a larger one.
 */
function slotOf(fields: readonly Field[], slots: ReadonlyMap<string, number> | undefined, key: string): number | undefined {
  if (slots !== undefined) return slots.get(key);
  for (let i = 0; i < fields.length; i++) if (fields[i]!.key === key) return 1 << i;
  return undefined;
}

/**
 * A record of string keys (`z.record(z.string(), value)`) as zod's record parser makes it: each own enumerable key in
 * the input's order, its value parsed, `__proto__` skipped. Only plain objects are modelled — a prototype other than
 * Object's or null's, an own `constructor` (zod's plain-object test reads it) or a symbol key (a string key type
 * refuses it) is handed to zod with the rest of the input. Key types with checks or values of their own are not
 * modelled.
 */
function compileRecord(def: Def, at: string): Run | undefined {
  const keyType = def.keyType;
  if (keyType === undefined || def.valueType === undefined) return undefined;
  const key = defOf(keyType);
  if (key.type !== "string" || key.coerce || key.format !== undefined || (key.checks ?? []).length > 0 || valuesOf(keyType) !== undefined) return undefined;
  const value = compile(def.valueType, `${at}{}`);
  return (v) => {
    if (typeof v !== "object" || v === null || Array.isArray(v)) return FAIL;
    const proto = Object.getPrototypeOf(v);
    if ((proto !== Object.prototype && proto !== null) || Object.hasOwn(v, "constructor") || Object.getOwnPropertySymbols(v).length > 0) return FAIL;
    const input = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(input)) {
      if (k === "__proto__") continue;
      const r = value(input[k]);
      if (r === FAIL) return FAIL;
      out[k] = r;
    }
    return out;
  };
}

/**
 * A transform of any value (`z.unknown().transform(fn)`), as zod runs it: `fn` called with the value and a payload
 * whose `addIssue` collects issues. Output only when `fn` adds none and answers at once (no promise); otherwise the
 * input is zod's to parse, with the issues worded as zod words them. Other pipes are not modelled.
 */
function compileTransformPipe(def: Def): Run | undefined {
  if (def.in === undefined || def.out === undefined) return undefined;
  const from = defOf(def.in);
  const to = defOf(def.out);
  const fn = to.transform;
  if ((from.type !== "unknown" && from.type !== "any") || (from.checks ?? []).length > 0 || to.type !== "transform" || fn === undefined || (to.checks ?? []).length > 0) return undefined;
  return (v) => {
    const payload = new FastPayload(v);
    const out = fn(v, payload);
    return payload.issues.length > 0 || out instanceof Promise ? FAIL : out;
  };
}
