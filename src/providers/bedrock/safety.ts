/**
 * A `content_filter` failure on Bedrock Converse / ConverseStream, as a guardrail intervention: `stopReason:
 * "guardrail_intervened"` and the guardrail `trace` (on the JSON body; on the stream's `metadata` event), a blocked
 * prompt answered with the guardrail's blocked message, a stopped answer with the text so far.
 * [SRC @aws-sdk/client-bedrock-runtime `GuardrailTraceAssessment`, `GuardrailContentFilter`; DOC
 * docs.aws.amazon.com/bedrock/latest/userguide/guardrails-use-converse-api.html]
 */
import { z } from "zod";
import type { Reply } from "../../canonical/outcome";
import type { ReplySafety, SafetyCategory } from "../../canonical/safety";
import type { ConverseWire } from "./wire";
import { lazily } from "../../util/memo";

/** The console's default blocked-input message (used when the failure has no `message`). */
export const DEFAULT_BLOCKED_MESSAGE = "Sorry, the model cannot answer this question.";

/** The identifier a trace is keyed by when the request names no guardrail. */
export const DEFAULT_GUARDRAIL_ID = "mockllm-guardrail";

/** Neutral category → Bedrock content-filter type. */
const FILTER_TYPES: Record<SafetyCategory, string> = {
  hate: "HATE",
  sexual: "SEXUAL",
  violence: "VIOLENCE",
  self_harm: "VIOLENCE",
  harassment: "INSULTS",
  dangerous: "MISCONDUCT",
  jailbreak: "PROMPT_ATTACK",
};

/** Built on the first guardrail read (util/memo.ts `lazily`). */
const guardrailConfigSchema = lazily(() => z.looseObject({ guardrailIdentifier: z.string().min(1), trace: z.string().optional() }));

/**
 * The guardrail the trace is keyed by, or undefined when the request's `guardrailConfig` leaves the trace off (its
 * default, `disabled`), as the service then sends none. A request without a `guardrailConfig` (the real service would
 * not intervene at all) gets the trace under `mockllm-guardrail`, so the scripted categories stay visible.
 */
function tracedGuardrail(wire: ConverseWire): string | undefined {
  if (wire.body.guardrailConfig === undefined) return DEFAULT_GUARDRAIL_ID;
  const config = guardrailConfigSchema().safeParse(wire.body.guardrailConfig);
  if (!config.success) return DEFAULT_GUARDRAIL_ID;
  return config.data.trace === "enabled" || config.data.trace === "enabled_full" ? config.data.guardrailIdentifier : undefined;
}

/** The text a guardrail answers a blocked prompt with: the failure's message or the default blocked message. */
export function blockedMessage(safety: ReplySafety): string {
  return safety.message ?? DEFAULT_BLOCKED_MESSAGE;
}

/** One assessment: the content policy's filters, one per flagged type, each `BLOCKED` with high confidence. */
function assessment(safety: ReplySafety): Record<string, unknown> {
  const types = [...new Set(safety.categories.map((c) => FILTER_TYPES[c]))];
  const filters = types.map((type) => ({ action: "BLOCKED", confidence: "HIGH", detected: true, filterStrength: "HIGH", type }));
  return { contentPolicy: { filters } };
}

/**
 * `trace: { guardrail }` of a filtered reply: `inputAssessment` (a map by guardrail id) for a blocked prompt,
 * `outputAssessments` (a map by guardrail id of arrays) and `modelOutput` for a stopped answer; keys in the
 * service's alphabetical order.
 */
export function guardrailTrace(reply: Reply, wire: ConverseWire): { trace?: Record<string, unknown> } {
  const safety = reply.safety;
  const id = tracedGuardrail(wire);
  if (!safety || id === undefined) return {};
  const guardrail =
    safety.on === "prompt"
      ? { actionReason: "Guardrail blocked.", inputAssessment: { [id]: assessment(safety) } }
      : { actionReason: "Guardrail blocked.", modelOutput: [reply.text ?? ""], outputAssessments: { [id]: [assessment(safety)] } };
  return { trace: { guardrail } };
}
