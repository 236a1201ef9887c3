/**
 * Azure OpenAI legacy completions (`POST /openai/deployments/{deployment}/completions?api-version=…`, also
 * `/openai/v1/completions`): OpenAI's parse and renderers with what Azure adds, as on its Chat Completions
 * (./chat.ts): `prompt_filter_results` (one per prompt, by `prompt_index`) and each choice's
 * `content_filter_results`, keys in Azure's alphabetical order; a stream's leading chunk with empty `choices` and blank
 * identity fields carrying the prompt results, then OpenAI's chunks with each choice annotated (`{}` on its finish).
 * Azure's answers have no `system_fingerprint` here either.
 */
import type { Reply } from "../../canonical/outcome";
import { isRecord } from "../../http/json";
import { openaiCompletions } from "../openai/completions";
import type { CompletionsRequest } from "../openai/completions/wire";
import type { ProviderSurface, RenderContext, SseEvent } from "../types";
import { azureCommon } from "./common";
import { choiceResults } from "./chat";
import { promptResults } from "./content-filter";
import { sorted } from "./json";
import { azureParse, type AzureWire } from "./wire";

type Wire = AzureWire<CompletionsRequest>;

/** The filter annotations keep their own key order (`prompt_index` first, `filtered` before `detected`). */
const ANNOTATIONS: ReadonlySet<string> = new Set(["prompt_filter_results", "content_filter_results"]);

function promptFilters(reply: Reply, ctx: RenderContext<Wire>) {
  return ctx.wire.prompts.map((_, i) => ({ prompt_index: i, content_filter_results: promptResults(reply.safety) }));
}

/** Each choice annotated as Azure Chat's are (./chat.ts `choiceResults`); a stream's finish chunk with `{}`, but a `content_filter` one. */
function annotated(choices: unknown, reply: Reply, streamed: boolean): unknown {
  if (!Array.isArray(choices)) return choices;
  return choices.map((c) => {
    if (!isRecord(c)) return c;
    const finish = c.finish_reason;
    const results = streamed && finish !== null && finish !== "content_filter" ? {} : choiceResults(reply, finish);
    return { ...c, content_filter_results: results };
  });
}

function renderJson(reply: Reply, ctx: RenderContext<Wire>): unknown {
  const body = openaiCompletions.renderJson(reply, ctx);
  if (!isRecord(body)) return body;
  return sorted({ ...body, choices: annotated(body.choices, reply, false), prompt_filter_results: promptFilters(reply, ctx) }, ANNOTATIONS);
}

function renderEvents(reply: Reply, ctx: RenderContext<Wire>): SseEvent[] {
  const leading = JSON.stringify({ choices: [], created: 0, id: "", model: "", object: "", prompt_filter_results: promptFilters(reply, ctx) });
  const events = openaiCompletions.renderEvents(reply, ctx).map((e): SseEvent => {
    if (e.data === "[DONE]") return e;
    const chunk: unknown = JSON.parse(e.data);
    if (!isRecord(chunk)) return e;
    return { ...e, data: JSON.stringify(sorted({ ...chunk, choices: annotated(chunk.choices, reply, true) }, ANNOTATIONS)) };
  });
  return [{ data: leading, oneLine: true }, ...events];
}

export const azureCompletions: ProviderSurface<Wire> = {
  ...openaiCompletions,
  ...azureCommon<CompletionsRequest>("completions"),
  parse: azureParse(openaiCompletions.parse, "completions"),
  renderJson,
  // Built whole: OpenAI's pieces (a large answer's) would go without Azure's annotations.
  renderRaw: undefined,
  renderEvents,
};
