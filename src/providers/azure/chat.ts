/**
 * Azure OpenAI Chat Completions: OpenAI's parse and renderers with what Azure adds (protocols.md 10.3.4, recorded
 * shapes in test/shapes/azure.ts):
 * - JSON: `prompt_filter_results`, each choice's `content_filter_results`; no `service_tier`; keys in Azure's
 *   alphabetical order (but inside the annotations, which keep theirs);
 * - stream: a leading chunk with empty `choices` and blank identity fields carrying `prompt_filter_results`, then
 *   OpenAI's chunks with each choice's `content_filter_results` (`{}` on the role and finish chunks, the categories on
 *   content; a `content_filter` finish carries the filtered categories), keys ordered as in JSON, no
 *   `service_tier` or `obfuscation`.
 */
import type { Reply } from "../../canonical/outcome";
import { openaiChat } from "../openai/chat";
import type { ChatRequest } from "../openai/chat/wire";
import type { ProviderSurface, RenderContext, SseEvent } from "../types";
import { azureCommon } from "./common";
import { completionResults, promptFilterResults, type FilterResults } from "./content-filter";
import { isRecord } from "../../http/json";
import { sorted } from "./json";
import { azureParse, type AzureWire } from "./wire";

type Wire = AzureWire<ChatRequest>;

/** Annotations whose keys keep their own order (`prompt_index` first, `filtered` before `detected`), as recorded. */
const ANNOTATIONS: ReadonlySet<string> = new Set(["prompt_filter_results", "content_filter_results"]);
const sortedChat = (value: unknown) => sorted(value, ANNOTATIONS);

/** The finished choice's annotation: the filtered categories on a `content_filter` finish, else all safe (completions' too). */
export function choiceResults(reply: Reply, finishReason: unknown): FilterResults {
  return completionResults(finishReason === "content_filter" ? reply.safety : undefined);
}

function renderJson(reply: Reply, ctx: RenderContext<Wire>): unknown {
  const body = openaiChat.renderJson(reply, ctx);
  if (!isRecord(body)) return body;
  const { choices, service_tier: _tier, ...rest } = body;
  const annotated = Array.isArray(choices) ? choices.map((c) => (isRecord(c) ? { ...c, content_filter_results: choiceResults(reply, c.finish_reason) } : c)) : choices;
  return sortedChat({ ...rest, choices: annotated, prompt_filter_results: promptFilterResults(reply.safety) });
}

/** One OpenAI chunk as Azure sends it: each choice annotated, OpenAI-only fields dropped, keys sorted. */
function azureChunk(data: string, reply: Reply): string {
  const chunk: unknown = JSON.parse(data);
  if (!isRecord(chunk)) return data;
  const { service_tier: _tier, obfuscation: _pad, choices, ...rest } = chunk;
  const annotated = Array.isArray(choices)
    ? choices.map((c) => {
        if (!isRecord(c)) return c;
        const delta = isRecord(c.delta) ? c.delta : {};
        const finish = c.finish_reason;
        const results = finish === "content_filter" ? choiceResults(reply, finish) : "role" in delta || finish !== null ? {} : choiceResults(reply, null);
        return { ...c, content_filter_results: results };
      })
    : choices;
  return JSON.stringify(sortedChat({ ...rest, choices: annotated }));
}

/** An OpenAI event re-encoded for Azure when first read (a paced stream encodes each chunk as it is written). */
class AzureChunkEvent implements SseEvent {
  readonly words: number | undefined;
  #inner: SseEvent;
  #reply: Reply;
  #data: string | undefined;

  constructor(inner: SseEvent, reply: Reply) {
    this.#inner = inner;
    this.#reply = reply;
    this.words = inner.words;
  }

  get data(): string {
    this.#data ??= azureChunk(this.#inner.data, this.#reply);
    return this.#data;
  }
}

function renderEvents(reply: Reply, ctx: RenderContext<Wire>): SseEvent[] {
  const leading = JSON.stringify({ choices: [], created: 0, id: "", model: "", object: "", prompt_filter_results: promptFilterResults(reply.safety) });
  const events = openaiChat.renderEvents(reply, ctx).map((e) => (e.data === "[DONE]" ? e : new AzureChunkEvent(e, reply)));
  return [{ data: leading }, ...events];
}

/** `POST /openai/deployments/{deployment}/chat/completions?api-version=…` and `/openai/v1/chat/completions`. */
export const azureChat: ProviderSurface<Wire> = {
  ...openaiChat,
  ...azureCommon<ChatRequest>("chat/completions"),
  parse: azureParse(openaiChat.parse, "chat/completions"),
  renderJson,
  renderEvents,
};
