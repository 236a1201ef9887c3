/**
 * `POST /v1/realtime/client_secrets` (the GA Realtime API): a backend mints a short-lived `ek_…` key with its own key
 * and hands it to a browser, which opens `/v1/realtime` with it (as the Bearer, or the `openai-insecure-api-key.{key}`
 * sub-protocol browsers send). The key is stateless and signed (src/util/ephemeral.ts), bound to the minting key's
 * namespace and to the scenario and session of the minting request's `/s/{scenario}/{session}` prefix, so the
 * browser's socket plays that session wherever it connects; expired, it is refused with a 401 like a wrong key.
 */
import { apiError, type ApiError } from "../../../http/errors";
import { jsonResponse, isRecord } from "../../../http/json";
import { readLimited } from "../../../http/body";
import { stableHex } from "../../../util/hash";
import { ephemeralSecret, mintEphemeral, type EphemeralClaims } from "../../../util/ephemeral";
import type { SideRoute } from "../../types";
import { checkOpenAIAuth } from "../errors";
import { initialSession } from "./items";
import { unsupportedValue } from "../request-error";

export const CLIENT_SECRETS_PATHS = ["/v1/realtime/client_secrets", "/realtime/client_secrets"];

/** `expires_after.seconds`: the real API's bounds and default. */
export const EPHEMERAL_MIN_SECONDS = 10;
export const EPHEMERAL_MAX_SECONDS = 7200;
export const EPHEMERAL_DEFAULT_SECONDS = 600;

function invalid(message: string, param: string, code = "invalid_value"): ApiError {
  return apiError("invalid_request", message, { param, providerCode: code });
}

/** The body's `expires_after.seconds`, or the error the real API gives for it. */
function lifetime(body: Record<string, unknown>): number | ApiError {
  const after = body.expires_after;
  if (after === undefined || after === null) return EPHEMERAL_DEFAULT_SECONDS;
  if (!isRecord(after)) return invalid("Invalid type for 'expires_after': expected an object.", "expires_after", "invalid_type");
  if (after.anchor !== undefined && after.anchor !== "created_at") {
    return unsupportedValue(after.anchor, ["created_at"], "expires_after.anchor");
  }
  const seconds = after.seconds ?? EPHEMERAL_DEFAULT_SECONDS;
  if (typeof seconds !== "number" || !Number.isInteger(seconds)) return invalid("Invalid type for 'expires_after.seconds': expected an integer.", "expires_after.seconds", "invalid_type");
  if (seconds < EPHEMERAL_MIN_SECONDS) {
    return invalid(
      `Invalid 'expires_after.seconds': integer below minimum value. Expected a value >= ${EPHEMERAL_MIN_SECONDS}, but got ${seconds} instead.`,
      "expires_after.seconds",
      "integer_below_min_value",
    );
  }
  if (seconds > EPHEMERAL_MAX_SECONDS) {
    return invalid(
      `Invalid 'expires_after.seconds': integer above maximum value. Expected a value <= ${EPHEMERAL_MAX_SECONDS}, but got ${seconds} instead.`,
      "expires_after.seconds",
      "integer_above_max_value",
    );
  }
  return seconds;
}

/** The session the secret carries, as the real API echoes it: the defaults with what was asked laid over. */
function sessionOf(body: Record<string, unknown>, id: string): { session: Record<string, unknown> } | { error: ApiError } {
  const asked = body.session ?? {};
  if (!isRecord(asked)) return { error: invalid("Invalid type for 'session': expected an object.", "session", "invalid_type") };
  const type = asked.type ?? "realtime";
  if (type !== "realtime" && type !== "transcription") {
    return { error: unsupportedValue(type, ["realtime", "transcription"], "session.type") };
  }
  if (asked.model !== undefined && typeof asked.model !== "string") return { error: invalid("Invalid type for 'session.model': expected a string.", "session.model", "invalid_type") };
  if (type === "transcription") return { session: { type, object: "realtime.transcription_session", id, expires_at: 0, include: null, ...asked } };
  return { session: { ...initialSession(id, (asked.model as string | undefined) ?? "gpt-realtime"), ...asked, type, object: "realtime.session", id } };
}

/** Longest session configuration (as JSON) a key carries to the socket; a larger one is only echoed. */
const MAX_CARRIED_CONFIG = 2048;

/** What the socket's `session.created` takes from the minted session: what was asked, without its identity. */
function carried(session: Record<string, unknown>): { config?: Record<string, unknown> } {
  const { id: _id, object: _object, type, expires_at: _expires, ...config } = session;
  if (type !== "realtime" || JSON.stringify(config).length > MAX_CARRIED_CONFIG) return {};
  return { config };
}

export const realtimeClientSecrets: SideRoute = {
  paths: CLIENT_SECRETS_PATHS,
  async serve(request, path, ctx) {
    if (!CLIENT_SECRETS_PATHS.includes(path)) return undefined;
    if (request.method !== "POST") return ctx.refuse({ code: "method_not_allowed", message: `Use POST for ${path}.` });
    const auth = checkOpenAIAuth(request.headers);
    if (auth) return ctx.refuse(auth);
    const text = await readLimited(request, 1024 * 1024);
    if (text === undefined) return ctx.refuse(apiError("payload_too_large", "The request body is too large."));
    let body: unknown = {};
    if (text.trim() !== "") {
      try {
        body = JSON.parse(text);
      } catch {
        return ctx.refuse(apiError("invalid_json", "We could not parse the JSON body of your request. Send a valid JSON object."));
      }
    }
    if (!isRecord(body)) return ctx.refuse(apiError("invalid_request", "The request body must be a JSON object."));
    const seconds = lifetime(body);
    if (typeof seconds !== "number") return ctx.refuse(seconds);
    const now = Math.floor(Date.now() / 1000);
    const id = `sess_${stableHex(`client-secret|${now}|${crypto.randomUUID()}`, 24)}`;
    const made = sessionOf(body, id);
    if ("error" in made) return ctx.refuse(made.error);
    const { session } = made;
    const claims: EphemeralClaims = {
      kind: "realtime",
      iat: now,
      exp: now + seconds,
      ...(ctx.rt.caller !== undefined ? { key: ctx.rt.caller.keyId } : {}),
      ...(ctx.prefix?.scenario !== undefined ? { scenario: ctx.prefix.scenario } : {}),
      ...(ctx.prefix?.session !== undefined ? { session: ctx.prefix.session } : {}),
      ...(typeof session.model === "string" ? { model: session.model } : {}),
      ...carried(session),
    };
    const value = await mintEphemeral("ek_", ephemeralSecret(ctx.rt.vars), claims);
    return jsonResponse({ value, expires_at: claims.exp, session }, 200, { "x-request-id": `req_${stableHex(value, 32)}` });
  },
};
