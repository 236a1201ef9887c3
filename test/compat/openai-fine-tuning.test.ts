/**
 * OpenAI fine-tuning jobs through the official `openai` SDK (`client.fineTuning.jobs`): a job on the scenario's async
 * clock (validating, cancelled), one done at once without a scenario (its model, trained tokens, results file,
 * events newest first, checkpoints, and a chat turn naming the model), training files the validation fails, and the
 * refusals of a create the API refuses.
 */
import OpenAI, { toFile } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;
let client: OpenAI;

const example = (i: number) =>
  JSON.stringify({
    messages: [
      { role: "system", content: "Be terse." },
      { role: "user", content: `Question ${i}?` },
      { role: "assistant", content: `Answer ${i}.` },
    ],
  });
const jsonl = (lines: string[]) => `${lines.join("\n")}\n`;
const upload = async (text: string, purpose: "fine-tune" | "batch" = "fine-tune") => client.files.create({ file: await toFile(new TextEncoder().encode(text), "train.jsonl"), purpose });
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: InstanceType<typeof OpenAI.APIError>) => [e.status, (e.error as { message: string }).message],
  );

beforeAll(async () => {
  h = await startHarness();
  await h.upload({ name: "ft-slow", async: { processingMs: 600_000 }, steps: [{ consume: false, respond: { text: "x" } }] });
  client = new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}/v1`, maxRetries: 0 });
});
afterAll(() => h?.stop());

describe("openai fine-tuning jobs", () => {
  it("without a scenario a job is done when next read: its model answers chat, with results, events and checkpoints", async () => {
    const lines = Array.from({ length: 12 }, (_, i) => example(i));
    const file = await upload(jsonl(lines));
    const job = await client.fineTuning.jobs.create({ model: "gpt-4o-mini-2024-07-18", training_file: file.id, suffix: "support-bot", metadata: { team: "support" } });
    expect(job.id).toMatch(/^ftjob-[0-9A-Za-z]{24}$/);
    expect(job).toMatchObject({
      object: "fine_tuning.job",
      status: "validating_files",
      model: "gpt-4o-mini-2024-07-18",
      training_file: file.id,
      fine_tuned_model: null,
      finished_at: null,
      trained_tokens: null,
      hyperparameters: { batch_size: "auto", learning_rate_multiplier: "auto", n_epochs: "auto" },
      method: { type: "supervised", supervised: { hyperparameters: { batch_size: "auto", learning_rate_multiplier: "auto", n_epochs: "auto" } } },
      metadata: { team: "support" },
      error: null,
    });

    const done = await client.fineTuning.jobs.retrieve(job.id);
    const tokens = Math.ceil(lines.join("").length / 4);
    expect(done).toMatchObject({ status: "succeeded", trained_tokens: tokens * 3, hyperparameters: { batch_size: 1, learning_rate_multiplier: 1.8, n_epochs: 3 }, estimated_finish: null });
    expect(done.fine_tuned_model).toMatch(/^ft:gpt-4o-mini-2024-07-18:personal:support-bot:[0-9A-Za-z]{8}$/);
    expect(done.result_files).toHaveLength(1);
    const csv = await (await client.files.content(done.result_files[0]!)).text();
    expect(csv.split("\n")[0]).toBe("step,train_loss,train_accuracy,valid_loss,valid_mean_token_accuracy");
    expect(csv.trim().split("\n")).toHaveLength(1 + 36); // 12 examples, batch 1, 3 epochs

    const events = await client.fineTuning.jobs.listEvents(job.id, { limit: 100 });
    expect(events.data.map((e) => e.message.replace(/loss=\d+\.\d{2}$/, "loss=L"))).toEqual([
      "The job has successfully completed",
      `New fine-tuned model created: ${done.fine_tuned_model}`,
      "Step 36/36: training loss=L",
      "Step 18/36: training loss=L",
      "Step 1/36: training loss=L",
      "Fine-tuning job started",
      "Files validated, moving job to queued state",
      `Validating training file: ${file.id}`,
      `Created fine-tuning job: ${job.id}`,
    ]);
    expect(events.data[2]).toMatchObject({ type: "metrics", level: "info", data: { step: 36, total_steps: 36 } });
    const metrics = events.data.slice(2, 5).map((e) => e.data as { train_loss: number });
    expect(events.data.slice(2, 5).map((e) => e.message.split("=")[1])).toEqual(metrics.map((d) => d.train_loss.toFixed(2)));
    // The loss falls as the run goes on.
    expect(metrics[0]!.train_loss).toBeLessThan(metrics[2]!.train_loss);
    expect((await client.fineTuning.jobs.listEvents(job.id, { limit: 2 })).data).toHaveLength(2);

    const checkpoints = await client.fineTuning.jobs.checkpoints.list(job.id);
    expect(checkpoints.data.map((c) => [c.step_number, c.fine_tuned_model_checkpoint])).toEqual([
      [36, done.fine_tuned_model],
      [24, `${done.fine_tuned_model}:ckpt-step-24`],
      [12, `${done.fine_tuned_model}:ckpt-step-12`],
    ]);

    const chat = await client.chat.completions.create({ model: done.fine_tuned_model!, messages: [{ role: "user", content: "Hi" }] });
    expect(chat.model).toBe(done.fine_tuned_model);
    // The model is the caller's: listed, retrieved and deleted as its owner's.
    const own = { id: done.fine_tuned_model, object: "model", created: done.finished_at, owned_by: "org-mockllm" };
    expect((await client.models.list()).data.filter((m) => m.id.startsWith("ft:"))).toEqual([own]);
    expect(await client.models.retrieve(done.fine_tuned_model!)).toEqual(own);
    // Listed newest first, filtered by metadata.
    expect((await client.fineTuning.jobs.list({ metadata: { team: "support" } })).data.map((j) => j.id)).toEqual([job.id]);
    expect((await client.fineTuning.jobs.list({ metadata: { team: "nobody" } })).data).toEqual([]);
    expect(await refusal(client.fineTuning.jobs.cancel(job.id))).toEqual([400, `Cannot cancel fine-tuning job ${job.id}: it is already succeeded.`]);

    expect(await client.models.delete(done.fine_tuned_model!)).toEqual({ id: done.fine_tuned_model, object: "model", deleted: true });
    expect((await client.models.list()).data.some((m) => m.id === done.fine_tuned_model)).toBe(false);
    expect(await refusal(client.models.delete(done.fine_tuned_model!))).toEqual([404, `The model '${done.fine_tuned_model}' does not exist`]);
    // The job still names the model it made.
    expect((await client.fineTuning.jobs.retrieve(job.id)).fine_tuned_model).toBe(done.fine_tuned_model);
  });

  it("on the scenario's clock a job is still validating; cancelled, it stays so", async () => {
    const slow = new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}/s/ft-slow/run/v1`, maxRetries: 0 });
    const file = await upload(jsonl(Array.from({ length: 10 }, (_, i) => example(i))));
    const job = await slow.fineTuning.jobs.create({ model: "gpt-4.1-mini", training_file: file.id, method: { type: "supervised", supervised: { hyperparameters: { n_epochs: 2 } } } });
    const read = await slow.fineTuning.jobs.retrieve(job.id);
    expect([read.status, read.estimated_finish]).toEqual(["validating_files", null]);
    expect((await slow.fineTuning.jobs.listEvents(job.id)).data.map((e) => e.message)).toEqual([`Validating training file: ${file.id}`, `Created fine-tuning job: ${job.id}`]);
    expect(await refusal(slow.fineTuning.jobs.pause(job.id))).toEqual([400, `Cannot pause fine-tuning job ${job.id}: only a running job can be paused, and it is validating_files.`]);
    const cancelled = await slow.fineTuning.jobs.cancel(job.id);
    expect([cancelled.status, cancelled.fine_tuned_model]).toEqual(["cancelled", null]);
    expect((await slow.fineTuning.jobs.retrieve(job.id)).status).toBe("cancelled");
    expect((await slow.fineTuning.jobs.listEvents(job.id)).data[0]!.message).toBe("Fine-tuning job cancelled");
    expect((await slow.fineTuning.jobs.checkpoints.list(job.id)).data).toEqual([]);
  });

  it("a training file the validation refuses fails the job with invalid_training_file", async () => {
    const few = await client.fineTuning.jobs.create({ model: "gpt-4o-mini", training_file: (await upload(jsonl([example(1), example(2)]))).id });
    expect(await client.fineTuning.jobs.retrieve(few.id)).toMatchObject({
      status: "failed",
      fine_tuned_model: null,
      error: { code: "invalid_training_file", param: "training_file", message: "The job failed due to an invalid training file. Training file has 2 example(s), but must have at least 10 examples." },
    });
    const lines = Array.from({ length: 12 }, (_, i) => example(i));
    lines[4] = JSON.stringify({ messages: [{ role: "moderator", content: "x" }] });
    const bad = await client.fineTuning.jobs.create({ model: "gpt-4o-mini", training_file: (await upload(jsonl(lines))).id });
    const failed = await client.fineTuning.jobs.retrieve(bad.id);
    expect(failed.error?.message).toBe("The job failed due to an invalid training file. Invalid file format. Message 1 has an unrecognized role: moderator (example 5, line 5).");
    expect((await client.fineTuning.jobs.listEvents(bad.id)).data[0]).toMatchObject({ level: "error", message: failed.error?.message });
    // DPO examples are checked as DPO's.
    const dpo = await client.fineTuning.jobs.create({ model: "gpt-4o-mini", training_file: (await upload(jsonl(Array.from({ length: 10 }, (_, i) => example(i))))).id, method: { type: "dpo" } });
    expect((await client.fineTuning.jobs.retrieve(dpo.id)).error?.message).toBe(
      "The job failed due to an invalid training file. Invalid file format. Example is missing key 'input' (example 1, line 1).",
    );
  });

  it("a create the API refuses is a 400 in its words, and no job is kept", async () => {
    const before = (await client.fineTuning.jobs.list({ limit: 100 })).data.length;
    const good = (await upload(jsonl(Array.from({ length: 10 }, (_, i) => example(i))))).id;
    expect(await refusal(client.fineTuning.jobs.create({ model: "gpt-4o-mini", training_file: "file-nope" }))).toEqual([400, "invalid training_file: file-nope"]);
    const batchFile = (await upload(jsonl([example(1)]), "batch")).id;
    expect(await refusal(client.fineTuning.jobs.create({ model: "gpt-4o-mini", training_file: batchFile }))).toEqual([400, `invalid training_file: ${batchFile} has purpose 'batch', not 'fine-tune'`]);
    expect(await refusal(client.fineTuning.jobs.create({ model: "gpt-4o-mini", training_file: good, method: { type: "lora" as never } }))).toEqual([
      400,
      "Invalid value: 'lora'. Supported values are: 'supervised', 'dpo', and 'reinforcement'.",
    ]);
    expect(await refusal(client.fineTuning.jobs.create({ model: "gpt-4o-mini", training_file: good, hyperparameters: { n_epochs: 0 } }))).toEqual([
      400,
      "Invalid 'hyperparameters.n_epochs': integer below minimum value. Expected a value >= 1, but got 0 instead.",
    ]);
    expect(await refusal(client.fineTuning.jobs.create({ model: "gpt-4o-mini", training_file: good, hyperparameters: { learning_rate_multiplier: "fast" as never } }))).toEqual([
      400,
      "Invalid type for 'hyperparameters.learning_rate_multiplier': expected 'auto' or a number, but got a string instead.",
    ]);
    expect(await refusal(client.fineTuning.jobs.create({ model: "gpt-4o-mini", training_file: good, suffix: "s".repeat(65) }))).toEqual([
      400,
      "Invalid 'suffix': string too long. Expected a string with maximum length 64.",
    ]);
    expect(await refusal(client.fineTuning.jobs.create({ training_file: good } as never))).toEqual([400, "Missing required parameter: 'model'."]);
    expect(await refusal(client.fineTuning.jobs.retrieve("ftjob-nope"))).toEqual([404, "No such fine-tuning job: ftjob-nope"]);
    expect((await client.fineTuning.jobs.list({ limit: 100 })).data.length).toBe(before);
  });
});
