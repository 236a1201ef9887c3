// What the `mockllm` CLI loads before it runs a command: the modules src/client/cli/main.ts reaches through static,
// value imports (`import type` and `import()` left out). zod and the scenario schema are not among them, so
// `mockllm serve` starts without building the scenario schema a second time (the Node runtime has its own, bundled);
// the commands that read scenario files or a --chaos spec load them when they do.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { UPSTREAM_PROVIDERS } from "../../src/client/cli/upstreams";
import { RecordSchema } from "../../src/scenario/schema";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");
const STATIC_IMPORT = /^(?:import|export)\s+(?!type\b)(?:[^;"']*?\bfrom\s*)?["']([^"']+)["']/gm;

/** Every source file and package `entry` reaches through static value imports. */
function reach(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const [, spec] of readFileSync(file, "utf8").matchAll(STATIC_IMPORT)) {
      if (!spec!.startsWith(".")) {
        packages.add(spec!);
        continue;
      }
      const base = resolve(dirname(file), spec!);
      const target = [`${base}.ts`, join(base, "index.ts")].find((p) => existsSync(p));
      if (target === undefined) throw new Error(`${file}: cannot resolve ${spec}`);
      visit(target);
    }
  };
  visit(join(SRC, entry));
  return { files: [...files].map((f) => relative(SRC, f)).sort(), packages: [...packages].sort() };
}

describe("the CLI's start", () => {
  it("loads neither zod nor the scenario schema", () => {
    const { files, packages } = reach("client/cli/main.ts");
    expect(files).toContain("client/cli/commands/serve.ts");
    expect(files.filter((f) => f.startsWith("scenario/"))).toStrictEqual(["scenario/names.ts"]);
    expect(packages.filter((p) => !p.startsWith("node:"))).toStrictEqual([]);
  });

  it("names the record schema's upstreams in its help", () => {
    expect(UPSTREAM_PROVIDERS).toBe(Object.keys(RecordSchema.shape.upstream.shape).join(", "));
  });
});
