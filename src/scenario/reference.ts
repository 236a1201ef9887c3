/**
 * The scenario document's reference page (docs/reference/scenario.md), generated from its JSON Schema — itself
 * generated from the zod schema, whose `.describe()` texts are the descriptions. Every object gets a section with
 * one row per field: type, whether it is required, its default where the description states one, and what it does.
 * An object that appears at several places (a Matcher in `match`, `steps[].match`, `sideCalls.match[]`) is described
 * once, at its first place, and linked from the others.
 */
type Schema = Record<string, unknown> & {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  description?: string;
  additionalProperties?: boolean | Schema;
};

interface Section {
  path: string;
  schema: Schema;
  /** For one branch of a union of objects told apart by a `const` field (failure kinds): that field's value. */
  variant?: string;
}

const anchor = (path: string) =>
  path
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- _]/gu, "")
    .replaceAll(" ", "-");

const isObject = (s: Schema) => s.type === "object" && s.properties !== undefined;

/** Objects inside a schema, through arrays, unions and records, with the path suffix each is reached by. */
function objectsIn(s: Schema, path: string): Section[] {
  if (isObject(s)) return [{ path, schema: s }];
  if (s.items) return objectsIn(s.items, `${path}[]`);
  const branches = s.anyOf ?? s.oneOf;
  if (branches) return branches.flatMap((b) => objectsIn(b, path)).map((sec, _i, all) => (all.length > 1 ? { ...sec, variant: variantOf(sec.schema) } : sec));
  if (typeof s.additionalProperties === "object") return objectsIn(s.additionalProperties, `${path}{}`);
  return [];
}

/** What tells one object of a union from the others: its `const` field (`kind: "http"`), else its field names. */
function variantOf(s: Schema): string {
  for (const [name, p] of Object.entries(s.properties ?? {})) if (p.const !== undefined) return `${name}: ${JSON.stringify(p.const)}`;
  return Object.keys(s.properties ?? {}).join(", ");
}

/** An object's identity for "described once": its shape, whatever the description at the place it is used. */
const shapeKey = (s: Schema) => JSON.stringify({ ...s, description: undefined });

function typeOf(s: Schema, link: (s: Schema) => string | undefined): string {
  const linked = isObject(s) ? link(s) : undefined;
  if (linked) return linked;
  if (s.const !== undefined) return `\`${JSON.stringify(s.const)}\``;
  if (s.enum) return s.enum.map((v) => `\`${JSON.stringify(v)}\``).join(" \\| ");
  const branches = s.anyOf ?? s.oneOf;
  if (branches) return branches.map((b) => typeOf(b, link)).join(" or ");
  if (s.type === "array") return `array of ${s.items ? typeOf(s.items, link) : "any"}${s.minItems ? ` (at least ${s.minItems})` : ""}`;
  if (s.type === "object") {
    const values = s.additionalProperties;
    return typeof values === "object" ? `object of ${typeOf(values, link)}` : "object";
  }
  const t = Array.isArray(s.type) ? s.type.join(" or ") : (s.type ?? "any");
  const limits: string[] = [];
  if (typeof s.minimum === "number") limits.push(`≥ ${s.minimum}`);
  if (typeof s.maximum === "number" && s.maximum < Number.MAX_SAFE_INTEGER) limits.push(`≤ ${s.maximum}`);
  if (typeof s.minLength === "number" && s.minLength > 0) limits.push("not empty");
  if (typeof s.pattern === "string") limits.push(`\`${s.pattern}\``);
  return limits.length > 0 ? `${t} (${limits.join(", ")})` : t;
}

/** Every object of the document, each once, in document order (an object's own objects right after it). */
function sections(root: Schema): Section[] {
  const out: Section[] = [];
  const seen = new Set<string>();
  const visit = (sec: Section) => {
    const key = shapeKey(sec.schema);
    if (seen.has(key)) return;
    seen.add(key);
    out.push(sec);
    for (const [name, p] of Object.entries(sec.schema.properties ?? {})) {
      const base = sec.path === "scenario" ? name : `${sec.path}.${name}`;
      for (const o of objectsIn(p, base)) visit(o.variant ? { ...o, path: `${o.path} (${o.variant})` } : o);
    }
  };
  visit({ path: "scenario", schema: root });
  return out;
}

/**
 * The MCP specification's own structures (a tool, a resource, a prompt, a content block), whose fields it describes;
 * the `mcp` block's fields that hold them say so.
 */
const MCP_SPEC = /^mcp\.(tools|resources|prompts)\[\]|\.content \(type: /;

/** Where a field's description is missing: `npm run generate` fails on any, so every field is described. */
export function undescribed(root: Schema): string[] {
  return sections(root)
    .filter((sec) => !MCP_SPEC.test(sec.path))
    .flatMap((sec) =>
      Object.entries(sec.schema.properties ?? {})
        .filter(([name, p]) => p.description === undefined && p.const === undefined && name !== "$schema")
        .map(([name]) => `${sec.path}.${name}`),
    );
}

export function scenarioReference(root: Schema): string {
  const all = sections(root);
  const home = new Map(all.map((s) => [shapeKey(s.schema), s.path]));
  const link = (s: Schema) => {
    const path = home.get(shapeKey(s));
    return path === undefined ? undefined : `object ([${path}](#${anchor(path)}))`;
  };
  const lines = [
    "# Scenario document reference",
    "",
    "<!-- Generated by `npm run generate` from the zod schema (src/scenario/schema.ts and its parts): edit the",
    "schema's `.describe()` texts, not this page. `npm test` fails when it is stale. -->",
    "",
    "Every field of a scenario document, as the server validates it. The same schema as JSON Schema:",
    "[scenario.schema.json](../../scenario.schema.json) (also served at `GET /admin/schema`; start a document with",
    '`"$schema": "./scenario.schema.json"` for completion in your editor). How scenarios are chosen and used:',
    "[Scenarios](../guide/scenarios.md); failures by provider: [Failures](../guide/failures.md).",
    "",
    "Objects are strict: a field not listed here is an error, reported with its JSON path and the nearest allowed name.",
    "",
  ];
  for (const sec of all) {
    lines.push(`## ${sec.path}`, "");
    if (sec.schema.description) lines.push(sec.schema.description, "");
    lines.push("| field | type | required | description |", "| --- | --- | --- | --- |");
    const required = new Set(sec.schema.required ?? []);
    for (const [name, p] of Object.entries(sec.schema.properties ?? {})) {
      const desc = (p.description ?? "").replaceAll("|", "\\|").replaceAll("\n", " ");
      lines.push(`| \`${name}\` | ${typeOf(p, link)} | ${required.has(name) ? "yes" : ""} | ${desc} |`);
    }
    lines.push("");
  }
  return lines.join("\n");
}
