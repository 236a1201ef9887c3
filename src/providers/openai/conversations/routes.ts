/**
 * `/v1/conversations` (create, retrieve, update metadata, delete) and `/v1/conversations/{id}/items` (create, list,
 * retrieve, delete), as the real API answers them: ids `conv_…`, items listed newest first unless `order=asc`,
 * deleting an item answers the conversation, an unknown id the real 404.
 */
import type { Runtime } from "../../../runtime/types";
import { apiError } from "../../../http/errors";
import { safeDecode } from "../../../http/url";
import { echoed } from "../../../util/text";
import type { SideRoute } from "../../types";
import { checkId, parseItems } from "../responses/parse";
import { byMethod, checkMetadata, invalid, metadataUpdate, nowSeconds, objectBody, objectRoute, page, pageQuery, type PlatformAnswer } from "../platform";
import { arrayLengthError, invalidType, missingParameter } from "../request-error";
import {
  appendConversationItems,
  childKind,
  CONVERSATION_KIND,
  conversationHome,
  conversationItems,
  conversationItemsOf,
  conversationNotFound,
  loadConversation,
  MAX_ITEMS_PER_CALL,
  newConversationId,
  saveConversation,
  type ConversationItem,
  type ConversationObject,
} from "./store";

const PATH = /^\/(?:v1\/)?conversations(?:\/([^/]+)(?:\/(items)(?:\/([^/]+))?)?)?\/?$/;

/** Validated `items` of a body (absent: none), as conversation items numbered by `seed`. */
function bodyItems(value: unknown, seed: string, required: boolean): { ok: true; items: ConversationItem[] } | { ok: false; error: ReturnType<typeof invalid> } {
  if (value === undefined || value === null) {
    return required ? { ok: false, error: missingParameter("items") } : { ok: true, items: [] };
  }
  if (!Array.isArray(value)) return { ok: false, error: invalidType("items", "an array of objects", value) };
  const tooLong = arrayLengthError("items", value, MAX_ITEMS_PER_CALL);
  if (tooLong) return { ok: false, error: tooLong };
  const parsed = parseItems(value, "items");
  if (!parsed.ok) return parsed;
  if (parsed.items.some((i) => i.type === "item_reference")) return { ok: false, error: invalid("Item references are not supported in conversation items.", "items") };
  return { ok: true, items: conversationItemsOf(parsed.items, seed) };
}

/** A seed for the ids of the next items added to conversation `id`: a counter of its index object. */
async function itemSeed(rt: Runtime, id: string): Promise<string> {
  return `conv-item|${id}|${await conversationHome(rt, id).increment(`items:${id}`)}`;
}

async function create(request: Request, rt: Runtime, a: PlatformAnswer): Promise<Response> {
  const body = await objectBody(request);
  if (!body.ok) return a.fail(body.error);
  const metadata = checkMetadata(body.value.metadata);
  if (!metadata.ok) return a.fail(metadata.error);
  const id = await newConversationId(rt);
  const items = bodyItems(body.value.items, `conv-item|${id}|0`, false);
  if (!items.ok) return a.fail(items.error);
  const conversation: ConversationObject = { id, object: "conversation", created_at: nowSeconds(), metadata: metadata.value ?? {} };
  await saveConversation(rt, conversation);
  await appendConversationItems(rt, id, items.items);
  return a.json(conversation);
}

async function conversation(request: Request, rt: Runtime, a: PlatformAnswer, id: string): Promise<Response> {
  const found = await loadConversation(rt, id);
  if (!found) return a.fail(conversationNotFound(id));
  if (request.method === "GET") return a.json(found);
  if (request.method === "DELETE") {
    await conversationHome(rt, id).deleteObject(CONVERSATION_KIND, id);
    return a.json({ id, object: "conversation.deleted", deleted: true });
  }
  const metadata = await metadataUpdate(request);
  if (!metadata.ok) return a.fail(metadata.error);
  const updated: ConversationObject = { ...found, metadata: metadata.value };
  await saveConversation(rt, updated);
  return a.json(updated);
}

async function items(request: Request, rt: Runtime, a: PlatformAnswer, id: string): Promise<Response> {
  if (!(await loadConversation(rt, id))) return a.fail(conversationNotFound(id));
  if (request.method === "GET") {
    const q = pageQuery(new URL(request.url).searchParams, "desc");
    if (!q.ok) return a.fail(q.error);
    return a.json(page(await conversationItems(rt, id), q.page));
  }
  const body = await objectBody(request);
  if (!body.ok) return a.fail(body.error);
  const added = bodyItems(body.value.items, await itemSeed(rt, id), true);
  if (!added.ok) return a.fail(added.error);
  await appendConversationItems(rt, id, added.items);
  return a.json({ object: "list", data: added.items, first_id: added.items[0]?.id ?? null, last_id: added.items.at(-1)?.id ?? null, has_more: false });
}

async function item(request: Request, rt: Runtime, a: PlatformAnswer, id: string, itemId: string): Promise<Response> {
  const found = await loadConversation(rt, id);
  if (!found) return a.fail(conversationNotFound(id));
  const home = conversationHome(rt, id);
  const json = await home.objectById(childKind(CONVERSATION_KIND, id), itemId);
  if (json === null) return a.fail(apiError("not_found", `Item with id '${echoed(itemId)}' not found.`));
  if (request.method === "GET") return a.json(JSON.parse(json));
  await home.deleteObject(childKind(CONVERSATION_KIND, id), itemId);
  return a.json(found);
}

/** The `/v1/conversations` routes. */
export const openaiConversations: SideRoute = objectRoute(PATH, ([, rawId, itemsPart, rawItem], request, path, a, ctx) => {
  if (rawId === undefined) return byMethod(request, path, a, { POST: () => create(request, ctx.rt, a) });
  const id = safeDecode(rawId);
  const bad = checkId(id, "conversation_id", "conv");
  if (bad) return a.fail(bad);
  if (itemsPart === undefined) {
    const one = () => conversation(request, ctx.rt, a, id);
    return byMethod(request, path, a, { GET: one, POST: one, DELETE: one });
  }
  if (rawItem === undefined) {
    const list = () => items(request, ctx.rt, a, id);
    return byMethod(request, path, a, { GET: list, POST: list });
  }
  const one = () => item(request, ctx.rt, a, id, safeDecode(rawItem));
  return byMethod(request, path, a, { GET: one, DELETE: one });
});
