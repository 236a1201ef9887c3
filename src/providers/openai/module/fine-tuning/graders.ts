/**
 * OpenAI's fine-tuning graders (`client.fineTuning.alpha.graders`): `POST /v1/fine_tuning/alpha/graders/validate`
 * answers the grader when the API would accept it for a reinforcement job (the 400 at its path otherwise), and
 * `…/run` grades one `model_sample` (and `item`) with it — the reward, each sub-grader's of a multi grader, the error
 * flags, and what the judge models of model graders used (asked through the scenario, ../evals/graders.ts).
 */
import { requestPrefix, originHeaders } from "../../../../turn/batch";
import { sortableId } from "../../../../objects/ids";
import type { SideRouteContext } from "../../../types";
import { byMethod, objectBody, objectRoute, type PlatformAnswer } from "../../platform";
import { invalidType, missingParameter } from "../../request-error";
import { type GradeErrorKind, grade, objectOf, type Grader, graderError } from "../evals/graders";
import { scenarioJudge } from "../evals/turns";

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
  const runId = sortableId("graderrun_", 16);
  let asked = 0;
  const judge = scenarioJudge(ctx.rt, origin, () => ({ id: runId, customId: `${runId}/${asked++}` }));
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
