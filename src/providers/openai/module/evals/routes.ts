/**
 * OpenAI Evals (`client.evals`, `…runs`, `…runs.outputItems`): an eval is a data source's item schema and testing
 * criteria (graders, ./graders.ts); a run feeds it items (inline `file_content`, or a `file_id` of JSONL lines) and,
 * for a `completions` or `responses` run, samples each item's answer from the model through the scenario — the item's
 * `input_messages` rendered and run as a live turn of the run's session (as a batch line is), so a script decides what
 * the evaluated model says and what each judge model answers. A run lives on the scenario's async clock
 * (`async.processingMs`): `queued` when made, `in_progress` until it is due, then the first read grades the next slice
 * of items (at most `BATCH_LINES_PER_READ`, as a batch) until all are graded and it is `completed`, with
 * `result_counts`, `per_testing_criteria_results`, `per_model_usage` and one output item per data source item.
 *
 * Kept in the caller's namespace: evals and runs in its index session object (as vector stores keep theirs); a run's
 * inline items and its output items in a session object of its own, emptied when the run is deleted.
 */
import { raiseEvent } from "../../../../webhooks/hub";
import { apiError, type ApiError } from "../../../../http/errors";
import { safeDecode } from "../../../../http/url";
import { validateSchema } from "../../../../canonical/schema-validate";
import type { FileStore } from "../../../../objects/files";
import { sortableId } from "../../../../objects/ids";
import { exclusive } from "../../../../objects/records";
import type { Runtime } from "../../../../runtime/types";
import type { StoredResponses } from "../../../../session/types";
import { linesPerRead, originHeaders, requestPrefix, runBatchLine, type LineOrigin } from "../../../../turn/batch";
import { stableToken } from "../../../../util/hash";
import { echoed } from "../../../../util/text";
import type { ProviderSurface, SideRouteContext } from "../../../types";
import { openaiChat } from "../../chat";
import { storedCompletionItems, type StoredCompletionsFilter } from "../../chat/stored";
import { openaiResponses } from "../../responses";
import { byMethod, checkMetadata, invalid, objectBody, objectRoute, page, pageQuery, parsedObjects, processingMs, type PlatformAnswer } from "../../platform";
import { invalidType, missingParameter, unsupportedValue } from "../../request-error";
import { filesOf } from "../batches/files";
import { answerOf, scenarioJudge, usageOf } from "./turns";
import { addUsage, type Grade, grade, type Grader, graderError, messagesError, lookup, MissingVariable, objectOf, render, templateError, type TokenUsage } from "./graders";

/** Evals a namespace keeps, and runs (over all its evals): past these the oldest are forgotten. */
const MAX_EVALS = 1000;
const MAX_RUNS = 1000;
/** Most items one run grades (its inline content or its file's lines). */
export const MAX_ITEMS = 10_000;
/** Word operations of text comparing one read does at most (about a third of a second here) before it stops. */
const WORK_PER_READ = 100_000_000;
const EVAL = "eval";
const RUN = "eval.run";
const ITEM = "eval.run.output_item";
const SOURCE = "eval.run.source";
const DATA_SOURCE_TYPES = ["jsonl", "completions", "responses"] as const;
/** The surface that samples each item of a run that samples. */
const SAMPLERS: Record<string, ProviderSurface<any>> = { completions: openaiChat, responses: openaiResponses };
const CONFIG_TYPES = ["custom", "logs", "stored_completions"] as const;

interface EvalRecord {
  id: string;
  name: string;
  createdMs: number;
  /** When its name or metadata last changed (`order_by: updated_at`), and whether they ever did. */
  updatedMs: number;
  updated?: true;
  metadata: Record<string, string> | null;
  /** The data source config as the API answers it (`schema` built from the item schema). */
  config: Record<string, unknown>;
  /** The item schema items are checked against (undefined: any object). */
  itemSchema?: Record<string, unknown>;
  /** Whether templates may name `sample`. */
  samples: boolean;
  /** The testing criteria as answered: each grader with its `id`. */
  criteria: (Grader & { id: string })[];
}

interface Counts {
  total: number;
  errored: number;
  failed: number;
  passed: number;
}

interface RunRecord {
  id: string;
  evalId: string;
  name: string;
  model: string | null;
  createdMs: number;
  dueMs: number;
  metadata: Record<string, string> | null;
  /** The data source as sent, its inline `content` kept apart (the run's own session object). */
  dataSource: Record<string, unknown>;
  origin: LineOrigin;
  /** Items in the source, counted when the run was made. */
  items: number;
  /** Items graded so far. */
  graded: number;
  counts: Counts;
  criteria: Record<string, { passed: number; failed: number }>;
  usage: Record<string, TokenUsage & { invocation_count: number }>;
  doneMs?: number;
  canceledMs?: number;
}

type RunStatus = "queued" | "in_progress" | "completed" | "canceled" | "failed";

const secs = (ms: number) => Math.floor(ms / 1000);
const index = (rt: Runtime): StoredResponses => rt.sessions.get("__index/evals");
/** A run's own session object: its inline items and its output items. */
const runHome = (rt: Runtime, runId: string): StoredResponses => rt.sessions.get(`__evals/${runId}`);

async function loadEval(rt: Runtime, id: string): Promise<EvalRecord | null> {
  const json = await index(rt).objectById(EVAL, id);
  return json === null ? null : (parsedObjects<EvalRecord>([json])[0] ?? null);
}

async function loadRun(rt: Runtime, id: string): Promise<RunRecord | null> {
  const json = await index(rt).objectById(RUN, id);
  return json === null ? null : (parsedObjects<RunRecord>([json])[0] ?? null);
}

const saveEval = (rt: Runtime, e: EvalRecord) => index(rt).putObjects(EVAL, [{ id: e.id, json: JSON.stringify(e) }], MAX_EVALS);
const saveRun = (rt: Runtime, r: RunRecord) => index(rt).putObjects(RUN, [{ id: r.id, json: JSON.stringify(r) }], MAX_RUNS);

const noSuchEval = (id: string): ApiError => apiError("not_found", `Eval with id '${echoed(id)}' not found.`, { param: "eval_id" });
const noSuchRun = (id: string): ApiError => apiError("not_found", `Eval run with id '${echoed(id)}' not found.`, { param: "run_id" });

function evalObject(e: EvalRecord): Record<string, unknown> {
  return { object: "eval", id: e.id, data_source_config: e.config, testing_criteria: e.criteria, name: e.name, created_at: secs(e.createdMs), metadata: e.metadata };
}

/** A stored chat completion's or response's shape, as the `logs` and `stored_completions` configs give `item` and `sample`. */
const SAMPLE_SCHEMA = {
  type: "object",
  properties: {
    model: { type: "string" },
    choices: { type: "array", items: { type: "object" } },
    output_text: { type: "string" },
    output_json: { type: "object" },
    output_tools: { type: "array", items: { type: "object" } },
  },
  required: ["model", "output_text"],
};

/** The data source config as the API answers it, or why it is refused. */
function configOf(raw: unknown): { ok: true; config: Record<string, unknown>; itemSchema?: Record<string, unknown>; samples: boolean } | { ok: false; error: ApiError } {
  const at = "data_source_config";
  if (raw === undefined || raw === null) return { ok: false, error: missingParameter(at) };
  if (typeof raw !== "object" || Array.isArray(raw)) return { ok: false, error: invalidType(at, "an object", raw) };
  const c = raw as Record<string, unknown>;
  if (!(CONFIG_TYPES as readonly unknown[]).includes(c.type)) return { ok: false, error: unsupportedValue(c.type, CONFIG_TYPES, `${at}.type`) };
  const metadata = checkMetadata(c.metadata, `${at}.metadata`);
  if (!metadata.ok) return metadata;
  if (c.type === "custom") {
    const item = c.item_schema;
    if (item === undefined || item === null) return { ok: false, error: missingParameter(`${at}.item_schema`) };
    if (typeof item !== "object" || Array.isArray(item)) return { ok: false, error: invalidType(`${at}.item_schema`, "an object", item) };
    if (c.include_sample_schema !== undefined && c.include_sample_schema !== null && typeof c.include_sample_schema !== "boolean") {
      return { ok: false, error: invalidType(`${at}.include_sample_schema`, "a boolean", c.include_sample_schema) };
    }
    const samples = c.include_sample_schema === true;
    const schema = {
      type: "object",
      properties: { item, ...(samples ? { sample: SAMPLE_SCHEMA } : {}) },
      required: samples ? ["item", "sample"] : ["item"],
    };
    return { ok: true, config: { type: "custom", schema }, itemSchema: item as Record<string, unknown>, samples };
  }
  // logs / stored_completions: items are stored completions (their input and output), samples their answers.
  const schema = { type: "object", properties: { item: { type: "object" }, sample: SAMPLE_SCHEMA }, required: ["item", "sample"] };
  return { ok: true, config: { type: c.type, metadata: metadata.value ?? null, schema }, samples: true };
}

async function createEval(request: Request, a: PlatformAnswer, rt: Runtime): Promise<Response> {
  const body = await objectBody(request);
  if (!body.ok) return a.fail(body.error);
  const b = body.value;
  const config = configOf(b.data_source_config);
  if (!config.ok) return a.fail(config.error);
  if (b.testing_criteria === undefined || b.testing_criteria === null) return a.fail(missingParameter("testing_criteria"));
  if (!Array.isArray(b.testing_criteria)) return a.fail(invalidType("testing_criteria", "an array", b.testing_criteria));
  for (const [i, g] of b.testing_criteria.entries()) {
    const e = graderError(g, `testing_criteria[${i}]`, "eval", { sample: config.samples });
    if (e) return a.fail(e);
  }
  if (b.name !== undefined && b.name !== null && typeof b.name !== "string") return a.fail(invalidType("name", "a string", b.name));
  const metadata = checkMetadata(b.metadata);
  if (!metadata.ok) return a.fail(metadata.error);
  const id = sortableId("eval_", 24);
  const e: EvalRecord = {
    id,
    name: typeof b.name === "string" ? b.name : "",
    createdMs: Date.now(),
    updatedMs: Date.now(),
    metadata: metadata.value ?? null,
    config: config.config,
    ...(config.itemSchema !== undefined ? { itemSchema: config.itemSchema } : {}),
    samples: config.samples,
    // Each criterion's id: its name and a UUID-shaped token of the eval and its place, as the API names them.
    criteria: (b.testing_criteria as Grader[]).map((g, i) => ({ ...g, id: `${g.name}-${uuidOf(`${id}|${i}`)}` })),
  };
  await saveEval(rt, e);
  return a.json(evalObject(e));
}

function uuidOf(seed: string): string {
  const hex = stableToken(`uuid|${seed}`, 32)
    .toLowerCase()
    .replace(/[^0-9a-f]/g, (c) => (c.charCodeAt(0) % 16).toString(16));
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-8${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** One data source item: the `item` graders read, and the `sample` given with it (a `jsonl` run's answers). */
interface SourceItem {
  item: Record<string, unknown>;
  sample?: Record<string, unknown>;
}

/** A file line or inline entry as an item: `{"item": …, "sample"?: …}`, or a bare object taken as the item. */
function sourceItem(v: unknown): SourceItem | undefined {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return undefined;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  if (keys.length > 0 && keys.every((k) => k === "item" || k === "sample") && typeof o.item === "object" && o.item !== null && !Array.isArray(o.item)) {
    return { item: o.item as Record<string, unknown>, ...(typeof o.sample === "object" && o.sample !== null ? { sample: o.sample as Record<string, unknown> } : {}) };
  }
  return { item: o };
}

/** Why `item` does not match the eval's item schema (its first error), or undefined. */
function itemSchemaError(e: EvalRecord, item: Record<string, unknown>): string | undefined {
  if (e.itemSchema === undefined) return undefined;
  const first = validateSchema(e.itemSchema, item)[0];
  return first === undefined ? undefined : `item${first.path === "" ? "" : ` at '${first.path}'`} ${first.message}`;
}

/** Each sampling parameter's type, as the run's create checks it (its values are the sampled turn's to check). */
const SAMPLING_TYPES: Record<string, "number" | "integer" | "object" | "array" | "string"> = {
  temperature: "number",
  top_p: "number",
  seed: "integer",
  max_completion_tokens: "integer",
  reasoning_effort: "string",
  response_format: "object",
  text: "object",
  tools: "array",
};

function samplingError(params: unknown, at: string): ApiError | undefined {
  if (params === undefined || params === null) return undefined;
  if (typeof params !== "object" || Array.isArray(params)) return invalidType(at, "an object", params);
  for (const [key, v] of Object.entries(params)) {
    const want = SAMPLING_TYPES[key];
    if (want === undefined || v === null) continue;
    const ok = want === "integer" ? Number.isInteger(v) : want === "array" ? Array.isArray(v) : want === "object" ? typeof v === "object" && !Array.isArray(v) : typeof v === want;
    if (!ok) return invalidType(`${at}.${key}`, want === "integer" ? "an integer" : want === "array" ? "an array" : `a${want === "object" ? "n" : ""} ${want}`, v);
  }
  return undefined;
}

/** A `stored_completions` source's selection, checked (at most MAX_ITEMS, and the `limit` asked). */
function storedFilter(s: Record<string, unknown>, at: string): StoredCompletionsFilter | ApiError {
  for (const key of ["created_after", "created_before", "limit"]) {
    const v = s[key];
    if (v !== undefined && v !== null && !Number.isInteger(v)) return invalidType(`${at}.${key}`, "an integer", v);
  }
  if (s.model !== undefined && s.model !== null && typeof s.model !== "string") return invalidType(`${at}.model`, "a string", s.model);
  const metadata = checkMetadata(s.metadata, `${at}.metadata`);
  if (!metadata.ok) return metadata.error;
  return {
    model: s.model as string | null | undefined,
    metadata: metadata.value,
    createdAfter: s.created_after as number | null | undefined,
    createdBefore: s.created_before as number | null | undefined,
    limit: Math.min(MAX_ITEMS, typeof s.limit === "number" ? Math.max(0, s.limit) : MAX_ITEMS),
  };
}

/**
 * The run's data source checked against its eval; its items kept apart when given inline or taken from the caller's
 * stored completions (read once, when the run is made); the number of items.
 */
async function checkDataSource(
  raw: unknown,
  e: EvalRecord,
  files: FileStore,
  rt: Runtime,
): Promise<{ ok: true; dataSource: Record<string, unknown>; content?: SourceItem[]; items: number; model: string | null } | { ok: false; error: ApiError }> {
  const at = "data_source";
  const fail = (error: ApiError) => ({ ok: false as const, error });
  if (raw === undefined || raw === null) return fail(missingParameter(at));
  if (typeof raw !== "object" || Array.isArray(raw)) return fail(invalidType(at, "an object", raw));
  const d = raw as Record<string, unknown>;
  if (!(DATA_SOURCE_TYPES as readonly unknown[]).includes(d.type)) return fail(unsupportedValue(d.type, DATA_SOURCE_TYPES, `${at}.type`));
  const s = d.source as Record<string, unknown> | undefined | null;
  if (s === undefined || s === null) return fail(missingParameter(`${at}.source`));
  if (typeof s !== "object" || Array.isArray(s)) return fail(invalidType(`${at}.source`, "an object", s));
  const sourceTypes = d.type === "jsonl" ? ["file_content", "file_id"] : ["file_content", "file_id", d.type === "completions" ? "stored_completions" : "responses"];
  if (!sourceTypes.includes(s.type as string)) return fail(unsupportedValue(s.type, sourceTypes, `${at}.source.type`));
  if (s.type === "responses") {
    return fail(invalid("mockllm: a run's source 'responses' (the caller's stored responses) is not served; give the items as 'file_content' or 'file_id'.", `${at}.source.type`));
  }
  let model: string | null = null;
  if (d.type !== "jsonl") {
    if (typeof d.model !== "string") return fail(d.model === undefined || d.model === null ? missingParameter(`${at}.model`) : invalidType(`${at}.model`, "a string", d.model));
    model = d.model;
    const im = d.input_messages as Record<string, unknown> | undefined | null;
    if (im === undefined || im === null) return fail(missingParameter(`${at}.input_messages`));
    const bad = samplingError(d.sampling_params, `${at}.sampling_params`);
    if (bad) return fail(bad);
    // A template names the item only: the sample is what it makes.
    if (im.type === "template") {
      const bad = messagesError(im.template, `${at}.input_messages.template`, { sample: false });
      if (bad) return fail(bad);
    } else if (im.type === "item_reference") {
      const ref = im.item_reference;
      if (typeof ref !== "string") return fail(invalidType(`${at}.input_messages.item_reference`, "a string", ref));
      const bad = templateError(`{{${ref}}}`, `${at}.input_messages.item_reference`, { sample: false });
      if (bad) return fail(bad);
    } else return fail(unsupportedValue(im.type, ["template", "item_reference"], `${at}.input_messages.type`));
  }
  if (s.type === "stored_completions") {
    const filter = storedFilter(s, `${at}.source`);
    if ("code" in filter) return fail(filter);
    const content = await storedCompletionItems(rt, filter);
    return { ok: true, dataSource: d, content, items: content.length, model };
  }
  if (s.type === "file_content") {
    if (!Array.isArray(s.content)) return fail(s.content === undefined ? missingParameter(`${at}.source.content`) : invalidType(`${at}.source.content`, "an array", s.content));
    if (s.content.length > MAX_ITEMS) return fail(invalid(`Invalid '${at}.source.content': a run grades at most ${MAX_ITEMS} items, and this one has ${s.content.length}.`, `${at}.source.content`));
    const content: SourceItem[] = [];
    for (const [i, c] of s.content.entries()) {
      const cat = `${at}.source.content[${i}]`;
      const o = c as Record<string, unknown> | null;
      if (typeof o !== "object" || o === null || typeof o.item !== "object" || o.item === null || Array.isArray(o.item)) return fail(invalidType(`${cat}.item`, "an object", o?.item));
      if (o.sample !== undefined && (typeof o.sample !== "object" || o.sample === null || Array.isArray(o.sample))) return fail(invalidType(`${cat}.sample`, "an object", o.sample));
      const why = itemSchemaError(e, o.item as Record<string, unknown>);
      if (why !== undefined) return fail(invalid(`Invalid '${cat}': the ${why} (the eval's item_schema).`, `${cat}.item`));
      content.push(sourceItem({ item: o.item, ...(o.sample !== undefined ? { sample: o.sample } : {}) })!);
    }
    const { content: _, ...rest } = s;
    return { ok: true, dataSource: { ...d, source: rest }, content, items: content.length, model };
  }
  if (typeof s.id !== "string") return fail(s.id === undefined ? missingParameter(`${at}.source.id`) : invalidType(`${at}.source.id`, "a string", s.id));
  const f = await files.get(s.id);
  if (f === null) return fail(apiError("not_found", `No such File object: ${echoed(s.id)}`, { param: `${at}.source.id` }));
  let items = 0;
  for await (const line of files.lines(s.id)) {
    if (line.trim() === "") continue;
    if (++items > MAX_ITEMS) return fail(invalid(`Invalid '${at}.source.id': a run grades at most ${MAX_ITEMS} items, and file ${echoed(s.id)} has more.`, `${at}.source.id`));
  }
  return { ok: true, dataSource: d, items, model };
}

async function createRun(request: Request, path: string, e: EvalRecord, files: FileStore, a: PlatformAnswer, ctx: SideRouteContext): Promise<Response> {
  const body = await objectBody(request);
  if (!body.ok) return a.fail(body.error);
  const b = body.value;
  const checked = await checkDataSource(b.data_source, e, files, ctx.rt);
  if (!checked.ok) return a.fail(checked.error);
  if (b.name !== undefined && b.name !== null && typeof b.name !== "string") return a.fail(invalidType("name", "a string", b.name));
  const metadata = checkMetadata(b.metadata);
  if (!metadata.ok) return a.fail(metadata.error);
  const now = Date.now();
  const { prefix } = requestPrefix(request, path);
  const id = sortableId("evalrun_", 24);
  const run: RunRecord = {
    id,
    evalId: e.id,
    name: typeof b.name === "string" ? b.name : (checked.model ?? `${checked.dataSource.type}-run`),
    model: checked.model,
    createdMs: now,
    dueMs: now + (await processingMs(request, ctx.rt)),
    metadata: metadata.value ?? null,
    dataSource: checked.dataSource,
    origin: { prefix, headers: originHeaders(request.headers), path: checked.dataSource.type === "responses" ? "/v1/responses" : "/v1/chat/completions" },
    items: checked.items,
    graded: 0,
    counts: { total: 0, errored: 0, failed: 0, passed: 0 },
    // Every criterion shows in the results, graded or not yet.
    criteria: Object.fromEntries(e.criteria.map((c) => [c.id, { passed: 0, failed: 0 }])),
    usage: {},
  };
  if (checked.content !== undefined) await runHome(ctx.rt, id).putObjects(SOURCE, [{ id: "content", json: JSON.stringify(checked.content) }], 1);
  await saveRun(ctx.rt, run);
  // Its end's webhook event, when it is due (its items are graded on the reads that follow).
  await raiseEvent(ctx.rt, `eval_run:${id}`, run.dueMs, "eval.run.succeeded", id);
  return a.json(await runObject(ctx.rt, run, now, "created"));
}

/** The run's status at `now`: `queued` for the first half of its wait, then `in_progress` until all items are graded. */
function statusOf(r: RunRecord, now: number): RunStatus {
  if (r.canceledMs !== undefined) return "canceled";
  if (r.doneMs !== undefined) return "completed";
  return r.graded === 0 && now < r.createdMs + (r.dueMs - r.createdMs) / 2 ? "queued" : "in_progress";
}

/** The run as the API answers it; its inline items read back into `data_source` (the run was made with them). */
async function runObject(rt: Runtime, r: RunRecord, now: number, moment: "created" | "read"): Promise<Record<string, unknown>> {
  let dataSource = r.dataSource;
  const source = dataSource.source as Record<string, unknown>;
  if (source.type === "file_content") {
    const json = await runHome(rt, r.id).objectById(SOURCE, "content");
    dataSource = { ...dataSource, source: { ...source, content: json === null ? [] : JSON.parse(json) } };
  }
  const status = moment === "created" ? "queued" : statusOf(r, now);
  const done = status === "completed" || status === "canceled";
  return {
    object: "eval.run",
    id: r.id,
    eval_id: r.evalId,
    report_url: `https://platform.openai.com/evaluations/${r.evalId}?run_id=${r.id}`,
    status,
    model: r.model,
    name: r.name,
    created_at: secs(r.createdMs),
    result_counts: r.counts,
    per_model_usage: done || r.graded > 0 ? Object.entries(r.usage).map(([model_name, u]) => ({ model_name, ...u })) : null,
    per_testing_criteria_results: done || r.graded > 0 ? Object.entries(r.criteria).map(([testing_criteria, c]) => ({ testing_criteria, ...c })) : null,
    data_source: dataSource,
    shared_with_openai: false,
    error: null,
    metadata: r.metadata,
  };
}

/** The messages a sampled turn sends for `item`: the template rendered, or the messages the item holds. */
function inputMessages(d: Record<string, unknown>, vars: Record<string, unknown>): { role: string; content: unknown }[] {
  const im = d.input_messages as Record<string, unknown>;
  if (im.type === "item_reference") {
    const messages = lookup(vars, im.item_reference as string);
    const isMessage = (m: unknown) => {
      const o = m as { role?: unknown; content?: unknown } | null;
      return typeof o === "object" && o !== null && typeof o.role === "string" && (typeof o.content === "string" || (typeof o.content === "object" && o.content !== null));
    };
    if (!Array.isArray(messages) || !messages.every(isMessage)) {
      throw new MissingVariable(`The item_reference '${echoed(im.item_reference as string)}' names no list of messages (each with a role and content).`);
    }
    return messages as { role: string; content: unknown }[];
  }
  return (im.template as Record<string, unknown>[]).map((m) => {
    const content = m.content;
    if (typeof content === "string") return { role: m.role as string, content: render(content, vars) };
    const parts = partsOf(content);
    return { role: m.role as string, content: parts.map((p) => (typeof p.text === "string" ? { ...p, text: render(p.text, vars) } : p)) };
  });
}

/** A Chat or Responses request sampling `messages` with the data source's model and sampling params. */
function sampleRequest(d: Record<string, unknown>, messages: { role: string; content: unknown }[]): Record<string, unknown> {
  const p = (d.sampling_params ?? {}) as Record<string, unknown>;
  const pick = (keys: string[]) => Object.fromEntries(keys.filter((k) => p[k] !== undefined && p[k] !== null).map((k) => [k, p[k]]));
  if (d.type === "responses") {
    return {
      model: d.model,
      input: messages.map((m) => ({ type: "message", role: m.role, content: typeof m.content === "string" ? m.content : chatToResponsesParts(partsOf(m.content), m.role) })),
      ...pick(["temperature", "top_p", "seed", "tools", "text"]),
      ...(p.max_completion_tokens !== undefined ? { max_output_tokens: p.max_completion_tokens } : {}),
      ...(p.reasoning_effort !== undefined && p.reasoning_effort !== null ? { reasoning: { effort: p.reasoning_effort } } : {}),
      store: false,
    };
  }
  return {
    model: d.model,
    messages: messages.map((m) => ({ role: m.role, content: typeof m.content === "string" ? m.content : responsesToChatParts(partsOf(m.content)) })),
    ...pick(["temperature", "top_p", "seed", "tools", "response_format", "max_completion_tokens", "reasoning_effort"]),
  };
}

/** A message's content parts: one part or a list of them, anything that is no object left out. */
function partsOf(content: unknown): Record<string, unknown>[] {
  return (Array.isArray(content) ? content : [content]).filter((p): p is Record<string, unknown> => typeof p === "object" && p !== null);
}

function chatToResponsesParts(parts: Record<string, unknown>[], role: string): Record<string, unknown>[] {
  return parts.map((p) => (typeof p.text === "string" ? { type: role === "assistant" ? "output_text" : "input_text", text: p.text } : p));
}

function responsesToChatParts(parts: Record<string, unknown>[]): Record<string, unknown>[] {
  return parts.map((p) => (p.type === "input_image" ? { type: "image_url", image_url: { url: p.image_url } } : typeof p.text === "string" ? { type: "text", text: p.text } : p));
}

/** A message as a sample shows it: its text, and the tool fields Chat messages carry (null). */
function sampleMessage(role: string, content: unknown): Record<string, unknown> {
  const parts = typeof content === "string" ? [] : partsOf(content);
  const text = typeof content === "string" ? content : parts.map((p) => (typeof p?.text === "string" ? p.text : "")).join("");
  return { role, content: text, tool_call_id: null, tool_calls: null, function_call: null };
}

interface OutputItem {
  id: string;
  n: number;
  status: "pass" | "fail" | "error";
  json: string;
  /** Its graders' comparing, in word operations (graders.ts `Grade.work`). */
  work: number;
  /** Turns it took: its sample's and its judges'. */
  turns: number;
}

/** Grades item `n` of run `r`: samples it when the run samples, runs each criterion, and answers its output item. */
async function gradeItem(rt: Runtime, e: EvalRecord, r: RunRecord, n: number, src: SourceItem | undefined, now: number): Promise<OutputItem> {
  const d = r.dataSource;
  const id = `outputitem_${stableToken(`evalitem|${r.id}|${n}`, 24)}`;
  const ref = (suffix: string) => ({ id: r.id, customId: `${r.id}/${n}${suffix}` });
  let sample: Record<string, unknown> | null = src?.sample ?? null;
  let shown: Record<string, unknown> | null = null;
  let error: { code: string; message: string } | null = null;
  const usage: Grade["usage"] = {};
  if (src === undefined) error = { code: "invalid_item", message: `Line ${n + 1} of the data source is not a JSON object.` };
  else {
    const why = itemSchemaError(e, src.item);
    if (why !== undefined) error = { code: "invalid_item", message: `The ${why} (the eval's item_schema).` };
  }
  if (error === null && src !== undefined && d.type !== "jsonl") {
    try {
      const messages = inputMessages(d, { item: src.item });
      const body = sampleRequest(d, messages);
      const answer = await runBatchLine(SAMPLERS[d.type as string]!, rt, body, r.origin, ref(""));
      const out = (answer.body ?? {}) as Record<string, unknown>;
      const u = usageOf(out);
      const model = typeof out.model === "string" ? out.model : (r.model ?? "");
      addUsage(usage, { [model]: { ...u, invocation_count: 1 } });
      const p = (d.sampling_params ?? {}) as Record<string, unknown>;
      const base = {
        input: messages.map((m) => sampleMessage(m.role, m.content)),
        model,
        usage: u,
        seed: p.seed ?? 42,
        temperature: p.temperature ?? 1,
        top_p: p.top_p ?? 1,
        max_completion_tokens: p.max_completion_tokens ?? 2048,
      };
      if (answer.status >= 400) {
        const err = (out.error ?? {}) as { code?: string; message?: string };
        error = { code: err.code ?? String(answer.status), message: err.message ?? `The model answered ${answer.status}.` };
        shown = { ...base, output: [], finish_reason: "", error };
      } else {
        const a = answerOf(out);
        shown = { ...base, output: [sampleMessage("assistant", a.text)], finish_reason: a.finish, error: null };
        sample = { model, output_text: a.text, output_json: objectOf(a.text), output_tools: a.tools, ...(a.choices !== undefined ? { choices: a.choices } : {}) };
      }
    } catch (x) {
      if (!(x instanceof MissingVariable)) throw x;
      error = { code: "invalid_variable_error", message: (x as Error).message };
    }
  }
  const results: Record<string, unknown>[] = [];
  let work = 0;
  let turns = shown === null ? 0 : 1;
  if (error === null && src !== undefined) {
    // Each judge's turn is named by the criterion it grades.
    const judge = scenarioJudge(rt, r.origin, () => {
      turns++;
      return ref(`/${results.length}`);
    });
    for (const c of e.criteria) {
      const g = await grade(c, { item: src.item, sample }, judge);
      addUsage(usage, g.usage);
      work += g.work ?? 0;
      results.push({
        name: c.id,
        type: `${c.type.replaceAll("_", "-")}-grader`,
        score: g.score,
        passed: g.passed,
        sample: g.sample,
        ...(g.error ? { error: { code: g.error.kind, message: g.error.message } } : {}),
        ...(g.label !== undefined ? { label: g.label } : {}),
      });
    }
  }
  const status = error !== null || results.some((x) => "error" in x) ? "error" : results.every((x) => x.passed === true) ? "pass" : "fail";
  // Tallied into the run here (the caller saves it).
  r.counts.total++;
  if (status === "error") r.counts.errored++;
  else r.counts[status === "pass" ? "passed" : "failed"]++;
  for (const x of results) {
    if ("error" in x) continue;
    const c = (r.criteria[x.name as string] ??= { passed: 0, failed: 0 });
    c[x.passed === true ? "passed" : "failed"]++;
  }
  addUsage(r.usage, usage);
  const object = {
    object: "eval.run.output_item",
    id,
    created_at: secs(now),
    run_id: r.id,
    eval_id: r.evalId,
    status,
    datasource_item_id: n,
    datasource_item: src?.item ?? {},
    results,
    sample:
      shown ?? (error !== null ? { input: [], output: [], error, finish_reason: "", model: r.model ?? "", usage: zeroUsage(), seed: 0, temperature: 1, top_p: 1, max_completion_tokens: 0 } : null),
  };
  return { id, n, status, json: JSON.stringify(object), work, turns };
}

const zeroUsage = (): TokenUsage => ({ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0, cached_tokens: 0 });

/** The run's next slice of items (those graded by earlier reads skipped), at most `max`. */
async function* itemsOf(rt: Runtime, files: FileStore, r: RunRecord, max: number): AsyncGenerator<SourceItem | undefined> {
  const source = r.dataSource.source as Record<string, unknown>;
  if (source.type !== "file_id") {
    const json = await runHome(rt, r.id).objectById(SOURCE, "content");
    const content = json === null ? [] : (JSON.parse(json) as SourceItem[]);
    yield* content.slice(r.graded, r.graded + max);
    return;
  }
  let seen = 0;
  let given = 0;
  for await (const line of files.lines(source.id as string)) {
    if (line.trim() === "") continue;
    if (seen++ < r.graded) continue;
    if (given++ === max) return;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch {
      v = undefined;
    }
    yield sourceItem(v);
  }
}

/** The run as it stands now, grading its next slice first when it is due. */
async function advance(rt: Runtime, files: FileStore, r: RunRecord): Promise<RunRecord> {
  const due = (x: RunRecord) => x.doneMs === undefined && x.canceledMs === undefined && Date.now() >= x.dueMs;
  if (!due(r)) return r;
  return exclusive(
    `evalrun:${r.id}`,
    async () => {
      const fresh = await loadRun(rt, r.id);
      if (fresh === null || !due(fresh)) return fresh ?? r;
      const e = await loadEval(rt, fresh.evalId);
      if (e === null) return fresh;
      const now = Date.now();
      const out: OutputItem[] = [];
      const maxTurns = linesPerRead(rt);
      let work = 0;
      let turns = 0;
      for await (const src of itemsOf(rt, files, fresh, maxTurns)) {
        const item = await gradeItem(rt, e, fresh, fresh.graded + out.length, src, now);
        out.push(item);
        // A read runs at most a batch read's turns (samples and judges alike) and a bounded amount of comparing: the
        // rest goes on at the next read.
        work += item.work;
        turns += item.turns;
        if (work >= WORK_PER_READ || turns >= maxTurns) break;
      }
      fresh.graded += out.length;
      if (out.length > 0)
        await runHome(rt, fresh.id).putObjects(
          ITEM,
          out.map((o) => ({ id: o.id, json: o.json })),
          MAX_ITEMS,
        );
      if (fresh.graded >= fresh.items) fresh.doneMs = Date.now();
      await saveRun(rt, fresh);
      return fresh;
    },
    async () => (await loadRun(rt, r.id)) ?? r,
  );
}

async function outputItems(rt: Runtime, r: RunRecord): Promise<Record<string, unknown>[]> {
  return parsedObjects<Record<string, unknown>>((await runHome(rt, r.id).listObjects(ITEM)).map((o) => o.json));
}

/** `/v1/evals[/{id}[/runs[/{run}[/cancel | /output_items[/{item}]]]]]`. */
const ROUTE = /^\/(?:v1\/)?evals(?:\/([^/]+)(?:\/runs(?:\/([^/]+)(?:\/(output_items|cancel)(?:\/([^/]+))?)?)?)?)?\/?$/;

async function serveEvals([, rawEval, rawRun, items, rawItem]: RegExpExecArray, request: Request, path: string, a: PlatformAnswer, ctx: SideRouteContext): Promise<Response> {
  const files = filesOf(ctx.rt.objects);
  if (ctx.rt.objects === undefined || files === undefined) return a.fail(apiError("not_found", "mockllm: this runtime keeps no files."));
  const rt = ctx.rt;
  const query = new URL(request.url).searchParams;
  if (rawEval === undefined) {
    return byMethod(request, path, a, {
      async GET() {
        const q = pageQuery(query, "asc");
        if (!q.ok) return a.fail(q.error);
        const orderBy = query.get("order_by") ?? "created_at";
        if (orderBy !== "created_at" && orderBy !== "updated_at") return a.fail(unsupportedValue(orderBy, ["created_at", "updated_at"], "order_by"));
        const evals = parsedObjects<EvalRecord>((await index(rt).listObjects(EVAL)).map((o) => o.json));
        // Kept in creation order; by update time when asked — an update in the same millisecond as another eval's
        // creation came after it (a later request).
        if (orderBy === "updated_at") evals.sort((x, y) => x.updatedMs - y.updatedMs || Number(x.updated === true) - Number(y.updated === true));
        return a.json(page(evals.map(evalObject) as { id: string }[], q.page));
      },
      POST: () => createEval(request, a, rt),
    });
  }
  const evalId = safeDecode(rawEval);
  const e = await loadEval(rt, evalId);
  if (e === null) return a.fail(noSuchEval(evalId));
  if (rawRun === undefined && !path.replace(/\/$/, "").endsWith("/runs")) {
    return byMethod(request, path, a, {
      GET: () => a.json(evalObject(e)),
      async POST() {
        const body = await objectBody(request);
        if (!body.ok) return a.fail(body.error);
        const b = body.value;
        if (b.name !== undefined && b.name !== null && typeof b.name !== "string") return a.fail(invalidType("name", "a string", b.name));
        const metadata = checkMetadata(b.metadata);
        if (!metadata.ok) return a.fail(metadata.error);
        const next = {
          ...e,
          ...(typeof b.name === "string" ? { name: b.name } : {}),
          ...(metadata.value !== undefined ? { metadata: metadata.value } : {}),
          updatedMs: Date.now(),
          updated: true as const,
        };
        await saveEval(rt, next);
        return a.json(evalObject(next));
      },
      async DELETE() {
        await index(rt).deleteObject(EVAL, e.id);
        for (const r of await runsOf(rt, e.id)) await dropRun(rt, r);
        return a.json({ object: "eval.deleted", deleted: true, eval_id: e.id });
      },
    });
  }
  if (rawRun === undefined) {
    return byMethod(request, path, a, {
      async GET() {
        const q = pageQuery(query, "asc");
        if (!q.ok) return a.fail(q.error);
        const status = query.get("status");
        const STATUSES = ["queued", "in_progress", "completed", "canceled", "failed"];
        if (status !== null && !STATUSES.includes(status)) return a.fail(unsupportedValue(status, STATUSES, "status"));
        const now = Date.now();
        const runs = (await runsOf(rt, e.id)).filter((r) => status === null || statusOf(r, now) === status);
        const pageOf = page(runs, q.page);
        return a.json({ ...pageOf, data: await Promise.all(pageOf.data.map((r) => runObject(rt, r, now, "read"))) });
      },
      POST: () => createRun(request, path, e, files, a, ctx),
    });
  }
  const runId = safeDecode(rawRun);
  const found = await loadRun(rt, runId);
  if (found === null || found.evalId !== e.id) return a.fail(noSuchRun(runId));
  // A run is cancelled by `POST …/runs/{run}` (the API reference) or `…/cancel` (what the SDKs call).
  const cancel = async () => {
    const now = Date.now();
    const status = statusOf(found, now);
    if (status === "completed" || status === "canceled" || status === "failed") return a.fail(invalid(`Cannot cancel eval run ${found.id}: it is already ${status}.`));
    const next = { ...found, canceledMs: now };
    await saveRun(rt, next);
    await raiseEvent(rt, `eval_run:${found.id}`, now, "eval.run.canceled", found.id);
    return a.json(await runObject(rt, next, now, "read"));
  };
  if (items === "cancel") return rawItem === undefined ? byMethod(request, path, a, { POST: cancel }) : a.fail(apiError("not_found", `Unknown request URL: ${request.method} ${echoed(path)}.`));
  if (items === undefined) {
    return byMethod(request, path, a, {
      GET: async () => a.json(await runObject(rt, await advance(rt, files, found), Date.now(), "read")),
      POST: cancel,
      async DELETE() {
        await dropRun(rt, found);
        return a.json({ object: "eval.run.deleted", deleted: true, run_id: found.id });
      },
    });
  }
  const r = await advance(rt, files, found);
  if (rawItem === undefined) {
    return byMethod(request, path, a, {
      async GET() {
        const q = pageQuery(query, "asc");
        if (!q.ok) return a.fail(q.error);
        const status = query.get("status");
        if (status !== null && status !== "pass" && status !== "fail") return a.fail(unsupportedValue(status, ["fail", "pass"], "status"));
        const all = (await outputItems(rt, r)).filter((o) => status === null || o.status === status);
        return a.json(page(all as { id: string }[], q.page));
      },
    });
  }
  const itemId = safeDecode(rawItem);
  return byMethod(request, path, a, {
    async GET() {
      const json = await runHome(rt, r.id).objectById(ITEM, itemId);
      const item = json === null ? undefined : parsedObjects<Record<string, unknown>>([json])[0];
      return item === undefined ? a.fail(apiError("not_found", `Eval run output item with id '${echoed(itemId)}' not found.`, { param: "output_item_id" })) : a.json(item);
    },
  });
}

async function runsOf(rt: Runtime, evalId: string): Promise<RunRecord[]> {
  return parsedObjects<RunRecord>((await index(rt).listObjects(RUN)).map((o) => o.json)).filter((r) => r.evalId === evalId);
}

/** Forgets a run: its record, its inline items and its output items. */
async function dropRun(rt: Runtime, r: RunRecord): Promise<void> {
  await index(rt).deleteObject(RUN, r.id);
  // Keeping at most none of a kind empties it: one call, however many items the run graded.
  const home = runHome(rt, r.id);
  await home.putObjects(ITEM, [], 0);
  await home.putObjects(SOURCE, [], 0);
}

export const openaiEvals = objectRoute(ROUTE, serveEvals, { knows: /^\/(?:v1\/)?evals(?:\/|$)/ });
