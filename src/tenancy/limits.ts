/**
 * A namespace's `limits` (contract section 11: "on a scenario (and a namespace)"): requests and tokens per
 * minute counted over all the namespace's sessions (and its default-responder requests), in one place — the key
 * registry (its Durable Object on Workers, memory on Node), kept in memory there: a minute's window is not worth a
 * write per request. A request is counted when it is let through (`check`), its tokens once its answer is known
 * (`settle`); a request refused by any limit is taken out again. The session combines the namespace's check with
 * the scenario's (src/scenario/limits.ts `stricter`): the stricter applies, the headers show the binding bucket.
 */
import { checkLimits, dropLeading, WINDOW_MS } from "../scenario/limits";
import type { NamespaceCheck } from "./types";
import type { Limits } from "../scenario/limits-schema";
import type { Runtime } from "../runtime/types";
import type { Awaitable } from "../session/types";
import { isThenable } from "../util/awaitable";

interface Entry {
  ticket: number;
  at: number;
  tokens: number;
}

/** Every namespace's window of the last minute, in arrival order. */
export class LimitWindows {
  private readonly windows = new Map<string, { next: number; entries: Entry[] }>();

  /** Checks a request arriving at `now`; within the limits it is counted (tokens 0 until `settle`). */
  check(namespace: string, limits: Limits, now: number): NamespaceCheck {
    let w = this.windows.get(namespace);
    if (w === undefined) {
      w = { next: 1, entries: [] };
      this.windows.set(namespace, w);
    }
    dropLeading(w.entries, (e) => e.at <= now - WINDOW_MS);
    const check = checkLimits(limits, w.entries, now);
    if (check.over) return check;
    const ticket = w.next++;
    w.entries.push({ ticket, at: now, tokens: 0 });
    return { ...check, ticket };
  }

  /** The tokens the ticket's answer reported; `null`: the request was refused after all, and leaves the window. */
  settle(namespace: string, ticket: number, tokens: number | null): void {
    const w = this.windows.get(namespace);
    if (w === undefined) return;
    const i = w.entries.findIndex((e) => e.ticket === ticket);
    if (i < 0) return;
    if (tokens === null) w.entries.splice(i, 1);
    else w.entries[i]!.tokens = tokens;
  }

  forget(namespace: string): void {
    this.windows.delete(namespace);
  }
}

/** A request's hold on its namespace's window, settled once its answer is known. */
export interface NamespaceTicket {
  check: NamespaceCheck;
  settle(tokens: number | null): Promise<void>;
}

/**
 * The caller's namespace's check for a request arriving now; undefined when its namespace has no `limits`.
 * @example const ns = await namespaceLimits(rt); if (ns?.check.over) …
 */
export function namespaceLimits(rt: Runtime): Awaitable<NamespaceTicket | undefined> {
  const ns = rt.caller?.namespace;
  const limits = ns?.limits;
  if (ns === undefined || limits === undefined || rt.tenancy === undefined) return undefined;
  const { registry } = rt.tenancy;
  const ticket = (check: NamespaceCheck): NamespaceTicket => ({
    check,
    settle: async (tokens) => {
      if (!check.over) await registry.settleLimits(ns.name, check.ticket, tokens);
    },
  });
  // The registry in this process answers at once (Node), the registry object with a promise (Workers).
  const checking = registry.checkLimits(ns.name, limits, Date.now());
  return isThenable(checking) ? checking.then(ticket) : ticket(checking);
}
