/**
 * What every admin route shares: JSON answers and errors, the root token check, the strict body read. Its own module
 * so namespace admin (src/tenancy/admin.ts) uses it without an import circle through src/routes/admin.ts.
 */
import type { Runtime } from "../runtime/types";
import { MAX_BODY_BYTES } from "../http/body";
import { sameHash, sha256Hex } from "../util/hash";
import { jsonDepthExceeded, tooDeepMessage } from "../http/json-depth";
import type { DocumentIssue } from "../scenario/document";

export function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body, null, 2), {
    status,
    headers: { "content-type": "application/json", ...headers },
  });
}

export function adminError(status: number, message: string, issues?: DocumentIssue[]): Response {
  return json({ error: { message, ...(issues ? { issues } : {}) } }, status);
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

export async function readBody(request: Request): Promise<{ ok: true; value: unknown } | { ok: false; response: Response }> {
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
