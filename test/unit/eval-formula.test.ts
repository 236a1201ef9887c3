/**
 * The multi grader's `calculate_output` formulas: precedence and grouping, functions, variables, and each way a
 * formula fails, with the character its message points at.
 */
import { describe, expect, it } from "vitest";
import { evaluateFormula, formulaVariables, MAX_FORMULA_CHARS, MAX_FORMULA_DEPTH } from "../../src/providers/openai/module/evals/formula";

/** The value of `formula`, or the failure as it is returned. */
function value(formula: string, vars: Record<string, number> = {}): number | { error: string; message: string } {
  const result = evaluateFormula(formula, vars);
  return result.ok ? result.value : { error: result.error, message: result.message };
}

const parseError = (message: string) => ({ error: "formula_parse_error", message });

describe("formula arithmetic", () => {
  it("reads numbers as integers, decimals and exponents", () => {
    expect(["42", "0.5", ".5", "2.", "1e3", "2.5E-1", " 7 "].map((f) => value(f))).toEqual([42, 0.5, 0.5, 2, 1000, 0.25, 7]);
  });

  it("multiplies and divides before adding and subtracting, left to right", () => {
    expect(value("1 + 2 * 3")).toBe(7);
    expect(value("(1 + 2) * 3")).toBe(9);
    expect(value("8 / 4 / 2")).toBe(1);
    expect(value("10 - 4 - 3")).toBe(3);
  });

  it("groups powers to the right, with ^ and ** alike", () => {
    expect(value("2 ^ 3 ^ 2")).toBe(512);
    expect(value("2 ** 3 ** 2")).toBe(512);
    expect(value("(2 ^ 3) ^ 2")).toBe(64);
    expect(value("2 * 3 ^ 2")).toBe(18);
  });

  it("binds a sign more loosely than a power, as Python does, and lets an exponent take one", () => {
    expect(value("-2 ** 2")).toBe(-4);
    expect(value("(-2) ** 2")).toBe(4);
    expect(value("2 ^ -1")).toBe(0.5);
    expect(value("- -3")).toBe(3);
    expect(value("+3 - -1")).toBe(4);
    expect(value("2 * -3")).toBe(-6);
  });

  it("calls min, max, abs, floor, ceil, exp, sqrt and log", () => {
    expect(value("min(3, 1, 2)")).toBe(1);
    expect(value("max(3, 1, 2)")).toBe(3);
    expect(value("max(4)")).toBe(4);
    expect(value("abs(-2.5)")).toBe(2.5);
    expect(value("floor(-1.5)")).toBe(-2);
    expect(value("ceil(1.2)")).toBe(2);
    expect(value("exp(0)")).toBe(1);
    expect(value("sqrt(16)")).toBe(4);
    expect(value("log(exp(2))")).toBe(2);
    expect(value("max(min(1, 2) + 1, sqrt(9) * 2) / 2")).toBe(3);
  });

  it("reads variables from those given", () => {
    const vars = { a: 1, b: 0, score_2: 0.5 };
    expect(value("0.5 * a + 0.5 * max(b, score_2)", vars)).toBe(0.75);
    expect(value("-a ^ 2", vars)).toBe(-1);
    // A variable may share a function's name: only a name followed by "(" is a call.
    expect(value("min + min(min, 2)", { min: 1 })).toBe(2);
  });
});

describe("formula errors", () => {
  it("names an unknown variable, checked before anything is computed", () => {
    expect(value("a + d", { a: 1 })).toEqual({ error: "invalid_variable_error", message: 'unknown variable "d" at character 5' });
    expect(value("1 / 0 + x")).toEqual({ error: "invalid_variable_error", message: 'unknown variable "x" at character 9' });
    // Only the variables' own keys count.
    expect(value("constructor + 1")).toEqual({ error: "invalid_variable_error", message: 'unknown variable "constructor" at character 1' });
    expect(value("2 * (+(d))")).toEqual({ error: "invalid_variable_error", message: 'unknown variable "d" at character 8' });
  });

  it("refuses an empty formula, and one longer than the bound", () => {
    expect(value("")).toEqual(parseError("formula is empty"));
    expect(value("   ")).toEqual(parseError("formula is empty"));
    expect(value(`1${" ".repeat(MAX_FORMULA_CHARS - 1)}`)).toBe(1);
    expect(value(`1${" ".repeat(MAX_FORMULA_CHARS)}`)).toEqual(parseError("formula is longer than 1000 characters"));
  });

  it("points at a character that starts no token, and at a token left over", () => {
    expect(value("1 + $")).toEqual(parseError('unexpected "$" at character 5'));
    expect(value("a; b", { a: 1, b: 2 })).toEqual(parseError('unexpected ";" at character 2'));
    expect(value("1 2")).toEqual(parseError('unexpected "2" at character 3'));
    expect(value("(1))")).toEqual(parseError('unexpected ")" at character 4'));
    expect(value("2x", { x: 1 })).toEqual(parseError('unexpected "x" at character 2'));
  });

  it("points at what is missing", () => {
    expect(value("1 +")).toEqual(parseError("formula ends early at character 4"));
    expect(value("(1 + 2")).toEqual(parseError("formula ends early at character 7"));
    expect(value("1 * * 2")).toEqual(parseError('expected a number, a variable or "(" but found "*" at character 5'));
    expect(value("max(1 2)")).toEqual(parseError('expected ")" but found "2" at character 7'));
    expect(value("()")).toEqual(parseError('expected a number, a variable or "(" but found ")" at character 2'));
  });

  it("refuses an unknown function and a wrong number of arguments", () => {
    expect(value("pow(2, 3)")).toEqual(parseError('unknown function "pow" at character 1'));
    expect(value("1 + constructor(2)")).toEqual(parseError('unknown function "constructor" at character 5'));
    expect(value("abs(1, 2)")).toEqual(parseError("abs() takes 1 argument, not 2, at character 1"));
    expect(value("min()")).toEqual(parseError('expected a number, a variable or "(" but found ")" at character 5'));
  });

  it(`refuses nesting deeper than ${MAX_FORMULA_DEPTH}`, () => {
    const nested = (n: number) => `${"(".repeat(n)}1${")".repeat(n)}`;
    expect(value(nested(MAX_FORMULA_DEPTH))).toBe(1);
    expect(value(nested(MAX_FORMULA_DEPTH + 1))).toEqual(parseError(`formula nests deeper than 64 at character ${MAX_FORMULA_DEPTH + 1}`));
    expect(value(`${"-".repeat(MAX_FORMULA_DEPTH)}1`)).toBe(1);
    expect(value(`${"-".repeat(MAX_FORMULA_DEPTH + 1)}1`)).toEqual(parseError(`formula nests deeper than 64 at character ${MAX_FORMULA_DEPTH + 1}`));
  });

  it("refuses a value that is not a finite number, quoting the innermost part that has none", () => {
    expect(value("1 / 0")).toEqual(parseError('"1 / 0" at character 1 is not a finite number'));
    expect(value("2 * (a - a) ^ -1 + 1", { a: 3 })).toEqual(parseError('"(a - a) ^ -1" at character 5 is not a finite number'));
    expect(value("1 + log(0)")).toEqual(parseError('"log(0)" at character 5 is not a finite number'));
    expect(value("sqrt(-1)")).toEqual(parseError('"sqrt(-1)" at character 1 is not a finite number'));
    expect(value("exp(1000) - exp(1000)")).toEqual(parseError('"exp(1000)" at character 1 is not a finite number'));
    expect(value("1e999")).toEqual(parseError('"1e999" at character 1 is not a finite number'));
    expect(value("a", { a: Number.NaN })).toEqual(parseError('"a" at character 1 is not a finite number'));
  });
});

describe("formulaVariables", () => {
  it("lists the variables once each, in order of first use, without the functions", () => {
    expect(formulaVariables("min(a, b) + a * c")).toEqual(["a", "b", "c"]);
    expect(formulaVariables("0.5 * sqrt(x_1) + y ^ -z")).toEqual(["x_1", "y", "z"]);
    expect(formulaVariables("1 + 2")).toEqual([]);
  });

  it("reports why a formula does not parse", () => {
    expect(formulaVariables("a +")).toEqual({ error: "formula ends early at character 4" });
    expect(formulaVariables("foo(a)")).toEqual({ error: 'unknown function "foo" at character 1' });
  });
});
