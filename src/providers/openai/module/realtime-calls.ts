/**
 * The Realtime API's SIP call controls (`client.realtime.calls`): `POST /v1/realtime/calls/{call_id}/accept` (the
 * session's configuration, as a client secret's `session`), `…/reject` (`status_code`, 603 unless given), `…/refer`
 * (`target_uri`), `…/hangup`; each answers 200 with an empty body. The calls are those rung with
 * `POST /admin/realtime/calls` (src/webhooks/calls.ts); an accepted call's WebSocket (`/v1/realtime?call_id=…`) plays
 * the call's scenario and session with the accepted configuration (`realtimeCallBinding`). WebRTC's
 * `POST /v1/realtime/calls` (an SDP offer) is not served: mockllm carries no media.
 */
import { apiError, type ApiError } from "../../../http/errors";
import { safeDecode } from "../../../http/url";
import type { Runtime } from "../../../runtime/types";
import type { Prefix } from "../../../turn/select";
import { echoed } from "../../../util/text";
import { loadCall, moveCall, type CallRecord, type CallStatus } from "../../../webhooks/calls";
import { byMethod, invalid, objectBody, objectRoute, type PlatformAnswer } from "../platform";
import { invalidType, missingParameter, numberBoundError, unsupportedValue } from "../request-error";

/** Longest accepted session configuration kept with a call (as JSON); a larger one is refused. */
const MAX_SESSION_CHARS = 64 * 1024;

function noSuchCall(id: string): ApiError {
  return apiError("not_found", `Call with id '${echoed(id)}' not found.`, { param: "call_id" });
}

/** An action the call's state does not allow (mockllm's wording: no captured body). */
function wrongState(call: CallRecord, action: string, needs: CallStatus[]): ApiError {
  return invalid(`Call '${echoed(call.call_id)}' is ${call.status}: ${action} needs a call that is ${needs.join(" or ")}.`, "call_id");
}

async function accept(request: Request, call: CallRecord, a: PlatformAnswer, rt: Runtime): Promise<Response> {
  const body = await objectBody(request);
  if (!body.ok) return a.fail(body.error);
  const { type, ...session } = body.value;
  if (type === undefined || type === null) return a.fail(missingParameter("type"));
  if (type !== "realtime") return a.fail(typeof type === "string" ? unsupportedValue(type, ["realtime"], "type") : invalidType("type", "'realtime'", type));
  if (session.model !== undefined && typeof session.model !== "string") return a.fail(invalidType("model", "a string", session.model));
  if (JSON.stringify(session).length > MAX_SESSION_CHARS) return a.fail(invalid(`mockllm keeps a call's session configuration up to ${MAX_SESSION_CHARS} characters of JSON.`));
  if (call.status !== "ringing") return a.fail(wrongState(call, "accept", ["ringing"]));
  await moveCall(rt, call, "accepted", { accepted_session: session });
  return a.empty();
}

async function reject(request: Request, call: CallRecord, a: PlatformAnswer, rt: Runtime): Promise<Response> {
  const body = await objectBody(request);
  if (!body.ok) return a.fail(body.error);
  const code = body.value.status_code ?? 603;
  if (typeof code !== "number" || !Number.isInteger(code)) return a.fail(invalidType("status_code", "an integer", code));
  // A SIP final response that declines: 4xx, 5xx or 6xx.
  const bound = numberBoundError("status_code", code, { min: 400, max: 699 }, "integer");
  if (bound) return a.fail(bound);
  if (call.status !== "ringing") return a.fail(wrongState(call, "reject", ["ringing"]));
  await moveCall(rt, call, "rejected", { reject_status_code: code });
  return a.empty();
}

async function refer(request: Request, call: CallRecord, a: PlatformAnswer, rt: Runtime): Promise<Response> {
  const body = await objectBody(request);
  if (!body.ok) return a.fail(body.error);
  const target = body.value.target_uri;
  if (target === undefined || target === null) return a.fail(missingParameter("target_uri"));
  if (typeof target !== "string") return a.fail(invalidType("target_uri", "a string", target));
  if (!/^(?:sip|sips|tel):\S+$/i.test(target)) return a.fail(invalid("Invalid 'target_uri': expected a sip:, sips: or tel: URI.", "target_uri"));
  if (call.status !== "accepted") return a.fail(wrongState(call, "refer", ["accepted"]));
  await moveCall(rt, call, "referred", { refer_target_uri: target });
  return a.empty();
}

async function hangup(call: CallRecord, a: PlatformAnswer, rt: Runtime): Promise<Response> {
  if (call.status !== "accepted" && call.status !== "referred") return a.fail(wrongState(call, "hangup", ["accepted", "referred"]));
  await moveCall(rt, call, "ended");
  return a.empty();
}

const CALLS_ROUTE = /^\/(?:v1\/)?realtime\/calls(?:\/([^/]+)\/(accept|reject|refer|hangup))?\/?$/;

/** WebRTC's call (an SDP offer): said plainly, where the router would answer an unknown URL. */
const NO_WEBRTC =
  "mockllm: WebRTC calls (POST /v1/realtime/calls with an SDP offer) are not served: mockllm carries no media. Open the Realtime WebSocket (/v1/realtime) instead, or ring a SIP call with POST /admin/realtime/calls.";

export const openaiRealtimeCalls = objectRoute(CALLS_ROUTE, ([, rawId, action], request, path, a, ctx) =>
  rawId === undefined
    ? byMethod(request, path, a, { POST: () => a.fail(apiError("not_found", NO_WEBRTC)) })
    : byMethod(request, path, a, {
        async POST() {
          const id = safeDecode(rawId!);
          const call = await loadCall(ctx.rt, id);
          if (call === undefined) return a.fail(noSuchCall(id));
          if (action === "accept") return accept(request, call, a, ctx.rt);
          if (action === "reject") return reject(request, call, a, ctx.rt);
          if (action === "refer") return refer(request, call, a, ctx.rt);
          return hangup(call, a, ctx.rt);
        },
      }),
);

/**
 * What a Realtime WebSocket opened with `?call_id=` plays: the call's scenario and session (else the URL's own) and
 * the session its `accept` configured; the refusal when the call is unknown or not (or no longer) answered.
 */
export async function realtimeCallBinding(callId: string, rt: Runtime, asked: Prefix): Promise<{ prefix: Prefix; config: Record<string, unknown> } | ApiError> {
  const call = await loadCall(rt, callId);
  if (call === undefined) return noSuchCall(callId);
  if (call.status !== "accepted") return wrongState(call, "a WebSocket", ["accepted"]);
  const prefix: Prefix = call.scenario !== undefined ? { scenario: call.scenario, ...(call.session !== undefined ? { session: call.session } : {}) } : asked;
  return { prefix, config: call.accepted_session ?? {} };
}
