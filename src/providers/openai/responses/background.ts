/**
 * Background responses (`background: true`). The turn is decided at creation like any other — the scenario's step
 * and the whole answer are fixed then — and the finished response is stored; what a client sees of it is computed
 * lazily from (creation time, the scenario's `async.processingMs`, now) on every retrieve, never by a timer:
 * `queued` in the creation answer, `in_progress` until `processingMs` have passed, then the finished response
 * (`completed`, or `incomplete` when the reply was cut). `POST /v1/responses/{id}/cancel` before then makes it
 * `cancelled` for good. The run (its times, whether it was cancelled) is an object of kind `background` beside the
 * stored response, in the same session object.
 */
import type { Runtime } from "../../../runtime/types";
import type { StoredResponses } from "../../../session/types";
import type { ResponseObject } from "./render-json";

export const BACKGROUND_KIND = "background";

/** Background runs one session object keeps (as many as it keeps responses). */
const MAX_RUNS = 1000;

/** One background run: when it was created, when it is done, whether it was cancelled (and when). */
export interface BackgroundRun {
  createdMs: number;
  readyMs: number;
  cancelledMs: number | null;
}

/** The response as it stands before it is done: `status`, nothing produced yet. */
export function pendingView<T extends Record<string, unknown>>(final: T, status: "queued" | "in_progress" | "cancelled"): T {
  return {
    ...final,
    status,
    completed_at: null,
    incomplete_details: null,
    output: [],
    service_tier: final.service_tier === "default" ? "auto" : final.service_tier,
    usage: null,
  };
}

/** The status a run shows at `now`. */
export function runStatus(run: BackgroundRun, now: number): "in_progress" | "cancelled" | "done" {
  if (run.cancelledMs !== null) return "cancelled";
  return now >= run.readyMs ? "done" : "in_progress";
}

/** The stored response (JSON) as a retrieve at `now` sees it. */
export function backgroundView(stored: string, run: BackgroundRun, now: number): string {
  const status = runStatus(run, now);
  if (status === "done") return stored;
  try {
    return JSON.stringify(pendingView(JSON.parse(stored) as Record<string, unknown>, status));
  } catch {
    return stored;
  }
}

export function parseRun(json: string | null): BackgroundRun | undefined {
  if (json === null) return undefined;
  try {
    const v = JSON.parse(json) as BackgroundRun;
    return typeof v.createdMs === "number" && typeof v.readyMs === "number" ? v : undefined;
  } catch {
    return undefined;
  }
}

export async function loadRun(stub: StoredResponses, id: string): Promise<BackgroundRun | undefined> {
  return parseRun(await stub.objectById(BACKGROUND_KIND, id));
}

export async function saveRun(stub: StoredResponses, id: string, run: BackgroundRun): Promise<void> {
  await stub.putObjects(BACKGROUND_KIND, [{ id, json: JSON.stringify(run) }], MAX_RUNS);
}

/** The key a background response's webhook event waits under (its end, replaced by a cancel). */
export const responseEventKey = (id: string): string => `response:${id}`;

/** The webhook event a background response's end raises, by the status it ends with. */
export function endEvent(status: unknown): "response.completed" | "response.incomplete" | "response.failed" {
  return status === "incomplete" ? "response.incomplete" : status === "failed" ? "response.failed" : "response.completed";
}

/** The scenario's `async.processingMs` (0 without a scenario or the knob). */
export async function processingMs(rt: Runtime, scenario: string | undefined): Promise<number> {
  if (scenario === undefined) return 0;
  const stored = await rt.scenarios.get(scenario);
  return stored?.scenario.async?.processingMs ?? 0;
}

/** Whether a response object was created in background mode. */
export function isBackground(response: ResponseObject | Record<string, unknown>): boolean {
  return response.background === true;
}
