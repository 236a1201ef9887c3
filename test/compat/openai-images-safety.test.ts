/**
 * A scripted `content_filter` on OpenAI Images (issue 51, point 4), with the official `openai` SDK on both runtimes:
 * a blocked prompt on `/v1/images/generations` and `/edits` (gpt-image-1, dall-e-3, JSON and stream) is the real
 * API's 400 — `type: "image_generation_user_error"`, `code: "moderation_blocked"`, `moderation_details` — which the
 * SDK throws as `BadRequestError`; no picture is sent, and the journal records the 400. A filtered picture
 * (`on: "completion"`) is the same 400 at `moderation_stage: "output"`.
 */
import OpenAI, { BadRequestError, toFile } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;
const client = (scenario: string, session: string) => new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}/s/${scenario}/${session}/v1`, maxRetries: 0 });

beforeAll(async () => {
  h = await startHarness();
  await h.upload(
    { name: "img-block", steps: [{ consume: false, failures: [{ kind: "content_filter", on: "prompt", categories: ["sexual", "violence"] }], respond: { image: {} } }] },
    { name: "img-filtered", steps: [{ consume: false, failures: [{ kind: "content_filter", on: "completion", categories: ["self_harm"] }], respond: { image: {} } }] },
    { name: "img-block-msg", steps: [{ consume: false, failures: [{ kind: "content_filter", on: "prompt", message: "Blocked by policy." }], respond: { image: {} } }] },
  );
});
afterAll(() => h?.stop());

async function refusal(call: Promise<unknown>): Promise<BadRequestError> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(BadRequestError);
  return error as BadRequestError;
}

describe("OpenAI Images: a content_filter on the prompt is a 400 moderation_blocked", () => {
  it.each(["gpt-image-1", "dall-e-3"])("images.generate with %s", async (model) => {
    const e = await refusal(client("img-block", `gen-${model}`).images.generate({ model, prompt: "something" }));
    const body = e.error as { message: string; moderation_details: unknown };
    expect([e.status, e.type, e.code, e.param, body.moderation_details]).toEqual([
      400,
      "image_generation_user_error",
      "moderation_blocked",
      null,
      { moderation_stage: "input", categories: ["sexual", "violence"] },
    ]);
    const requestId = e.headers?.get("x-request-id");
    expect(body.message).toBe(
      `Your request was rejected by the safety system. If you believe this is an error, contact us at help.openai.com and include the request ID ${requestId}. safety_violations=[sexual, violence].`,
    );
    const journal = await h.journal("img-block", `gen-${model}`);
    expect(journal.map((r) => r.status)).toEqual([400]);
  });

  it("images.edit (multipart) with gpt-image-1, and a stream: refused before any event", async () => {
    const image = await toFile(Buffer.from([0x89, 0x50, 0x4e, 0x47]), "in.png", { type: "image/png" });
    const edit = await refusal(client("img-block", "edit").images.edit({ model: "gpt-image-1", image, prompt: "darker" }));
    expect([edit.status, edit.type, edit.code]).toEqual([400, "image_generation_user_error", "moderation_blocked"]);
    const stream = await refusal(client("img-block", "stream").images.generate({ model: "gpt-image-1", prompt: "sea", stream: true, partial_images: 1 }));
    expect([stream.status, stream.code]).toEqual([400, "moderation_blocked"]);
  });

  it("a scripted message replaces the wording; categories default to the failure's default", async () => {
    const e = await refusal(client("img-block-msg", "m").images.generate({ model: "dall-e-3", prompt: "x" }));
    expect([e.message, (e.error as { moderation_details: unknown }).moderation_details]).toEqual(["400 Blocked by policy.", { moderation_stage: "input", categories: ["illicit"] }]);
  });

  it("on the picture (on: completion): the same 400 at the output stage, JSON and stream; the journal says 400", async () => {
    const e = await refusal(client("img-filtered", "c").images.generate({ model: "gpt-image-1", prompt: "x" }));
    expect([e.status, e.type, e.code, (e.error as { moderation_details: unknown }).moderation_details]).toEqual([
      400,
      "image_generation_user_error",
      "moderation_blocked",
      { moderation_stage: "output", categories: ["self-harm"] },
    ]);
    const stream = await refusal(client("img-filtered", "s").images.generate({ model: "gpt-image-1", prompt: "x", stream: true }));
    expect([stream.status, stream.code]).toEqual([400, "moderation_blocked"]);
    for (const session of ["c", "s"]) expect((await h.journal("img-filtered", session)).map((r) => [r.outcome, r.status])).toEqual([["failure", 400]]);
  });
});
