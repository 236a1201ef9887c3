/**
 * node:http's request class with its header object made from the list's plan (src/http/headers.ts `planOf`).
 * node:http reads `req.headers` for every HTTP/1.1 request before any listener runs (the `host` and `expect` checks),
 * and its getter lower-cases and matches every name of the raw list each time: for the `openai` SDK's 18 headers that
 * was ~4.7 µs a request in process (bench/request-headers.ts), more than the rest of the header handling. A client
 * sends the same names on every request, so the lower-case names are worked out once per list of names; the object is
 * the same one node:http makes — each name with its value as it came, in the list's order — and for a list with a
 * repeated name or a `set-cookie` (which node:http joins, drops or gathers in an array by the name's kind) node:http's
 * own getter makes it, as before. The record (src/http/headers.ts) then takes the same plan for the same list.
 */
import { IncomingMessage } from "node:http";
import { planOf } from "../../http/headers";

const nodeHeaders = Object.getOwnPropertyDescriptor(IncomingMessage.prototype, "headers");

/** Whether this request's header object was made or given (node:http keeps it under a symbol of its own). */
const MADE: unique symbol = Symbol("mockllm.headersMade");

/**
 * `createServer({ IncomingMessage: PlannedIncoming })`: node:http's IncomingMessage, `headers` made from the plan.
 * Where node:http's accessor is not what this was written against (another Node), the class is node:http's own.
 * @example createServer({ IncomingMessage: PlannedIncoming }, listener)
 */
export const PlannedIncoming: typeof IncomingMessage = nodeHeaders?.get && nodeHeaders.set ? planned(nodeHeaders.get, nodeHeaders.set) : IncomingMessage;

function planned(get: () => unknown, set: (value: unknown) => void): typeof IncomingMessage {
  // A class expression: vitest's module transform ran a class declaration here before the import it extends was set.
  const Planned = class extends IncomingMessage {
    declare [MADE]?: true;
  };
  Object.defineProperty(Planned.prototype, "headers", {
    configurable: true,
    enumerable: false,
    get(this: InstanceType<typeof Planned>) {
      if (this[MADE] !== true) {
        this[MADE] = true;
        const made = headersOf(this.rawHeaders);
        if (made !== undefined) set.call(this, made);
      }
      return get.call(this);
    },
    set(this: InstanceType<typeof Planned>, value: unknown) {
      this[MADE] = true;
      set.call(this, value);
    },
  });
  return Planned;
}

/**
 * node:http's header object for a raw list of distinct names (none `set-cookie`): each lower-case name with its value
 * as it came, in the list's order; undefined for any other list (node:http's getter makes that one).
 * @example headersOf(["Host", "a", "X-Y", "1"]) // { host: "a", "x-y": "1" }
 */
export function headersOf(raw: readonly string[]): Record<string, string> | undefined {
  const names = planOf(raw).distinct;
  if (names === undefined) return undefined;
  const out: Record<string, string> = {};
  for (let i = 0; i < names.length; i++) out[names[i]!] = raw[2 * i + 1]!;
  return out;
}
