// The layer rules of docs/ARCHITECTURE.md, checked over src/'s import graph (issue 19): lower layers never import
// higher ones, and no import circle crosses layers.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");

interface Edge {
  from: string;
  to: string;
  typeOnly: boolean;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith(".ts") && !p.endsWith(".d.ts") ? [p] : [];
  });
}

/**
 * Files whose layer is not their top folder (first matching prefix under src/ wins); any other file's layer is its top
 * folder, or its name for a file at the top (`router`, `index`).
 */
const PLACED: [prefix: string, layer: string][] = [
  ["hosts/node/", "hosts/node"],
  ["hosts/workers/", "hosts/workers"],
  ["routes/inspector", "inspector"], // routes/inspector.ts and routes/inspector/*
];

/**
 * Provider modules — `providers/registry/` (the list and the module type) and each provider's `module/` folder (its
 * `index.ts` declaring what the provider adds, the socket state machines in `sockets/`, the batch runners and vector
 * stores) — sit above the turn pipeline and the socket machinery; the rest of `providers/` (parse, render) sits below.
 */
const PROVIDER_MODULE = /^providers\/(registry|[^/]+\/module)\//;

function layerOf(file: string): string {
  const path = relative(SRC, file);
  if (PROVIDER_MODULE.test(path)) return "provider-modules";
  const placed = PLACED.find(([prefix]) => path.startsWith(prefix));
  if (placed) return placed[1];
  const parts = path.split("/");
  return parts.length === 1 ? parts[0]!.replace(/\.ts$/, "") : parts[0]!;
}

function resolveImport(from: string, spec: string): string | undefined {
  const base = resolve(dirname(from), spec);
  for (const candidate of [base, `${base}.ts`, join(base, "index.ts")]) {
    try {
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not this one
    }
  }
  return undefined;
}

const IMPORT = /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?["'](\.{1,2}\/[^"']+)["']|import\(\s*["'](\.{1,2}\/[^"']+)["']\s*\)/g;

const files = tsFiles(SRC);
const edges: Edge[] = files.flatMap((file) => {
  const text = readFileSync(file, "utf8");
  const out: Edge[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[3] ?? m[4]!;
    const to = resolveImport(file, spec);
    if (to === undefined || !to.startsWith(SRC) || !to.endsWith(".ts")) continue; // JSON documents, outside src
    out.push({ from: file, to, typeOnly: m[2] !== undefined });
  }
  return out;
});

/**
 * The layer table (docs/ARCHITECTURE.md shows the same): which layers each layer may import, its own always. A `type:`
 * entry allows type-only imports, the one way a lower layer may name a higher one. Every folder of src/ has a row.
 * `util` (hashing, memoising, text chunks) is below everything; `turn` is the HTTP turn pipeline (selection, the turn,
 * rendering) that `sockets` and the provider modules' socket protocols also drive.
 */
const ALLOWED: Record<string, string[]> = {
  util: [],
  http: ["util", "type:canonical"],
  canonical: ["util", "http", "type:scenario"],
  scenario: ["util", "canonical", "http"],
  default: ["util", "canonical", "http", "scenario"],
  record: ["util", "canonical", "http", "scenario", "type:session"],
  mcp: ["util", "canonical", "http", "scenario"],
  session: ["util", "canonical", "scenario", "http", "mcp"],
  objects: ["util", "http"], // files and batches over one small store (src/objects/store.ts)
  runtime: ["type:http", "type:scenario", "type:session", "type:tenancy", "type:objects", "type:webhooks"], // runtime/types.ts, the runtime boundary
  webhooks: ["util", "objects", "type:runtime"], // endpoints, the waiting deliveries, signing and sending
  tenancy: ["util", "http", "scenario", "session", "objects", "type:runtime"],
  providers: ["util", "canonical", "http", "scenario", "default", "record", "objects", "webhooks", "type:runtime", "type:session"],
  turn: ["util", "canonical", "http", "scenario", "default", "record", "session", "tenancy", "providers", "type:runtime"],
  sockets: ["util", "canonical", "http", "scenario", "session", "tenancy", "providers", "turn", "type:runtime", "type:provider-modules"],
  "provider-modules": ["util", "canonical", "http", "scenario", "default", "session", "tenancy", "providers", "turn", "sockets", "objects", "webhooks", "type:runtime"],
  routes: ["util", "canonical", "http", "scenario", "default", "record", "mcp", "session", "tenancy", "providers", "provider-modules", "turn", "type:runtime"],
  admin: ["util", "canonical", "http", "scenario", "record", "session", "tenancy", "routes", "turn", "webhooks", "type:runtime", "type:client"],
  inspector: ["http"],
  router: ["util", "canonical", "http", "scenario", "tenancy", "providers", "provider-modules", "turn", "routes", "sockets", "admin", "inspector", "type:runtime"],
  "hosts/node": ["util", "canonical", "http", "scenario", "mcp", "session", "tenancy", "providers", "provider-modules", "turn", "routes", "sockets", "router", "runtime", "objects", "webhooks"],
  "hosts/workers": ["util", "canonical", "http", "scenario", "mcp", "session", "tenancy", "providers", "provider-modules", "turn", "routes", "sockets", "router", "runtime", "objects", "webhooks"],
  index: ["http", "routes", "router", "runtime", "hosts/workers"], // the Worker entry
  client: ["scenario"], // the published package: the scenario schema and nothing of the server
};

/**
 * Imports that break the table today, each removed by a branch of this wave: the lead deletes a line once its branch
 * is merged (the last test fails on a line that no longer matches any import).
 */
const KNOWN: { from: string; to: string; until: string }[] = [
  // The scenario file loader lives with the CLI; no branch moves it yet (a util or hosts/node module would).
  { from: "hosts/node/files.ts", to: "client/cli/files.ts", until: "a later move" },
];

const isKnown = (e: Edge) => KNOWN.some((k) => relative(SRC, e.from).startsWith(k.from) && relative(SRC, e.to).startsWith(k.to));

/** Strongly connected components of a graph with more than one node (Tarjan). */
function circles(nodes: Iterable<string>, next: (v: string) => Iterable<string>): string[][] {
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of next(v)) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const scc: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        scc.push(w);
      } while (w !== v);
      if (scc.length > 1) found.push(scc.sort());
    }
  };
  for (const v of nodes) if (!idx.has(v)) visit(v);
  return found;
}

/** No layer but the runtimes' own and the entry imports a runtime implementation. */
const RUNTIME_IMPLEMENTATIONS = ["hosts/workers", "hosts/node"];

const show = (e: Edge) => `${relative(SRC, e.from)} → ${relative(SRC, e.to)}${e.typeOnly ? " (type)" : ""}`;

describe("src/ layers (docs/ARCHITECTURE.md)", () => {
  it("finds the import graph", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(edges.some((e) => layerOf(e.from) === "turn" && layerOf(e.to) === "providers")).toBe(true);
  });

  it("every folder of src/ has a row in the layer table", () => {
    const layers = [...new Set(files.map(layerOf))].sort();
    expect(layers.filter((l) => ALLOWED[l] === undefined)).toEqual([]);
  });

  it("every layer imports only what its row allows (known exceptions aside)", () => {
    const bad: string[] = [];
    for (const e of edges) {
      const from = layerOf(e.from);
      const to = layerOf(e.to);
      const allowed = ALLOWED[from] ?? [];
      if (from === to || isKnown(e)) continue;
      if (allowed.includes(to) || (e.typeOnly && allowed.includes(`type:${to}`))) continue;
      bad.push(`${show(e)}: ${from} may not import ${to}`);
    }
    expect(bad).toEqual([]);
  });

  it("the table's value imports run one way: no circle between layers, in the table or in the code", () => {
    const tableNext = (l: string) => (ALLOWED[l] ?? []).filter((x) => !x.startsWith("type:"));
    expect(circles(Object.keys(ALLOWED), tableNext)).toEqual([]);
    const layerNext = new Map<string, Set<string>>();
    for (const e of edges) {
      const from = layerOf(e.from);
      const to = layerOf(e.to);
      if (e.typeOnly || from === to || isKnown(e)) continue;
      layerNext.set(from, (layerNext.get(from) ?? new Set()).add(to));
    }
    expect(circles(layerNext.keys(), (l) => layerNext.get(l) ?? [])).toEqual([]);
  });

  it("each known exception still occurs (delete its line once its branch is merged)", () => {
    const unused = KNOWN.filter((k) => !edges.some((e) => relative(SRC, e.from).startsWith(k.from) && relative(SRC, e.to).startsWith(k.to)));
    expect(unused).toEqual([]);
  });

  it("only the runtimes themselves and the Worker entry import a runtime implementation", () => {
    const bad = edges.filter((e) => RUNTIME_IMPLEMENTATIONS.includes(layerOf(e.to)) && !RUNTIME_IMPLEMENTATIONS.includes(layerOf(e.from)) && layerOf(e.from) !== "index");
    expect(bad.map(show)).toEqual([]);
  });

  it("no import circle spans more than one layer (the session → providers → runtime → session circle is gone)", () => {
    // Over the file graph, type imports included.
    const next = new Map<string, string[]>();
    for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
    const found = circles(files, (f) => next.get(f) ?? []);
    const crossing = found.filter((c) => new Set(c.map(layerOf)).size > 1).map((c) => c.map((f) => relative(SRC, f)).sort());
    expect(crossing).toEqual([]);
  });
});
