/**
 * OpenAI's webhook endpoints (`client.webhooks`): `/v1/webhook_endpoints` (create, list newest first),
 * `/v1/webhook_endpoints/{id}` (retrieve, update, delete), `…/rotate_secret` and `…/test` (a sample event sent at
 * once, the endpoint's status answered), and `/v1/webhook_event_types`. The endpoints are the caller's project's
 * (its namespace's, src/webhooks/hub.ts); the events its background responses, batches, fine-tuning jobs and eval
 * runs raise are delivered to them, signed as the SDKs' `webhooks.unwrap` checks (src/webhooks).
 */
import { apiError, type ApiError } from "../../../../http/errors";
import { safeDecode } from "../../../../http/url";
import { creationStamp, timeHex } from "../../../../objects/ids";
import { echoed } from "../../../../util/text";
import { MAX_ENDPOINTS, type EndpointRecord } from "../../../../webhooks/core";
import { EVENT_TYPES, isEventType, type EventType } from "../../../../webhooks/events";
import { urlRefusal } from "../../../../webhooks/hosts";
import { hubOf, type WebhookHub } from "../../../../webhooks/hub";
import { newSecret, secretHint } from "../../../../webhooks/sign";
import type { SideRouteContext } from "../../../types";
import { byMethod, invalid, nowSeconds, objectBody, objectRoute, page, pageQuery, unknownArgument, type PlatformAnswer } from "../../platform";
import { emptyArrayError, invalidType, missingParameter, unsupportedValue } from "../../request-error";

/** How long a rotated-out secret stays valid when asked to (`keep_old_secret_active_for_24_hours`). */
const KEEP_OLD_MS = 24 * 60 * 60 * 1000;

export function endpointObject(r: EndpointRecord): Record<string, unknown> {
  return {
    id: r.id,
    object: "webhook_endpoint",
    created_at: r.createdAt,
    updated_at: r.updatedAt,
    name: r.name,
    url: r.url,
    event_types: r.eventTypes,
    signing_secret_hint: secretHint(r.secret),
  };
}

function withSecret(r: EndpointRecord): Record<string, unknown> {
  return { ...endpointObject(r), signing_secret: r.secret };
}

function noSuchEndpoint(id: string): ApiError {
  return apiError("not_found", `No webhook endpoint found with id '${echoed(id)}'.`, { param: "webhook_endpoint_id" });
}

function nameError(value: unknown): ApiError | undefined {
  if (typeof value !== "string") return invalidType("name", "a string", value);
  if (value.length === 0) return invalid("Invalid 'name': empty string. Expected a string with minimum length 1, but got an empty string instead.", "name");
  if (value.length > 256) return invalid(`Invalid 'name': string too long. Expected a string with maximum length 256, but got a string with length ${value.length} instead.`, "name");
  return undefined;
}

function urlError(value: unknown, ctx: SideRouteContext, request: Request): ApiError | undefined {
  if (typeof value !== "string") return invalidType("url", "a string", value);
  if (value.length > 2048) return invalid(`Invalid 'url': string too long. Expected a string with maximum length 2048, but got a string with length ${value.length} instead.`, "url");
  const refused = urlRefusal(value, ctx.rt.vars, new URL(request.url).host);
  if (refused === undefined) return undefined;
  if ("pattern" in refused) return invalid("Invalid 'url': string does not match pattern. Expected a string that matches the pattern '^https://'.", "url");
  return invalid(
    `mockllm: webhook deliveries to '${echoed(refused.host)}' are not allowed on this deployment. Its operator lists the hosts endpoints may name in WEBHOOK_ALLOWED_HOSTS (unset: loopback and this server's own host).`,
    "url",
  );
}

function eventTypesError(value: unknown): ApiError | undefined {
  if (!Array.isArray(value)) return invalidType("event_types", "an array of strings", value);
  if (value.length === 0) return emptyArrayError("event_types");
  for (const [i, t] of value.entries()) {
    if (typeof t !== "string") return invalidType(`event_types[${i}]`, "a string", t);
    if (!isEventType(t)) return unsupportedValue(t, EVENT_TYPES, `event_types[${i}]`);
  }
  return undefined;
}

/** The listed types once each, in the order given. */
const distinct = (types: EventType[]): EventType[] => [...new Set(types)];

async function create(request: Request, hub: WebhookHub, a: PlatformAnswer, ctx: SideRouteContext): Promise<Response> {
  const body = await objectBody(request);
  if (!body.ok) return a.fail(body.error);
  const b = body.value;
  const bad = unknownArgument(b, ["name", "url", "event_types"]);
  if (bad) return a.fail(bad);
  for (const k of ["name", "url", "event_types"]) if (b[k] === undefined || b[k] === null) return a.fail(missingParameter(k));
  const refused = nameError(b.name) ?? urlError(b.url, ctx, request) ?? eventTypesError(b.event_types);
  if (refused) return a.fail(refused);
  const now = nowSeconds();
  const r: EndpointRecord = {
    id: timeHex("whe_", 32),
    name: b.name as string,
    url: b.url as string,
    eventTypes: distinct(b.event_types as EventType[]),
    createdAt: now,
    updatedAt: now,
    stamp: creationStamp(),
    secret: newSecret(),
  };
  if (!(await hub.create(r))) return a.fail(invalid(`mockllm keeps at most ${MAX_ENDPOINTS} webhook endpoints a project: delete one first.`));
  return a.json(withSecret(r));
}

async function update(request: Request, r: EndpointRecord, hub: WebhookHub, a: PlatformAnswer, ctx: SideRouteContext): Promise<Response> {
  const body = await objectBody(request);
  if (!body.ok) return a.fail(body.error);
  const b = body.value;
  const bad = unknownArgument(b, ["name", "url", "event_types"]);
  if (bad) return a.fail(bad);
  const given = (k: string) => b[k] !== undefined && b[k] !== null;
  const refused = (given("name") ? nameError(b.name) : undefined) ?? (given("url") ? urlError(b.url, ctx, request) : undefined) ?? (given("event_types") ? eventTypesError(b.event_types) : undefined);
  if (refused) return a.fail(refused);
  const next: EndpointRecord = {
    ...r,
    ...(given("name") ? { name: b.name as string } : {}),
    ...(given("url") ? { url: b.url as string } : {}),
    ...(given("event_types") ? { eventTypes: distinct(b.event_types as EventType[]) } : {}),
  };
  // An unchanged update does not advance `updated_at`.
  const changed = next.name !== r.name || next.url !== r.url || next.eventTypes.join() !== r.eventTypes.join();
  const saved = changed ? { ...next, updatedAt: nowSeconds() } : r;
  if (changed && !(await hub.update(saved))) return a.fail(noSuchEndpoint(r.id));
  return a.json(endpointObject(saved));
}

async function rotate(request: Request, r: EndpointRecord, hub: WebhookHub, a: PlatformAnswer): Promise<Response> {
  const body = await objectBody(request);
  if (!body.ok) return a.fail(body.error);
  const bad = unknownArgument(body.value, ["keep_old_secret_active_for_24_hours"]);
  if (bad) return a.fail(bad);
  const keep = body.value.keep_old_secret_active_for_24_hours;
  if (keep !== undefined && keep !== null && typeof keep !== "boolean") return a.fail(invalidType("keep_old_secret_active_for_24_hours", "a boolean", keep));
  const { previous: _, ...rest } = r;
  const next: EndpointRecord = { ...rest, secret: newSecret(), updatedAt: nowSeconds(), ...(keep === true ? { previous: { secret: r.secret, untilMs: Date.now() + KEEP_OLD_MS } } : {}) };
  if (!(await hub.update(next))) return a.fail(noSuchEndpoint(r.id));
  return a.json(withSecret(next));
}

async function test(request: Request, r: EndpointRecord, hub: WebhookHub, a: PlatformAnswer): Promise<Response> {
  const body = await objectBody(request);
  if (!body.ok) return a.fail(body.error);
  const bad = unknownArgument(body.value, ["event_type"]);
  if (bad) return a.fail(bad);
  const type = body.value.event_type;
  if (type === undefined || type === null) return a.fail(missingParameter("event_type"));
  if (typeof type !== "string") return a.fail(invalidType("event_type", "a string", type));
  if (!isEventType(type)) return a.fail(unsupportedValue(type, EVENT_TYPES, "event_type"));
  const sent = await hub.test(r.id, type);
  if (sent === null) return a.fail(noSuchEndpoint(r.id));
  if ("error" in sent) return a.fail(invalid(`mockllm: the test event could not be delivered to ${echoed(r.url)}: ${echoed(sent.error)}.`));
  return a.json({ object: "webhook_endpoint.test", webhook_endpoint_id: r.id, event_type: type, status_code: sent.status, success: true });
}

function noWebhooks(a: PlatformAnswer): Response {
  return a.fail(apiError("not_found", "mockllm: this runtime keeps no webhook endpoints."));
}

/** `/v1/webhook_endpoints[/{id}[/rotate_secret | /test]]`. */
const ENDPOINTS_ROUTE = /^\/(?:v1\/)?webhook_endpoints(?:\/([^/]+)(?:\/(rotate_secret|test))?)?\/?$/;

async function serveEndpoints([, rawId, action]: RegExpExecArray, request: Request, path: string, a: PlatformAnswer, ctx: SideRouteContext): Promise<Response> {
  const hub = hubOf(ctx.rt);
  if (hub === undefined) return noWebhooks(a);
  if (rawId === undefined) {
    return byMethod(request, path, a, {
      async GET() {
        const q = pageQuery(new URL(request.url).searchParams, "desc");
        if (!q.ok) return a.fail(q.error);
        return a.json(page((await hub.list()).map(endpointObject) as { id: string }[], q.page));
      },
      POST: () => create(request, hub, a, ctx),
    });
  }
  const id = safeDecode(rawId);
  const r = await hub.get(id);
  if (action === "rotate_secret") return byMethod(request, path, a, { POST: () => (r === null ? a.fail(noSuchEndpoint(id)) : rotate(request, r, hub, a)) });
  if (action === "test") return byMethod(request, path, a, { POST: () => (r === null ? a.fail(noSuchEndpoint(id)) : test(request, r, hub, a)) });
  return byMethod(request, path, a, {
    GET: () => (r === null ? a.fail(noSuchEndpoint(id)) : a.json(endpointObject(r))),
    POST: () => (r === null ? a.fail(noSuchEndpoint(id)) : update(request, r, hub, a, ctx)),
    async DELETE() {
      if (r === null || !(await hub.delete(id))) return a.fail(noSuchEndpoint(id));
      return a.json({ id, object: "webhook_endpoint.deleted", deleted: true });
    },
  });
}

export const openaiWebhookEndpoints = objectRoute(ENDPOINTS_ROUTE, serveEndpoints);

/** `/v1/webhook_event_types`: the types an endpoint may subscribe to. */
export const openaiWebhookEventTypes = objectRoute(/^\/(?:v1\/)?webhook_event_types\/?$/, (_m, request, path, a, ctx) =>
  byMethod(request, path, a, { GET: () => (hubOf(ctx.rt) === undefined ? noWebhooks(a) : a.json({ object: "list", data: EVENT_TYPES })) }),
);
