/**
 * The first of many strings to complete in a text, in time linear in the text and the strings: a client's stop
 * sequences (Anthropic takes 8,191 of them) against an answer of megabytes. One `indexOf` per string costs the
 * strings' count times the text's length — 1,000 stop sequences against a 1 MB answer were 0.64 s of CPU, and the
 * body limit leaves room for half a million against 5 MB — so past a small amount of such work the strings are
 * searched together, with an Aho–Corasick automaton over them (a sorted trie in typed arrays, at most
 * GROUP_CHARS of strings at a time).
 */

/** Where the first string to complete starts, and which string it is. */
export interface Occurrence {
  at: number;
  text: string;
}

/** Past this many characters compared at worst (strings × text length), the strings are searched together. */
const SEPARATE_WORK = 20_000_000;

/** Characters of strings one automaton holds (~18 bytes each); more strings are searched a group at a time. */
const GROUP_CHARS = 1 << 20;

/**
 * The occurrence of one of `strings` in `text` that is complete first as the text is read (ties: the longer, which
 * starts earlier); undefined when none occurs. Empty strings never occur.
 * @example firstCompleted("abcd", ["bcd", "c"]) // { at: 2, text: "c" }; firstCompleted("abcd", ["cd", "bcd"]) // { at: 1, text: "bcd" }
 */
export function firstCompleted(text: string, strings: readonly string[]): Occurrence | undefined {
  const wanted = [...new Set(strings)].filter((s) => s !== "" && s.length <= text.length);
  if (wanted.length === 0) return undefined;
  return wanted.length * text.length <= SEPARATE_WORK ? separately(text, wanted) : together(text, wanted);
}

/**
 * `firstCompleted` by automata over the (distinct) strings, `groupChars` of them at most in one. (What
 * `firstCompleted` does past SEPARATE_WORK; exported for its tests, which make the groups small.)
 */
export function together(text: string, strings: readonly string[], groupChars = GROUP_CHARS): Occurrence | undefined {
  const wanted = strings.filter((s) => s !== "").sort();
  let best: Occurrence | undefined;
  for (let from = 0; from < wanted.length; ) {
    let to = from;
    let chars = 0;
    while (to < wanted.length && (to === from || chars + wanted[to]!.length <= groupChars)) chars += wanted[to++]!.length;
    // Only an occurrence ending before the best so far can replace it: the next group reads no further.
    const within = best === undefined ? text : text.slice(0, best.at + best.text.length);
    const found = new Automaton(wanted.slice(from, to)).first(within);
    if (found !== undefined && (best === undefined || earlier(found, best))) best = found;
    from = to;
  }
  return best;
}

/** Whether `a` completes before `b` (ties: starts before it). */
function earlier(a: Occurrence, b: Occurrence): boolean {
  const endA = a.at + a.text.length;
  const endB = b.at + b.text.length;
  return endA < endB || (endA === endB && a.at < b.at);
}

/** One `indexOf` per string, each reading no further than the best occurrence so far could end. */
function separately(text: string, strings: readonly string[]): Occurrence | undefined {
  let best: Occurrence | undefined;
  for (const s of strings) {
    const at = text.indexOf(s);
    if (at < 0) continue;
    const found = { at, text: s };
    if (best === undefined || earlier(found, best)) best = found;
  }
  return best;
}

/**
 * Aho–Corasick over sorted, distinct, non-empty strings. The trie is built a depth at a time, so its nodes are numbered
 * breadth first and each node's children are consecutive, in increasing character order: a child is found by binary
 * search, and failure links are made in node order.
 */
class Automaton {
  readonly #childStart: Int32Array;
  readonly #childCount: Int32Array;
  readonly #char: Uint16Array;
  readonly #fail: Int32Array;
  /** The longest string that ends at this node (itself or by its failure links); 0: none. */
  readonly #longest: Int32Array;

  constructor(strings: readonly string[]) {
    let size = 1;
    for (const s of strings) size += s.length;
    this.#childStart = new Int32Array(size);
    this.#childCount = new Int32Array(size);
    this.#char = new Uint16Array(size);
    this.#fail = new Int32Array(size);
    this.#longest = new Int32Array(size);
    const parent = new Int32Array(size);
    // Each string's node at the current depth; the strings still longer than the depth, in sorted order.
    const at = new Int32Array(strings.length);
    let alive = strings.map((_, i) => i);
    let next = 1;
    for (let depth = 0; alive.length > 0; depth++) {
      const longer: number[] = [];
      let lastParent = -1;
      let lastChar = -1;
      for (const i of alive) {
        const s = strings[i]!;
        const node = at[i]!;
        const c = s.charCodeAt(depth);
        if (node !== lastParent || c !== lastChar) {
          // Sorted strings: a parent's children come together and in increasing character order.
          if (node !== lastParent) this.#childStart[node] = next;
          this.#childCount[node]!++;
          this.#char[next] = c;
          parent[next] = node;
          next++;
          lastParent = node;
          lastChar = c;
        }
        at[i] = next - 1;
        if (s.length === depth + 1) this.#longest[next - 1] = s.length;
        else longer.push(i);
      }
      alive = longer;
    }
    // Failure links breadth first (node order): a node's link is found from its parent's.
    for (let v = 1; v < next; v++) {
      const u = parent[v]!;
      let link = 0;
      if (u !== 0) {
        const c = this.#char[v]!;
        for (let f = this.#fail[u]!; ; f = this.#fail[f]!) {
          const g = this.#child(f, c);
          if (g > 0) {
            link = g;
            break;
          }
          if (f === 0) break;
        }
      }
      this.#fail[v] = link;
      if (this.#longest[link]! > this.#longest[v]!) this.#longest[v] = this.#longest[link]!;
    }
  }

  /** The child of `node` by character `c`, or 0 (the root is no one's child). */
  #child(node: number, c: number): number {
    let lo = this.#childStart[node]!;
    let hi = lo + this.#childCount[node]! - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const m = this.#char[mid]!;
      if (m === c) return mid;
      if (m < c) lo = mid + 1;
      else hi = mid - 1;
    }
    return 0;
  }

  /** The first string to complete in `text` (the longest of those completing at the same place). */
  first(text: string): Occurrence | undefined {
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      const c = text.charCodeAt(i);
      for (;;) {
        const g = this.#child(state, c);
        if (g > 0) {
          state = g;
          break;
        }
        if (state === 0) break;
        state = this.#fail[state]!;
      }
      const length = this.#longest[state]!;
      if (length > 0) return { at: i + 1 - length, text: text.slice(i + 1 - length, i + 1) };
    }
    return undefined;
  }
}
