/**
 * Stored interactions. With `store` (the default) each interaction is kept like a Responses response (state.ts
 * there): in the answering (scenario, session)'s object, found through the same id index, its own input steps and
 * output steps linked to `previous_interaction_id`. A request naming a previous interaction gets that chain's steps
 * in front of its own input (only the conversation: `system_instruction`, `tools` and `generation_config` belong to
 * each request, as the API scopes them); `GET`, `DELETE` and `cancel` on `/{version}/interactions/{id}` read it.
 */
import type { Reply } from "../../../canonical/outcome";
import type { CanonicalRequest } from "../../../canonical/request";
import type { Runtime } from "../../../runtime/types";
import { apiError, type ApiError } from "../../../http/errors";
import { parseJsonOrUndefined } from "../../../http/json";
import { echoed } from "../../../util/text";
import type { ParseResult, RenderContext, SideRoute } from "../../types";
import { chainSegments, forgetResponse, indexObject, locateResponse, stateObjectName } from "../../openai/responses/state";
import { checkGeminiAuth } from "../errors";
import { fileIdOfUri, missingFile } from "../file-refs";
import { canonicalInteraction } from "./parse";
import { buildInteraction, interactionEvents, viewHead, interactionId, pendingInteraction, runsInBackground, type InteractionView } from "./render";
import { BACKGROUND_KIND, loadRun, processingMs, runStatus, saveRun, type BackgroundRun } from "../../openai/responses/background";
import type { InteractionsWire, Step } from "./wire";
import { Response } from "../../../http/web";
import { encodeEvent, type SseEvent } from "../../../http/sse";

function notFound(id: string): ApiError {
  return apiError("not_found", `Interaction '${echoed(id)}' not found.`);
}

function stepsOf(json: string): Step[] | undefined {
  const value = parseJsonOrUndefined(json);
  return Array.isArray(value) && value.every((s) => typeof s === "object" && s !== null && typeof (s as Step).type === "string") ? (value as Step[]) : undefined;
}

/** The Files API files the request's own input names (a content block's `uri`: `files/{id}` or `…/files/{id}`). */
function fileIds(steps: readonly Step[]): string[] {
  const ids: string[] = [];
  for (const step of steps) {
    if (!Array.isArray(step.content)) continue;
    for (const block of step.content as { uri?: unknown }[]) {
      const id = typeof block?.uri === "string" ? fileIdOfUri(block.uri) : undefined;
      if (id !== undefined) ids.push(id);
    }
  }
  return ids;
}

/**
 * A content block naming a file the caller's namespace lacks is the Files API's 403; then `previous_interaction_id`:
 * the stored chain's steps go in front of the request's own input.
 */
export async function prepareInteraction(wire: InteractionsWire, request: CanonicalRequest, rt: Runtime): Promise<ParseResult<InteractionsWire>> {
  const missing = await missingFile(fileIds(wire.steps), rt);
  if (missing) return { ok: false, error: missing };
  const previous = wire.body.previous_interaction_id;
  if (typeof previous !== "string") return { ok: true, wire, request };
  const chain = await chainSegments(rt, previous);
  if ("missing" in chain) return { ok: false, error: { ...notFound(chain.missing), param: "previous_interaction_id" } };
  const history: Step[] = [];
  for (const segment of chain.segments) {
    const input = stepsOf(segment.input);
    const output = segment.output.map(parseJsonOrUndefined);
    if (!input) return { ok: false, error: notFound(previous) };
    history.push(...input, ...(output as Step[]));
  }
  const next: InteractionsWire = { ...wire, history };
  return { ok: true, wire: next, request: canonicalInteraction(next, request.headers) };
}

/**
 * Keeps the interaction (unless `store: false`): its own input, its output steps, the link to the previous one; for a
 * background one, its run (src/providers/openai/responses/background.ts: done after the scenario's
 * `async.processingMs`, computed when read, never by a timer).
 */
export async function rememberInteraction(reply: Reply, ctx: RenderContext<InteractionsWire>, rt: Runtime): Promise<void> {
  if (ctx.wire.body.store === false) return;
  const id = interactionId(reply);
  const name = stateObjectName(ctx.scenario, ctx.session ?? "default");
  const previous = ctx.wire.body.previous_interaction_id;
  const interaction = buildInteraction(reply, ctx) as unknown as InteractionView;
  const stub = rt.sessions.get(name);
  if (runsInBackground(ctx.wire)) {
    const now = Date.now();
    await saveRun(stub, id, { createdMs: now, readyMs: now + (await processingMs(rt, ctx.scenario)), cancelledMs: null });
  }
  await stub.saveResponse({
    id,
    previousId: typeof previous === "string" ? previous : null,
    input: JSON.stringify(ctx.wire.steps),
    response: JSON.stringify(storedForm(interaction, ctx.wire.steps, runsInBackground(ctx.wire))),
    items: interaction.steps.map((step, i) => ({ id: `${id}/${i}`, json: JSON.stringify(step) })),
  });
  await indexObject(rt, id).pointResponse(id, name);
}

const PATH = /^\/(?:v1beta|v1alpha|v1)\/interactions\/([^/:]+)(?:(?:\/|:)(cancel))?$/;

/** What is kept for `GET`: the interaction with its own input steps first, and how many they are. */
interface StoredInteraction {
  interaction: InteractionView;
  inputSteps: number;
  /** A background run's: its run is kept beside it (only such a one is looked up). */
  background?: true;
}

function storedForm(interaction: InteractionView, input: Step[], background: boolean): StoredInteraction {
  return { interaction: { ...interaction, steps: [...input, ...interaction.steps] }, inputSteps: input.length, ...(background ? { background: true } : {}) };
}

/** A stored interaction as it stands now: its view (its own input steps first, unless `withInput` is false) and its background run, if any. */
interface Stored {
  view: InteractionView;
  run?: BackgroundRun;
  stub: NonNullable<Awaited<ReturnType<typeof locateResponse>>>;
}

/**
 * The stored interaction `id` as `GET` shows it now: finished, or — a background run not yet done, or cancelled —
 * `in_progress` / `cancelled` with its input steps only and no usage.
 */
async function storedView(rt: Runtime, id: string, withInput: boolean): Promise<Stored | undefined> {
  const stub = await locateResponse(rt, id);
  const stored = stub ? await stub.responseById(id) : null;
  const value = stored === null ? undefined : (parseJsonOrUndefined(stored) as StoredInteraction | undefined);
  const view = value?.interaction;
  if (!stub || !view || !Array.isArray(view.steps) || typeof value.inputSteps !== "number") return undefined;
  const input = withInput ? view.steps.slice(0, value.inputSteps) : [];
  const finished = withInput ? view : { ...view, steps: view.steps.slice(value.inputSteps) };
  const run = value.background === true ? await loadRun(stub, id) : undefined;
  const status = run === undefined ? "done" : runStatus(run, Date.now());
  return { view: status === "done" ? finished : pendingInteraction(finished, status, input), stub, ...(run !== undefined ? { run } : {}) };
}

/** The transcript of an interaction not yet done (or cancelled): created, its status, `[DONE]`; poll again for the rest. */
function pendingEvents(view: InteractionView): SseEvent[] {
  return [
    { event: "interaction.created", data: JSON.stringify({ interaction: viewHead(view, view.status), event_type: "interaction.created" }) },
    { event: "interaction.status_update", data: JSON.stringify({ interaction_id: view.id, status: view.status, event_type: "interaction.status_update" }) },
    { event: "done", data: "[DONE]" },
  ];
}

/**
 * `GET /{version}/interactions/{id}` (JSON, or `?stream=true` played again as SSE; a background run where it stands),
 * `DELETE` (`{}`), and `POST …/{id}/cancel`: a background run in progress is cancelled (`status: "cancelled"`), a
 * finished interaction refuses (`FAILED_PRECONDITION`).
 */
export const geminiStoredInteractions: SideRoute = {
  knows: (path) => PATH.test(path),
  async serve(request, path, ctx) {
    const m = PATH.exec(path);
    if (!m) return undefined;
    const query = new URL(request.url).searchParams;
    const auth = checkGeminiAuth(request.headers, { query });
    if (auth) return ctx.refuse(auth);
    let id = m[1]!;
    try {
      id = decodeURIComponent(id);
    } catch {
      // answered as not found below
    }
    const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { "content-type": "application/json; charset=UTF-8" } });
    if (m[2] === "cancel") {
      if (request.method !== "POST") return ctx.refuse(apiError("method_not_allowed", `Use POST for ${path}.`));
      const stored = await storedView(ctx.rt, id, false);
      if (!stored) return ctx.refuse(notFound(id));
      const { view, run, stub } = stored;
      // A background run in progress is cancelled for good: no output, whatever a later GET finds.
      if (run !== undefined && view.status === "in_progress") {
        await saveRun(stub, id, { ...run, cancelledMs: Date.now() });
        return json({ ...view, status: "cancelled" });
      }
      return ctx.refuse(
        apiError("invalid_request", `Interaction '${echoed(id)}' is ${view.status} and cannot be cancelled: only a background interaction in progress can be.`, { type: "FAILED_PRECONDITION" }),
      );
    }
    if (request.method === "DELETE") {
      const stub = await locateResponse(ctx.rt, id);
      if (!stub || !(await stub.deleteResponse(id))) return ctx.refuse(notFound(id));
      await stub.deleteObject(BACKGROUND_KIND, id);
      await forgetResponse(ctx.rt, id);
      return json({});
    }
    if (request.method !== "GET") return ctx.refuse(apiError("method_not_allowed", `Use GET or DELETE for ${path}.`));
    const stream = query.get("stream") === "true";
    // A stream plays the output steps only, as the first one did.
    const stored = await storedView(ctx.rt, id, !stream && query.get("include_input") !== "false");
    if (!stored) return ctx.refuse(notFound(id));
    const { view } = stored;
    if (!stream) return json(view);
    const events = view.status === "in_progress" || view.status === "cancelled" ? pendingEvents(view) : interactionEvents(view, Number.MAX_SAFE_INTEGER);
    return new Response(events.map(encodeEvent).join(""), { status: 200, headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
  },
};
