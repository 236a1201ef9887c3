import { describe, expect, it } from "vitest";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { schemaArguments } from "../../src/default/schema-args";

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);

/** The arguments for `schema`, checked valid against it by ajv (draft 2020-12, formats on). */
function valid(schema: Record<string, unknown>, seed = "seed"): Record<string, unknown> {
  const args = schemaArguments(schema, seed);
  const validate = ajv.compile(schema);
  expect(validate(args), JSON.stringify({ args, errors: validate.errors })).toBe(true);
  return args;
}

const obj = (properties: Record<string, unknown>, required = Object.keys(properties), extra: Record<string, unknown> = {}) => ({
  type: "object",
  properties,
  required,
  ...extra,
});

/** One schema per keyword (and deep combinations), each answered with arguments ajv accepts. */
const TABLE: [string, Record<string, unknown>][] = [
  ["scalar types", obj({ s: { type: "string" }, i: { type: "integer" }, n: { type: "number" }, b: { type: "boolean" }, z: { type: "null" } })],
  ["enum and const", obj({ unit: { type: "string", enum: ["celsius", "fahrenheit", "kelvin"] }, v: { const: 3 }, o: { const: { a: [1] } } })],
  ["enum of mixed values", obj({ m: { enum: [1, "two", null, { three: 3 }] } })],
  [
    "nested objects and arrays",
    obj({
      loc: obj({ city: { type: "string" }, geo: obj({ lat: { type: "number", minimum: -90, maximum: 90 }, lon: { type: "number", minimum: -180, maximum: 180 } }) }),
      tags: { type: "array", items: { type: "string" } },
      stops: { type: "array", items: obj({ name: { type: "string" }, at: { type: "string", format: "date-time" } }), minItems: 2 },
    }),
  ],
  ["formats", obj(Object.fromEntries(["date-time", "date", "time", "email", "uri", "uri-reference", "uuid", "ipv4", "ipv6", "hostname", "duration"].map((f) => [f, { type: "string", format: f }])))],
  [
    "number bounds",
    obj({
      a: { type: "integer", minimum: 10, maximum: 12 },
      b: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
      c: { type: "integer", exclusiveMinimum: 5, exclusiveMaximum: 7 },
      d: { type: "number", maximum: -1000 },
      e: { type: "integer", minimum: 1000000 },
    }),
  ],
  ["multipleOf", obj({ cents: { type: "number", multipleOf: 0.01, minimum: 0.05, maximum: 0.2 }, five: { type: "integer", multipleOf: 5, minimum: 1 }, tenth: { type: "number", multipleOf: 0.1 } })],
  ["string lengths", obj({ short: { type: "string", maxLength: 3 }, long: { type: "string", minLength: 40 }, exact: { type: "string", minLength: 7, maxLength: 7 } })],
  [
    "anyOf and oneOf take the first branch",
    obj({
      a: { anyOf: [{ type: "string", minLength: 2 }, { type: "integer" }] },
      o: { oneOf: [obj({ kind: { const: "circle" }, r: { type: "number", minimum: 0 } }), obj({ kind: { const: "square" } })] },
    }),
  ],
  ["allOf merged", { allOf: [obj({ a: { type: "string" } }), obj({ b: { type: "integer", minimum: 3 } })] }],
  [
    "$ref to $defs",
    {
      type: "object",
      properties: { home: { $ref: "#/$defs/addr" }, work: { $ref: "#/$defs/addr" } },
      required: ["home"],
      $defs: { addr: obj({ street: { type: "string" }, zip: { type: "string", minLength: 5, maxLength: 5 } }) },
    },
  ],
  ["$ref to definitions", { type: "object", properties: { p: { $ref: "#/definitions/pt" } }, required: ["p"], definitions: { pt: obj({ x: { type: "integer" }, y: { type: "integer" } }) } }],
  ["recursive $ref", { $ref: "#/$defs/node", $defs: { node: obj({ name: { type: "string" }, children: { type: "array", items: { $ref: "#/$defs/node" } } }, ["name", "children"]) } }],
  ["type lists", obj({ maybe: { type: ["null", "string"] }, either: { type: ["integer", "string"] } })],
  [
    "array sizes and unique items",
    obj({
      three: { type: "array", items: { type: "integer", minimum: 0, maximum: 100 }, minItems: 3, maxItems: 3 },
      none: { type: "array", maxItems: 0 },
      uniq: { type: "array", items: { enum: ["a", "b", "c"] }, minItems: 3, uniqueItems: true },
      flags: { type: "array", items: { type: "boolean" }, minItems: 2, uniqueItems: true },
    }),
  ],
  ["tuples", obj({ pair: { type: "array", prefixItems: [{ type: "string" }, { type: "integer" }], minItems: 2, items: false } })],
  [
    "closed objects and minProperties",
    obj({ fixed: { type: "object", properties: { a: { type: "string" } }, additionalProperties: false }, open: { type: "object", minProperties: 2, additionalProperties: { type: "integer" } } }),
  ],
  ["optional properties", { type: "object", properties: { a: { type: "string" }, b: { type: "integer" } } }],
  ["keywords without type", obj({ o: { properties: { x: { type: "string" } }, required: ["x"] }, a: { items: { type: "integer" }, minItems: 1 }, s: { minLength: 4 }, n: { minimum: 2, maximum: 2 } })],
  ["boolean schemas", obj({ any: true }, ["any"], { properties: { any: true, never: false } })],
  ["a property named __proto__", obj(JSON.parse('{"__proto__":{"type":"string"},"constructor":{"type":"integer"}}'))],
  [
    "ten levels deep",
    (() => {
      let s: Record<string, unknown> = obj({ leaf: { type: "string", enum: ["deep"] } });
      for (let i = 9; i >= 1; i--) s = obj({ [`l${i}`]: s, [`n${i}`]: { type: "array", items: obj({ v: { type: "integer", minimum: i } }) } }, [`l${i}`]);
      return s;
    })(),
  ],
];

describe("schemaArguments", () => {
  it.each(TABLE)("%s: valid against the schema", (_name, schema) => {
    valid(schema);
    valid(schema, "another seed");
  });

  it("gives exact, seed-derived values: the same seed the same arguments, another seed others", () => {
    const schema = obj({ city: { type: "string" }, unit: { enum: ["celsius", "fahrenheit"] }, days: { type: "integer", minimum: 1, maximum: 14 } });
    const args = valid(schema, "default/1/tool/get_weather");
    expect(args).toEqual(schemaArguments(schema, "default/1/tool/get_weather"));
    expect(args).toEqual({ city: "Paris", unit: "celsius", days: 2 });
    expect(schemaArguments(schema, "other")).not.toEqual(args);
  });

  it("an empty, missing or non-object schema gives {}", () => {
    expect(schemaArguments({}, "s")).toEqual({});
    expect(schemaArguments(undefined, "s")).toEqual({});
    expect(schemaArguments(true, "s")).toEqual({});
    expect(schemaArguments({ type: "string" }, "s")).toEqual({});
    expect(schemaArguments({ type: "object" }, "s")).toEqual({});
    expect(schemaArguments("not a schema", "s")).toEqual({});
  });

  it("takes the first anyOf / oneOf branch, resolves $ref, and fills nested required properties", () => {
    const args = valid({
      type: "object",
      properties: { v: { anyOf: [{ type: "integer", minimum: 7, maximum: 7 }, { type: "string" }] }, s: { oneOf: [{ const: "first" }, { const: "second" }] }, r: { $ref: "#/$defs/r" } },
      required: ["v", "s", "r"],
      $defs: { r: { type: "object", properties: { deep: { type: "object", properties: { x: { const: true } }, required: ["x"] } }, required: ["deep"] } },
    });
    expect(args).toEqual({ v: 7, s: "first", r: { deep: { x: true } } });
  });

  it("reads Gemini's upper-case types and draft-4 boolean exclusive bounds", () => {
    const args = schemaArguments(
      {
        type: "OBJECT",
        properties: {
          n: { type: "INTEGER", minimum: 3, maximum: 4, exclusiveMaximum: true },
          f: { type: "NUMBER", minimum: 0, exclusiveMinimum: true, maximum: 0.5 },
          l: { type: "ARRAY", items: { type: "STRING", format: "enum", enum: ["A"] } },
        },
        required: ["n"],
      },
      "s",
    );
    expect(args.n).toBe(3);
    expect(args.f).toBeGreaterThan(0);
    expect(args.f).toBeLessThanOrEqual(0.5);
    expect(args.l).toEqual(["A"]);
  });

  it("keeps a recursive schema finite, and a __proto__ property a plain key", () => {
    const tree = valid(TABLE.find(([n]) => n === "recursive $ref")![1]);
    expect(JSON.stringify(tree).length).toBeLessThan(2000);
    const proto = valid(TABLE.find(([n]) => n.startsWith("a property named"))![1]);
    expect(Object.keys(proto)).toEqual(["__proto__", "constructor"]);
    expect(Object.getPrototypeOf(proto)).toBe(Object.prototype);
  });

  it("honours multipleOf exactly, fractional steps included", () => {
    const args = valid(obj({ cents: { type: "number", multipleOf: 0.01, minimum: 0.05, maximum: 0.2 } }));
    expect(Number.isInteger(Number(args.cents) / 0.01)).toBe(true);
  });
});

describe("schemaArguments on hostile schemas", () => {
  it("stays bounded: huge minItems, nested minItems, huge minLength and minProperties answer quickly", () => {
    const started = Date.now();
    const huge = schemaArguments(obj({ a: { type: "array", items: { type: "integer" }, minItems: 1e9 } }), "s");
    expect((huge.a as unknown[]).length).toBeLessThanOrEqual(10_000);
    let nested: Record<string, unknown> = { type: "integer" };
    for (let i = 0; i < 5; i++) nested = { type: "array", items: nested, minItems: 1000 };
    expect(JSON.stringify(schemaArguments(obj({ n: nested }), "s")).length).toBeLessThan(200_000);
    expect(String(schemaArguments(obj({ s: { type: "string", minLength: 1e9 } }), "s").s).length).toBe(65_536);
    expect(Object.keys(schemaArguments({ type: "object", minProperties: 1e9 }, "s")).length).toBeLessThanOrEqual(10_000);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("counts items with no schema (past prefixItems, items absent) and bounds the text in all", () => {
    // Each of these held the server (out of memory, or hundreds of megabytes) before.
    const tuple = schemaArguments(obj({ a: { type: "array", minItems: 1e8, prefixItems: [{ type: "string" }] } }), "s");
    expect((tuple.a as unknown[]).length).toBe(9_998); // the object and the array are two of the 10,000 values
    const strings = JSON.stringify(schemaArguments(obj({ a: { type: "array", minItems: 10_000, items: { type: "string", minLength: 65_536 } } }), "s"));
    expect(strings.length).toBeGreaterThan(1_048_576);
    expect(strings.length).toBeLessThan(1_048_576 + 100_000);
    const big = "x".repeat(100_000);
    const picked = schemaArguments(obj({ a: { type: "array", minItems: 10_000, items: { enum: [big] } }, c: { type: "array", minItems: 10_000, items: { const: { big } } } }), "s");
    expect((picked.a as unknown[]).filter((v) => v === big).length).toBe(10);
    // Past the text, each item is the `{}` of a value not generated, until the values are spent too (`c` gets none).
    expect((picked.a as unknown[]).length).toBe(10_000 - 2);
    expect(picked.c).toEqual({});
  });

  it("a client's pattern is checked in linear time: backtracking patterns give their string at once", () => {
    const args = schemaArguments(obj({ a: { type: "string", pattern: "^(.*a){25}x$" }, b: { type: "string", pattern: "^(\\w+\\s?)+$" }, c: { type: "string", pattern: "^((a{64}){64}){64}$" } }), "s");
    expect(args.a).toMatch(/^(?:[a-z]a){25}x$/); // what the reader makes, checked without the backtracking pattern
    expect(args.b).toMatch(/^[\w ]+$/);
    expect((args.c as string).length).toBeLessThan(100); // 262,144 characters asked: past the reader's bound, lorem
  });

  it("a malformed, remote or dangling $ref, and a self-referencing one, give a value rather than an error", () => {
    expect(schemaArguments(obj({ a: { $ref: "#/%E0%A4%A" }, b: { $ref: "https://example.com/s.json" }, c: { $ref: "#/$defs/none" } }), "s")).toEqual({ a: {}, b: {}, c: {} });
    expect(schemaArguments({ $ref: "#" }, "s")).toEqual({});
    expect(schemaArguments({ $defs: { x: { $ref: "#/$defs/x" } }, type: "object", properties: { x: { $ref: "#/$defs/x" } }, required: ["x"] }, "s")).toEqual({ x: {} });
  });
});
