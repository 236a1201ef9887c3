/**
 * Shape tables: for each event type (and JSON body) of a surface, the keys real providers send and their JSON
 * types, written from recordings that public projects keep (see each table's `sources`). `compareShape` checks a
 * rendered object against one entry: a key the recording requires and the mock leaves out, a key no recording has,
 * or a JSON type that differs is a finding.
 *
 * Paths: `a.b` for object keys, `a[]` for array elements (`content[].type`). A path ending in `?` is optional: some
 * recordings (or some turns) leave it out. Types: `"string"`, `"null|string"`, … Paths listed in `opaque` are not
 * looked into (user JSON such as tool arguments or JSON schemas).
 */

export type JsonType = "string" | "number" | "boolean" | "null" | "object" | "array";

/** Where a table entry was read from: repository, path, and the date the recording was committed there. */
export interface Source {
  repo: string;
  path: string;
  recorded: string;
}

export interface ShapeEntry {
  /** Keys of `sources` this entry was read from. */
  from: string[];
  keys: Record<string, string>;
}

export interface SurfaceTable {
  surface: string;
  sources: Record<string, Source>;
  /** Paths whose contents are caller data, compared by type only. */
  opaque: string[];
  /** Event kind (see each surface's `kindOf`) → shape. */
  shapes: Record<string, ShapeEntry>;
}

function jsonType(v: unknown): JsonType {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  switch (typeof v) {
    case "string":
      return "string";
    case "number":
      return "number";
    case "boolean":
      return "boolean";
    default:
      return "object";
  }
}

/** Every path of `value` with the JSON types seen there. */
export function flatten(value: unknown, opaque: string[] = [], prefix = "", out = new Map<string, Set<JsonType>>()): Map<string, Set<JsonType>> {
  if (prefix !== "" && opaque.includes(prefix)) return out;
  if (Array.isArray(value)) {
    for (const v of value) {
      const p = `${prefix}[]`;
      if (v !== null && typeof v === "object") flatten(v, opaque, p, out);
      else out.set(p, (out.get(p) ?? new Set()).add(jsonType(v)));
    }
    return out;
  }
  if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      const p = prefix === "" ? k : `${prefix}.${k}`;
      out.set(p, (out.get(p) ?? new Set()).add(jsonType(v)));
      flatten(v, opaque, p, out);
    }
  }
  return out;
}

function parentOf(path: string): string {
  if (path.endsWith("[]")) return path.slice(0, -2);
  const dot = path.lastIndexOf(".");
  return dot < 0 ? "" : path.slice(0, dot);
}

/**
 * Differences between a rendered object and a table entry, as readable lines (empty: same shape).
 * @example compareShape({ a: 1, b: "x" }, { keys: { a: "number" }, from: [] }, []) // ["extra key b (string)"]
 */
export function compareShape(value: unknown, entry: ShapeEntry, opaque: string[]): string[] {
  const seen = flatten(value, opaque);
  const table = new Map<string, { types: Set<string>; optional: boolean }>();
  for (const [raw, types] of Object.entries(entry.keys)) {
    const optional = raw.endsWith("?");
    table.set(optional ? raw.slice(0, -1) : raw, { types: new Set(types.split("|")), optional });
  }
  const out: string[] = [];
  for (const [path, types] of seen) {
    const want = table.get(path);
    if (!want) {
      out.push(`extra key ${path} (${[...types].join("|")})`);
      continue;
    }
    for (const t of types) if (!want.types.has(t)) out.push(`type of ${path}: ${t}, recorded ${[...want.types].join("|")}`);
  }
  for (const [path, want] of table) {
    if (want.optional || seen.has(path)) continue;
    // A key under an absent (optional) object, or inside an empty array, cannot be missing.
    const parent = parentOf(path);
    const parentThere = parent === "" || [...seen.keys()].some((p) => p === parent || p.startsWith(`${parent}[]`) || p.startsWith(`${parent}.`));
    const elementsThere = !path.includes("[]") || [...seen.keys()].some((p) => p.startsWith(path.slice(0, path.lastIndexOf("[]") + 2)));
    if (parentThere && elementsThere) out.push(`missing key ${path}`);
  }
  return out;
}
