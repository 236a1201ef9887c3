/** Request headers as a plain record, shared by every parser and the journal. */

/**
 * Where a Headers object keeps its record: a property of the object itself, not a WeakMap beside it (a WeakMap entry
 * made for every request was a tenth of the Node runtime's transport time, and an ephemeron for the GC to trace).
 * The Node runtime's own Headers class declares it (src/hosts/node/web-headers.ts), so its shape never changes.
 */
export const HEADER_RECORD: unique symbol = Symbol("mockllm.headerRecord");
type Recorded = Headers & { [HEADER_RECORD]?: Record<string, string> };

/**
 * The headers as a `{ name: value }` record with lower-case names, worked out once per Headers object (iterating a
 * Headers object sorts and joins its entries: every parser and the journal need the record, none needs it twice).
 * @example headerRecord(new Headers({ "X-Api-Key": "k" })) // { "x-api-key": "k" }
 */
export function headerRecord(headers: Headers): Record<string, string> {
  let out = (headers as Recorded)[HEADER_RECORD];
  if (!out) {
    const record: Record<string, string> = {};
    // forEach, not for…of: in workerd each step of a Headers iterator crosses into the runtime and makes an entry
    // array; one forEach call is about half the time for a dozen headers (docs/performance.md, the Worker path).
    headers.forEach((v, k) => {
      record[k.toLowerCase()] = v;
    });
    out = record;
    (headers as Recorded)[HEADER_RECORD] = out;
  }
  return out;
}

/**
 * One request header by its lower-case name, from the record (what `headers.get` answers, or undefined): on Node the
 * record is built from the raw list already, where `get` would have Node build its own header object too.
 * @example header(request.headers, "authorization") // "Bearer sk-…"
 */
export function header(headers: Headers, lowerName: string): string | undefined {
  return headerRecord(headers)[lowerName];
}

/**
 * The session a request names in `x-mock-session` (contract section 2), trimmed; undefined when absent or blank.
 * @example sessionHeader(new Headers({ "x-mock-session": " run-1 " })) // "run-1"
 */
export function sessionHeader(headers: Headers): string | undefined {
  return header(headers, "x-mock-session")?.trim() || undefined;
}

const isHttpSpace = (c: number) => c === 9 || c === 10 || c === 13 || c === 32;

/** `v` without leading or trailing HTTP whitespace (tab, LF, CR, space), as Fetch's Headers normalises a value. */
export function trimHttpSpace(v: string): string {
  if (v === "" || (!isHttpSpace(v.charCodeAt(0)) && !isHttpSpace(v.charCodeAt(v.length - 1)))) return v;
  let a = 0;
  let b = v.length;
  while (a < b && isHttpSpace(v.charCodeAt(a))) a++;
  while (b > a && isHttpSpace(v.charCodeAt(b - 1))) b--;
  return v.slice(a, b);
}

/**
 * How a raw header list with these names becomes a record, worked out once: the lower-case name at each place of the
 * sorted order (by UTF-16 code units, as Headers iterates; a repeated name's values in the order they came) and which
 * raw value goes there, HTTP/2 pseudo-headers left out. A client sends the same names in the same order on every
 * request (the `openai` SDK 18 of them), so the lower-casing and the sort are done once per list of names, not once a
 * request: they were most of the record's cost (2.3 µs of it for the SDK's list, measured in process).
 */
export interface HeaderPlan {
  /** The names as the raw list has them, in its order: what a list is matched against. */
  raw: string[];
  /** The lower-case names in sorted order. */
  names: string[];
  /** For each place in `names`, the index of its value in the raw list. */
  from: number[];
  /**
   * The lower-case names in the raw list's order when no two are the same and none is `set-cookie` (an array in
   * node:http's header object) or `__proto__`: node:http's own header object is then each name with its value as it
   * came (src/hosts/node/node-headers.ts); else undefined.
   */
  distinct: string[] | undefined;
}

/**
 * The plans of the raw lists seen last, newest first. Few: the clients of one server send a few lists of names
 * (an SDK's, a CLI's, a test's own); a list matching none costs a comparison of its length with each, a plan worked
 * out, and the oldest dropped.
 */
const plans: HeaderPlan[] = [];
const PLANS_KEPT = 8;

/**
 * The raw list asked about last and its plan: on Node the request class (src/hosts/node/node-headers.ts) and then the
 * record ask for the plan of the same `rawHeaders` array, which node:http never changes once made. (Held until the
 * next list is asked about: one request's names.)
 */
let lastRaw: readonly string[] | undefined;
let lastPlan: HeaderPlan | undefined;

/**
 * The plan for a raw list (name, value, name, …) by its names: one worked out before for the same names in the same
 * order, or a new one.
 */
export function planOf(raw: readonly string[]): HeaderPlan {
  if (raw === lastRaw) return lastPlan!;
  const plan = knownPlan(raw) ?? newPlan(raw);
  lastRaw = raw;
  lastPlan = plan;
  return plan;
}

/** The kept plan for these names, moved to the front; undefined when none is kept (a new plan is kept instead). */
function knownPlan(raw: readonly string[]): HeaderPlan | undefined {
  const count = raw.length >> 1;
  for (let p = 0; p < plans.length; p++) {
    const plan = plans[p]!;
    const names = plan.raw;
    if (names.length !== count) continue;
    let i = 0;
    while (i < count && names[i] === raw[2 * i]) i++;
    if (i < count) continue;
    if (p > 0) {
      plans.splice(p, 1);
      plans.unshift(plan);
    }
    return plan;
  }
  return undefined;
}

/**
 * A plan worked out and kept (the oldest dropped past PLANS_KEPT): the names lower-cased, then sorted by the engine's
 * sort (stable, so a repeated name's values keep the order they came in; n log n, where an insertion sort took 74 ms
 * for node:http's 2,000 headers in reverse order).
 */
function newPlan(raw: readonly string[]): HeaderPlan {
  const count = raw.length >> 1;
  const rawNames: string[] = [];
  const arrived: string[] = [];
  const order: number[] = [];
  for (let i = 0; i < count; i++) {
    const name = raw[2 * i]!;
    rawNames.push(name);
    arrived.push(name.toLowerCase());
    if (name.charCodeAt(0) !== 58 /* ":" */) order.push(i);
  }
  order.sort((a, b) => (arrived[a]! < arrived[b]! ? -1 : arrived[a]! > arrived[b]! ? 1 : 0));
  const distinct = new Set(arrived).size === count && !arrived.includes("set-cookie") && !arrived.includes("__proto__");
  const plan = { raw: rawNames, names: order.map((i) => arrived[i]!), from: order.map((i) => 2 * i + 1), distinct: distinct ? arrived : undefined };
  plans.unshift(plan);
  if (plans.length > PLANS_KEPT) plans.pop();
  return plan;
}

/**
 * Gives `headers` its record straight from the raw list a server parsed (Node's `rawHeaders`: name, value, name, …),
 * so no Headers object is materialised for it: the same record iterating one gives — lower-case names in sorted
 * order, values trimmed, repeated names joined with ", " (cookies with "; ", the last `set-cookie` kept), HTTP/2
 * pseudo-headers left out. Repeated names are found once sorted, side by side (an SDK sends 18 headers, none twice).
 * @example primeHeaderRecord(request.headers, incoming.rawHeaders)
 */
export function primeHeaderRecord(headers: Headers, raw: readonly string[]): void {
  const { names, from } = planOf(raw);
  const out: Record<string, string> = {};
  for (let i = 0; i < names.length; i++) {
    const k = names[i]!;
    let v = trimHttpSpace(raw[from[i]!]!);
    for (; i + 1 < names.length && names[i + 1] === k; i++) {
      const next = trimHttpSpace(raw[from[i + 1]!]!);
      v = k === "set-cookie" ? next : `${v}${k === "cookie" ? "; " : ", "}${next}`;
    }
    if (k !== "__proto__") out[k] = v;
  }
  (headers as Recorded)[HEADER_RECORD] = out;
}
