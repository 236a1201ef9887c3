/**
 * ChatKit (`client.beta.chatkit`, header `OpenAI-Beta: chatkit_beta=v1`): an app's backend creates a session for a
 * workflow and hands its `client_secret` to the ChatKit widget in the browser, which then talks to OpenAI's hosted
 * ChatKit backend with it. mockllm answers the backend's calls — `POST /v1/chatkit/sessions` (the session with its
 * resolved defaults and a fresh `ek_…` secret), `POST /v1/chatkit/sessions/{id}/cancel` — and the thread listings
 * (`GET /v1/chatkit/threads`, `…/{id}`, `…/{id}/items`, `DELETE …/{id}`). Threads are made by the widget's own
 * protocol, which mockllm does not serve: the listing is empty and a thread id is a 404. Sessions are kept like
 * conversations, in the caller's namespace (one of 256 index objects by a hash of the id).
 */
import { z } from "zod";
import { apiError, isApiError, type ApiError } from "../../../../http/errors";
import { safeDecode } from "../../../../http/url";
import { timeHex } from "../../../../objects/ids";
import type { Runtime } from "../../../../runtime/types";
import type { StoredResponses } from "../../../../session/types";
import { base64url } from "../../../../util/base64";
import { stableHash } from "../../../../util/hash";
import { lazily } from "../../../../util/memo";
import { echoed } from "../../../../util/text";
import { byMethod, listedPage, nowSeconds, objectBody, objectRoute, parsedBody, parsedObjects, type PlatformAnswer } from "../../platform";

const SESSION_KIND = "chatkit.session";
/** Sessions one index object keeps; one more forgets the oldest. */
const MAX_SESSIONS = 1000;

/** The API's defaults (its reference: ten minutes, 10 requests a minute, uploads off with 10 files of 512 MB). */
const DEFAULT_EXPIRES_SECONDS = 600;
const DEFAULT_REQUESTS_PER_MINUTE = 10;
const MAX_FILE_SIZE_MB = 512;
const DEFAULT_MAX_FILES = 10;

/** Built on the first ChatKit request (util/memo.ts `lazily`): a start pays for no schema it does not use. */
const chatkitWire = lazily(() => {
  const enabled = z.object({ enabled: z.boolean().optional() });
  const Body = z.object({
    user: z.string().min(1),
    workflow: z.object({
      id: z.string().min(1),
      version: z.string().optional(),
      state_variables: z.record(z.string().max(64), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
      tracing: enabled.optional(),
    }),
    expires_after: z.object({ anchor: z.enum(["created_at"]), seconds: z.number().int().min(1) }).optional(),
    rate_limits: z.object({ max_requests_per_1_minute: z.number().int().min(1).optional() }).optional(),
    chatkit_configuration: z
      .object({
        automatic_thread_titling: enabled.optional(),
        file_upload: z.object({ enabled: z.boolean().optional(), max_file_size: z.number().int().min(1).max(MAX_FILE_SIZE_MB).optional(), max_files: z.number().int().min(1).optional() }).optional(),
        history: z.object({ enabled: z.boolean().optional(), recent_threads: z.number().int().min(1).optional() }).optional(),
      })
      .optional(),
  });
  return { Body };
});

type SessionBody = z.infer<ReturnType<typeof chatkitWire>["Body"]>;

/** A session as kept: the API's object, its status as set (`active` or `cancelled`; `expired` is read from the time). */
export interface ChatSession {
  id: string;
  object: "chatkit.session";
  expires_at: number;
  client_secret: string;
  workflow: { id: string; version: string | null; state_variables: Record<string, string | number | boolean | null> | null; tracing: { enabled: boolean } };
  user: string;
  rate_limits: { max_requests_per_1_minute: number };
  max_requests_per_1_minute: number;
  status: "active" | "expired" | "cancelled";
  chatkit_configuration: {
    automatic_thread_titling: { enabled: boolean };
    file_upload: { enabled: boolean; max_file_size: number | null; max_files: number | null };
    history: { enabled: boolean; recent_threads: number | null };
  };
}

/** The session with each default the API resolves filled in, in the API's field order. */
export function resolvedSession(b: SessionBody, id: string, secret: string, now: number): ChatSession {
  const perMinute = b.rate_limits?.max_requests_per_1_minute ?? DEFAULT_REQUESTS_PER_MINUTE;
  const config = b.chatkit_configuration;
  return {
    id,
    object: "chatkit.session",
    expires_at: now + (b.expires_after?.seconds ?? DEFAULT_EXPIRES_SECONDS),
    client_secret: secret,
    workflow: { id: b.workflow.id, version: b.workflow.version ?? null, state_variables: b.workflow.state_variables ?? null, tracing: { enabled: b.workflow.tracing?.enabled ?? true } },
    user: b.user,
    rate_limits: { max_requests_per_1_minute: perMinute },
    max_requests_per_1_minute: perMinute,
    status: "active",
    chatkit_configuration: {
      automatic_thread_titling: { enabled: config?.automatic_thread_titling?.enabled ?? true },
      file_upload: {
        enabled: config?.file_upload?.enabled ?? false,
        max_file_size: config?.file_upload?.max_file_size ?? MAX_FILE_SIZE_MB,
        max_files: config?.file_upload?.max_files ?? DEFAULT_MAX_FILES,
      },
      history: { enabled: config?.history?.enabled ?? true, recent_threads: config?.history?.recent_threads ?? null },
    },
  };
}

/** The session as answered now: an active one past its `expires_at` reads `expired`. */
function asOf(s: ChatSession, now: number): ChatSession {
  return s.status === "active" && now >= s.expires_at ? { ...s, status: "expired" } : s;
}

function sessionHome(rt: Runtime, id: string): StoredResponses {
  return rt.sessions.get(`__index/chatkit-sessions-${(stableHash(id) & 0xff).toString(16).padStart(2, "0")}`);
}

async function loadSession(rt: Runtime, id: string): Promise<ChatSession | undefined> {
  const json = await sessionHome(rt, id).objectById(SESSION_KIND, id);
  return json === null ? undefined : parsedObjects<ChatSession>([json])[0];
}

async function saveSession(rt: Runtime, s: ChatSession): Promise<void> {
  await sessionHome(rt, s.id).putObjects(SESSION_KIND, [{ id: s.id, json: JSON.stringify(s) }], MAX_SESSIONS);
}

function noSuchSession(id: string): ApiError {
  return apiError("not_found", `ChatKit session with id '${echoed(id)}' not found.`, { param: "session_id" });
}

function noSuchThread(id: string): ApiError {
  return apiError("not_found", `ChatKit thread with id '${echoed(id)}' not found.`, { param: "thread_id" });
}

/** A secret as the API's look: `ek_` and 48 random characters (it authenticates nothing in mockllm). */
function newClientSecret(): string {
  return `ek_${base64url(crypto.getRandomValues(new Uint8Array(36)))}`;
}

async function create(request: Request, a: PlatformAnswer, rt: Runtime): Promise<Response> {
  const body = await objectBody(request);
  if (!body.ok) return a.fail(body.error);
  const parsed = parsedBody(chatkitWire().Body, body.value);
  if (isApiError(parsed)) return a.fail(parsed);
  const session = resolvedSession(parsed, timeHex("cksess_", 40), newClientSecret(), nowSeconds());
  await saveSession(rt, session);
  return a.json(session);
}

async function cancel(id: string, a: PlatformAnswer, rt: Runtime): Promise<Response> {
  const s = await loadSession(rt, id);
  if (s === undefined) return a.fail(noSuchSession(id));
  const now = asOf(s, nowSeconds());
  if (now.status !== "active") return a.json(now); // cancelled or expired already: as it is
  const cancelled: ChatSession = { ...s, status: "cancelled" };
  await saveSession(rt, cancelled);
  return a.json(cancelled);
}

/** `/v1/chatkit/sessions` and `/v1/chatkit/sessions/{id}/cancel`. */
const SESSIONS_ROUTE = /^\/(?:v1\/)?chatkit\/sessions(?:\/([^/]+)\/(cancel))?\/?$/;

export const openaiChatKitSessions = objectRoute(SESSIONS_ROUTE, ([, rawId], request, path, a, ctx) => {
  if (rawId === undefined) return byMethod(request, path, a, { POST: () => create(request, a, ctx.rt) });
  return byMethod(request, path, a, { POST: () => cancel(safeDecode(rawId), a, ctx.rt) });
});

/** `/v1/chatkit/threads[/{id}[/items]]`: none exist here (the widget makes them, against OpenAI's own backend). */
const THREADS_ROUTE = /^\/(?:v1\/)?chatkit\/threads(?:\/([^/]+)(\/items)?)?\/?$/;

export const openaiChatKitThreads = objectRoute(THREADS_ROUTE, ([, rawId, items], request, path, a) => {
  if (rawId === undefined) {
    return byMethod(request, path, a, {
      GET: () => listedPage(request, a, [] as { id: string }[]),
    });
  }
  const id = safeDecode(rawId);
  if (items !== undefined) return byMethod(request, path, a, { GET: () => a.fail(noSuchThread(id)) });
  return byMethod(request, path, a, { GET: () => a.fail(noSuchThread(id)), DELETE: () => a.fail(noSuchThread(id)) });
});
