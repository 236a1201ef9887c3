/**
 * The `calculate_output` formula of OpenAI's multi grader: an arithmetic expression over the sub-graders' scores,
 * parsed by hand (never `eval` or `Function`) so that a request can only ever compute a number.
 *
 * - numbers: `3`, `0.5`, `.5`, `2.`, `1e-3`;
 * - variables: `[A-Za-z_][A-Za-z0-9_]*`, each a key of the variables given (an unknown one is an
 *   `invalid_variable_error`);
 * - `+ - * /`, and `^` or `**` for a power, which groups to the right (`2 ^ 3 ^ 2` is 512);
 * - unary `-` and `+`, which bind more loosely than a power, as in Python: `-2 ** 2` is −4, and `2 ^ -1` is 0.5;
 * - parentheses, and the functions `min(a, b, …)`, `max(…)`, `abs(x)`, `floor(x)`, `ceil(x)`, `exp(x)`, `sqrt(x)` and
 *   `log(x)` (natural).
 *
 * Anything else — an unknown function, a wrong number of arguments, a token left over, an empty formula, one longer
 * than MAX_FORMULA_CHARS or nested deeper than MAX_FORMULA_DEPTH — is a `formula_parse_error` whose message names the
 * character (counted from 1) where it went wrong. So is a part of the formula whose value is not a finite number
 * (`1 / 0`, `log(0)`, `sqrt(-1)`): a grader's score must be one.
 */

/** Characters a formula may hold. */
export const MAX_FORMULA_CHARS = 1000;
/** Parentheses, function calls, signs and exponents a formula may nest. */
export const MAX_FORMULA_DEPTH = 64;

/** Why a formula has no value: it does not parse (or computes no finite number), or names a variable not given. */
export type FormulaError = "formula_parse_error" | "invalid_variable_error";

/** A formula's value, or its error and a message naming the character where it went wrong. */
export type FormulaResult = { ok: true; value: number } | { ok: false; error: FormulaError; message: string };

/**
 * The value of `formula` with `vars` for its variables, or why it has none.
 * @example evaluateFormula("0.5 * a + 0.5 * max(b, c)", { a: 1, b: 0, c: 0.5 }) // { ok: true, value: 0.75 }
 * @example evaluateFormula("a + d", { a: 1 }) // { ok: false, error: "invalid_variable_error", message: 'unknown variable "d" at character 5' }
 */
export function evaluateFormula(formula: string, vars: Record<string, number>): FormulaResult {
  const parsed = parse(formula);
  if ("message" in parsed) return { ok: false, error: "formula_parse_error", message: parsed.message };
  // Every variable is checked before anything is computed, so an unknown name is reported whatever else is wrong.
  for (const v of variableNodes(parsed)) {
    if (!Object.hasOwn(vars, v.name) || typeof vars[v.name] !== "number") {
      return { ok: false, error: "invalid_variable_error", message: `unknown variable "${v.name}" at character ${v.at + 1}` };
    }
  }
  const value = evaluate(parsed, vars, formula);
  if (typeof value === "number") return { ok: true, value };
  return { ok: false, error: "formula_parse_error", message: value.message };
}

/**
 * The variable names `formula` uses, each once, in order of first appearance (function names are not variables), or
 * why it does not parse: what a grader is checked with before it runs.
 * @example formulaVariables("min(a, b) + a * c") // ["a", "b", "c"]
 */
export function formulaVariables(formula: string): string[] | { error: string } {
  const parsed = parse(formula);
  if ("message" in parsed) return { error: parsed.message };
  return [...new Set(variableNodes(parsed).map((v) => v.name))];
}

/** The functions a formula may call, with the arguments each takes at least and at most. */
const FUNCTIONS: Record<string, { min: number; max: number; apply: (args: number[]) => number }> = {
  min: { min: 1, max: Number.POSITIVE_INFINITY, apply: (args) => Math.min(...args) },
  max: { min: 1, max: Number.POSITIVE_INFINITY, apply: (args) => Math.max(...args) },
  abs: { min: 1, max: 1, apply: ([x]) => Math.abs(x!) },
  floor: { min: 1, max: 1, apply: ([x]) => Math.floor(x!) },
  ceil: { min: 1, max: 1, apply: ([x]) => Math.ceil(x!) },
  exp: { min: 1, max: 1, apply: ([x]) => Math.exp(x!) },
  sqrt: { min: 1, max: 1, apply: ([x]) => Math.sqrt(x!) },
  log: { min: 1, max: 1, apply: ([x]) => Math.log(x!) },
};

type BinaryOp = "+" | "-" | "*" | "/" | "^";

/**
 * A parsed formula; `start` and `end` bound its source text, which an error quotes (with the parentheses or sign
 * around it), and a variable's `at` is where its name is.
 */
type Node = { start: number; end: number } & (
  | { kind: "number"; value: number }
  | { kind: "variable"; name: string; at: number }
  | { kind: "negate"; operand: Node }
  | { kind: "binary"; op: BinaryOp; left: Node; right: Node }
  | { kind: "call"; name: string; args: Node[] }
);

type Token = { start: number; end: number } & ({ kind: "number"; value: number } | { kind: "name"; name: string } | { kind: "symbol"; symbol: string });

/** Why a formula has no value. */
interface Failure {
  message: string;
}

/** Raised inside the parser and caught at its top: recursive descent has no simpler way out. */
class ParseError extends Error {}

const NUMBER = /(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?/y;
const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const SPACE = /\s+/y;
/** Two-character symbols first, so `**` is not read as two `*`. */
const SYMBOLS = ["**", "+", "-", "*", "/", "^", "(", ")", ","];

/** `formula`'s syntax tree, or where it stops making sense. */
function parse(formula: string): Node | Failure {
  if (formula.length > MAX_FORMULA_CHARS) return { message: `formula is longer than ${MAX_FORMULA_CHARS} characters` };
  try {
    const parser = new Parser(formula, tokenize(formula));
    return parser.formula();
  } catch (e) {
    if (e instanceof ParseError) return { message: e.message };
    throw e;
  }
}

/** `formula`'s tokens; a character that starts none is a ParseError. */
function tokenize(formula: string): Token[] {
  const out: Token[] = [];
  let at = 0;
  while (at < formula.length) {
    const space = matchAt(SPACE, formula, at);
    if (space !== null) {
      at += space.length;
      continue;
    }
    const number = matchAt(NUMBER, formula, at);
    const name = number === null ? matchAt(NAME, formula, at) : null;
    const symbol = number === null && name === null ? SYMBOLS.find((s) => formula.startsWith(s, at)) : undefined;
    if (number !== null) out.push({ kind: "number", value: Number(number), start: at, end: at + number.length });
    else if (name !== null) out.push({ kind: "name", name, start: at, end: at + name.length });
    else if (symbol !== undefined) out.push({ kind: "symbol", symbol, start: at, end: at + symbol.length });
    else throw new ParseError(`unexpected ${JSON.stringify(String.fromCodePoint(formula.codePointAt(at)!))} at character ${at + 1}`);
    at = out[out.length - 1]!.end;
  }
  return out;
}

/** What sticky `re` matches at `at`, or null. */
function matchAt(re: RegExp, text: string, at: number): string | null {
  re.lastIndex = at;
  return re.exec(text)?.[0] ?? null;
}

/**
 * Recursive descent, loosest first:
 *   formula := sum EOF;  sum := product (("+" | "-") product)*;  product := signed (("*" | "/") signed)*;
 *   signed := ("-" | "+") signed | power;  power := atom (("^" | "**") signed)?;
 *   atom := number | name | name "(" sum ("," sum)* ")" | "(" sum ")".
 */
class Parser {
  private next = 0;
  /** Nesting so far: the whole formula's `signed` is at 0, and each parenthesis, argument, sign or exponent adds 1. */
  private depth = -1;

  constructor(
    private readonly source: string,
    private readonly tokens: Token[],
  ) {}

  formula(): Node {
    if (this.tokens.length === 0) throw new ParseError("formula is empty");
    const node = this.sum();
    const extra = this.tokens[this.next];
    if (extra !== undefined) throw new ParseError(`unexpected ${this.describe(extra)} at character ${extra.start + 1}`);
    return node;
  }

  private sum(): Node {
    let node = this.product();
    for (let op = this.symbol("+", "-"); op !== undefined; op = this.symbol("+", "-")) {
      node = binary(op as BinaryOp, node, this.product());
    }
    return node;
  }

  private product(): Node {
    let node = this.signed();
    for (let op = this.symbol("*", "/"); op !== undefined; op = this.symbol("*", "/")) {
      node = binary(op as BinaryOp, node, this.signed());
    }
    return node;
  }

  /** Every nesting passes through here (a parenthesis or argument by way of sum), so the depth is counted here. */
  private signed(): Node {
    if (++this.depth > MAX_FORMULA_DEPTH) {
      // Past the top level a token opened this nesting: the "(", ",", sign or power just read, which the message names.
      const opener = this.tokens[this.next - 1]!;
      throw new ParseError(`formula nests deeper than ${MAX_FORMULA_DEPTH} at character ${opener.start + 1}`);
    }
    const token = this.peek();
    try {
      const sign = this.symbol("-", "+");
      if (sign === undefined) return this.power();
      const operand = this.signed();
      return sign === "+" ? { ...operand, start: token.start } : { kind: "negate", operand, start: token.start, end: operand.end };
    } finally {
      this.depth--;
    }
  }

  private power(): Node {
    const base = this.atom();
    // The exponent is `signed`, not `atom`: that makes `^` group to the right and lets it take a sign (`2 ^ -1`).
    return this.symbol("^", "**") === undefined ? base : binary("^", base, this.signed());
  }

  private atom(): Node {
    const token = this.peek();
    this.next++;
    if (token.kind === "number") return { kind: "number", value: token.value, start: token.start, end: token.end };
    if (token.kind === "name") return this.symbol("(") === undefined ? { kind: "variable", name: token.name, at: token.start, start: token.start, end: token.end } : this.call(token);
    if (token.kind === "symbol" && token.symbol === "(") {
      const inner = this.sum();
      const close = this.expect(")");
      return { ...inner, start: token.start, end: close.end };
    }
    throw new ParseError(`expected a number, a variable or "(" but found ${this.describe(token)} at character ${token.start + 1}`);
  }

  /** A call of the function `name`, its "(" read. */
  private call(name: Token & { kind: "name" }): Node {
    const fn = Object.hasOwn(FUNCTIONS, name.name) ? FUNCTIONS[name.name] : undefined;
    if (fn === undefined) throw new ParseError(`unknown function "${name.name}" at character ${name.start + 1}`);
    const args = [this.sum()];
    while (this.symbol(",") !== undefined) args.push(this.sum());
    const close = this.expect(")");
    if (args.length < fn.min || args.length > fn.max) {
      const wanted = fn.max === fn.min ? `${fn.min}` : `at least ${fn.min}`;
      throw new ParseError(`${name.name}() takes ${wanted} argument${fn.min === 1 && fn.max === 1 ? "" : "s"}, not ${args.length}, at character ${name.start + 1}`);
    }
    return { kind: "call", name: name.name, args, start: name.start, end: close.end };
  }

  /** The next token, or a ParseError at the formula's end. */
  private peek(): Token {
    const token = this.tokens[this.next];
    if (token === undefined) throw new ParseError(`formula ends early at character ${this.source.length + 1}`);
    return token;
  }

  /** Reads the next token if it is one of `symbols`, and returns which. */
  private symbol(...symbols: string[]): string | undefined {
    const token = this.tokens[this.next];
    if (token?.kind !== "symbol" || !symbols.includes(token.symbol)) return undefined;
    this.next++;
    // `**` is `^` by another name.
    return token.symbol === "**" ? "^" : token.symbol;
  }

  /** Reads `symbol`, or throws where it should have been. */
  private expect(symbol: string): Token {
    const token = this.peek();
    if (token.kind !== "symbol" || token.symbol !== symbol) throw new ParseError(`expected "${symbol}" but found ${this.describe(token)} at character ${token.start + 1}`);
    this.next++;
    return token;
  }

  /** A token as a message quotes it. */
  private describe(token: Token): string {
    return JSON.stringify(this.source.slice(token.start, token.end));
  }
}

function binary(op: BinaryOp, left: Node, right: Node): Node {
  return { kind: "binary", op, left, right, start: left.start, end: right.end };
}

/** The variable nodes of `node`, in source order, added to `out`. */
function variableNodes(node: Node, out: (Node & { kind: "variable" })[] = []): (Node & { kind: "variable" })[] {
  switch (node.kind) {
    case "variable":
      out.push(node);
      break;
    case "negate":
      variableNodes(node.operand, out);
      break;
    case "binary":
      variableNodes(node.left, out);
      variableNodes(node.right, out);
      break;
    case "call":
      for (const arg of node.args) variableNodes(arg, out);
      break;
  }
  return out;
}

/** `node`'s value, or the first part of it (innermost, leftmost) that is not a finite number. */
function evaluate(node: Node, vars: Record<string, number>, source: string): number | Failure {
  const value = compute(node, vars, source);
  if (typeof value !== "number" || Number.isFinite(value)) return value;
  return { message: `${JSON.stringify(source.slice(node.start, node.end))} at character ${node.start + 1} is not a finite number` };
}

/** `node`'s value from its parts' values, each checked finite by `evaluate`. */
function compute(node: Node, vars: Record<string, number>, source: string): number | Failure {
  switch (node.kind) {
    case "number":
      return node.value;
    case "variable":
      return vars[node.name]!;
    case "negate": {
      const x = evaluate(node.operand, vars, source);
      return typeof x === "number" ? -x : x;
    }
    case "binary": {
      const left = evaluate(node.left, vars, source);
      if (typeof left !== "number") return left;
      const right = evaluate(node.right, vars, source);
      if (typeof right !== "number") return right;
      return arithmetic(node.op, left, right);
    }
    case "call": {
      const args: number[] = [];
      for (const arg of node.args) {
        const x = evaluate(arg, vars, source);
        if (typeof x !== "number") return x;
        args.push(x);
      }
      return FUNCTIONS[node.name]!.apply(args);
    }
  }
}

function arithmetic(op: BinaryOp, a: number, b: number): number {
  switch (op) {
    case "+":
      return a + b;
    case "-":
      return a - b;
    case "*":
      return a * b;
    case "/":
      return a / b;
    case "^":
      return a ** b;
  }
}
