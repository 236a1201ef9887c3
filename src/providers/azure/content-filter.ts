/**
 * Azure's content-filter annotations (protocols.md 10.3.4; shapes cited in test/shapes/azure.ts): the prompt's
 * `prompt_filter_results`, each choice's `content_filter_results`, and the 400 `content_filter` a blocked prompt
 * answers (`renderPromptBlock`). The neutral categories of the `content_filter` failure map onto Azure's keys:
 * `hate` (also `harassment`, which Azure's hate-and-fairness category covers), `sexual`, `violence` (also
 * `dangerous`, which Azure has no category for), `self_harm`, `jailbreak` (a prompt shield: `detected`).
 */
import type { ReplySafety, SafetyCategory } from "../../canonical/safety";
import type { RenderedError } from "../types";
import { azureHeaders } from "./errors";

type Severity = { filtered: boolean; severity: "safe" | "medium" };
type Detection = { filtered: boolean; detected: boolean };
export type FilterResults = Record<string, Severity | Detection>;

type AzureKey = "hate" | "sexual" | "violence" | "self_harm" | "jailbreak";

const AZURE_KEY: Record<SafetyCategory, AzureKey> = {
  hate: "hate",
  harassment: "hate",
  sexual: "sexual",
  violence: "violence",
  dangerous: "violence",
  self_harm: "self_harm",
  jailbreak: "jailbreak",
};

const SAFE: Severity = { filtered: false, severity: "safe" };
const FILTERED: Severity = { filtered: true, severity: "medium" };
const NOT_DETECTED: Detection = { filtered: false, detected: false };
const DETECTED: Detection = { filtered: true, detected: true };

/** The Azure keys the failure's categories hit (none: nothing was filtered). */
function hits(safety: ReplySafety | undefined): Set<AzureKey> {
  return new Set((safety?.categories ?? []).map((c) => AZURE_KEY[c]));
}

/**
 * The prompt's annotation (keys in the recorded order): every category safe, or filtered where a prompt block hit.
 * @example promptResults(undefined).jailbreak // { filtered: false, detected: false }
 */
export function promptResults(safety: ReplySafety | undefined): FilterResults {
  const hit = safety?.on === "prompt" ? hits(safety) : new Set<AzureKey>();
  const severity = (k: AzureKey) => (hit.has(k) ? FILTERED : SAFE);
  return {
    hate: severity("hate"),
    jailbreak: hit.has("jailbreak") ? DETECTED : NOT_DETECTED,
    self_harm: severity("self_harm"),
    sexual: severity("sexual"),
    violence: severity("violence"),
  };
}

/** `prompt_filter_results` of an answer. */
export function promptFilterResults(safety: ReplySafety | undefined): { prompt_index: number; content_filter_results: FilterResults }[] {
  return [{ prompt_index: 0, content_filter_results: promptResults(safety) }];
}

/**
 * A choice's annotation: every category safe, or filtered where a completion filter hit (a `jailbreak` category on
 * the completion is reported as detected too).
 */
export function completionResults(safety: ReplySafety | undefined): FilterResults {
  const hit = safety?.on === "completion" ? hits(safety) : new Set<AzureKey>();
  const severity = (k: AzureKey) => (hit.has(k) ? FILTERED : SAFE);
  return {
    hate: severity("hate"),
    ...(hit.has("jailbreak") ? { jailbreak: DETECTED } : {}),
    protected_material_code: NOT_DETECTED,
    protected_material_text: NOT_DETECTED,
    self_harm: severity("self_harm"),
    sexual: severity("sexual"),
    violence: severity("violence"),
  };
}

/** Azure's wording for a blocked prompt (recorded). */
export const PROMPT_FILTERED_MESSAGE =
  "The response was filtered due to the prompt triggering Azure OpenAI's content management policy. Please modify your prompt and retry. To learn more about our content filtering policies please read our documentation: https://go.microsoft.com/fwlink/?linkid=2198766";

/**
 * The 400 a blocked prompt answers, JSON and stream requests alike: `code: "content_filter"`,
 * `innererror.code: "ResponsibleAIPolicyViolation"` and the prompt's `content_filter_result` (singular, as recorded).
 */
export function renderAzurePromptBlock(safety: ReplySafety, requestId: string): RenderedError {
  return {
    status: 400,
    body: {
      error: {
        message: safety.message ?? PROMPT_FILTERED_MESSAGE,
        type: null,
        param: "prompt",
        code: "content_filter",
        status: 400,
        innererror: { code: "ResponsibleAIPolicyViolation", content_filter_result: promptResults(safety) },
      },
    },
    headers: azureHeaders(requestId),
  };
}
