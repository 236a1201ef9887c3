/**
 * `POST /v1alpha/auth_tokens` (`ai.authTokens.create` in `@google/genai`): a backend mints an ephemeral token with its
 * own key for a browser to open Gemini Live with (`?access_token=auth_tokens/…` on
 * `BidiGenerateContentConstrained`). Stateless and signed like OpenAI's client secrets (src/util/ephemeral.ts): bound to
 * the minting key's namespace and the minting request's scenario and session; `expireTime` (default 30 minutes) ends
 * it, `newSessionExpireTime` (default 1 minute) ends the time a new Live session may start with it. `uses` is
 * accepted and not counted (a stateless token cannot count).
 */
import { apiError, type ApiError } from "../../http/errors";
import { isRecord, jsonResponse } from "../../http/json";
import { readSideBody } from "./side-body";
import { ephemeralSecret, mintEphemeral, type EphemeralClaims } from "../../util/ephemeral";
import { echoedValue } from "../../util/text";
import type { SideRoute } from "../types";
import { checkGeminiAuth } from "./errors";

export const AUTH_TOKENS_PATHS = ["/v1alpha/auth_tokens"];

/** The real defaults: a token lives 30 minutes and may start new sessions for 1 minute. */
const DEFAULT_EXPIRE_SECONDS = 30 * 60;
const DEFAULT_NEW_SESSION_SECONDS = 60;
/** The real API caps `expireTime` at 20 hours ahead. */
const MAX_EXPIRE_SECONDS = 20 * 3600;

/** A timestamp field (RFC 3339) as seconds since the epoch, its default, or the error naming it. */
function timeField(body: Record<string, unknown>, field: string, fallback: number): number | ApiError {
  const value = body[field];
  if (value === undefined || value === null) return fallback;
  const ms = typeof value === "string" ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) return apiError("invalid_request", `Invalid value at '${field}' (type.googleapis.com/google.protobuf.Timestamp), "${echoedValue(value)}"`, { param: field });
  return Math.floor(ms / 1000);
}

export const geminiAuthTokens: SideRoute = {
  paths: AUTH_TOKENS_PATHS,
  async serve(request, path, ctx) {
    if (!AUTH_TOKENS_PATHS.includes(path)) return undefined;
    if (request.method !== "POST") return ctx.refuse({ code: "method_not_allowed", message: `Use POST for ${path}.` });
    const auth = checkGeminiAuth(request.headers, { query: new URL(request.url).searchParams });
    if (auth) return ctx.refuse(auth);
    const read = await readSideBody(request, 1024 * 1024);
    if (!read.ok) return ctx.refuse(read.error);
    const body = read.value;
    if (!isRecord(body)) return ctx.refuse(apiError("invalid_request", "Invalid JSON payload received. Expected an object."));
    const now = Math.floor(Date.now() / 1000);
    const exp = timeField(body, "expireTime", now + DEFAULT_EXPIRE_SECONDS);
    if (typeof exp !== "number") return ctx.refuse(exp);
    const newSession = timeField(body, "newSessionExpireTime", now + DEFAULT_NEW_SESSION_SECONDS);
    if (typeof newSession !== "number") return ctx.refuse(newSession);
    if (exp <= now || exp > now + MAX_EXPIRE_SECONDS) {
      return ctx.refuse(apiError("invalid_request", "expire_time must be in the future and at most 20 hours from now.", { param: "expireTime" }));
    }
    if (body.uses !== undefined && (typeof body.uses !== "number" || !Number.isInteger(body.uses) || body.uses < 0)) {
      return ctx.refuse(apiError("invalid_request", `Invalid value at 'uses' (TYPE_INT32), ${JSON.stringify(body.uses).slice(0, 64)}`, { param: "uses" }));
    }
    const setup = isRecord(body.bidiGenerateContentSetup) ? body.bidiGenerateContentSetup : undefined;
    const claims: EphemeralClaims = {
      kind: "live",
      iat: now,
      exp,
      newSessionExp: Math.min(newSession, exp),
      ...(ctx.rt.caller !== undefined ? { key: ctx.rt.caller.keyId } : {}),
      ...(ctx.prefix?.scenario !== undefined ? { scenario: ctx.prefix.scenario } : {}),
      ...(ctx.prefix?.session !== undefined ? { session: ctx.prefix.session } : {}),
      ...(typeof setup?.model === "string" ? { model: setup.model } : {}),
    };
    return jsonResponse({ name: await mintEphemeral("auth_tokens/", ephemeralSecret(ctx.rt.vars), claims) });
  },
};
