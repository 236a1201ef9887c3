/**
 * The admin API (contract section 5): scenarios in KV, session state, journal, reset, schema.
 */
import { Router, type IRequest } from "itty-router";
import type { RequestContext, Runtime } from "../runtime/types";
import { safeDecode } from "../http/url";
import { shownName } from "../routes/names";
import { scenarioJsonSchema } from "../scenario/json-schema";
import { closest } from "../scenario/hints";
import { NAME_PATTERN } from "../scenario/schema";
import { checkScenario } from "../scenario/store";
import { recordingDocument } from "../record/document";
import type { DocumentIssue } from "../scenario/document";
import { coverageRoute, existingSession, journalRoute, listSessionsRoute, verifyRoute } from "./sessions";
import { tenantAdmin } from "./namespaces";
import type { AdminAnswers, SessionAnswer, UploadAnswer } from "./answers";
import { adminError, checkAdminAuth, json, readBody } from "./http";

type AdminArgs = [Runtime, RequestContext];

function validName(name: string): Response | undefined {
  return NAME_PATTERN.test(name) ? undefined : adminError(400, `invalid name "${shownName(name)}": names match [a-z0-9][a-z0-9._-]{0,63}`);
}

function session(rt: Runtime, req: IRequest) {
  return rt.sessions.get(`${param(req, "scenario")}/${param(req, "session")}`);
}

/** Rejects session routes whose scenario or session is not a valid name. */
function validSessionNames(req: IRequest): Response | undefined {
  return validName(param(req, "scenario")) ?? validName(param(req, "session"));
}

/** A route parameter, decoded: names arrive percent-encoded and are checked and shown decoded. */
function param(req: IRequest, key: string): string {
  return safeDecode(req.params[key] ?? "");
}

const router = Router<IRequest, AdminArgs>({ base: "/admin" });

router
  .get("/schema", () => json(scenarioJsonSchema()))
  .get("/scenarios", async (_req, rt) => json((await rt.scenarios.list()) satisfies AdminAnswers["GET /admin/scenarios"]))
  .get("/scenarios/:name", async (req, rt) => {
    const name = param(req, "name");
    const stored = NAME_PATTERN.test(name) ? await rt.scenarios.get(name) : undefined;
    if (!stored) return adminError(404, `scenario "${shownName(name)}" not found`);
    const etag = `"${stored.version}"`;
    if (req.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers: { etag } });
    return json(stored.raw, 200, { etag, "x-mockllm-source": stored.source });
  })
  .put("/scenarios/:name", async (req, rt) => {
    const name = param(req, "name");
    const bad = validName(name);
    if (bad) return bad;
    const body = await readBody(req as unknown as Request);
    if (!body.ok) return body.response;
    const checked = await checkScenario(body.value, name);
    if (!checked.ok) return adminError(400, `invalid scenario: ${checked.issues.length} issue(s)`, checked.issues);
    await rt.scenarios.put(body.value, checked.scenario!, checked.version);
    return json({ name: checked.name, version: checked.version } satisfies UploadAnswer, 200, { etag: `"${checked.version}"` });
  })
  .post("/scenarios", async (req, rt) => {
    const body = await readBody(req as unknown as Request);
    if (!body.ok) return body.response;
    if (!Array.isArray(body.value)) return adminError(400, "bulk upload takes a JSON array of scenarios");
    const results = await Promise.all(body.value.map((doc) => checkScenario(doc)));
    const issues: DocumentIssue[] = results.flatMap((r, i) =>
      r.ok ? [] : r.issues.map((issue) => ({ path: issue.path.replace(/^\$/, `$[${i}]`), message: issue.message })),
    );
    const seen = new Map<string, number>();
    results.forEach((r, i) => {
      if (!r.ok) return;
      const prev = seen.get(r.name);
      if (prev !== undefined) issues.push({ path: `$[${i}].name`, message: `duplicate name "${r.name}" (also $[${prev}])` });
      seen.set(r.name, i);
    });
    if (issues.length > 0) return adminError(400, `invalid upload, nothing stored: ${issues.length} issue(s)`, issues);
    const ok = results.filter((r) => r.ok);
    await Promise.all(ok.map((r, i) => rt.scenarios.put((body.value as unknown[])[i], r.scenario!, r.version)));
    return json(ok.map((r): UploadAnswer => ({ name: r.name, version: r.version })));
  })
  .get("/scenarios/:name/coverage", coverageRoute)
  .delete("/scenarios/:name", async (req, rt) => {
    const name = param(req, "name");
    const bad = validName(name);
    if (bad) return bad;
    const removed = await rt.scenarios.delete(name);
    if (!removed) {
      const bundled = await rt.scenarios.get(name);
      return adminError(
        404,
        bundled ? `scenario "${name}" is bundled and read-only; nothing to delete in KV` : `scenario "${name}" not found`,
      );
    }
    const fallback = await rt.scenarios.get(name);
    return json({ name, deleted: true, ...(fallback ? { now: { source: "bundled", version: fallback.version } } : {}) });
  })
  .get("/sessions", listSessionsRoute)
  .all("/sessions/:scenario/:session", validSessionNames)
  .all("/sessions/:scenario/:session/*", validSessionNames)
  .get("/sessions/:scenario/:session", async (req, rt) => {
    const name = param(req, "scenario");
    const found = await existingSession(rt, name, param(req, "session"));
    if ("response" in found) return found.response;
    const current = await rt.scenarios.get(name);
    const view = await found.session.state(current?.scenario);
    // A session that never ran, of a scenario that does not exist, is a typo: say so rather than show an empty state.
    if (!current && view.version === null && view.requests === 0) {
      const guess = closest(name, await rt.scenarios.names());
      return adminError(404, `scenario "${shownName(name)}" not found${guess !== undefined ? `; did you mean "${guess}"?` : ""}`);
    }
    return json({ ...view, exists: current !== undefined } satisfies SessionAnswer);
  })
  .get("/sessions/:scenario/:session/requests", journalRoute)
  .get("/sessions/:scenario/:session/verify", verifyRoute)
  .get("/sessions/:scenario/:session/recording", async (req, rt) => {
    const name = typeof req.query.name === "string" ? req.query.name : param(req, "scenario");
    const from = { scenario: param(req, "scenario"), session: param(req, "session") };
    const bad = validName(name);
    if (bad) return bad;
    const found = await existingSession(rt, from.scenario, from.session);
    if ("response" in found) return found.response;
    return json(recordingDocument(name, from, await found.session.recording()));
  })
  .post("/sessions/:scenario/:session/reset", async (req, rt) => json(await session(rt, req).reset()))
  .all("*", () => adminError(404, "no such admin route"));

/** Serves `/admin/...`: auth first, then the routes. */
export async function handleAdmin(request: Request, rt: Runtime, ctx: RequestContext): Promise<Response> {
  if (rt.tenancy) return tenantAdmin(request, rt, (scoped) => router.fetch(request, scoped, ctx));
  const denied = await checkAdminAuth(request, rt);
  if (denied) return denied;
  return router.fetch(request, rt, ctx);
}
