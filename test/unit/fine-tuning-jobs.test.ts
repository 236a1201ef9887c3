/**
 * A fine-tuning job's clock: its status through validation, the queue and the run; pausing stops the clock and
 * resuming moves its end on by the pause; what each status refuses.
 */
import { describe, expect, it } from "vitest";
import { eventsOf, statusAt, transition, type JobRecord } from "../../src/providers/openai/module/fine-tuning/jobs";

const job: JobRecord = {
  id: "ftjob-1",
  model: "gpt-4o-mini",
  trainingFile: "file-1",
  validationFile: null,
  suffix: null,
  seed: 1,
  method: "supervised",
  methodSettings: {},
  hyper: { batch_size: "auto", learning_rate_multiplier: "auto", n_epochs: "auto" },
  metadata: null,
  integrations: null,
  examples: 10,
  tokens: 100,
  failure: null,
  createdMs: 1000,
  validatedMs: 1250,
  startedMs: 1500,
  readyMs: 2000,
};

describe("a fine-tuning job's clock", () => {
  it("validates, queues, runs and succeeds at its times; a failed validation ends it when validation does", () => {
    expect([1000, 1249, 1250, 1499, 1500, 1999, 2000].map((t) => statusAt(job, t))).toEqual(["validating_files", "validating_files", "queued", "queued", "running", "running", "succeeded"]);
    const failing = { ...job, failure: { code: "invalid_training_file", message: "m", param: "training_file" } };
    expect([1249, 1250, 5000].map((t) => statusAt(failing, t))).toEqual(["validating_files", "failed", "failed"]);
  });

  it("a pause stops the clock; resuming moves the end on by the pause", () => {
    const paused = transition("pause", job, 1600) as JobRecord;
    expect([statusAt(paused, 1600), statusAt(paused, 9000)]).toEqual(["paused", "paused"]);
    const resumed = transition("resume", paused, 1800) as JobRecord;
    expect([resumed.readyMs, resumed.pausedMs, statusAt(resumed, 2100), statusAt(resumed, 2200)]).toEqual([2200, undefined, "running", "succeeded"]);
    // Paused, nothing after the pause has happened, however long ago the job would have ended.
    expect(eventsOf(paused, 9000).map((e) => e.message.replace(/=.*/, ""))).toEqual([
      "Created fine-tuning job: ftjob-1",
      "Validating training file: file-1",
      "Files validated, moving job to queued state",
      "Fine-tuning job started",
      "Fine-tuning job paused",
    ]);
    expect(eventsOf(resumed, 2200).at(-1)?.message).toBe("The job has successfully completed");
  });

  it("refuses what its status does not allow, and a cancel holds from its time on", () => {
    expect(transition("pause", job, 1300)).toBe("only a running job can be paused, and it is queued");
    expect(transition("resume", job, 1600)).toBe("only a paused job can be resumed, and it is running");
    expect(transition("cancel", job, 2000)).toBe("it is already succeeded");
    const cancelled = transition("cancel", job, 1700) as JobRecord;
    expect([statusAt(cancelled, 1700), statusAt(cancelled, 5000), transition("cancel", cancelled, 1800)]).toEqual(["cancelled", "cancelled", "it is already cancelled"]);
  });
});
