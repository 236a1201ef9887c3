/**
 * Admin routes over scenarios (contract section 5): the JSON Schema, list, read (with ETag), upload one or many,
 * delete, and coverage across a scenario's sessions (section 10).
 */
import type { IRequest } from "itty-router";
import type { Runtime } from "../runtime/types";
import type { DocumentIssue } from "../scenario/document";
import { shownName } from "../scenario/hints";
import { scenarioJsonSchema } from "../scenario/json-schema";
import { NAME_PATTERN } from "../scenario/schema";
import { checkScenario } from "../scenario/store";
import { sessionNames } from "../session/session-index";
import { coverage } from "../session/verify";
import type { AdminAnswers, UploadAnswer } from "./answers";
import { adminError, json, param, readBody, validName } from "./http";
import { noScenario } from "./sessions";
import { Response } from "../http/web";

/** `GET /admin/schema`. */
export function schemaRoute(): Response {
  return json(scenarioJsonSchema());
}

/** `GET /admin/scenarios`. */
export async function listScenariosRoute(_req: IRequest, rt: Runtime): Promise<Response> {
  return json((await rt.scenarios.list()) satisfies AdminAnswers["GET /admin/scenarios"]);
}

/** `GET /admin/scenarios/{name}`: the raw document, its version as the ETag (304 on `if-none-match`). */
export async function getScenarioRoute(req: IRequest, rt: Runtime): Promise<Response> {
  const name = param(req, "name");
  const stored = NAME_PATTERN.test(name) ? await rt.scenarios.get(name) : undefined;
  if (!stored) return adminError(404, `scenario "${shownName(name)}" not found`);
  const etag = `"${stored.version}"`;
  if (req.headers.get("if-none-match") === etag) return new Response(null, { status: 304, headers: { etag } });
  return json(stored.raw, 200, { etag, "x-mockllm-source": stored.source });
}

/** `PUT /admin/scenarios/{name}`. */
export async function putScenarioRoute(req: IRequest, rt: Runtime): Promise<Response> {
  const name = param(req, "name");
  const bad = validName(name);
  if (bad) return bad;
  const body = await readBody(req);
  if (!body.ok) return body.response;
  const checked = await checkScenario(body.value, name);
  if (!checked.ok) return adminError(400, `invalid scenario: ${checked.issues.length} issue(s)`, { issues: checked.issues });
  await rt.scenarios.put(body.value, checked.scenario!, checked.version);
  return json({ name: checked.name, version: checked.version } satisfies UploadAnswer, 200, { etag: `"${checked.version}"` });
}

/** `POST /admin/scenarios`: a JSON array, all stored or none. */
export async function bulkUploadRoute(req: IRequest, rt: Runtime): Promise<Response> {
  const body = await readBody(req);
  if (!body.ok) return body.response;
  if (!Array.isArray(body.value)) return adminError(400, "bulk upload takes a JSON array of scenarios");
  const docs: unknown[] = body.value;
  const results = await Promise.all(docs.map((doc) => checkScenario(doc)));
  const issues: DocumentIssue[] = results.flatMap((r, i) => (r.ok ? [] : r.issues.map((issue) => ({ path: issue.path.replace(/^\$/, `$[${i}]`), message: issue.message }))));
  const seen = new Map<string, number>();
  results.forEach((r, i) => {
    if (!r.ok) return;
    const prev = seen.get(r.name);
    if (prev !== undefined) issues.push({ path: `$[${i}].name`, message: `duplicate name "${r.name}" (also $[${prev}])` });
    seen.set(r.name, i);
  });
  if (issues.length > 0) return adminError(400, `invalid upload, nothing stored: ${issues.length} issue(s)`, { issues });
  const ok = results.filter((r) => r.ok);
  await Promise.all(ok.map((r, i) => rt.scenarios.put(docs[i], r.scenario!, r.version)));
  return json(ok.map((r): UploadAnswer => ({ name: r.name, version: r.version })));
}

/** `DELETE /admin/scenarios/{name}`: the KV copy; a bundled scenario of that name shows through again. */
export async function deleteScenarioRoute(req: IRequest, rt: Runtime): Promise<Response> {
  const name = param(req, "name");
  const bad = validName(name);
  if (bad) return bad;
  const removed = await rt.scenarios.delete(name);
  if (!removed) {
    const bundled = await rt.scenarios.get(name);
    return adminError(404, bundled ? `scenario "${name}" is bundled and read-only; nothing to delete in KV` : `scenario "${name}" not found`);
  }
  const fallback = await rt.scenarios.get(name);
  return json({ name, deleted: true, ...(fallback ? { now: { source: "bundled", version: fallback.version } } : {}) });
}

/** `GET /admin/scenarios/{name}/coverage`: per step, across the sessions the index holds. */
export async function coverageRoute(req: IRequest, rt: Runtime): Promise<Response> {
  const name = param(req, "name");
  const stored = NAME_PATTERN.test(name) ? await rt.scenarios.get(name) : undefined;
  if (!stored) return noScenario(rt, name);
  const names = await sessionNames(rt.sessions, name);
  const sessions = await Promise.all(
    names.map(async (n) => {
      const s = rt.sessions.get(`${name}/${n}`);
      const [view, journal] = await Promise.all([s.state(stored.scenario), s.requests()]);
      return { view, journal, name: n };
    }),
  );
  return json(coverage(name, stored.version, stored.scenario, sessions) satisfies AdminAnswers["GET /admin/scenarios/{name}/coverage"]);
}
