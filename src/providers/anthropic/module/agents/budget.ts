/**
 * A managed-agents session's list cost and its budget (`budget: { type: "limit", max_list_cost: { amount, currency }
 * }`): each model request's usage priced at the model's list price (src/scenario/prices.ts, the table budgets and
 * coverage use), kept exactly in micro-dollars and shown as `usage.list_cost` in cents (`null` for a model with no list
 * price). Once the cost reaches the budget the session makes no more model requests: the turn ends with a
 * `session.usage` event and `session.status_idle` `budget_reached`, and a `user.message` is refused until the budget is
 * raised or removed. The refusals of a budget a session cannot take carry the API's reasons as `error_code`
 * (`model_not_budgetable`, `budget_create_only`, `budget_not_raised`).
 */
import { apiError, type ApiError } from "../../../../http/errors";
import { isRecord } from "../../../../http/json";
import { priceOf } from "../../../../scenario/prices";
import { invalid, type StoredSession } from "./objects";

type Json = Record<string, unknown>;

/** Micro-dollars in one cent. */
const MICROS_PER_CENT = 10_000;

const refused = (error_code: string, message: string): ApiError => apiError("invalid_request", message, { details: { error_code } });

/** A budget as given (`null` removes one), checked: the budget as the session keeps it, or why it is refused. */
export function budgetOf(v: unknown, model: string): Json | null | ApiError {
  if (v === null) return null;
  if (!isRecord(v) || v.type !== "limit") return invalid("budget.type: Input should be 'limit'");
  const max = v.max_list_cost;
  if (!isRecord(max) || typeof max.amount !== "string" || !/^(0|[1-9]\d*)$/.test(max.amount)) {
    return invalid('budget.max_list_cost.amount: an integer decimal string of minor units ("2500" is $25.00)');
  }
  if (max.currency !== "USD") return invalid("budget.max_list_cost.currency: Input should be 'USD'");
  if (priceOf(model) === undefined) return refused("model_not_budgetable", `budget: model '${model}' has no public list price, so a budget cannot measure it.`);
  return { type: "limit", max_list_cost: { amount: max.amount, currency: "USD" } };
}

/** The budget's ceiling in micro-dollars, or undefined without one. */
function ceiling(session: StoredSession): number | undefined {
  const max = session.budget?.max_list_cost;
  return isRecord(max) && typeof max.amount === "string" ? Number(max.amount) * MICROS_PER_CENT : undefined;
}

/** Whether the session's list cost has reached its budget. */
export function budgetReached(session: StoredSession): boolean {
  const max = ceiling(session);
  return max !== undefined && (session.mock.costMicros ?? 0) >= max;
}

/** Adds one model request's usage at the model's list price to the session's cost and its `usage.list_cost`. */
export function addCost(session: StoredSession, usage: { input_tokens: number; output_tokens: number; cache_creation_input_tokens: number; cache_read_input_tokens: number }): void {
  const price = priceOf(session.agent.model.id);
  if (price === undefined) {
    session.usage.list_cost = null;
    return;
  }
  // A price is dollars per million tokens: a token costs `price` micro-dollars. Cache writes at the input price.
  const micros = (usage.input_tokens + usage.cache_creation_input_tokens) * price.input + usage.cache_read_input_tokens * (price.cachedInput ?? price.input) + usage.output_tokens * price.output;
  session.mock.costMicros = (session.mock.costMicros ?? 0) + micros;
  session.usage.list_cost = { amount: String(Math.floor(session.mock.costMicros / MICROS_PER_CENT)), currency: "USD" };
}

/**
 * A budget update's refusal, if any: none can be added to a session created without one (or re-added once removed),
 * and a new ceiling must be above what the session has spent.
 */
export function budgetUpdateError(session: StoredSession, next: Json | null): ApiError | undefined {
  if (next === null) return undefined;
  if (session.mock.budgetable !== true) return refused("budget_create_only", "budget: a budget can only be set when the session is created (and not re-added once removed).");
  const max = Number((next.max_list_cost as Json).amount) * MICROS_PER_CENT;
  if (max <= (session.mock.costMicros ?? 0))
    return refused("budget_not_raised", `budget: max_list_cost must be above the session's list cost so far (${session.usage.list_cost?.amount ?? "0"} cents).`);
  return undefined;
}
