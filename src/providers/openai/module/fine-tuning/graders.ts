/**
 * OpenAI's fine-tuning graders (`client.fineTuning.alpha.graders`): `POST /v1/fine_tuning/alpha/graders/validate`
 * answers the grader when the API would accept it for a reinforcement job (the 400 at its path otherwise), and
 * `…/run` grades one `model_sample` (and `item`) with it — the reward, each sub-grader's of a multi grader, the error
 * flags, and what the judge models of model graders used (asked through the scenario, ../evals/graders.ts).
 */
import { requestPrefix, originHeaders, runBatchLine } from "../../../../turn/batch";
import { stableToken } from "../../../../util/hash";
import type { SideRouteContext } from "../../../types";
import { openaiChat } from "../../chat";
import { byMethod, objectBody, objectRoute, type PlatformAnswer } from "../../platform";
import { invalidType, missingParameter } from "../../request-error";
import { type GradeErrorKind, grade, objectOf, type Grader, graderError, type Judge, type TokenUsage } from "../evals/graders";

/** Every flag the run's `metadata.errors` reports, false unless the grade's error is that one. */
const ERROR_FLAGS = [
  "formula_parse_error",
  "invalid_variable_error",
  "model_grader_parse_error",
  "model_grader_refusal_error",
  "model_grader_server_error",
  "other_error",
  "python_grader_runtime_error",
  "python_grader_server_error",
  "sample_parse_error",
  "truncated_observation_error",
  "unresponsive_reward_error",
] as const;

function errorFlags(kind: GradeErrorKind | undefined, message: string | undefined): Record<string, unknown> {
  const flags: Record<string, unknown> = Object.fromEntries(ERROR_FLAGS.map((f) => [f, f === kind]));
  flags.model_grader_server_error_details = kind === "model_grader_server_error" ? (message ?? null) : null;
  flags.python_grader_runtime_error_details = null;
  flags.python_grader_server_error_type = kind === "python_grader_server_error" ? "unavailable" : null;
  return flags;
}

/** `model_sample` as the `sample` namespace: its text, and its JSON when it is a JSON object. */
function sampleOf(text: string): Record<string, unknown> {
  return { output_text: text, output_json: objectOf(text), output_tools: [], choices: [] };
}

async function run(request: Request, path: string, a: PlatformAnswer, ctx: SideRouteContext): Promise<Response> {
  const body = await objectBody(request);
  if (!body.ok) return a.fail(body.error);
  const b = body.value;
  if (b.grader === undefined || b.grader === null) return a.fail(missingParameter("grader"));
  const bad = graderError(b.grader, "grader", "alpha", { sample: true });
  if (bad) return a.fail(bad);
  if (b.model_sample === undefined || b.model_sample === null) return a.fail(missingParameter("model_sample"));
  if (typeof b.model_sample !== "string") return a.fail(invalidType("model_sample", "a string", b.model_sample));
  const grader = b.grader as Grader;
  const { prefix } = requestPrefix(request, path);
  const origin = { prefix, headers: originHeaders(request.headers), path: "/v1/chat/completions" };
  const runId = `graderrun_${stableToken(`${Date.now()}|${Math.random()}`, 16)}`;
  let asked = 0;
  const judge: Judge = async (chat) => {
    const answer = await runBatchLine(openaiChat, ctx.rt, chat, origin, { id: runId, customId: `${runId}/${asked++}` });
    const out = (answer.body ?? {}) as Record<string, unknown>;
    const u = (out.usage ?? {}) as Record<string, number>;
    const usage: TokenUsage = { prompt_tokens: u.prompt_tokens ?? 0, completion_tokens: u.completion_tokens ?? 0, total_tokens: u.total_tokens ?? 0, cached_tokens: 0 };
    const model = typeof out.model === "string" ? out.model : String(chat.model);
    if (answer.status >= 400)
      return {
        ok: false,
        text: "",
        model,
        usage,
        error: { code: String(answer.status), message: ((out.error ?? {}) as { message?: string }).message ?? `The grader model answered ${answer.status}.` },
      };
    const choice = ((out.choices as { message?: { content?: string } }[] | undefined) ?? [])[0];
    return { ok: true, text: choice?.message?.content ?? "", model, usage };
  };
  const started = performance.now();
  const g = await grade(grader, { item: b.item ?? {}, sample: sampleOf(b.model_sample) }, judge);
  const models = Object.keys(g.usage);
  const tokens = models.reduce((sum, m) => sum + g.usage[m]!.total_tokens, 0);
  return a.json({
    reward: g.score,
    metadata: {
      name: grader.name,
      type: grader.type,
      errors: errorFlags(g.error?.kind, g.error?.message),
      execution_time: Math.round(performance.now() - started) / 1000,
      scores: g.subRewards ?? {},
      token_usage: models.length > 0 ? tokens : null,
      sampled_model_name: models[0] ?? null,
    },
    sub_rewards: g.subRewards ?? {},
    model_grader_token_usage_per_model: Object.fromEntries(models.map((m) => [m, g.usage[m]])),
  });
}

async function validate(request: Request, a: PlatformAnswer): Promise<Response> {
  const body = await objectBody(request);
  if (!body.ok) return a.fail(body.error);
  const grader = body.value.grader;
  if (grader === undefined || grader === null) return a.fail(missingParameter("grader"));
  const bad = graderError(grader, "grader", "alpha", { sample: true });
  return bad ? a.fail(bad) : a.json({ grader });
}

const ROUTE = /^\/(?:v1\/)?fine_tuning\/alpha\/graders\/(run|validate)\/?$/;

export const openaiAlphaGraders = objectRoute(ROUTE, ([, action], request, path, a, ctx) =>
  byMethod(request, path, a, { POST: () => (action === "run" ? run(request, path, a, ctx) : validate(request, a)) }),
);
