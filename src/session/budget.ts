/**
 * Tokens, cost and requests of a session, from its journal: what coverage reports per session and per
 * step, and what verify holds against the scenario's `expect.budget`. Pure.
 *
 * Figures are those each answer reported (`usage`): `inputTokens` counts every prompt token, `cacheReadTokens` of
 * them priced at the cached price; `outputTokens` the completion (reasoning included). An answer that carried no
 * usage (an error, a dropped connection) costs nothing; a model the table and the scenario's `prices` do not know
 * costs nothing and is listed in `unpriced`.
 */
import type { Budget, Price } from "../scenario/budget-schema";
import { priceOf } from "../scenario/prices";
import type { Scenario } from "../scenario/schema";
import type { JournalEntry } from "./core";

export interface UsageFigures {
  /** Model requests (MCP calls are not counted). */
  requests: number;
  inputTokens: number;
  outputTokens: number;
  cachedTokens: number;
  totalTokens: number;
  /** US dollars, rounded to 1e-6 (summed unrounded). */
  costUsd: number;
  /** Models answered that no price was found for (their tokens cost 0). */
  unpriced: string[];
}

export interface BudgetOverrun {
  reason: "budget_exceeded";
  limit: keyof Budget;
  max: number;
  actual: number;
}

export interface BudgetCheck {
  limits: Budget;
  exceeded: BudgetOverrun[];
}

function empty(): UsageFigures {
  return { requests: 0, inputTokens: 0, outputTokens: 0, cachedTokens: 0, totalTokens: 0, costUsd: 0, unpriced: [] };
}

const round = (usd: number) => Math.round(usd * 1e6) / 1e6;

/** Adds one entry to `into`. */
function add(into: UsageFigures, e: JournalEntry, prices: Readonly<Record<string, Price>> | undefined): void {
  if (e.surface === "mcp") return;
  into.requests++;
  const u = e.canonical?.usage;
  if (u === null || u === undefined) return;
  const cached = Math.min(u.cacheReadTokens, u.inputTokens);
  into.inputTokens += u.inputTokens;
  into.outputTokens += u.outputTokens;
  into.cachedTokens += cached;
  into.totalTokens += u.inputTokens + u.outputTokens;
  const model = e.canonical!.model;
  const price = priceOf(model, prices);
  if (price === undefined) {
    if (!into.unpriced.includes(model)) into.unpriced.push(model);
    return;
  }
  into.costUsd += ((u.inputTokens - cached) * price.input + cached * (price.cachedInput ?? price.input) + u.outputTokens * price.output) / 1e6;
}

/**
 * The session's figures, over the whole journal.
 * @example usageOf(journal, scenario).costUsd // 0.00042
 */
export function usageOf(journal: readonly JournalEntry[], doc: Scenario | undefined): UsageFigures {
  const out = empty();
  for (const e of journal) add(out, e, doc?.prices);
  out.costUsd = round(out.costUsd);
  return out;
}

/** The figures per step id (entries no step answered are left out). */
export function usageBySteps(journal: readonly JournalEntry[], doc: Scenario | undefined): Map<string, UsageFigures> {
  const out = new Map<string, UsageFigures>();
  for (const e of journal) {
    if (e.step === null || e.outcome === "mismatch") continue;
    let u = out.get(e.step);
    if (u === undefined) out.set(e.step, (u = empty()));
    add(u, e, doc?.prices);
  }
  for (const u of out.values()) u.costUsd = round(u.costUsd);
  return out;
}

/**
 * The scenario's `expect.budget` against the figures; undefined without one.
 * @example checkBudget({ maxTotalTokens: 100 }, figures)?.exceeded // [{ reason: "budget_exceeded", limit: "maxTotalTokens", max: 100, actual: 192 }]
 */
export function checkBudget(budget: Budget | undefined, figures: UsageFigures): BudgetCheck | undefined {
  if (budget === undefined) return undefined;
  const exceeded: BudgetOverrun[] = [];
  const over = (limit: keyof Budget, actual: number) => {
    const max = budget[limit];
    if (max !== undefined && actual > max) exceeded.push({ reason: "budget_exceeded", limit, max, actual });
  };
  over("maxTotalTokens", figures.totalTokens);
  over("maxCostUsd", figures.costUsd);
  over("maxRequests", figures.requests);
  return { limits: budget, exceeded };
}

/** `$0.000420` with enough digits to be read against a budget. */
export function usd(n: number): string {
  return `$${n.toFixed(6).replace(/(\.\d\d\d*?)0+$/, "$1")}`;
}

/** The figures in one line: `3 requests, 288 tokens (192 in, 96 out), $0.0012`. */
export function describeUsage(u: UsageFigures): string {
  const unpriced = u.unpriced.length > 0 ? ` (no price for ${u.unpriced.join(", ")})` : "";
  return `${u.requests} request${u.requests === 1 ? "" : "s"}, ${u.totalTokens} tokens (${u.inputTokens} in, ${u.outputTokens} out), ${usd(u.costUsd)}${unpriced}`;
}

/** One overrun in words: `maxTotalTokens 100 exceeded: 192 used`. */
export function describeOverrun(o: BudgetOverrun): string {
  const show = (n: number) => (o.limit === "maxCostUsd" ? usd(n) : String(n));
  return `${o.limit} ${show(o.max)} exceeded: ${show(o.actual)} used`;
}
