/**
 * Azure OpenAI Images: `POST /openai/deployments/{deployment}/images/generations` and `/images/edits`
 * (`?api-version=…`), and `/openai/v1/images/generations|edits`. OpenAI's parse, pictures and stream events behind
 * Azure's gateway, with what Azure adds (test/shapes/azure.ts cites the sources):
 * - each `data` item carries `content_filter_results` (`hate`, `self_harm`, `sexual`, `violence`) and
 *   `prompt_filter_results` (the same and `profanity`), keys in Azure's alphabetical order [recorded, DALL·E 3];
 * - a blocked prompt is a 400 `content_policy_violation` with `inner_error.code: "ResponsibleAIPolicyViolation"` and
 *   the prompt's `content_filter_results` [recorded];
 * - a filtered image is the 200 the documentation shows: no `data`, an `error` with `code: "contentFilter"` [DOC].
 */
import type { Reply } from "../../canonical/outcome";
import type { ReplySafety } from "../../canonical/safety";
import { openaiImages } from "../openai/images";
import type { ImagesRequest } from "../openai/images/wire";
import type { ProviderSurface, RenderContext, RenderedError } from "../types";
import { azureCommon } from "./common";
import { promptResults } from "./content-filter";
import { azureHeaders } from "./errors";
import { isRecord } from "../../http/json";
import { sorted } from "./json";
import { azureParse, type AzureWire } from "./wire";

type Wire = AzureWire<ImagesRequest>;

const SAFE = { filtered: false, severity: "safe" };
/** A generated image's annotation: nothing filtered (a filtered image is not sent). */
const IMAGE_RESULTS = { hate: SAFE, self_harm: SAFE, sexual: SAFE, violence: SAFE };
/** The prompt's annotation on an answered image (a filtered prompt is a 400). */
const PROMPT_RESULTS = { ...IMAGE_RESULTS, profanity: { detected: false, filtered: false } };

export const IMAGE_PROMPT_BLOCKED = "Your request was rejected as a result of our safety system. Your prompt may contain text that is not allowed by our safety system.";
export const IMAGE_FILTERED = "Generated image was filtered as a result of our safety system.";

function renderJson(reply: Reply, ctx: RenderContext<Wire>): unknown {
  if (reply.safety?.on === "completion") return { created: ctx.created, error: { code: "contentFilter", message: reply.safety.message ?? IMAGE_FILTERED } };
  const body = openaiImages.renderJson(reply, ctx);
  if (!isRecord(body) || !Array.isArray(body.data)) return body;
  const data = body.data.map((item) => (isRecord(item) ? { ...item, content_filter_results: IMAGE_RESULTS, prompt_filter_results: PROMPT_RESULTS } : item));
  return sorted({ ...body, data });
}

/** A blocked image prompt, as Azure answers it (its keys sorted, `inner_error` with an underscore). */
function renderPromptBlock(safety: ReplySafety, requestId: string): RenderedError {
  const error = {
    code: "content_policy_violation",
    inner_error: { code: "ResponsibleAIPolicyViolation", content_filter_results: promptResults(safety) },
    message: safety.message ?? IMAGE_PROMPT_BLOCKED,
    type: "invalid_request_error",
  };
  return { status: 400, body: sorted({ error }), headers: azureHeaders(requestId) };
}

const DALL_E = /dall-?e-?([23])/i;

/**
 * OpenAI's parse with the limits of the model a deployment serves: Azure deployments are named freely, so one whose
 * name says DALL·E 3 or 2 (`dalle3`, `prod-dall-e-2`) is checked as that model (sizes, `n`, `response_format`), any
 * other as a GPT image model; the canonical `model` stays the name the request sent.
 */
const parseImages: ProviderSurface<ImagesRequest>["parse"] = (body, headers, target) => {
  if (!isRecord(body) || typeof body.model !== "string") return openaiImages.parse(body, headers, target);
  const named = body.model;
  const family = DALL_E.exec(named)?.[1];
  if (family === undefined) return openaiImages.parse(body, headers, target);
  const parsed = openaiImages.parse({ ...body, model: `dall-e-${family}` }, headers, target);
  return parsed.ok ? { ...parsed, request: { ...parsed.request, model: named } } : parsed;
};

export const azureImages: ProviderSurface<Wire> = {
  ...openaiImages,
  ...azureCommon<ImagesRequest>("images/generations", "images/edits"),
  parse: azureParse(parseImages, "images/generations"),
  renderJson,
  renderPromptBlock,
  // A filtered image is Azure's 200 with an `error` of code `contentFilter` (renderJson), not OpenAI's 400.
  blocksCompletion: false,
};
