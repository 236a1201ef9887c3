/**
 * A Fetch `Headers` for the Node runtime that needs no Node's bundled undici (src/http/web.ts says why): lower-case
 * names, values trimmed of HTTP whitespace, repeated names joined with ", " (`cookie` with "; ", as undici does),
 * `set-cookie` kept apart, iteration sorted by name; the same TypeErrors for a bad name or value.
 */

import { HEADER_RECORD, trimHttpSpace } from "../../http/headers";

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const FORBIDDEN_VALUE = /[\0\r\n]/;

function checkedName(name: unknown, method: string): string {
  const n = String(name);
  if (!TOKEN.test(n)) throw new TypeError(`Headers.${method}: "${n}" is an invalid header name.`);
  return n.toLowerCase();
}

function checkedValue(value: unknown, method: string): string {
  const v = trimHttpSpace(String(value));
  if (FORBIDDEN_VALUE.test(v)) throw new TypeError(`Headers.${method}: "${v}" is an invalid header value.`);
  return v;
}

type Init = Iterable<Iterable<unknown>> | Record<string, unknown> | LightHeaders | Headers | undefined | null;

export class LightHeaders {
  /** Made at the first write (or the raw list's reading): a request's headers are mostly read through their record. */
  #map: Map<string, string> | undefined;
  #cookies: string[] | undefined;
  #sorted: [string, string][] | undefined;
  /** A raw list (name, value, name, …) not yet read in: a request's headers cost nothing until a method is called. */
  #raw: readonly string[] | undefined;
  /** The record src/http/headers.ts keeps on a Headers object, declared so every instance has one shape. */
  [HEADER_RECORD]: Record<string, string> | undefined = undefined;

  get #values(): Map<string, string> {
    return (this.#map ??= new Map());
  }

  /** Headers over node:http's raw list, read in at the first call (HTTP/2 pseudo-headers left out). */
  static fromRaw(raw: readonly string[]): LightHeaders {
    const h = new LightHeaders();
    h.#raw = raw;
    return h;
  }

  #load(): void {
    const raw = this.#raw;
    if (raw === undefined) return;
    this.#raw = undefined;
    for (let i = 0; i + 1 < raw.length; i += 2) if (raw[i]!.charCodeAt(0) !== 58 /* ":" */) this.append(raw[i]!, raw[i + 1]!);
  }

  constructor(init?: Init) {
    if (init === undefined || init === null) return;
    if (typeof init !== "object") throw new TypeError("Headers constructor: expected an object, a sequence or a record.");
    if (Symbol.iterator in init) {
      for (const pair of init as Iterable<Iterable<unknown>>) {
        const entry = [...pair];
        if (entry.length !== 2) throw new TypeError(`Headers constructor: expected name/value pair to be length 2, found ${entry.length}.`);
        this.append(entry[0] as string, entry[1] as string);
      }
      return;
    }
    for (const key of Object.keys(init)) this.append(key, (init as Record<string, unknown>)[key] as string);
  }

  append(name: string, value: string): void {
    this.#load();
    const k = checkedName(name, "append");
    const v = checkedValue(value, "append");
    this.#sorted = undefined;
    if (k === "set-cookie") (this.#cookies ??= []).push(v);
    const old = this.#values.get(k);
    this.#values.set(k, old === undefined ? v : `${old}${k === "cookie" ? "; " : ", "}${v}`);
  }

  set(name: string, value: string): void {
    this.#load();
    const k = checkedName(name, "set");
    const v = checkedValue(value, "set");
    this.#sorted = undefined;
    if (k === "set-cookie") this.#cookies = [v];
    this.#values.set(k, v);
  }

  get(name: string): string | null {
    this.#load();
    return this.#values.get(checkedName(name, "get")) ?? null;
  }

  has(name: string): boolean {
    this.#load();
    return this.#values.has(checkedName(name, "has"));
  }

  delete(name: string): void {
    this.#load();
    const k = checkedName(name, "delete");
    this.#sorted = undefined;
    if (k === "set-cookie") this.#cookies = [];
    this.#values.delete(k);
  }

  getSetCookie(): string[] {
    this.#load();
    return [...(this.#cookies ?? [])];
  }

  /** Sorted by name; each `set-cookie` value on its own (the spec's "sort and combine"). */
  #list(): [string, string][] {
    this.#load();
    if (this.#sorted) return this.#sorted;
    const names = [...this.#values.keys()].sort();
    const out: [string, string][] = [];
    for (const k of names) {
      if (k === "set-cookie") for (const c of this.#cookies ?? []) out.push([k, c]);
      else out.push([k, this.#values.get(k)!]);
    }
    this.#sorted = out;
    return out;
  }

  *entries(): IterableIterator<[string, string]> {
    for (const [k, v] of this.#list()) yield [k, v];
  }

  *keys(): IterableIterator<string> {
    for (const [k] of this.#list()) yield k;
  }

  *values(): IterableIterator<string> {
    for (const [, v] of this.#list()) yield v;
  }

  forEach(fn: (value: string, key: string, parent: LightHeaders) => void, thisArg?: unknown): void {
    for (const [k, v] of this.#list()) fn.call(thisArg, v, k, this);
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }

  get [Symbol.toStringTag](): string {
    return "Headers";
  }
}
