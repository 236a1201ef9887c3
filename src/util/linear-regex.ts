/**
 * Regular expressions tested in time linear in the text: a Pike VM over a compiled program, for patterns someone
 * other than the server wrote (a client's JSON Schema `pattern`, a scenario's regex matcher on a client's message).
 * V8's backtracking engine takes exponential time on `^(a|a)*$` or `^(.*a){25}x$`, and quadratic time on
 * `.*weather.*` against a long message (4.5 s at 100 KB): on a shared URL one request would hold the isolate.
 *
 * ECMAScript syntax with the flags `i`, `m`, `s` and `u`: literals and escapes (`\d \D \w \W \s \S`, `\t \n \r \f \v
 * \0`, `\xHH`, `\uHHHH`, `\u{…}` with `u`, punctuation), `.`, classes with ranges and negation, `^ $`, groups
 * (capturing, `(?:…)`, `(?<name>…)`), alternation and every quantifier (lazy ones alike: a test has no captures).
 * What it does not follow — backreferences, lookarounds, `\b \B`, `\p{…}`, `\cX` — or a program past `maxProgram`
 * steps compiles to undefined, and the caller decides (a check errs on the side of passing). Under `i` a character
 * matches when its set holds it or its lower- or upper-case form (simple case mapping; V8 without `u` differs on a
 * few letters, such as the Kelvin sign). A pattern in which nothing repeats and no group alternates is tested by V8's
 * own engine, which tries each start once per branch there.
 */

import { memoized } from "./memo";
import { inRanges, isLowSurrogate, SPACE_RANGES } from "./text";

/** A set of code points (or UTF-16 units without `u`): sorted, inclusive `[lo, hi]` pairs, maybe negated. */
interface CharSet {
  ranges: number[];
  negated: boolean;
}

type Node = { t: "set"; set: CharSet } | { t: "any" } | { t: "bol" } | { t: "eol" } | { t: "alt"; branches: Node[][] } | { t: "repeat"; node: Node; min: number; max: number };

const DIGIT: number[] = [0x30, 0x39];
const WORD: number[] = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];
const SPACE = SPACE_RANGES as number[];
const MAX_POINT = 0x10ffff;

/** The complement of sorted, non-overlapping ranges (a negated class escape inside a class: `[\D]`). */
function complement(ranges: number[]): number[] {
  const out: number[] = [];
  let next = 0;
  for (let i = 0; i < ranges.length; i += 2) {
    if (ranges[i]! > next) out.push(next, ranges[i]! - 1);
    next = ranges[i + 1]! + 1;
  }
  if (next <= MAX_POINT) out.push(next, MAX_POINT);
  return out;
}

const isLineTerminator = (c: number) => c === 0x0a || c === 0x0d || c === 0x2028 || c === 0x2029;

class Unsupported extends Error {}

/** `{n}`, `{n,}`, `{n,m}` at `lastIndex` (sticky: no copy of the rest of the pattern for each brace). */
const QUANTIFIER = /\{(\d+)(,(\d*))?\}/y;

class Parser {
  i = 0;
  /** Whether the pattern repeats anything, or alternates inside a group: what can make a backtracking engine slow. */
  backtracks = false;
  constructor(
    private readonly src: string,
    private readonly unicode: boolean,
  ) {}

  parse(): Node {
    const node = this.alternation();
    if (this.i < this.src.length) throw new Unsupported(); // a stray `)`: the RegExp constructor refuses it anyway
    return node;
  }

  private peek(): string | undefined {
    return this.src[this.i];
  }

  /** The next character, a surrogate pair whole with `u`. */
  private point(): number {
    const c = this.unicode ? this.src.codePointAt(this.i)! : this.src.charCodeAt(this.i);
    this.i += c > 0xffff ? 2 : 1;
    return c;
  }

  private alternation(): Node {
    const branches: Node[][] = [this.sequence()];
    while (this.peek() === "|") {
      this.i++;
      branches.push(this.sequence());
    }
    if (branches.length > 1 && this.i < this.src.length) this.backtracks = true; // inside a group: its `)` follows
    return { t: "alt", branches };
  }

  private sequence(): Node[] {
    const out: Node[] = [];
    while (this.i < this.src.length && this.peek() !== "|" && this.peek() !== ")") {
      const atom = this.atom();
      out.push(this.quantified(atom));
    }
    return out;
  }

  private quantified(atom: Node): Node {
    const q = this.peek();
    let min: number;
    let max: number;
    if (q === "*" || q === "+" || q === "?") {
      this.i++;
      [min, max] = q === "*" ? [0, Infinity] : q === "+" ? [1, Infinity] : [0, 1];
    } else if (q === "{") {
      QUANTIFIER.lastIndex = this.i;
      const m = QUANTIFIER.exec(this.src);
      if (m === null) return atom; // a literal `{` (without `u`; the constructor refuses it with `u`)
      this.i += m[0].length;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === "" ? Infinity : Number(m[3]);
    } else return atom;
    if (this.peek() === "?") this.i++; // lazy: the same set of matches
    if (atom.t === "bol" || atom.t === "eol") throw new Unsupported();
    this.backtracks = true;
    return { t: "repeat", node: atom, min, max };
  }

  private atom(): Node {
    const c = this.peek()!;
    if (c === "(") {
      this.i++;
      if (this.src.startsWith("?:", this.i)) this.i += 2;
      else if (this.src.startsWith("?<", this.i) && this.src[this.i + 2] !== "=" && this.src[this.i + 2] !== "!") {
        const end = this.src.indexOf(">", this.i);
        if (end < 0) throw new Unsupported();
        this.i = end + 1;
      } else if (this.peek() === "?") throw new Unsupported(); // lookarounds
      const inner = this.alternation();
      if (this.peek() !== ")") throw new Unsupported();
      this.i++;
      return inner;
    }
    if (c === "^") {
      this.i++;
      return { t: "bol" };
    }
    if (c === "$") {
      this.i++;
      return { t: "eol" };
    }
    if (c === ".") {
      this.i++;
      return { t: "any" };
    }
    if (c === "[") return { t: "set", set: this.charClass() };
    if (c === "*" || c === "+" || c === "?") throw new Unsupported();
    if (c === "\\") {
      this.i++;
      const ranges = this.escape(false);
      return { t: "set", set: { ranges, negated: false } };
    }
    const p = this.point();
    return { t: "set", set: { ranges: [p, p], negated: false } };
  }

  /** The ranges an escape stands for (after its `\`); `inClass`: `\b` is a backspace there. */
  private escape(inClass: boolean): number[] {
    const e = this.src[this.i];
    if (e === undefined) throw new Unsupported();
    this.i++;
    switch (e) {
      case "d":
        return DIGIT;
      case "D":
        return complement(DIGIT);
      case "w":
        return WORD;
      case "W":
        return complement(WORD);
      case "s":
        return SPACE;
      case "S":
        return complement(SPACE);
      case "t":
        return [0x09, 0x09];
      case "n":
        return [0x0a, 0x0a];
      case "r":
        return [0x0d, 0x0d];
      case "f":
        return [0x0c, 0x0c];
      case "v":
        return [0x0b, 0x0b];
      case "0":
        if (/[0-9]/.test(this.src[this.i] ?? "")) throw new Unsupported();
        return [0, 0];
      case "b":
        if (inClass) return [0x08, 0x08];
        throw new Unsupported();
      case "x": {
        const hex = /^[0-9a-fA-F]{2}/.exec(this.src.slice(this.i, this.i + 2));
        if (hex === null) throw new Unsupported();
        this.i += 2;
        const v = Number.parseInt(hex[0], 16);
        return [v, v];
      }
      case "u": {
        const braced = this.unicode ? /^\{([0-9a-fA-F]{1,6})\}/.exec(this.src.slice(this.i, this.i + 8)) : null;
        const m = braced ?? /^[0-9a-fA-F]{4}/.exec(this.src.slice(this.i, this.i + 4));
        if (m === null) throw new Unsupported();
        this.i += m[0].length;
        let v = Number.parseInt(braced ? m[1]! : m[0], 16);
        // `\uD83D\uDE00` with `u` is one code point.
        const low = this.unicode && v >= 0xd800 && v <= 0xdbff ? /^\\u(d[c-f][0-9a-f]{2})/i.exec(this.src.slice(this.i, this.i + 6)) : null;
        if (low) {
          v = 0x10000 + ((v - 0xd800) << 10) + (Number.parseInt(low[1]!, 16) - 0xdc00);
          this.i += 6;
        }
        return [v, v];
      }
      default: {
        if (/[0-9A-Za-z]/.test(e)) throw new Unsupported(); // backreferences, \B \c \k \p \P, and the rest
        this.i--;
        const p = this.point();
        return [p, p];
      }
    }
  }

  private charClass(): CharSet {
    this.i++; // [
    const negated = this.peek() === "^";
    if (negated) this.i++;
    const ranges: number[] = [];
    while (this.peek() !== "]") {
      if (this.i >= this.src.length) throw new Unsupported();
      const lo = this.classAtom();
      if (this.peek() === "-" && this.src[this.i + 1] !== "]" && this.i + 1 < this.src.length) {
        this.i++;
        const hi = this.classAtom();
        if (lo.length !== 2 || hi.length !== 2 || lo[0] !== lo[1] || hi[0] !== hi[1]) throw new Unsupported(); // `[\d-z]`
        if (hi[0]! < lo[0]!) throw new Unsupported();
        ranges.push(lo[0]!, hi[0]!);
      } else ranges.push(...lo);
    }
    this.i++; // ]
    return { ranges: normalise(ranges), negated };
  }

  private classAtom(): number[] {
    if (this.peek() === "\\") {
      this.i++;
      return this.escape(true);
    }
    const p = this.point();
    return [p, p];
  }
}

/** Sorted and merged ranges. */
function normalise(ranges: number[]): number[] {
  const pairs: [number, number][] = [];
  for (let i = 0; i < ranges.length; i += 2) pairs.push([ranges[i]!, ranges[i + 1]!]);
  pairs.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [lo, hi] of pairs) {
    if (out.length > 0 && lo <= out[out.length - 1]! + 1) out[out.length - 1] = Math.max(out[out.length - 1]!, hi);
    else out.push(lo, hi);
  }
  return out;
}

const SET = 0;
const ANY = 1;
const SPLIT = 2;
const JMP = 3;
const BOL = 4;
const EOL = 5;
const MATCH = 6;

class Program {
  readonly op: number[] = [];
  readonly x: number[] = [];
  readonly y: number[] = [];
  readonly sets: (CharSet | undefined)[] = [];

  constructor(private readonly max: number) {}

  emit(op: number, x = 0, y = 0, set?: CharSet): number {
    if (this.op.length >= this.max) throw new Unsupported();
    this.op.push(op);
    this.x.push(x);
    this.y.push(y);
    this.sets.push(set);
    return this.op.length - 1;
  }

  compile(node: Node): void {
    switch (node.t) {
      case "set":
        this.emit(SET, 0, 0, node.set);
        return;
      case "any":
        this.emit(ANY);
        return;
      case "bol":
        this.emit(BOL);
        return;
      case "eol":
        this.emit(EOL);
        return;
      case "alt": {
        if (node.branches.length === 1) {
          for (const n of node.branches[0]!) this.compile(n);
          return;
        }
        const jumps: number[] = [];
        for (const [k, branch] of node.branches.entries()) {
          const last = k === node.branches.length - 1;
          const split = last ? -1 : this.emit(SPLIT);
          if (split >= 0) this.x[split] = split + 1;
          for (const n of branch) this.compile(n);
          if (!last) jumps.push(this.emit(JMP));
          if (split >= 0) this.y[split] = this.op.length;
        }
        for (const j of jumps) this.x[j] = this.op.length;
        return;
      }
      case "repeat": {
        for (let k = 0; k < node.min; k++) this.compile(node.node);
        if (node.max === Infinity) {
          const split = this.emit(SPLIT);
          this.x[split] = split + 1;
          this.compile(node.node);
          this.emit(JMP, split);
          this.y[split] = this.op.length;
          return;
        }
        const splits: number[] = [];
        for (let k = node.min; k < node.max; k++) {
          const split = this.emit(SPLIT);
          this.x[split] = split + 1;
          splits.push(split);
          this.compile(node.node);
        }
        for (const s of splits) this.y[s] = this.op.length;
        return;
      }
    }
  }
}

/** A compiled pattern; `test` answers as `RegExp.prototype.test` would (no `g`/`y` state). */
export interface LinearRegex {
  /** Whether the pattern matches somewhere in `text`; undefined once `budget.left` steps are spent. */
  test(text: string, budget?: { left: number }): boolean | undefined;
  /** Instructions in the program: a test costs at most this many steps per character of the text. */
  readonly size: number;
}

/** The default bound of a program's instructions (`a{5000}` takes 5,000). */
export const MAX_PROGRAM = 4096;

/**
 * `source` compiled for linear-time tests, or undefined: invalid (the RegExp constructor refuses it), outside what this
 * follows, or over `maxProgram` instructions. `flags`: any of `i m s u` (`g` and `y` are ignored, others refused).
 * @example compileLinear("^(a|a)*$")!.test("a".repeat(40) + "!") // false, in microseconds
 */
export function compileLinear(source: string, flags = "", maxProgram = MAX_PROGRAM): LinearRegex | undefined {
  if (/[^dgimsuy]/.test(flags)) return undefined; // `v` (set notation) is not followed
  try {
    new RegExp(source, flags.replace(/[dgy]/g, ""));
  } catch {
    return undefined;
  }
  const unicode = flags.includes("u");
  const program = new Program(maxProgram);
  const parser = new Parser(source, unicode);
  try {
    program.compile(parser.parse());
    program.emit(MATCH);
  } catch (e) {
    if (e instanceof Unsupported) return undefined;
    throw e;
  }
  // Nothing repeated and no alternation inside a group (`summari[sz]e`, `^Lis`, `refund|return`): a backtracking
  // engine tries each start once per branch, so V8's own, ~20× faster on a short message, is as linear.
  if (!parser.backtracks) return new Native(new RegExp(source, flags.replace(/[dgy]/g, "")), program.op.length + 1);
  return new Machine(program, unicode, flags.includes("i"), flags.includes("m"), flags.includes("s"));
}

/** A pattern that cannot backtrack more than once per start and branch, tested by V8. */
class Native implements LinearRegex {
  constructor(
    private readonly re: RegExp,
    readonly size: number,
  ) {}

  test(text: string, budget?: { left: number }): boolean | undefined {
    if (budget !== undefined) {
      budget.left -= (text.length + 1) * this.size;
      if (budget.left < 0) return undefined;
    }
    return this.re.test(text);
  }
}

/** Longest source whose program is kept for the next request (a client may send a megabyte pattern once). */
const CACHED_SOURCE = 1024;
const cached = memoized((key) => {
  const at = key.indexOf("/");
  return compileLinear(key.slice(at + 1), key.slice(0, at));
});

/**
 * `compileLinear` with the default bound, the programs of short sources kept (the same matcher or schema pattern comes
 * on every request).
 * @example linearRegex(".*weather.*", "i")?.test(message)
 */
export function linearRegex(source: string, flags = ""): LinearRegex | undefined {
  return source.length <= CACHED_SOURCE ? cached(`${flags}/${source}`) : compileLinear(source, flags);
}

/** `c`'s lower- and upper-case forms other than itself, each a single character (simple case mapping). */
function caseVariants(c: number): number[] {
  const ch = String.fromCodePoint(c);
  const out: number[] = [];
  for (const other of [ch.toLowerCase(), ch.toUpperCase()]) {
    const o = other.codePointAt(0)!;
    if (other.length === String.fromCodePoint(o).length && o !== c) out.push(o);
  }
  return out;
}

class Machine implements LinearRegex {
  private readonly op: Int32Array;
  private readonly x: Int32Array;
  private readonly y: Int32Array;
  private readonly sets: (CharSet | undefined)[];

  constructor(
    program: Program,
    private readonly unicode: boolean,
    private readonly ignoreCase: boolean,
    private readonly multiline: boolean,
    private readonly dotAll: boolean,
  ) {
    this.op = Int32Array.from(program.op);
    this.x = Int32Array.from(program.x);
    this.y = Int32Array.from(program.y);
    this.sets = program.sets;
  }

  get size(): number {
    return this.op.length;
  }

  /** The character `variants` were last taken of (a run of one character, or its threads, takes them once). */
  private variantsOf = -1;
  private variants: number[] = [];

  /** Whether the instruction at `pc` reads `c` (under `i`, also one of its other cases). */
  private matches(pc: number, c: number): boolean {
    if (this.op[pc] === ANY) return this.dotAll || !isLineTerminator(c);
    const set = this.sets[pc]!;
    let hit = inRanges(set.ranges, c);
    if (!hit && this.ignoreCase) {
      if (this.variantsOf !== c) {
        this.variants = caseVariants(c);
        this.variantsOf = c;
      }
      for (let k = 0; !hit && k < this.variants.length; k++) hit = inRanges(set.ranges, this.variants[k]!);
    }
    return hit !== set.negated;
  }

  test(text: string, budget?: { left: number }): boolean | undefined {
    const n = this.op.length;
    const mark = new Int32Array(n).fill(-1);
    let current: number[] = [];
    let next: number[] = [];
    const stack: number[] = [];
    let step = 0;
    // Adds the thread at `start` (and what it reaches without reading) to `list`; true when it reaches MATCH.
    const add = (list: number[], start: number, at: number): boolean => {
      stack.push(start);
      while (stack.length > 0) {
        const pc = stack.pop()!;
        if (mark[pc] === step) continue;
        mark[pc] = step;
        switch (this.op[pc]) {
          case MATCH:
            stack.length = 0;
            return true;
          case JMP:
            stack.push(this.x[pc]!);
            break;
          case SPLIT:
            stack.push(this.y[pc]!, this.x[pc]!);
            break;
          case BOL:
            if (at === 0 || (this.multiline && isLineTerminator(this.before(text, at)))) stack.push(pc + 1);
            break;
          case EOL:
            if (at === text.length || (this.multiline && isLineTerminator(this.at(text, at)))) stack.push(pc + 1);
            break;
          default:
            list.push(pc);
        }
      }
      return false;
    };
    // One generation (`step`) per position: the threads read into it and its own start thread are marked alike, so
    // no instruction is listed twice at a position and each character costs at most one visit per instruction.
    for (let at = 0; ; ) {
      if (add(current, 0, at)) return true; // unanchored: a new start at every position
      if (at >= text.length) return false;
      if (budget !== undefined) {
        budget.left -= current.length + 1;
        if (budget.left < 0) return undefined;
      }
      const c = this.at(text, at);
      const width = this.unicode && c > 0xffff ? 2 : 1;
      step++;
      next.length = 0;
      for (const pc of current) if (this.matches(pc, c) && add(next, pc + 1, at + width)) return true;
      [current, next] = [next, current];
      at += width;
    }
  }

  private at(text: string, i: number): number {
    return this.unicode ? text.codePointAt(i)! : text.charCodeAt(i);
  }

  private before(text: string, i: number): number {
    if (!this.unicode) return text.charCodeAt(i - 1);
    const low = text.charCodeAt(i - 1);
    return isLowSurrogate(low) && i >= 2 ? text.codePointAt(i - 2)! : low;
  }
}
