/**
 * Incoming SIP calls (OpenAI's Realtime API over SIP): on the real platform a phone call reaching the project's SIP
 * address fires `realtime.call.incoming` at its webhook endpoints, and the app's backend answers it —
 * `POST /v1/realtime/calls/{call_id}/accept` with the session's configuration (or `reject`), then a sideband WebSocket
 * `/v1/realtime?call_id=…` to drive the conversation, `refer` to transfer it, `hangup` to end it. No phone rings a
 * mock: `POST /admin/realtime/calls` rings one (src/admin/calls.ts), bound to a scenario and session, and the event
 * goes to the project's endpoints like any other. This is the call's record and its lifecycle, kept like
 * conversations: in the caller's namespace, in one of 256 index objects by a hash of its id.
 */
import type { Runtime } from "../runtime/types";
import { randomHex } from "../objects/ids";
import { stableHash } from "../util/hash";
import { hubOf, raiseEvent } from "./hub";

/** `ringing` until the backend accepts or rejects it; an accepted call is `referred` or `ended` at last. */
export type CallStatus = "ringing" | "accepted" | "rejected" | "referred" | "ended";

export interface SipHeader {
  name: string;
  value: string;
}

export interface CallRecord {
  call_id: string;
  status: CallStatus;
  /** Unix seconds: rung, and the last change. */
  created_at: number;
  updated_at: number;
  sip_headers: SipHeader[];
  /** The scenario and session the call's WebSocket plays (absent: the socket URL's own, else the default responder). */
  scenario?: string;
  session?: string;
  /** What `accept` configured: the Realtime session the socket starts with (its `type` left out). */
  accepted_session?: Record<string, unknown>;
  /** `reject`'s SIP status (603 unless asked), `refer`'s target. */
  reject_status_code?: number;
  refer_target_uri?: string;
}

const CALL_KIND = "realtime.call";
/** Calls one index object keeps; one more forgets the oldest. */
const MAX_CALLS = 1000;

/** The headers of a rung call that names none: what a SIP INVITE through a trunk carries (the SIP guide's example). */
export const DEFAULT_SIP_HEADERS: readonly SipHeader[] = [
  { name: "From", value: "sip:+15555550100@sip.example.com" },
  { name: "To", value: "sip:+15555550199@sip.example.com" },
];

function callHome(rt: Runtime, id: string): ReturnType<Runtime["sessions"]["get"]> {
  return rt.sessions.get(`__index/realtime-calls-${(stableHash(id) & 0xff).toString(16).padStart(2, "0")}`);
}

export async function loadCall(rt: Runtime, id: string): Promise<CallRecord | undefined> {
  const json = await callHome(rt, id).objectById(CALL_KIND, id);
  if (json === null) return undefined;
  try {
    return JSON.parse(json) as CallRecord;
  } catch {
    return undefined;
  }
}

export async function saveCall(rt: Runtime, call: CallRecord): Promise<void> {
  await callHome(rt, call.call_id).putObjects(CALL_KIND, [{ id: call.call_id, json: JSON.stringify(call) }], MAX_CALLS);
}

/** The call moved on: its new status and what came with it, `updated_at` now. */
export async function moveCall(rt: Runtime, call: CallRecord, status: CallStatus, extra: Partial<CallRecord> = {}): Promise<CallRecord> {
  const next: CallRecord = { ...call, ...extra, status, updated_at: Math.floor(Date.now() / 1000) };
  await saveCall(rt, next);
  return next;
}

/**
 * Rings a call in the caller's project: its record, and `realtime.call.incoming` (`data: { call_id, sip_headers }`)
 * raised at once for the endpoints subscribed to it. How many endpoints that is comes back with the call, so a test
 * whose project has none hears why nothing arrived.
 */
export async function ringCall(rt: Runtime, opts: { scenario?: string; session?: string; sipHeaders?: SipHeader[] }): Promise<{ call: CallRecord; endpoints: number }> {
  const now = Math.floor(Date.now() / 1000);
  const call: CallRecord = {
    call_id: `rtc_${randomHex(32)}`,
    status: "ringing",
    created_at: now,
    updated_at: now,
    sip_headers: opts.sipHeaders ?? [...DEFAULT_SIP_HEADERS],
    ...(opts.scenario !== undefined ? { scenario: opts.scenario } : {}),
    ...(opts.session !== undefined ? { session: opts.session } : {}),
  };
  await saveCall(rt, call);
  const hub = hubOf(rt);
  const endpoints = hub === undefined ? 0 : (await hub.list()).filter((e) => e.eventTypes.includes("realtime.call.incoming")).length;
  await raiseEvent(rt, `realtime.call:${call.call_id}`, Date.now(), "realtime.call.incoming", call.call_id, { call_id: call.call_id, sip_headers: call.sip_headers });
  return { call, endpoints };
}
