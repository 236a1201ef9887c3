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
 * Provider modules — `providers/registry.ts`, `providers/module.ts`, each `providers/<name>/module.ts` and the socket
 * state machines in `providers/<name>/sockets/` — declare what a provider adds, the sockets it runs included, so they
 * sit above the turn pipeline and the socket machinery; the rest of `providers/` (parse, render) sits below them.
 */
const PROVIDER_MODULE = /^providers\/(registry\.ts|module\.ts|[^/]+\/module\.ts|[^/]+\/sockets\/)/;

/** `runtime/workers`, `runtime/node` and `runtime` (its interface file) are separate layers; else the top folder. */
function layerOf(file: string): string {
  if (PROVIDER_MODULE.test(relative(SRC, file))) return "provider-modules";
  const parts = relative(SRC, file).split("/");
  if (parts.length === 1) return parts[0]!.replace(/\.ts$/, "");
  if (parts[0] === "runtime" && parts.length > 2) return `runtime/${parts[1]}`;
  return parts[0]!;
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

/** Which layers each layer may import (its own always). `type:` entries allow type-only imports. */
const ALLOWED: Record<string, string[]> = {
  util: [],
  canonical: ["util", "http", "type:scenario"],
  http: ["util", "type:canonical"],
  scenario: ["util", "canonical", "http"],
  default: ["util", "canonical", "http", "scenario"],
  record: ["util", "canonical", "http", "scenario", "type:session"],
  mcp: ["util", "canonical", "http", "scenario"],
  session: ["util", "canonical", "scenario", "http", "mcp"],
  providers: ["util", "canonical", "http", "scenario", "default", "record", "type:runtime", "type:session"],
};
/** No layer but the runtimes' own and the entry imports a runtime implementation. */
const RUNTIME_IMPLEMENTATIONS = ["runtime/workers", "runtime/node"];

const show = (e: Edge) => `${relative(SRC, e.from)} → ${relative(SRC, e.to)}${e.typeOnly ? " (type)" : ""}`;

describe("src/ layers (docs/ARCHITECTURE.md)", () => {
  it("finds the import graph", () => {
    expect(files.length).toBeGreaterThan(100);
    expect(edges.some((e) => layerOf(e.from) === "turn" && layerOf(e.to) === "providers")).toBe(true);
  });

  it("util, canonical, http, scenario, mcp, default, record, session and providers import only the layers below them", () => {
    const bad: string[] = [];
    for (const e of edges) {
      const from = layerOf(e.from);
      const to = layerOf(e.to);
      const allowed = ALLOWED[from];
      if (allowed === undefined || from === to) continue;
      if (allowed.includes(to) || (e.typeOnly && allowed.includes(`type:${to}`))) continue;
      bad.push(show(e));
    }
    expect(bad).toEqual([]);
  });

  it("only the runtimes themselves and the Worker entry import a runtime implementation", () => {
    const bad = edges
      .filter((e) => RUNTIME_IMPLEMENTATIONS.includes(layerOf(e.to)) && !RUNTIME_IMPLEMENTATIONS.includes(layerOf(e.from)) && layerOf(e.from) !== "index");
    expect(bad.map(show)).toEqual([]);
  });

  it("no import circle spans more than one layer (the session → providers → runtime → session circle is gone)", () => {
    // Tarjan's strongly connected components over the file graph, type imports included.
    const next = new Map<string, string[]>();
    for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
    let index = 0;
    const idx = new Map<string, number>();
    const low = new Map<string, number>();
    const stack: string[] = [];
    const on = new Set<string>();
    const circles: string[][] = [];
    const visit = (v: string) => {
      idx.set(v, index);
      low.set(v, index++);
      stack.push(v);
      on.add(v);
      for (const w of next.get(v) ?? []) {
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
        if (scc.length > 1) circles.push(scc);
      }
    };
    for (const f of files) if (!idx.has(f)) visit(f);
    const crossing = circles
      .filter((c) => new Set(c.map(layerOf)).size > 1)
      .map((c) => c.map((f) => relative(SRC, f)).sort());
    expect(crossing).toEqual([]);
  });
});
