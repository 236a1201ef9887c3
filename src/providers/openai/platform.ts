/**
 * What the OpenAI platform's object routes share (conversations, stored chat completions, a response's input items,
 * background responses): the answer in OpenAI's shape (request id, headers, error body), the JSON body of a `POST`,
 * `metadata` as the real API checks it, and cursor pagination (`after`, `limit`, `order`).
 */
import { apiError, type ApiError } from "../../http/errors";
import { makeRequestId } from "../../http/ids";
import { readJsonBody } from "../../http/body";
import { echoed } from "../../util/text";
import { Response } from "../../http/web";
import type { SideRoute, SideRouteContext } from "../types";
import { checkOpenAIAuth, OPENAI_HEADERS, renderOpenAIError } from "./errors";
import { own } from "../../util/own";
import { safeDecode } from "../../http/url";
import type { Runtime } from "../../runtime/types";
import type { z } from "zod";
import { invalidType, missingParameter, openaiRequestError, receivedOf, unsupportedValue } from "./request-error";
import { safeParseFast } from "../../util/fast-parse";

/** How one request is answered: JSON with OpenAI's headers, or its error shape. */
export interface PlatformAnswer {
  json(body: unknown, status?: number): Response;
  /** 200 with no body (`content-length: 0`), as the Realtime call controls answer. */
  empty(): Response;
  fail(error: ApiError): Response;
  /** OpenAI's headers of the answer (its request id among them), for one built here (a stream, a 202). */
  headers: Record<string, string>;
}

/** The answerer for `request`, or the refusal when it carries no key. */
export function platformAnswer(request: Request): { ok: true; answer: PlatformAnswer } | { ok: false; response: Response } {
  const requestId = makeRequestId(`${request.method} ${request.url}`);
  const headers = { "content-type": "application/json", "x-request-id": requestId, ...OPENAI_HEADERS };
  const answer: PlatformAnswer = {
    headers: { "x-request-id": requestId, ...OPENAI_HEADERS },
    json: (body, status = 200) => new Response(JSON.stringify(body), { status, headers }),
    empty: () => new Response(null, { status: 200, headers: { "content-length": "0", "x-request-id": requestId, ...OPENAI_HEADERS } }),
    fail(error) {
      const r = renderOpenAIError(error, requestId);
      return new Response(JSON.stringify(r.body), { status: r.status, headers: { ...headers, ...r.headers } });
    },
  };
  const auth = checkOpenAIAuth(request.headers);
  return auth ? { ok: false, response: answer.fail(auth) } : { ok: true, answer };
}

/** The metadata a `POST` that updates an object carries: required, checked as the real API does; `null` clears it. */
export async function metadataUpdate(request: Request): Promise<{ ok: true; value: Record<string, string> } | { ok: false; error: ApiError }> {
  const body = await objectBody(request);
  if (!body.ok) return body;
  if (!("metadata" in body.value)) return { ok: false, error: missingParameter("metadata") };
  const metadata = checkMetadata(body.value.metadata);
  return metadata.ok ? { ok: true, value: metadata.value ?? {} } : metadata;
}

/** `Use GET or POST for /v1/…` as the router says it for a surface. */
export function wrongMethod(methods: string[], path: string): ApiError {
  return apiError("method_not_allowed", `Use ${methods.join(" or ")} for ${echoed(path)}.`);
}

/**
 * A side route of an object API over `pattern`: the path matches, the key is checked (`platformAnswer`), then `handle`
 * answers from the match's groups. `declines` hands a matching request on to the next route before the key is checked.
 * @example objectRoute(/^\/(?:v1\/)?things(?:\/([^/]+))?\/?$/, ([, id], request, path, a) => byMethod(request, path, a, { GET: () => a.json({ id }) }))
 */
export function objectRoute(
  pattern: RegExp,
  handle: (m: RegExpExecArray, request: Request, path: string, a: PlatformAnswer, ctx: SideRouteContext) => Promise<Response> | Response,
  options: { knows?: RegExp; onSurfacePaths?: true; declines?: (m: RegExpExecArray, request: Request) => boolean } = {},
): SideRoute {
  const knows = options.knows ?? pattern;
  return {
    knows: (path) => knows.test(path),
    ...(options.onSurfacePaths ? { onSurfacePaths: true } : {}),
    serve(request, path, ctx) {
      const m = pattern.exec(path);
      if (!m || options.declines?.(m, request)) return undefined;
      const started = platformAnswer(request);
      if (!started.ok) return started.response;
      return handle(m, request, path, started.answer, ctx);
    },
  };
}

/**
 * The handler `table` keeps for the request's method, run; any other method gets the wrong-method error naming the
 * table's methods in its order.
 * @example byMethod(request, path, a, { GET: () => list(), POST: () => create() }) // PUT: "Use GET or POST for …"
 */
export function byMethod(request: Request, path: string, a: PlatformAnswer, table: Record<string, () => Promise<Response> | Response>): Promise<Response> | Response {
  const handler = own(table, request.method);
  return handler ? handler() : a.fail(wrongMethod(Object.keys(table), path));
}

export function invalid(message: string, param?: string): ApiError {
  return apiError("invalid_request", message, param !== undefined ? { param } : {});
}

/** The JSON object a `POST` carries (an empty body counts as `{}`, as the SDKs send none for some calls). */
export async function objectBody(request: Request): Promise<{ ok: true; value: Record<string, unknown> } | { ok: false; error: ApiError }> {
  if (request.headers.get("content-length") === "0" || (request.body === null && !request.headers.has("content-type"))) return { ok: true, value: {} };
  const body = await readJsonBody(request);
  if (!body.ok) return body;
  const value = body.value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return { ok: false, error: invalid("Invalid type for body: expected an object.") };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

/**
 * `metadata` as the real API accepts it: at most 16 string values, keys up to 64 characters, values up to 512; each
 * refusal in the API's words and code, the values' types first in document order, then the count, then the lengths.
 * Undefined when absent; null stays null (an update clearing it).
 * @example checkMetadata({ k: 1 }) // { ok: false, error: { message: "Invalid type for 'metadata.k': expected a string, but got an integer instead.", … } }
 */
export function checkMetadata(value: unknown, param = "metadata"): { ok: true; value: Record<string, string> | null | undefined } | { ok: false; error: ApiError } {
  if (value === undefined || value === null) return { ok: true, value };
  const refuse = (message: string, at: string, providerCode: string) => ({ ok: false as const, error: apiError("invalid_request", message, { param: at, providerCode }) });
  if (typeof value !== "object" || Array.isArray(value)) return { ok: false, error: invalidType(param, "an object", value) };
  const entries = Object.entries(value);
  for (const [k, v] of entries) {
    // The key quoted as mockllm quotes client strings (cut at 64 characters), whole in `param`.
    if (typeof v !== "string") return refuse(`Invalid type for '${param}.${echoed(k)}': expected a string, but got ${receivedOf(v)} instead.`, `${param}.${k}`, "invalid_type");
  }
  if (entries.length > 16) {
    return refuse(
      `Invalid '${param}': too many properties. Expected an object with at most 16 properties, but got an object with ${entries.length} properties instead.`,
      param,
      "object_above_max_properties",
    );
  }
  for (const [k, v] of entries as [string, string][]) {
    if (k.length > 64) {
      return refuse(
        `Invalid property name in '${param}': '${echoed(k)}' is too long. Expected a string with maximum length 64, but got a string with length ${k.length} instead.`,
        `${param}.${k}`,
        "property_name_above_max_length",
      );
    }
    if (v.length > 512) {
      return refuse(
        `Invalid '${param}.${echoed(k)}': string too long. Expected a string with maximum length 512, but got a string with length ${v.length} instead.`,
        `${param}.${k}`,
        "string_above_max_length",
      );
    }
  }
  return { ok: true, value: value as Record<string, string> };
}

/** What a list call asks for. */
export interface PageQuery {
  after?: string;
  limit: number;
  order: "asc" | "desc";
}

/** `after`, `limit` (1–100, default 20) and `order` of a list call's query. */
export function pageQuery(query: URLSearchParams, defaultOrder: "asc" | "desc"): { ok: true; page: PageQuery } | { ok: false; error: ApiError } {
  const limitText = query.get("limit");
  const limit = limitText === null ? 20 : Number(limitText);
  if (!Number.isInteger(limit)) {
    return { ok: false, error: invalid(`Invalid 'limit': expected an integer, but got '${echoed(limitText ?? "")}' instead.`, "limit") };
  }
  if (limit < 1) return { ok: false, error: invalid(`Invalid 'limit': integer below minimum value. Expected a value >= 1, but got ${limit} instead.`, "limit") };
  if (limit > 100) return { ok: false, error: invalid(`Invalid 'limit': integer above maximum value. Expected a value <= 100, but got ${limit} instead.`, "limit") };
  const order = query.get("order") ?? defaultOrder;
  if (order !== "asc" && order !== "desc") {
    return { ok: false, error: unsupportedValue(order, ["asc", "desc"], "order") };
  }
  const after = query.get("after");
  return { ok: true, page: { ...(after !== null && after !== "" ? { after } : {}), limit, order } };
}

/**
 * One page of `items` (oldest first, each with an `id`) in the asked order after the cursor: the list object the SDKs'
 * cursor pages read (`data`, `first_id`, `last_id`, `has_more`). An unknown cursor gives an empty page.
 */
export function page<T extends { id: string }>(items: T[], q: PageQuery): { object: "list"; data: T[]; first_id: string | null; last_id: string | null; has_more: boolean } {
  const ordered = q.order === "asc" ? items : [...items].reverse();
  const start = q.after === undefined ? 0 : ordered.findIndex((i) => i.id === q.after) + 1;
  const data = start === 0 && q.after !== undefined ? [] : ordered.slice(start, start + q.limit);
  return { object: "list", data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: start + q.limit < ordered.length };
}

/**
 * A list call's answer: one page of `items` (oldest first) as the request's query asks (`after`, `limit`, `order`,
 * `defaultOrder` when it names none), or the query's refusal.
 * @example GET: async () => listedPage(request, a, await loadAll(home, kind))
 */
export function listedPage<T extends { id: string }>(request: Request, a: PlatformAnswer, items: T[], defaultOrder: "asc" | "desc" = "desc"): Response {
  const q = pageQuery(new URL(request.url).searchParams, defaultOrder);
  return q.ok ? a.json(page(items, q.page)) : a.fail(q.error);
}

/** The first body key outside `known`, refused as the API refuses an unknown argument. */
export function unknownArgument(body: Record<string, unknown>, known: readonly string[]): ApiError | undefined {
  const extra = Object.keys(body).find((k) => !known.includes(k));
  return extra === undefined ? undefined : invalid(`Unrecognized request argument supplied: ${echoed(extra)}`, extra);
}

/**
 * `body` checked against `schema`: a key the schema does not know refused first (`unknownArgument`), then the
 * schema's first fault in the API's words (`openaiRequestError`; `prefix` names where the body sits).
 */
export function parsedBody<S extends z.ZodObject>(schema: S, body: Record<string, unknown>, prefix = ""): z.infer<S> | ApiError {
  const extra = unknownArgument(body, Object.keys(schema.shape));
  if (extra !== undefined) return extra;
  const parsed = safeParseFast(schema, body);
  return parsed.success ? (parsed.data as z.infer<S>) : openaiRequestError(parsed.error, schema, body, prefix);
}

/** The `metadata[key]=value` filters of a list query, in order. */
export function metadataFilters(query: URLSearchParams): [string, string][] {
  const out: [string, string][] = [];
  for (const [k, v] of query) {
    const m = /^metadata\[(.+)\]$/.exec(k);
    if (m) out.push([m[1]!, v]);
  }
  return out;
}

/** The 404 of a path below a known route that names nothing (`Invalid URL (GET /v1/…)`). */
export function invalidUrl(request: Request, path: string): ApiError {
  return apiError("not_found", `Invalid URL (${request.method} ${echoed(path)})`);
}

/** The JSON object a `POST` carries, or its refusal (objectBody's answer, unwrapped). */
export async function bodyOrError(request: Request): Promise<Record<string, unknown> | ApiError> {
  const b = await objectBody(request);
  return b.ok ? b.value : b.error;
}

export { parsedObjects } from "../../util/parsed-objects";

/** Unix seconds now. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** The scenario's `async.processingMs` for this request (its `/s/{scenario}` prefix or `x-mock-scenario`; 0 without a scenario). */
export async function processingMs(request: Request, rt: Runtime): Promise<number> {
  const pathname = new URL(request.url).pathname;
  let name = request.headers.get("x-mock-scenario") ?? undefined;
  if (pathname.startsWith("/s/")) {
    const seg = pathname.slice(3).split("/")[0];
    if (seg) name = safeDecode(seg);
  }
  if (name === undefined) return 0;
  const stored = await rt.scenarios.get(name);
  return stored?.scenario.async?.processingMs ?? 0;
}
