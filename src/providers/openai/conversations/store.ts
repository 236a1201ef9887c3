/**
 * Conversations (`/v1/conversations`) as the stored-Responses machinery keeps them: each conversation is an object of
 * kind `conversation` in one of 256 index objects (`__index/conversations-{shard}`, by a hash of its id, as response
 * pointers are sharded), and its items are the children of that object (kind `conversation/{id}`), oldest first, so
 * deleting the conversation drops them. A namespace's sessions map these names into its own space: another key's
 * conversation is simply not there.
 */
import type { Runtime } from "../../../runtime/types";
import type { StoredResponses } from "../../../session/types";
import { stableHash, stableHex } from "../../../util/hash";
import { apiError, type ApiError } from "../../../http/errors";
import { echoed } from "../../../util/text";
import type { InputItem } from "../responses/wire";
import { parsedObjects } from "../platform";
import { own } from "../../../util/own";

export const CONVERSATION_KIND = "conversation";

/** Most conversations one index object keeps; one more forgets the oldest (and its items). */
const MAX_CONVERSATIONS = 1000;

/** The kind holding an object's children (session/responses.ts `childKind`): deleting the object drops them. */
export function childKind(kind: string, id: string): string {
  return `${kind}/${id}`;
}

/** Most items one conversation keeps; one more forgets the oldest. */
export const MAX_CONVERSATION_ITEMS = 10_000;

/** Items one create call (or a new conversation's `items`) may carry, as the real API limits them. */
export const MAX_ITEMS_PER_CALL = 20;

export interface ConversationObject {
  id: string;
  object: "conversation";
  created_at: number;
  metadata: Record<string, string>;
}

/** A conversation item as the API answers it: its type, its id, and the rest of its fields. */
export type ConversationItem = { id: string; type: string } & Record<string, unknown>;

/** The index object a conversation lives in. */
export function conversationHome(rt: Runtime, id: string): StoredResponses {
  return rt.sessions.get(`__index/conversations-${(stableHash(id) & 0xff).toString(16).padStart(2, "0")}`);
}

/** The next conversation id: `conv_` and 48 hex, numbered by a counter of the namespace (deterministic per run). */
export async function newConversationId(rt: Runtime): Promise<string> {
  const n = await rt.sessions.get("__index/conversations").increment("conversations");
  return `conv_${stableHex(`conv|${n}`, 48)}`;
}

export function conversationNotFound(id: string, param?: string): ApiError {
  return apiError("not_found", `Conversation with id '${echoed(id)}' not found.`, param !== undefined ? { param } : {});
}

export async function loadConversation(rt: Runtime, id: string): Promise<ConversationObject | undefined> {
  const json = await conversationHome(rt, id).objectById(CONVERSATION_KIND, id);
  return json === null ? undefined : parsedObjects<ConversationObject>([json])[0];
}

export async function saveConversation(rt: Runtime, conversation: ConversationObject): Promise<void> {
  await conversationHome(rt, conversation.id).putObjects(CONVERSATION_KIND, [{ id: conversation.id, json: JSON.stringify(conversation) }], MAX_CONVERSATIONS);
}

/** The conversation's items, oldest first. */
export async function conversationItems(rt: Runtime, id: string): Promise<ConversationItem[]> {
  const stored = await conversationHome(rt, id).listObjects(childKind(CONVERSATION_KIND, id));
  return parsedObjects<ConversationItem>(stored.map((o) => o.json));
}

export async function appendConversationItems(rt: Runtime, id: string, items: ConversationItem[]): Promise<void> {
  if (items.length === 0) return;
  const objects = items.map((item) => ({ id: item.id, json: JSON.stringify(item) }));
  await conversationHome(rt, id).putObjects(childKind(CONVERSATION_KIND, id), objects, MAX_CONVERSATION_ITEMS);
}

const ID_PREFIX: Record<string, string> = { message: "msg", function_call: "fc", function_call_output: "fco", reasoning: "rs" };

/**
 * Input items as the conversation keeps them: each with an id (its own, else one numbered by `seed`), a message's
 * string content as a text part (`input_text`, `output_text` for the assistant's) and `status: "completed"`.
 */
export function conversationItemsOf(items: InputItem[], seed: string): ConversationItem[] {
  return items.map((item, i) => {
    const raw: Record<string, unknown> = item.type === "other" ? { ...item.raw } : { ...item };
    const type = String(raw.type ?? "message");
    const given = typeof raw.id === "string" && raw.id !== "" ? raw.id : undefined;
    const prefix = own(ID_PREFIX, type) ?? "item"; // a client's type: `toString` is none
    const id = given ?? `${prefix}_${stableHex(`${seed}|${i}`, 48)}`;
    if (item.type === "message") {
      const content =
        typeof item.content === "string"
          ? [item.role === "assistant" ? { type: "output_text", text: item.content, annotations: [], logprobs: [] } : { type: "input_text", text: item.content }]
          : item.content;
      const { type: _t, id: _i, role, content: _c, status, ...rest } = raw;
      return { id, type: "message", status: status ?? "completed", content, role, ...rest };
    }
    const { id: _i, type: _t, ...rest } = raw;
    return { id, type, ...rest, ...(type === "function_call" || type === "function_call_output" ? { status: raw.status ?? "completed" } : {}) };
  });
}
