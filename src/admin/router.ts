/**
 * The admin API, every route in one table (contract sections 5, 8, 9 and 10): scenarios, sessions, recordings,
 * namespaces and keys. Who may call is settled first (callers.ts); a namespace key's request then runs on its
 * namespace's runtime, so the handlers below never see namespaces but through `rt`.
 */
import { Router, type IRequest } from "itty-router";
import type { RequestContext, Runtime } from "../runtime/types";
import { adminCaller, asCaller } from "./callers";
import { adminError, validSessionNames } from "./http";
import {
  auditRoute,
  createKeyRoute,
  createNamespaceRoute,
  deleteNamespaceRoute,
  getNamespaceRoute,
  knownNamespace,
  listKeysRoute,
  listNamespacesRoute,
  namespaceGate,
  ownAuditRoute,
  revokeKeyRoute,
  useMethods,
} from "./namespaces";
import { recordingRoute } from "./recordings";
import { bulkUploadRoute, coverageRoute, deleteScenarioRoute, getScenarioRoute, listScenariosRoute, putScenarioRoute, schemaRoute } from "./scenarios";
import { journalRoute, listSessionsRoute, resetRoute, sessionStateRoute, verifyRoute } from "./sessions";
import { webhooksRoute } from "./webhooks";
import { callRoute, ringCallRoute } from "./calls";

type AdminArgs = [Runtime, RequestContext];

const router = Router<IRequest, AdminArgs>({ base: "/admin" });

router
  .get("/schema", schemaRoute)
  .get("/scenarios", listScenariosRoute)
  .get("/scenarios/:name", getScenarioRoute)
  .put("/scenarios/:name", putScenarioRoute)
  .post("/scenarios", bulkUploadRoute)
  .get("/scenarios/:name/coverage", coverageRoute)
  .delete("/scenarios/:name", deleteScenarioRoute)
  .get("/sessions", listSessionsRoute)
  .all("/sessions/:scenario/:session", validSessionNames)
  .all("/sessions/:scenario/:session/*", validSessionNames)
  .get("/sessions/:scenario/:session", sessionStateRoute)
  .get("/sessions/:scenario/:session/requests", journalRoute)
  .get("/sessions/:scenario/:session/verify", verifyRoute)
  .get("/sessions/:scenario/:session/recording", recordingRoute)
  .post("/sessions/:scenario/:session/reset", resetRoute)
  .get("/webhooks", webhooksRoute)
  .post("/realtime/calls", ringCallRoute)
  .get("/realtime/calls/:id", callRoute)
  // Namespaces: root's only, but for a key's own audit log.
  .all("/namespaces/:ns/audit", ownAuditRoute)
  .all("/namespaces/*", namespaceGate)
  .get("/namespaces", listNamespacesRoute)
  .post("/namespaces", createNamespaceRoute)
  .all("/namespaces", useMethods("GET or POST", ""))
  .all("/namespaces/:ns/*", knownNamespace)
  .get("/namespaces/:ns", getNamespaceRoute)
  .delete("/namespaces/:ns", deleteNamespaceRoute)
  .all("/namespaces/:ns", useMethods("GET or DELETE", "/{ns}"))
  .get("/namespaces/:ns/audit", auditRoute)
  .get("/namespaces/:ns/keys", listKeysRoute)
  .post("/namespaces/:ns/keys", createKeyRoute)
  .all("/namespaces/:ns/keys", useMethods("GET or POST", "/{ns}/keys"))
  .delete("/namespaces/:ns/keys/:id", revokeKeyRoute)
  .all("/namespaces/:ns/keys/:id", useMethods("DELETE", "/{ns}/keys/{id}"))
  .all("*", () => adminError(404, "no such admin route"));

/** Serves `/admin/...`: who calls first, then the routes (on the caller's namespace for a namespace key). */
export async function handleAdmin(request: Request, rt: Runtime, ctx: RequestContext): Promise<Response> {
  const who = await adminCaller(request, rt);
  if ("response" in who) return who.response;
  if (who.caller === undefined) return router.fetch(request, rt, ctx);
  return asCaller(request, rt, who.caller, (scoped) => router.fetch(request, scoped, ctx));
}
