/**
 * Admin routes over recordings (record and replay): a session's recorded exchanges as a scenario document.
 */
import type { IRequest } from "itty-router";
import { recordingDocument } from "../record/document";
import type { Runtime } from "../runtime/types";
import type { AdminAnswers } from "./answers";
import { json, param, validName } from "./http";
import { existingSession } from "./sessions";

/** `GET /admin/sessions/{scenario}/{session}/recording?name=`: the document, named `name` (default: the scenario). */
export async function recordingRoute(req: IRequest, rt: Runtime): Promise<Response> {
  const name = typeof req.query.name === "string" ? req.query.name : param(req, "scenario");
  const from = { scenario: param(req, "scenario"), session: param(req, "session") };
  const bad = validName(name);
  if (bad) return bad;
  const found = await existingSession(rt, from.scenario, from.session);
  if ("response" in found) return found.response;
  return json(recordingDocument(name, from, await found.session.recording()) satisfies AdminAnswers["GET /admin/sessions/{scenario}/{session}/recording"]);
}
