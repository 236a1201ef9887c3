/**
 * `POST /admin/realtime/calls`: rings an incoming SIP call in the caller's project (src/webhooks/calls.ts) —
 * `realtime.call.incoming` goes to its endpoints, and the backend under test accepts or rejects it through the real
 * `/v1/realtime/calls/{call_id}/…` routes. `GET /admin/realtime/calls/{call_id}`: where the call stands (what the
 * backend did with it).
 */
import type { IRequest } from "itty-router";
import type { Runtime } from "../runtime/types";
import { isRecord } from "../http/json";
import { loadCall, ringCall, type SipHeader } from "../webhooks/calls";
import type { AdminAnswers } from "./answers";
import { adminError, json, param, readBody, validName } from "./http";

/** Most SIP headers a rung call carries, and the longest name and value (mockllm's bounds). */
const MAX_HEADERS = 64;
const MAX_HEADER_CHARS = 1024;

const KEYS = ["scenario", "session", "sip_headers"];

function sipHeaders(value: unknown): SipHeader[] | string {
  if (!Array.isArray(value)) return "sip_headers: expected an array of { name, value }";
  if (value.length > MAX_HEADERS) return `sip_headers: at most ${MAX_HEADERS} headers`;
  const out: SipHeader[] = [];
  for (const [i, h] of value.entries()) {
    if (!isRecord(h) || typeof h.name !== "string" || typeof h.value !== "string" || h.name === "") return `sip_headers[${i}]: expected { name: a non-empty string, value: a string }`;
    if (h.name.length > MAX_HEADER_CHARS || h.value.length > MAX_HEADER_CHARS) return `sip_headers[${i}]: name and value at most ${MAX_HEADER_CHARS} characters`;
    out.push({ name: h.name, value: h.value });
  }
  return out;
}

export async function ringCallRoute(req: IRequest, rt: Runtime): Promise<Response> {
  // Every field is optional: no body rings a call on the default responder.
  const text = await req.text();
  const body = await readBody({ text: async () => (text.trim() === "" ? "{}" : text) });
  if (!body.ok) return body.response;
  const b = body.value;
  if (!isRecord(b)) return adminError(400, "body: expected an object { scenario?, session?, sip_headers? }");
  const extra = Object.keys(b).find((k) => !KEYS.includes(k));
  if (extra !== undefined) return adminError(400, `unknown key "${extra.slice(0, 80)}": expected scenario, session, sip_headers`);
  for (const k of ["scenario", "session"] as const) {
    if (b[k] === undefined) continue;
    if (typeof b[k] !== "string") return adminError(400, `${k}: expected a string`);
    const bad = validName(b[k]);
    if (bad) return bad;
  }
  if (b.session !== undefined && b.scenario === undefined) return adminError(400, "session: needs a scenario");
  const headers = b.sip_headers === undefined ? undefined : sipHeaders(b.sip_headers);
  if (typeof headers === "string") return adminError(400, headers);
  const { call, endpoints } = await ringCall(rt, {
    ...(typeof b.scenario === "string" ? { scenario: b.scenario } : {}),
    ...(typeof b.session === "string" ? { session: b.session } : {}),
    ...(headers !== undefined ? { sipHeaders: headers } : {}),
  });
  return json({ ...call, endpoints } satisfies AdminAnswers["POST /admin/realtime/calls"], 201);
}

export async function callRoute(req: IRequest, rt: Runtime): Promise<Response> {
  const id = param(req, "id");
  const call = await loadCall(rt, id);
  if (call === undefined) return adminError(404, `no call "${id.slice(0, 80)}" in this project`);
  return json(call satisfies AdminAnswers["GET /admin/realtime/calls/{id}"]);
}
