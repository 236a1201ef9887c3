// The rule for scenario, session and namespace names is written once (issue 30): NAME_PATTERN, and NAME_RULE /
// NAMES_MATCH derived from it in src/scenario/schema.ts. Every message about a bad name, server and client, states it
// from there, so no other source line spells the pattern out.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { NAME_PATTERN, NAME_RULE, NAMES_MATCH } from "../../src/scenario/schema";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../../src");
const HOME = "scenario/schema.ts";

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? tsFiles(p) : p.endsWith(".ts") ? [p] : [];
  });
}

/** Code lines (not comment lines) that spell out the name pattern, as `file:line`. */
function copies(): string[] {
  return tsFiles(SRC).flatMap((file) => {
    const rel = relative(SRC, file);
    if (rel === HOME || rel === "scenario/names.ts") return []; // names.ts: the pattern itself, re-exported here
    return readFileSync(file, "utf8")
      .split("\n")
      .flatMap((line, i) => (/^\s*(\*|\/\*|\/\/)/.test(line) || !line.includes("[a-z0-9][a-z0-9._-]") ? [] : [`${rel}:${i + 1}`]));
  });
}

describe("the name rule", () => {
  it("is the pattern's own text, in the message every bad name gets", () => {
    expect(NAME_RULE).toBe("[a-z0-9][a-z0-9._-]{0,63}");
    expect(new RegExp(`^${NAME_RULE}$`).source).toBe(NAME_PATTERN.source);
    expect(NAMES_MATCH).toBe("names match [a-z0-9][a-z0-9._-]{0,63}");
  });

  it(`is written out in ${HOME} only`, () => {
    expect(copies()).toEqual([]);
  });
});
