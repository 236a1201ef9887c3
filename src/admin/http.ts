/**
 * What every admin route shares: the JSON answer and the error shape, route parameters, name checks, the root token
 * check and the strict body read. The one copy of each; the route modules beside it import them.
 */
import type { IRequest } from "itty-router";
import type { Runtime } from "../runtime/types";
import { MAX_BODY_BYTES } from "../http/body";
import { sameHash, sha256Hex } from "../util/hash";
import { jsonDepthExceeded, tooDeepMessage } from "../http/json-depth";
import { safeDecode } from "../http/url";
import { shownName } from "../scenario/hints";
import { NAME_PATTERN, NAMES_MATCH } from "../scenario/schema";
import type { ErrorAnswer } from "./answers";
import { Response } from "../http/web";

/** Pretty-printed JSON, as every admin route answers. */
export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body, null, 2), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

/** `{ error: { message, issues?, code? } }` with `status`: every admin refusal. */
export function adminError(status: number, message: string, detail: Omit<ErrorAnswer["error"], "message"> = {}, headers: Record<string, string> = {}): Response {
  const { issues, code } = detail;
  return json({ error: { message, ...(issues ? { issues } : {}), ...(code !== undefined ? { code } : {}) } } satisfies ErrorAnswer, status, headers);
}

/** A route parameter, decoded: names arrive percent-encoded and are checked and shown decoded. */
export function param(req: IRequest, key: string): string {
  return safeDecode(req.params[key] ?? "");
}

/** A query parameter's first value; undefined when absent or empty. */
export function query(req: IRequest, key: string): string | undefined {
  const v = req.query[key];
  const s = Array.isArray(v) ? v[0] : v;
  return s === undefined || s === "" ? undefined : s;
}

/** 400 for a scenario or session name that does not match NAME_PATTERN, else undefined. */
export function validName(name: string): Response | undefined {
  return NAME_PATTERN.test(name) ? undefined : adminError(400, `invalid name "${shownName(name)}": ${NAMES_MATCH}`);
}

/** Rejects session routes whose scenario or session is not a valid name (itty middleware: undefined passes on). */
export function validSessionNames(req: IRequest): Response | undefined {
  return validName(param(req, "scenario")) ?? validName(param(req, "session"));
}

/** Bearer token check in constant time (both sides hashed first, so lengths leak nothing). */
export async function checkAdminAuth(request: Request, rt: Runtime): Promise<Response | undefined> {
  if (!rt.vars.ADMIN_TOKEN) return adminError(503, "admin disabled");
  const m = /^Bearer\s+(.+)$/i.exec(request.headers.get("authorization")?.trim() ?? "");
  const given = await sha256Hex(m?.[1]?.trim() ?? "");
  const want = await sha256Hex(rt.vars.ADMIN_TOKEN);
  if (!sameHash(given, want)) return adminError(401, "unauthorized");
  return undefined;
}

/** The body as JSON: 413 past the size limit, 400 past the nesting limit or when it does not parse. */
export async function readBody(request: Pick<Request, "text">): Promise<{ ok: true; value: unknown } | { ok: false; response: Response }> {
  const text = await request.text();
  if (text.length > MAX_BODY_BYTES) return { ok: false, response: adminError(413, "body too large") };
  const deep = jsonDepthExceeded(text);
  if (deep >= 0) return { ok: false, response: adminError(400, tooDeepMessage("body", deep)) };
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    return { ok: false, response: adminError(400, `body is not valid JSON: ${(e as Error).message}`) };
  }
}
