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
    out = {};
    for (const [k, v] of headers) out[k.toLowerCase()] = v;
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
 * Sorts `names` (by UTF-16 code units, as Headers iterates) and moves `values` along: an insertion sort in place, for a
 * request's few headers. Stable: a repeated name's values keep the order they came in.
 */
function sortTogether(names: string[], values: string[]): void {
  for (let i = 1; i < names.length; i++) {
    const name = names[i]!;
    const value = values[i]!;
    let j = i - 1;
    for (; j >= 0 && names[j]! > name; j--) {
      names[j + 1] = names[j]!;
      values[j + 1] = values[j]!;
    }
    names[j + 1] = name;
    values[j + 1] = value;
  }
}

/**
 * Gives `headers` its record straight from the raw list a server parsed (Node's `rawHeaders`: name, value, name, …),
 * so no Headers object is materialised for it: the same record iterating one gives — lower-case names in sorted
 * order, values trimmed, repeated names joined with ", " (cookies with "; ", the last `set-cookie` kept), HTTP/2
 * pseudo-headers left out. Repeated names are found once sorted, side by side (an SDK sends 18 headers, none twice).
 * @example primeHeaderRecord(request.headers, incoming.rawHeaders)
 */
export function primeHeaderRecord(headers: Headers, raw: readonly string[]): void {
  const names: string[] = [];
  const values: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.charCodeAt(0) === 58 /* ":" */) continue;
    names.push(name.toLowerCase());
    values.push(trimHttpSpace(raw[i + 1]!));
  }
  sortTogether(names, values);
  const out: Record<string, string> = {};
  for (let i = 0; i < names.length; i++) {
    const k = names[i]!;
    let v = values[i]!;
    for (; i + 1 < names.length && names[i + 1] === k; i++) {
      const next = values[i + 1]!;
      v = k === "set-cookie" ? next : `${v}${k === "cookie" ? "; " : ", "}${next}`;
    }
    if (k !== "__proto__") out[k] = v;
  }
  (headers as Recorded)[HEADER_RECORD] = out;
}
