/**
 * OpenAI fine-tuning jobs (`client.fineTuning.jobs`): `POST /v1/fine_tuning/jobs`, list (`after`, `limit`,
 * `metadata[k]`), retrieve, `…/cancel`, `…/pause`, `…/resume`, `…/events` and `…/checkpoints`. A job runs on the
 * scenario's async clock (`async.processingMs`, computed when read, never by a timer): `validating_files` for its
 * first quarter, `queued` to half-way, `running`, then `succeeded` — with its `fine_tuned_model` (a chat request may
 * then name it, and a scenario match it), `trained_tokens`, a results file and checkpoints. The training file is read
 * when the job is made, as the API validates it: a line that is not a training example of the job's method, or fewer
 * than 10 examples, makes the job `failed` (`invalid_training_file`) once validation ends. Kept in the caller's
 * namespace's index of jobs (a session object, as vector stores are kept); the results files among its files.
 */
import { hubOf, raiseEvent } from "../../../../webhooks/hub";
import { apiError, type ApiError } from "../../../../http/errors";
import { safeDecode } from "../../../../http/url";
import type { FileStore } from "../../../../objects/files";
import { sortableId } from "../../../../objects/ids";
import type { Runtime } from "../../../../runtime/types";
import type { StoredResponses } from "../../../../session/types";
import { stableHash, stableToken } from "../../../../util/hash";
import { own } from "../../../../util/own";
import { echoed } from "../../../../util/text";
import type { SideRouteContext } from "../../../types";
import { byMethod, checkMetadata, invalid, metadataFilters, objectBody, objectRoute, page, pageQuery, parsedObjects, processingMs, type PlatformAnswer } from "../../platform";
import { invalidType, missingParameter } from "../../request-error";
import type { OwnModels } from "../../models";
import { filesOf } from "../batches/files";
import { graderError } from "../evals/graders";

/** Least examples a training file must hold (the API's). */
const MIN_EXAMPLES = 10;
/** What mockllm reads of a training file to check it; a larger file's examples past this are not checked. */
const CHECKED_BYTES = 16 * 1024 * 1024;
/** Jobs a namespace keeps (mockllm's bound: past it the oldest are forgotten). */
const MAX_JOBS = 1000;
/** Rows a results file holds at most (steps past it are sampled). */
const MAX_RESULT_ROWS = 1000;
const KIND = "fine_tuning_job";
const METHODS = ["supervised", "dpo", "reinforcement"] as const;
type Method = (typeof METHODS)[number];

interface Hyper {
  batch_size: "auto" | number;
  learning_rate_multiplier: "auto" | number;
  n_epochs: "auto" | number;
}

export interface JobRecord {
  id: string;
  model: string;
  trainingFile: string;
  validationFile: string | null;
  suffix: string | null;
  seed: number;
  method: Method;
  /** The method's own settings as sent (`beta` for DPO, the grader for reinforcement), shown back. */
  methodSettings: Record<string, unknown>;
  hyper: Hyper;
  metadata: Record<string, string> | null;
  integrations: unknown[] | null;
  examples: number;
  tokens: number;
  /** Why validation fails the job, found when it was made. */
  failure: { code: string; message: string; param: string } | null;
  createdMs: number;
  validatedMs: number;
  startedMs: number;
  readyMs: number;
  cancelledMs?: number;
  pausedMs?: number;
  resultFile?: string;
  /** Its fine-tuned model was deleted (`DELETE /v1/models/{model}`): no longer listed; the job still names it. */
  modelDeleted?: true;
}

type Status = "validating_files" | "queued" | "running" | "paused" | "succeeded" | "failed" | "cancelled";

const secs = (ms: number) => Math.floor(ms / 1000);

/** The job's status at `now` on its clock. */
export function statusAt(j: JobRecord, now: number): Status {
  if (j.cancelledMs !== undefined && now >= j.cancelledMs) return "cancelled";
  if (now < j.validatedMs) return "validating_files";
  if (j.failure !== null) return "failed";
  if (j.pausedMs !== undefined) return "paused";
  if (now < j.startedMs) return "queued";
  return now < j.readyMs ? "running" : "succeeded";
}

/** The hyperparameters as the job settles them when it starts: `auto` becomes a number. */
function resolved(j: JobRecord): { batch_size: number; learning_rate_multiplier: number; n_epochs: number } {
  const h = j.hyper;
  return {
    batch_size: h.batch_size === "auto" ? Math.max(1, Math.min(32, Math.ceil(j.examples * 0.002))) : h.batch_size,
    learning_rate_multiplier: h.learning_rate_multiplier === "auto" ? 1.8 : h.learning_rate_multiplier,
    n_epochs: h.n_epochs === "auto" ? 3 : h.n_epochs,
  };
}

function steps(j: JobRecord): { perEpoch: number; total: number } {
  const r = resolved(j);
  const perEpoch = Math.max(1, Math.ceil(j.examples / r.batch_size));
  return { perEpoch, total: perEpoch * r.n_epochs };
}

/** `ft:{model}:personal:{suffix}:{8 characters}`, as the API names a fine-tuned model. */
function modelName(j: Pick<JobRecord, "id" | "model" | "suffix">): string {
  return `ft:${j.model}:personal:${j.suffix ?? ""}:${stableToken(`ft|${j.id}`, 8)}`;
}

/** A step's training loss: falling from about 2 towards 0.1, with a little noise of the job's seed. */
function lossAt(j: JobRecord, step: number, total: number): number {
  const noise = ((stableHash(`${j.id}|${step}`) % 1000) / 1000 - 0.5) * 0.08;
  return Math.round((1.9 * Math.exp((-3 * step) / total) + 0.1 + noise) * 10000) / 10000;
}

function jobObject(j: JobRecord, now: number): Record<string, unknown> {
  const status = statusAt(j, now);
  const settled = status === "running" || status === "paused" || status === "succeeded" || (status === "cancelled" && (j.cancelledMs ?? 0) >= j.startedMs);
  const hyper = settled ? resolved(j) : j.hyper;
  const done = status === "succeeded" ? j.readyMs : status === "failed" ? j.validatedMs : status === "cancelled" ? (j.cancelledMs ?? null) : null;
  return {
    object: "fine_tuning.job",
    id: j.id,
    model: j.model,
    created_at: secs(j.createdMs),
    finished_at: done === null ? null : secs(done),
    fine_tuned_model: status === "succeeded" ? modelName(j) : null,
    organization_id: "org-mockllm",
    result_files: status === "succeeded" && j.resultFile !== undefined ? [j.resultFile] : [],
    status,
    validation_file: j.validationFile,
    training_file: j.trainingFile,
    hyperparameters: hyper,
    trained_tokens: status === "succeeded" ? j.tokens * resolved(j).n_epochs : null,
    error: status === "failed" ? j.failure : null,
    user_provided_suffix: j.suffix,
    seed: j.seed,
    estimated_finish: status === "queued" || status === "running" ? secs(j.readyMs) : null,
    integrations: j.integrations,
    metadata: j.metadata,
    method: { type: j.method, [j.method]: { ...j.methodSettings, hyperparameters: hyper } },
  };
}

interface JobEvent {
  id: string;
  object: "fine_tuning.job.event";
  created_at: number;
  level: "info" | "warn" | "error";
  message: string;
  data: Record<string, unknown>;
  type: "message" | "metrics";
}

/** The job's events up to `now`, oldest first (a paused job's up to its pause). */
export function eventsOf(j: JobRecord, now: number): JobEvent[] {
  const out: JobEvent[] = [];
  // A paused job's clock stopped: nothing it would have done later has happened yet.
  const until = Math.min(now, j.cancelledMs ?? Number.POSITIVE_INFINITY, j.pausedMs ?? Number.POSITIVE_INFINITY);
  const add = (ms: number, message: string, level: JobEvent["level"] = "info", type: JobEvent["type"] = "message", data: Record<string, unknown> = {}) => {
    if (ms <= until) {
      out.push({ id: `ftevent-${stableToken(`ftevent|${j.id}|${out.length}`, 24)}`, object: "fine_tuning.job.event", created_at: secs(ms), level, message, data, type });
    }
  };
  add(j.createdMs, `Created fine-tuning job: ${j.id}`);
  add(j.createdMs, `Validating training file: ${j.trainingFile}${j.validationFile === null ? "" : ` and validation file: ${j.validationFile}`}`);
  if (j.failure !== null) add(j.validatedMs, j.failure.message, "error");
  else {
    add(j.validatedMs, "Files validated, moving job to queued state");
    add(j.startedMs, "Fine-tuning job started");
    const { total } = steps(j);
    const shown = [...new Set([1, Math.ceil(total / 2), total])];
    shown.forEach((step, i) => {
      const train_loss = lossAt(j, step, total);
      const at = j.startedMs + ((j.readyMs - j.startedMs) * (i + 1)) / (shown.length + 1);
      add(at, `Step ${step}/${total}: training loss=${train_loss.toFixed(2)}`, "info", "metrics", {
        step,
        train_loss,
        total_steps: total,
        train_mean_token_accuracy: Math.round((1 - train_loss / 2.5) * 1000) / 1000,
      });
    });
    add(j.readyMs, `New fine-tuned model created: ${modelName(j)}`);
    add(j.readyMs, "The job has successfully completed");
  }
  if (j.pausedMs !== undefined && j.pausedMs <= now) add(j.pausedMs, "Fine-tuning job paused");
  if (j.cancelledMs !== undefined && j.cancelledMs <= now) add(j.cancelledMs, "Fine-tuning job cancelled");
  return out;
}

/** The checkpoints of a succeeded job, oldest first: the end of each of its last three epochs. */
function checkpointsOf(j: JobRecord, now: number): Record<string, unknown>[] {
  if (statusAt(j, now) !== "succeeded") return [];
  const { perEpoch, total } = steps(j);
  const epochs = resolved(j).n_epochs;
  const out: Record<string, unknown>[] = [];
  for (let e = Math.max(1, epochs - 2); e <= epochs; e++) {
    const step = e * perEpoch;
    const train_loss = lossAt(j, step, total);
    const valid = j.validationFile === null ? {} : { valid_loss: train_loss + 0.05, valid_mean_token_accuracy: Math.round((1 - (train_loss + 0.05) / 2.5) * 1000) / 1000 };
    out.push({
      object: "fine_tuning.job.checkpoint",
      id: `ftckpt_${stableToken(`ftckpt|${j.id}|${step}`, 24)}`,
      created_at: secs(j.readyMs) - (epochs - e) * 60,
      fine_tuned_model_checkpoint: e === epochs ? modelName(j) : `${modelName(j)}:ckpt-step-${step}`,
      fine_tuning_job_id: j.id,
      step_number: step,
      metrics: { step, train_loss, train_mean_token_accuracy: Math.round((1 - train_loss / 2.5) * 1000) / 1000, ...valid },
    });
  }
  return out;
}

/** Why a training line is not an example of `method`, or undefined when it is one. */
function exampleError(line: string, method: Method): string | undefined {
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch {
    return "Invalid file format. Line is not valid JSON";
  }
  if (typeof v !== "object" || v === null || Array.isArray(v)) return "Invalid file format. Each line must be a JSON object";
  const o = v as Record<string, unknown>;
  const messagesError = (messages: unknown, needAssistant: boolean): string | undefined => {
    if (!Array.isArray(messages) || messages.length === 0) return "Invalid file format. Example is missing key 'messages'";
    for (const [i, m] of messages.entries()) {
      const role = typeof m === "object" && m !== null ? (m as { role?: unknown }).role : undefined;
      if (typeof role !== "string" || !["system", "developer", "user", "assistant", "tool"].includes(role)) return `Invalid file format. Message ${i + 1} has an unrecognized role: ${String(role)}`;
    }
    if (needAssistant && !messages.some((m) => (m as { role: string }).role === "assistant")) return "Invalid file format. Example has no assistant message";
    return undefined;
  };
  if (method === "dpo") {
    const input = o.input as { messages?: unknown } | undefined;
    if (typeof input !== "object" || input === null) return "Invalid file format. Example is missing key 'input'";
    if (!Array.isArray(o.preferred_output) || !Array.isArray(o.non_preferred_output)) return "Invalid file format. Example must have 'preferred_output' and 'non_preferred_output'";
    return messagesError(input.messages, false);
  }
  return messagesError(o.messages, method === "supervised");
}

/** Reads the training file as the API's validation does: its examples, their tokens (⌈characters / 4⌉), and the first fault. */
async function validate(files: FileStore, fileId: string, method: Method): Promise<{ examples: number; tokens: number; failure: JobRecord["failure"] }> {
  let examples = 0;
  let chars = 0;
  let fault: string | undefined;
  let line = 0;
  for await (const text of files.lines(fileId)) {
    line++;
    if (text.trim() === "") continue;
    chars += text.length;
    if (chars > CHECKED_BYTES) {
      examples++;
      continue;
    }
    examples++;
    if (fault === undefined) {
      const why = exampleError(text, method);
      if (why !== undefined) fault = `${why} (example ${examples}, line ${line}).`;
    }
  }
  const failure = (message: string) => ({ code: "invalid_training_file", message: `The job failed due to an invalid training file. ${message}`, param: "training_file" });
  if (fault !== undefined) return { examples, tokens: Math.ceil(chars / 4), failure: failure(fault) };
  if (examples < MIN_EXAMPLES) return { examples, tokens: Math.ceil(chars / 4), failure: failure(`Training file has ${examples} example(s), but must have at least ${MIN_EXAMPLES} examples.`) };
  return { examples, tokens: Math.ceil(chars / 4), failure: null };
}

function hyperOf(value: unknown, at: string): Hyper | ApiError {
  const out: Hyper = { batch_size: "auto", learning_rate_multiplier: "auto", n_epochs: "auto" };
  if (value === undefined || value === null) return out;
  if (typeof value !== "object" || Array.isArray(value)) return invalidType(at, "an object", value);
  for (const key of ["batch_size", "learning_rate_multiplier", "n_epochs"] as const) {
    const v = (value as Record<string, unknown>)[key];
    if (v === undefined || v === "auto") continue;
    const integer = key !== "learning_rate_multiplier";
    if (typeof v !== "number" || (integer && !Number.isInteger(v))) return invalidType(`${at}.${key}`, integer ? "'auto' or an integer" : "'auto' or a number", v);
    if (integer && v < 1) return invalid(`Invalid '${at}.${key}': integer below minimum value. Expected a value >= 1, but got ${v} instead.`, `${at}.${key}`);
    if (!(v > 0)) return invalid(`Invalid '${at}.${key}': number below minimum value. Expected a value > 0, but got ${v} instead.`, `${at}.${key}`);
    if (key === "n_epochs" && v > 50) return invalid(`Invalid '${at}.n_epochs': integer above maximum value. Expected a value <= 50, but got ${v} instead.`, `${at}.n_epochs`);
    out[key] = v;
  }
  return out;
}

/** The jobs' index: one session object of the caller's namespace (as vector stores and conversations keep theirs). */
const home = (rt: Runtime): StoredResponses => rt.sessions.get("__index/fine_tuning_jobs");

async function load(rt: Runtime, id: string): Promise<JobRecord | null> {
  const json = await home(rt).objectById(KIND, id);
  return json === null ? null : (parsedObjects<JobRecord>([json])[0] ?? null);
}

/** Keeps the job (beyond MAX_JOBS, the oldest are dropped). */
const save = (rt: Runtime, j: JobRecord) => home(rt).putObjects(KIND, [{ id: j.id, json: JSON.stringify(j) }], MAX_JOBS);

/** Every job, oldest first. */
async function all(rt: Runtime): Promise<JobRecord[]> {
  return parsedObjects<JobRecord>((await home(rt).listObjects(KIND)).map((o) => o.json));
}

/** The fine-tuned models of the caller's succeeded jobs (not deleted), for the model routes (../../models.ts). */
export const fineTunedModels: OwnModels = {
  async list(rt) {
    const now = Date.now();
    return (await all(rt)).filter((j) => !j.modelDeleted && statusAt(j, now) === "succeeded").map((j) => ({ id: modelName(j), created: secs(j.readyMs) }));
  },
  async delete(rt, id) {
    const now = Date.now();
    const job = (await all(rt)).find((j) => !j.modelDeleted && statusAt(j, now) === "succeeded" && modelName(j) === id);
    if (job === undefined) return false;
    await save(rt, { ...job, modelDeleted: true });
    return true;
  },
};

const noSuchJob = (id: string): ApiError => apiError("not_found", `No such fine-tuning job: ${echoed(id)}`, { param: "fine_tuning_job_id" });

async function create(request: Request, files: FileStore, a: PlatformAnswer, ctx: SideRouteContext): Promise<Response> {
  const body = await objectBody(request);
  if (!body.ok) return a.fail(body.error);
  const b = body.value;
  if (b.model === undefined || b.model === null) return a.fail(missingParameter("model"));
  if (typeof b.model !== "string") return a.fail(invalidType("model", "a string", b.model));
  if (b.training_file === undefined || b.training_file === null) return a.fail(missingParameter("training_file"));
  if (typeof b.training_file !== "string") return a.fail(invalidType("training_file", "a string", b.training_file));
  for (const param of ["training_file", "validation_file"] as const) {
    const id = b[param];
    if (id === undefined || id === null) continue;
    if (typeof id !== "string") return a.fail(invalidType(param, "a string", id));
    const f = await files.get(id);
    if (f === null) return a.fail(invalid(`invalid ${param}: ${echoed(id)}`, param));
    if (f.purpose !== "fine-tune") return a.fail(invalid(`invalid ${param}: ${echoed(id)} has purpose '${f.purpose}', not 'fine-tune'`, param));
  }
  if (b.suffix !== undefined && b.suffix !== null && (typeof b.suffix !== "string" || b.suffix.length > 64)) {
    return a.fail(typeof b.suffix !== "string" ? invalidType("suffix", "a string", b.suffix) : invalid("Invalid 'suffix': string too long. Expected a string with maximum length 64.", "suffix"));
  }
  if (b.seed !== undefined && b.seed !== null && !Number.isInteger(b.seed)) return a.fail(invalidType("seed", "an integer", b.seed));
  const metadata = checkMetadata(b.metadata);
  if (!metadata.ok) return a.fail(metadata.error);
  const m = (b.method ?? { type: "supervised" }) as Record<string, unknown>;
  if (typeof m !== "object" || m === null || Array.isArray(m)) return a.fail(invalidType("method", "an object", m));
  const method = m.type ?? "supervised";
  if (typeof method !== "string" || !(METHODS as readonly string[]).includes(method)) {
    return a.fail(invalid(`Invalid value: '${echoed(String(method))}'. Supported values are: 'supervised', 'dpo', and 'reinforcement'.`, "method.type"));
  }
  const settings = own(m, method);
  const methodSettings = typeof settings === "object" && settings !== null && !Array.isArray(settings) ? { ...(settings as Record<string, unknown>) } : {};
  if (method === "reinforcement") {
    // A reinforcement job's grader is checked as `alpha.graders.validate` checks it (../evals/graders.ts).
    const grader = methodSettings.grader;
    const bad = grader === undefined || grader === null ? missingParameter("method.reinforcement.grader") : graderError(grader, "method.reinforcement.grader", "alpha", { sample: true });
    if (bad) return a.fail(bad);
  }
  const methodHyper = methodSettings.hyperparameters;
  delete methodSettings.hyperparameters;
  if (b.hyperparameters !== undefined && b.hyperparameters !== null && methodHyper !== undefined && methodHyper !== null) {
    return a.fail(invalid("Specify hyperparameters in 'method' or at the top level, not both.", "hyperparameters"));
  }
  const hyper = hyperOf(methodHyper ?? b.hyperparameters, methodHyper !== undefined && methodHyper !== null ? `method.${method}.hyperparameters` : "hyperparameters");
  if ("code" in hyper) return a.fail(hyper);
  if (b.integrations !== undefined && b.integrations !== null && !Array.isArray(b.integrations)) return a.fail(invalidType("integrations", "an array", b.integrations));
  const checked = await validate(files, b.training_file, method as Method);
  const now = Date.now();
  const p = await processingMs(request, ctx.rt);
  const id = sortableId("ftjob-", 16);
  const job: JobRecord = {
    id,
    model: b.model,
    trainingFile: b.training_file,
    validationFile: typeof b.validation_file === "string" ? b.validation_file : null,
    suffix: typeof b.suffix === "string" && b.suffix !== "" ? b.suffix : null,
    seed: typeof b.seed === "number" ? b.seed : stableHash(id) % 2 ** 31,
    method: method as Method,
    methodSettings,
    hyper,
    metadata: metadata.value ?? null,
    integrations: Array.isArray(b.integrations) ? b.integrations : null,
    ...checked,
    createdMs: now,
    validatedMs: now + p / 4,
    startedMs: now + p / 2,
    readyMs: now + p,
  };
  await save(ctx.rt, job);
  await raiseEnd(ctx.rt, job);
  // The answer of the create call is the job as made: its files not yet validated.
  return a.json(jobObject(job, Math.min(now, job.validatedMs - 1)));
}

/** A succeeded job's results file (a CSV of its steps' metrics), written on the first read that finds it done. */
async function withResults(rt: Runtime, files: FileStore, j: JobRecord, now: number): Promise<JobRecord> {
  if (statusAt(j, now) !== "succeeded" || j.resultFile !== undefined) return j;
  const { total } = steps(j);
  const every = Math.ceil(total / MAX_RESULT_ROWS);
  let csv = "step,train_loss,train_accuracy,valid_loss,valid_mean_token_accuracy\n";
  for (let step = every; step <= total; step += every) {
    const loss = lossAt(j, step, total);
    csv += `${step},${loss},${Math.round((1 - loss / 2.5) * 1000) / 1000},,\n`;
  }
  const bytes = new TextEncoder().encode(csv);
  const fileId = `file-${stableToken(`ftresult|${j.id}`, 22)}`;
  await files.create({ id: fileId, filename: "step_metrics.csv", purpose: "fine-tune-results", bytes: bytes.length, createdAt: secs(j.readyMs), mimeType: "text/csv" }, bytes);
  const next = { ...j, resultFile: fileId };
  await save(rt, next);
  return next;
}

/**
 * The job after `action` at `now`, or why the job refuses it: a job not yet ended may be cancelled; a running one
 * paused (its clock stops); a paused one resumed (its end moves on by the time it was paused).
 * @example transition("pause", runningJob, now) // { ...runningJob, pausedMs: now }
 */
export function transition(action: "cancel" | "pause" | "resume", j: JobRecord, now: number): JobRecord | string {
  const status = statusAt(j, now);
  if (action === "cancel") return ["succeeded", "failed", "cancelled"].includes(status) ? `it is already ${status}` : { ...j, cancelledMs: now };
  if (action === "pause") return status === "running" ? { ...j, pausedMs: now } : `only a running job can be paused, and it is ${status}`;
  if (status !== "paused" || j.pausedMs === undefined) return `only a paused job can be resumed, and it is ${status}`;
  const { pausedMs, ...rest } = j;
  return { ...rest, readyMs: j.readyMs + (now - pausedMs) };
}

async function act(action: "cancel" | "pause" | "resume", j: JobRecord, rt: Runtime, a: PlatformAnswer): Promise<Response> {
  const now = Date.now();
  const next = transition(action, j, now);
  if (typeof next === "string") return a.fail(invalid(`Cannot ${action} fine-tuning job ${j.id}: ${next}.`));
  await save(rt, next);
  await raiseEnd(rt, next);
  return a.json(jobObject(next, now));
}

/**
 * The webhook event the job's end raises, as its record now stands: cancelled when cancelled, failed when its
 * validation failed, succeeded when ready; a paused job's end waits for its resume (its end moves on by the pause).
 */
async function raiseEnd(rt: Runtime, j: JobRecord): Promise<void> {
  const key = `fine_tuning:${j.id}`;
  if (j.cancelledMs !== undefined) return raiseEvent(rt, key, j.cancelledMs, "fine_tuning.job.cancelled", j.id);
  if (j.failure !== null) return raiseEvent(rt, key, j.validatedMs, "fine_tuning.job.failed", j.id);
  if (j.pausedMs !== undefined) return void (await hubOf(rt)?.withdraw(key));
  return raiseEvent(rt, key, j.readyMs, "fine_tuning.job.succeeded", j.id);
}

/** `/v1/fine_tuning/jobs[/{id}[/cancel | /pause | /resume | /events | /checkpoints]]`. */
const ROUTE = /^\/(?:v1\/)?fine_tuning\/jobs(?:\/([^/]+)(?:\/(cancel|pause|resume|events|checkpoints))?)?\/?$/;

async function serveJobs([, rawId, action]: RegExpExecArray, request: Request, path: string, a: PlatformAnswer, ctx: SideRouteContext): Promise<Response> {
  const files = filesOf(ctx.rt.objects);
  if (ctx.rt.objects === undefined || files === undefined) return a.fail(apiError("not_found", "mockllm: this runtime keeps no files."));
  const rt = ctx.rt;
  const query = new URL(request.url).searchParams;
  if (rawId === undefined) {
    return byMethod(request, path, a, {
      async GET() {
        const q = pageQuery(query, "desc");
        if (!q.ok) return a.fail(q.error);
        const now = Date.now();
        const wanted = metadataFilters(query);
        const jobs = (await all(rt)).filter((j) => wanted.every(([k, v]) => j.metadata?.[k] === v));
        const shown = await Promise.all(jobs.map((j) => withResults(rt, files, j, now)));
        return a.json(page(shown.map((j) => jobObject(j, now)) as { id: string }[], { ...q.page, order: "desc" }));
      },
      POST: () => create(request, files, a, ctx),
    });
  }
  const id = safeDecode(rawId);
  const job = await load(rt, id);
  if (job === null) return a.fail(noSuchJob(id));
  if (action === "cancel" || action === "pause" || action === "resume") return byMethod(request, path, a, { POST: () => act(action, job, rt, a) });
  return byMethod(request, path, a, {
    async GET() {
      const now = Date.now();
      if (action === undefined) return a.json(jobObject(await withResults(rt, files, job, now), now));
      const q = pageQuery(query, "desc");
      if (!q.ok) return a.fail(q.error);
      const items = action === "events" ? eventsOf(job, now) : checkpointsOf(job, now);
      return a.json(page(items as unknown as { id: string }[], { ...q.page, order: "desc" }));
    },
  });
}

export const openaiFineTuningJobs = objectRoute(ROUTE, serveJobs);
