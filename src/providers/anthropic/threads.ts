/**
 * Message threads (beta `message-threads-2026-08-12`): a request with `thread: { type: "create" }` has the server keep
 * the conversation under the reply's `id`; `thread: { type: "continue", previous_message_id }` then sends only the
 * new messages, without `system` and `tools`, which the thread keeps. `@anthropic-ai/sdk` 1.x's
 * `beta.messages.toolRunner()` and `beta.messages.thread()` send these. Stored like Responses state (state.ts):
 * in the answering session's Durable Object, found through the same index, so selection and the engine see the
 * whole conversation. As the API does, a reply can be continued once (`thread_already_continued`), and an id with no
 * thread is `thread_not_found`; both carry `error.details.error_code`, on which the SDK replays the whole conversation
 * under a new thread.
 */
import type { Reply } from "../../canonical/outcome";
import type { CanonicalRequest } from "../../canonical/request";
import type { Runtime } from "../../runtime/types";
import { apiError } from "../../http/errors";
import type { ParseResult, RenderContext } from "../types";
import { indexObject, locateResponse, stateObjectName } from "../openai/responses/state";
import { messageId, replyBlocks, wireBlock } from "./blocks";
import { parseMessagesRequest } from "./parse";
import type { MessagesRequest } from "./wire";
import { parseJsonOrUndefined } from "../../http/json";
import { echoed } from "../../util/text";
import { Headers } from "../../http/web";

type Thread = { type: "create" } | { type: "continue"; previous_message_id: string };

/** The session object's kind (responses.ts `ObjectStorage`) that marks a reply continued: one entry per reply id. */
const CONTINUED_KIND = "thread_continued";
/** Marks one session object keeps; past it the oldest go (a reply that old could be continued once more). */
const MAX_CONTINUED = 10_000;

/** The request's `thread`, when it has a valid one (the answer is then kept). */
export function threadOf(wire: MessagesRequest): Thread | undefined {
  const t = (wire as { thread?: unknown }).thread;
  if (typeof t !== "object" || t === null) return undefined;
  const { type, previous_message_id: prev } = t as { type?: unknown; previous_message_id?: unknown };
  if (type === "create") return { type };
  if (type === "continue" && typeof prev === "string") return { type, previous_message_id: prev };
  return undefined;
}

/** A stored thread turn: the conversation sent (history included) with the thread's `system` and `tools`. */
interface ThreadTurn {
  system?: MessagesRequest["system"];
  tools?: MessagesRequest["tools"];
  messages: unknown[];
}

/** On `continue`: the stored `system`, `tools` and messages go in front of the request's own messages. */
export async function prepareThread(wire: MessagesRequest, request: CanonicalRequest, rt: Runtime): Promise<ParseResult<MessagesRequest>> {
  const thread = threadOf(wire);
  if (thread?.type !== "continue") return { ok: true, wire, request };
  const id = thread.previous_message_id;
  const notFound = {
    ok: false as const,
    error: apiError("not_found", `Thread message with id '${echoed(id)}' not found.`, { details: { error_code: "thread_not_found" } }),
  };
  const stub = await locateResponse(rt, id);
  const [found, continued] = stub ? await Promise.all([stub.responseHistory(id), stub.objectById(CONTINUED_KIND, id)]) : [undefined, null];
  if (!found || found.segments.length === 0 || found.missing !== null) return notFound;
  if (continued !== null) {
    const message = `Thread message with id '${echoed(id)}' has already been continued; each message can be continued only once. Continue from the thread's most recent message id.`;
    return { ok: false, error: apiError("invalid_request", message, { details: { error_code: "thread_already_continued" } }) };
  }
  let system: MessagesRequest["system"];
  let tools: MessagesRequest["tools"];
  const messages: unknown[] = [];
  for (const segment of found.segments) {
    const turn = parseJsonOrUndefined(segment.input) as ThreadTurn | undefined;
    if (!turn || !Array.isArray(turn.messages)) return notFound;
    if (turn.system !== undefined) system = turn.system;
    if (turn.tools !== undefined) tools = turn.tools;
    messages.push(...turn.messages, ...segment.output.map(parseJsonOrUndefined));
  }
  const body = {
    ...wire,
    ...(system !== undefined && wire.system === undefined ? { system } : {}),
    ...(tools !== undefined && wire.tools === undefined ? { tools } : {}),
    messages: [...messages, ...wire.messages],
  };
  const parsed = parseMessagesRequest(body, new Headers(request.headers));
  return parsed.ok ? { ...parsed, request: { ...parsed.request, headers: request.headers } } : parsed;
}

/**
 * After a reply to a request with `thread`: keep the conversation and the reply under the reply's id. The wire after
 * `prepareThread` holds the whole conversation, so each stored turn is complete and a chain is one segment long.
 */
export async function rememberThread(reply: Reply, ctx: RenderContext<MessagesRequest>, rt: Runtime): Promise<void> {
  const thread = threadOf(ctx.wire);
  if (!thread) return;
  const id = messageId(reply);
  const { system, tools, messages } = ctx.wire;
  const turn: ThreadTurn = { system, tools, messages };
  const name = stateObjectName(ctx.scenario, ctx.session ?? "default");
  await rt.sessions.get(name).saveResponse({
    id,
    previousId: null,
    input: JSON.stringify(turn),
    response: "{}",
    items: [{ id, json: JSON.stringify({ role: "assistant", content: replyBlocks(reply).map(wireBlock) }) }],
  });
  await indexObject(rt, id).pointResponse(id, name);
  if (thread.type === "continue") {
    const prev = thread.previous_message_id;
    await (await locateResponse(rt, prev))?.putObjects(CONTINUED_KIND, [{ id: prev, json: JSON.stringify({ by: id }) }], MAX_CONTINUED);
  }
}
