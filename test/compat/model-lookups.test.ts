/**
 * The calls of the official SDKs' own generated tests that mockllm refused (issue 51 point 6, issue 55 part 5), on
 * both runtimes: `models.retrieve` for any model the surfaces answer, in OpenAI's shape and in Anthropic's (with
 * Anthropic's headers), the provider's 404 for an id no surface takes, `models.delete` of a fine-tuned id, the model
 * listings naming a scenario's models, `images.generate` / `images.edit` with `stream: true` and no `model` (the API
 * reference's default-model rule), and a Responses request without `model` (`missing_required_parameter`).
 */
import Anthropic, { NotFoundError as AnthropicNotFound } from "@anthropic-ai/sdk";
import OpenAI, { BadRequestError, NotFoundError, PermissionDeniedError, toFile } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  await h.upload({
    name: "lookup-models",
    steps: [
      { match: { model: "acme-chat-7b" }, respond: { text: "hi" } },
      { match: { model: "acme chat v2" }, respond: { text: "hi" } },
    ],
  });
}, 120_000);
afterAll(() => h?.stop());

const openai = () => new OpenAI({ baseURL: `${h.url}/v1`, apiKey: "sk-test", maxRetries: 0 });
const anthropic = () => new Anthropic({ baseURL: h.url, apiKey: "sk-ant-test", maxRetries: 0 });

describe("openai: models.retrieve / models.delete", () => {
  it("retrieve answers every model id the surfaces take, in OpenAI's shape", async () => {
    for (const id of ["gpt-4o-mini", "o3", "ft:gpt-4o-mini:acemeco:suffix:abc123", "model_id"]) {
      expect(await openai().models.retrieve(id)).toEqual({ id, object: "model", created: 1_735_689_600, owned_by: "mockllm" });
    }
  });

  it("an id no surface takes: the real lookup's 404, model_not_found", async () => {
    const err = await openai()
      .models.retrieve("gpt 4o")
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotFoundError);
    expect((err as NotFoundError).error).toEqual({ message: "The model 'gpt 4o' does not exist", type: "invalid_request_error", param: "model", code: "model_not_found" });
  });

  it("delete: a fine-tuned id is the real API's 404 (mockllm holds no fine-tuned model); a base model a 403", async () => {
    const ft = await openai()
      .models.delete("ft:gpt-4o-mini:acemeco:suffix:abc123")
      .catch((e: unknown) => e);
    expect(ft).toBeInstanceOf(NotFoundError);
    expect((ft as NotFoundError).error).toEqual({
      message: "The model 'ft:gpt-4o-mini:acemeco:suffix:abc123' does not exist",
      type: "invalid_request_error",
      param: "model",
      code: "model_not_found",
    });
    const base = await openai()
      .models.delete("gpt-4o-mini")
      .catch((e: unknown) => e);
    expect(base).toBeInstanceOf(PermissionDeniedError);
    expect((base as PermissionDeniedError).error).toEqual({ message: "You have insufficient permissions for this operation.", type: "invalid_request_error", param: null, code: null });
  });

  it("the listing names the models a scenario names, and a lookup finds each, whatever its form", async () => {
    const ids: string[] = [];
    for await (const m of openai().models.list()) ids.push(m.id);
    expect(ids).toEqual(expect.arrayContaining(["acme-chat-7b", "acme chat v2"]));
    expect((await openai().models.retrieve("acme chat v2")).id).toBe("acme chat v2");
  });
});

describe("@anthropic-ai/sdk: models.retrieve", () => {
  it("answers any model id in Anthropic's shape (the SDK's own test asks for `model_id`)", async () => {
    expect(await anthropic().models.retrieve("model_id")).toEqual({ type: "model", id: "model_id", display_name: "Model Id", created_at: "2025-01-01T00:00:00Z" });
    expect(await anthropic().models.retrieve("claude-opus-4-1-20250805")).toEqual({
      type: "model",
      id: "claude-opus-4-1-20250805",
      display_name: "Claude Opus 4.1",
      created_at: "2025-08-05T00:00:00Z",
    });
  });

  it("an id no surface takes: not_found_error", async () => {
    const err = await anthropic()
      .models.retrieve("claude 4")
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AnthropicNotFound);
    expect((err as AnthropicNotFound).error).toEqual({ type: "error", error: { type: "not_found_error", message: "model: claude 4" }, request_id: expect.stringMatching(/^req_/) });
  });

  it("the listing names the models a scenario names", async () => {
    const ids: string[] = [];
    for await (const m of anthropic().models.list()) ids.push(m.id);
    expect(ids).toEqual(expect.arrayContaining(["acme-chat-7b", "acme chat v2"]));
    expect((await anthropic().models.retrieve("acme chat v2")).id).toBe("acme chat v2");
  });
});

describe("openai: images with stream and no model (the API reference's default-model rule)", () => {
  it("images.generate({ stream: true }) streams as a GPT image model", async () => {
    const stream = await openai().images.generate({ prompt: "A cute baby sea otter", stream: true });
    const types: string[] = [];
    for await (const e of stream) types.push(e.type);
    expect(types).toEqual(["image_generation.completed"]);
  });

  it("images.edit({ stream: true }) likewise; without a GPT image parameter the default stays dall-e-2", async () => {
    const image = await toFile(Buffer.from([0x89, 0x50, 0x4e, 0x47]), "in.png", { type: "image/png" });
    const stream = await openai().images.edit({ image, prompt: "A cute baby sea otter wearing a beret", stream: true, partial_images: 1 });
    const types: string[] = [];
    for await (const e of stream) types.push(e.type);
    expect(types).toEqual(["image_edit.partial_image", "image_edit.completed"]);
    const plain = await openai().images.generate({ prompt: "A cute baby sea otter" });
    expect([plain.data?.[0]?.url?.includes("/v1/images/files/"), plain.data?.[0]?.b64_json]).toEqual([true, undefined]);
  });
});

describe("openai: a Responses request without model", () => {
  it("400 missing_required_parameter, as /v1/responses/compact says", async () => {
    const err = await openai()
      .responses.create({ input: "hi" } as never)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BadRequestError);
    expect((err as BadRequestError).error).toEqual({ message: "Missing required parameter: 'model'.", type: "invalid_request_error", param: "model", code: "missing_required_parameter" });
  });
});
