/**
 * Stored Chat Completions: a completion asked with `store: true` is kept (its `metadata` and the request's messages
 * with it) in the namespace's `__index/chat-completions` object, as objects of the stored-Responses storage (kind
 * `chat.completion`, the request's messages its children). `GET /v1/chat/completions` lists them (filters `model`
 * and `metadata[k]=v`, `after`/`limit`/`order`), `GET|POST|DELETE /v1/chat/completions/{id}` retrieves, updates the
 * metadata and deletes one, `GET …/{id}/messages` pages its messages. Completions without `store: true` are not kept.
 */
import type { Reply } from "../../../canonical/outcome";
import type { Runtime } from "../../../runtime/types";
import { apiError } from "../../../http/errors";
import { isRecord, parseJsonOrUndefined } from "../../../http/json";
import { safeDecode } from "../../../http/url";
import type { StoredResponses } from "../../../session/types";
import { echoed } from "../../../util/text";
import type { RenderContext, SideRoute } from "../../types";
import { byMethod, checkMetadata, metadataFilters, metadataUpdate, objectRoute, page, pageQuery, parsedObjects, type PlatformAnswer } from "../platform";
import { renderChatJson } from "./render-json";
import type { ChatMessage, ChatRequest } from "./wire";

const KIND = "chat.completion";

/** Most completions (and messages of one) a namespace keeps; one more forgets the oldest. */
const MAX_STORED = 1000;

/** The kind holding an object's children (session/responses.ts `childKind`): deleting the object drops them. */
function childKind(kind: string, id: string): string {
  return `${kind}/${id}`;
}

/** Where a namespace's stored completions are: one object, so the list is one read. */
function home(rt: Runtime): StoredResponses {
  return rt.sessions.get("__index/chat-completions");
}

type StoredCompletion = { id: string; model: string; metadata: Record<string, string> } & Record<string, unknown>;

function stringRecord(value: unknown): Record<string, string> {
  const checked = checkMetadata(value);
  return checked.ok && checked.value ? checked.value : {};
}

/** A request message as `GET …/messages` lists it: its id, its text as `content`, any parts as `content_parts`. */
function storeMessage(message: ChatMessage, id: string): Record<string, unknown> {
  const { role, content, name, ...rest } = message;
  const text = Array.isArray(content) ? content.flatMap((p) => (typeof p.text === "string" ? [p.text] : [])).join("") : (content ?? null);
  const out: Record<string, unknown> = { id, role, content: text, name: name ?? null, content_parts: Array.isArray(content) ? content : null };
  if (rest.tool_calls) out.tool_calls = rest.tool_calls;
  if (rest.tool_call_id !== undefined) out.tool_call_id = rest.tool_call_id;
  return out;
}

/** Whether the request asks for its completion to be kept. */
export function storesChat(wire: ChatRequest): boolean {
  return (wire as { store?: unknown }).store === true;
}

/** Keeps a `store: true` completion (as `GET` answers it) and the request's messages. */
export function rememberChat(reply: Reply, ctx: RenderContext<ChatRequest>, rt: Runtime): Promise<void> | undefined {
  // Nothing to keep without `store: true`: answered at once (the turn awaits only a promise).
  return storesChat(ctx.wire) ? storeChat(reply, ctx, rt) : undefined;
}

async function storeChat(reply: Reply, ctx: RenderContext<ChatRequest>, rt: Runtime): Promise<void> {
  const body = ctx.wire as ChatRequest & Record<string, unknown>;
  const completion = renderChatJson(reply, ctx) as Record<string, unknown> & { id: string };
  const stored: StoredCompletion = {
    ...completion,
    model: String(completion.model),
    metadata: stringRecord(body.metadata),
    request_id: null,
    tool_choice: body.tool_choice ?? null,
    seed: body.seed ?? null,
    top_p: body.top_p ?? 1,
    temperature: body.temperature ?? 1,
    presence_penalty: body.presence_penalty ?? 0,
    frequency_penalty: body.frequency_penalty ?? 0,
    tools: body.tools ?? null,
    response_format: body.response_format ?? null,
    input_user: body.user ?? null,
  };
  const h = home(rt);
  await h.putObjects(KIND, [{ id: stored.id, json: JSON.stringify(stored) }], MAX_STORED);
  const messages = ctx.wire.messages.map((m, i) => {
    const id = `${stored.id}-${i}`;
    return { id, json: JSON.stringify(storeMessage(m, id)) };
  });
  await h.putObjects(childKind(KIND, stored.id), messages, MAX_STORED);
}

function notFound(id: string) {
  return apiError("not_found", `Chat completion with id '${echoed(id)}' not found.`);
}

/**
 * Whether stored completion `c` is of `model` (absent or empty: any) and carries each `metadata` pair. The model
 * asked for names its dated snapshot too (`gpt-4.1` answers as `gpt-4.1-2025-04-14`).
 */
function selected(c: StoredCompletion, model: string | null | undefined, metadata: [string, string][]): boolean {
  return (model === undefined || model === null || model === "" || c.model === model || c.model.startsWith(`${model}-`)) && metadata.every(([k, v]) => c.metadata?.[k] === v);
}

async function list(request: Request, rt: Runtime, a: PlatformAnswer): Promise<Response> {
  const query = new URL(request.url).searchParams;
  const q = pageQuery(query, "asc");
  if (!q.ok) return a.fail(q.error);
  const model = query.get("model");
  const filters = metadataFilters(query);
  const all = parsedObjects<StoredCompletion>((await home(rt).listObjects(KIND)).map((o) => o.json));
  const kept = all.filter((c) => selected(c, model, filters));
  return a.json(page(kept, q.page));
}

async function one(request: Request, rt: Runtime, a: PlatformAnswer, id: string): Promise<Response> {
  const h = home(rt);
  const json = await h.objectById(KIND, id);
  if (json === null) return a.fail(notFound(id));
  const stored = parsedObjects<StoredCompletion>([json])[0];
  if (!stored) return a.fail(notFound(id));
  if (request.method === "GET") return a.json(stored);
  if (request.method === "DELETE") {
    await h.deleteObject(KIND, id);
    return a.json({ id, object: "chat.completion.deleted", deleted: true });
  }
  const metadata = await metadataUpdate(request);
  if (!metadata.ok) return a.fail(metadata.error);
  const updated: StoredCompletion = { ...stored, metadata: metadata.value };
  await h.putObjects(KIND, [{ id, json: JSON.stringify(updated) }], MAX_STORED);
  return a.json(updated);
}

async function messages(request: Request, rt: Runtime, a: PlatformAnswer, id: string): Promise<Response> {
  const h = home(rt);
  if ((await h.objectById(KIND, id)) === null) return a.fail(notFound(id));
  const q = pageQuery(new URL(request.url).searchParams, "asc");
  if (!q.ok) return a.fail(q.error);
  const all = parsedObjects<{ id: string }>((await h.listObjects(childKind(KIND, id))).map((o) => o.json));
  return a.json(page(all, q.page));
}

/** `/v1/chat/completions` (the listing), `…/{id}` and `…/{id}/messages`. */
const PATH = /^\/(?:v1\/)?chat\/completions(?:\/([^/]+)(\/messages)?)?\/?$/;
const ONE_PATH = /^\/(?:v1\/)?chat\/completions\/([^/]+)(\/messages)?\/?$/;

/** The stored Chat Completions routes; `POST /v1/chat/completions` itself stays the chat surface's. */
export const openaiStoredChat: SideRoute = objectRoute(
  PATH,
  ([, rawId, messagesPart], request, path, a, ctx) => {
    if (rawId === undefined) return list(request, ctx.rt, a);
    const id = safeDecode(rawId);
    if (messagesPart !== undefined) return byMethod(request, path, a, { GET: () => messages(request, ctx.rt, a, id) });
    const stored = () => one(request, ctx.rt, a, id);
    return byMethod(request, path, a, { GET: stored, POST: stored, DELETE: stored });
  },
  { knows: ONE_PATH, onSurfacePaths: true, declines: ([, rawId], request) => rawId === undefined && request.method !== "GET" },
);

/** Which stored completions an eval run takes as its items (a `stored_completions` source). */
export interface StoredCompletionsFilter {
  model?: string | null;
  metadata?: Record<string, string> | null;
  /** Unix seconds: kept after (inclusive) / before (exclusive). */
  createdAfter?: number | null;
  createdBefore?: number | null;
  limit: number;
}

/**
 * The caller's stored completions that `f` selects, newest first, as eval items: the request's messages as
 * `item.input` (role, text; tool calls kept) and the answer as the `sample` (`model`, `choices`, `output_text`,
 * `output_json`, `output_tools`).
 */
export async function storedCompletionItems(rt: Runtime, f: StoredCompletionsFilter): Promise<{ item: Record<string, unknown>; sample: Record<string, unknown> }[]> {
  const h = home(rt);
  const all = parsedObjects<StoredCompletion>((await h.listObjects(KIND)).map((o) => o.json));
  const picked = all
    .filter(
      (c) =>
        selected(c, f.model, Object.entries(f.metadata ?? {})) &&
        (f.createdAfter === undefined || f.createdAfter === null || Number(c.created) >= f.createdAfter) &&
        (f.createdBefore === undefined || f.createdBefore === null || Number(c.created) < f.createdBefore),
    )
    .reverse()
    .slice(0, f.limit);
  const out: { item: Record<string, unknown>; sample: Record<string, unknown> }[] = [];
  for (const c of picked) {
    const messages = parsedObjects<Record<string, unknown>>((await h.listObjects(childKind(KIND, c.id))).map((o) => o.json)).map((m) => {
      const { id: _, content_parts: __, name: ___, ...rest } = m;
      return { ...rest, content: m.content ?? "" };
    });
    const choice = ((c.choices as { message?: { content?: unknown; tool_calls?: unknown[] } }[] | undefined) ?? [])[0];
    const text = typeof choice?.message?.content === "string" ? choice.message.content : "";
    const json = parseJsonOrUndefined(text);
    out.push({
      item: { input: messages, completion_id: c.id, metadata: c.metadata },
      sample: { model: c.model, choices: c.choices, output_text: text, output_json: isRecord(json) ? json : {}, output_tools: choice?.message?.tool_calls ?? [] },
    });
  }
  return out;
}
