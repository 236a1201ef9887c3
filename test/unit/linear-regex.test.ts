import { describe, expect, it } from "vitest";
import { validateSchema } from "../../src/canonical/schema-validate";
import { stringMatches } from "../../src/scenario/matchers";
import { seededRandom } from "../../src/util/hash";
import { compileLinear, linearRegex } from "../../src/util/linear-regex";

/** Random patterns from these atoms, nested two deep, with every kind of quantifier and alternation. */
const ATOMS = [
  "a",
  "b",
  "A",
  ".",
  "\\d",
  "\\w",
  "\\s",
  "\\D",
  "\\W",
  "\\S",
  "[ab]",
  "[^a]",
  "[a-c]",
  "[\\d_]",
  "[a-]",
  "\\.",
  "😀",
  "[😀a]",
  "\\n",
  "[]",
  "[^]",
  "\\u0061",
  "\\x62",
  "\\u{1F600}",
  "-",
  "{",
  "(?<n>a)",
  "[\\b]",
  "\\0",
];
const TEXTS = ["", "a", "ab", "abc", "aab", "ba", "1", "a1b", "x.y", "a\nb", "😀", "a😀b", " ", "_", "aaaaab", "abcabc", "-", "A", "Ab", "\u2028", "cba1 _x", "{", "\b", "\0"];

function randomPattern(rnd: () => number, depth: number): string {
  const pick = <T>(a: T[]) => a[Math.floor(rnd() * a.length)]!;
  let out = "";
  const n = 1 + Math.floor(rnd() * 4);
  for (let i = 0; i < n; i++) {
    let atom = depth > 0 && rnd() < 0.25 ? `(${rnd() < 0.3 ? "?:" : ""}${randomPattern(rnd, depth - 1)}${rnd() < 0.3 ? `|${randomPattern(rnd, depth - 1)}` : ""})` : pick(ATOMS);
    if (rnd() < 0.1) atom = pick(["^", "$"]);
    const q = rnd();
    if (atom !== "^" && atom !== "$")
      atom += q < 0.15 ? "*" : q < 0.3 ? "+" : q < 0.4 ? "?" : q < 0.5 ? `{${Math.floor(rnd() * 3)},${2 + Math.floor(rnd() * 2)}}` : q < 0.55 ? "{2}" : q < 0.6 ? "*?" : q < 0.65 ? "{1,}" : "";
    out += atom;
  }
  return out;
}

describe("the linear-time regular expressions", () => {
  it("answer as V8 does: 800 random patterns × 7 flag sets × 24 texts", () => {
    const rnd = seededRandom(59);
    const mismatches: string[] = [];
    let compared = 0;
    for (let k = 0; k < 800; k++) {
      const source = randomPattern(rnd, 2);
      for (const flags of ["", "u", "i", "m", "s", "iu", "ms"]) {
        let re: RegExp;
        try {
          re = new RegExp(source, flags);
        } catch {
          expect(compileLinear(source, flags), `${source} /${flags}`).toBeUndefined();
          continue;
        }
        const linear = compileLinear(source, flags);
        if (linear === undefined) {
          // Every atom above is one it follows, but for `\u{…}` without `u` (there: `u` repeated, or a literal `{`).
          expect(source.includes("\\u{") && !flags.includes("u"), `${source} /${flags}`).toBe(true);
          continue;
        }
        for (const text of TEXTS) {
          compared++;
          if (re.test(text) !== linear.test(text)) mismatches.push(`/${source}/${flags} ${JSON.stringify(text)}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
    expect(compared).toBeGreaterThan(80_000);
  });

  it("answer backtracking patterns without backtracking", () => {
    // Under V8: 1.2 s, 18 s, 70 s, and longer than a test runs.
    expect(compileLinear("^(.*a){25}x$")!.test("vawaxayazaaabacadaeafagahaiajakalamanaoapaqarasatax")).toBe(true);
    expect(compileLinear(".*weather.*")!.test("a".repeat(200_000))).toBe(false);
    expect(compileLinear("(\\w+\\s?)+$")!.test(`${"a".repeat(30)}!`)).toBe(false);
    expect(compileLinear("^(a|a)*$")!.test(`${"a".repeat(10_000)}!`)).toBe(false);
    // No quantifier, but alternation inside groups: 2^30 paths a start for a backtracking engine.
    expect(compileLinear(`${"(a|a)".repeat(30)}b`)!.test("a".repeat(40))).toBe(false);
    // Nothing repeated and alternation only at the top: V8's own engine, the same answers.
    expect([compileLinear("summari[sz]e|final answer", "i")!.test("FINAL ANSWER"), compileLinear("^Lis")!.test("Paris")]).toEqual([true, false]);
    expect(compileLinear(`^${"a{0,5}".repeat(100)}a{200}b$`)!.test(`${"a".repeat(700)}b`)).toBe(true);
  });

  it("decline what they do not follow, and programs past the bound; flags d g y are ignored, v declined", () => {
    for (const source of ["(a)\\1", "(?=a)a", "(?!a)b", "(?<=a)b", "(?<!a)b", "\\bword\\b", "\\Bx", "\\p{L}", "\\cJ", "[\\d-z]", "\\k<n>"]) {
      expect(compileLinear(source, "u"), source).toBeUndefined();
    }
    expect(compileLinear("(", "")).toBeUndefined();
    expect(compileLinear("a{4096}")).toBeUndefined();
    expect(compileLinear("a{4000}")!.size).toBe(4001);
    expect(compileLinear("a", "dgy")!.test("a")).toBe(true);
    expect(compileLinear("a", "v")).toBeUndefined();
    expect(linearRegex("a+b", "i")).toBe(linearRegex("a+b", "i")); // kept for the next request
  });

  it("stop at their budget: undefined once the steps are spent, the budget left below zero", () => {
    const budget = { left: 1000 };
    expect(compileLinear("a*b")!.test("a".repeat(10_000), budget)).toBeUndefined();
    expect(budget.left).toBeLessThan(0);
    const enough = { left: 1_000_000 };
    expect(compileLinear("a*b")!.test(`${"a".repeat(1000)}b`, enough)).toBe(true);
    // Per position read, its threads (`a*`'s `a` and the `b`) and one: 3 × 1,001.
    expect(1_000_000 - enough.left).toBe(3_003);
  });
});

describe("where they run", () => {
  it("a scenario's regex matcher: a long message against .*refund.* answers at once; lookarounds still run on V8", () => {
    expect(stringMatches({ regex: ".*refund.*" }, `${"a".repeat(200_000)} REFUND`)).toBe(false);
    expect(stringMatches({ regex: ".*refund.*", flags: "i" }, `${"a".repeat(200_000)} REFUND`)).toBe(true);
    expect(stringMatches({ regex: "^(?=.*\\d)\\w+$" }, "abc1")).toBe(true);
    expect(stringMatches({ regex: "^(?=.*\\d)\\w+$" }, "abc")).toBe(false);
  });

  it("a strict schema's pattern against a scripted answer: checked in linear time; a lookahead left unchecked", () => {
    const schema = { type: "object", properties: { code: { type: "string", pattern: "^(\\w+\\s?)+$" }, pin: { type: "string", pattern: "^(?=.*\\d).{4}$" } } };
    expect(validateSchema(schema, { code: `${"a".repeat(40)}!`, pin: "abcd" })).toEqual([{ path: "/code", message: 'must match pattern "^(\\w+\\s?)+$"' }]);
    expect(validateSchema(schema, { code: "ok words", pin: "abc1" })).toEqual([]);
    // Formats too (`hostname` repeats a repeat); a format naming a property of every object is no format.
    expect(validateSchema({ type: "string", format: "hostname" }, `${"a".repeat(5000)}!`)).toEqual([{ path: "", message: 'must match format "hostname"' }]);
    expect(validateSchema({ type: "string", format: "constructor" }, "x")).toEqual([]);
  });
});
