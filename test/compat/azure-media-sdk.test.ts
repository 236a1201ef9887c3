/**
 * Azure OpenAI's images, audio and stored responses through `openai`'s `AzureOpenAI`, on both runtimes: the SDK
 * puts the deployment in front of `images/generations`, `images/edits` and the audio paths (its
 * `_deployments_endpoints`), and sends `responses.retrieve`/`delete` to `/openai/responses/{id}`; each answer is
 * what its typed result reads, Azure's image annotations readable as extra fields; the refusals surface as the SDK's
 * typed errors (bad api-version, a deployment name Azure cannot have, no key, a blocked image prompt, a 429 retried).
 */
import { inflateSync } from "node:zlib";
import { AuthenticationError, AzureOpenAI, BadRequestError, NotFoundError, toFile } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

let h: Harness;
const VERSION = "2025-04-01-preview";

beforeAll(async () => {
  h = await startHarness();
  await h.upload(
    {
      name: "azm-sdk",
      steps: [
        { id: "img", consume: false, match: { provider: "azure", endpoint: "images", model: "dalle3" }, respond: { image: { color: "#204060", revisedPrompt: "A red fox, in autumn." } } },
        { id: "edit", consume: false, match: { provider: "azure", endpoint: "images", model: "image-prod" }, respond: { image: { color: "#0a0b0c" } } },
        { id: "tts", consume: false, match: { provider: "azure", endpoint: "speech" }, respond: { speech: { durationMs: 1000 } } },
        { id: "stt", consume: false, match: { provider: "azure", endpoint: "transcriptions" }, respond: { transcript: "Heard through Azure." } },
        { id: "resp", consume: false, match: { provider: "azure", endpoint: "responses" }, respond: { text: "Kept for later." } },
      ],
    },
    { name: "azm-sdk-block", steps: [{ consume: false, failures: [{ kind: "content_filter", on: "prompt", categories: ["violence"] }], respond: { image: {} } }] },
    { name: "azm-sdk-429", steps: [{ id: "busy", failures: [{ kind: "rate_limit", retryAfterMs: 20 }], respond: { transcript: "After the retry." } }] },
  );
}, 120_000);
afterAll(() => h?.stop());

let n = 0;
const endpoint = (scenario: string) => `${h.url}/s/${scenario}/azm${++n}`;
const client = (scenario: string, options: { deployment?: string; apiVersion?: string } = {}) =>
  new AzureOpenAI({ endpoint: endpoint(scenario), apiKey: "azure-key", apiVersion: options.apiVersion ?? VERSION, maxRetries: 0, ...(options.deployment ? { deployment: options.deployment } : {}) });

/** Width, height and the first pixel of a PNG, decoded with node:zlib. */
function png(bytes: Buffer): { width: number; height: number; pixel: number[] } {
  const idatLen = bytes.readUInt32BE(33);
  const raw = inflateSync(bytes.subarray(41, 41 + idatLen));
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20), pixel: [...raw.subarray(1, 4)] };
}

const wav = () => toFile(Buffer.from("RIFF0000WAVE"), "meeting.wav", { type: "audio/wav" });

describe("AzureOpenAI: images", () => {
  it("images.generate goes to the deployment route; the picture decodes; Azure's annotations are extra fields", async () => {
    const { data, response } = await client("azm-sdk").images.generate({ model: "dalle3", prompt: "a fox", response_format: "b64_json", size: "1792x1024" }).withResponse();
    expect([new URL(response.url).pathname.endsWith("/openai/deployments/dalle3/images/generations"), new URL(response.url).searchParams.get("api-version")]).toEqual([true, VERSION]);
    const image = data.data![0]!;
    expect([image.revised_prompt, png(Buffer.from(image.b64_json!, "base64"))]).toEqual(["A red fox, in autumn.", { width: 1792, height: 1024, pixel: [0x20, 0x40, 0x60] }]);
    const extra = image as unknown as { content_filter_results: { violence: unknown }; prompt_filter_results: { profanity: unknown } };
    expect([extra.content_filter_results.violence, extra.prompt_filter_results.profanity]).toEqual([
      { filtered: false, severity: "safe" },
      { detected: false, filtered: false },
    ]);
  });

  it("images.edit (multipart, the model through the SDK's metadata) goes to the deployment route", async () => {
    const image = await toFile(Buffer.from([0x89, 0x50, 0x4e, 0x47]), "in.png", { type: "image/png" });
    const { data, response } = await client("azm-sdk").images.edit({ model: "image-prod", image, prompt: "darker", size: "1024x1024" }).withResponse();
    expect(new URL(response.url).pathname.endsWith("/openai/deployments/image-prod/images/edits")).toBe(true);
    expect(png(Buffer.from(data.data![0]!.b64_json!, "base64"))).toEqual({ width: 1024, height: 1024, pixel: [0x0a, 0x0b, 0x0c] });
  });

  it("a blocked image prompt is a BadRequestError with code content_policy_violation", async () => {
    const error = await client("azm-sdk-block", { deployment: "dalle3" })
      .images.generate({ model: "dall-e-3", prompt: "something" })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(error).toBeInstanceOf(BadRequestError);
    const e = error as BadRequestError;
    const inner = (e.error as { inner_error?: { code: string; content_filter_results: { violence: unknown } } }).inner_error;
    expect([e.status, e.code, e.type, inner?.code, inner?.content_filter_results.violence]).toEqual([
      400,
      "content_policy_violation",
      "invalid_request_error",
      "ResponsibleAIPolicyViolation",
      { filtered: true, severity: "medium" },
    ]);
  });
});

describe("AzureOpenAI: audio", () => {
  it("audio.speech.create: a WAV of the scripted length from the deployment route", async () => {
    const { data, response } = await client("azm-sdk", { deployment: "tts-prod" }).audio.speech.create({ model: "tts-1", voice: "alloy", input: "Hello there", response_format: "wav" }).withResponse();
    expect(new URL(response.url).pathname.endsWith("/openai/deployments/tts-prod/audio/speech")).toBe(true);
    const bytes = Buffer.from(await data.arrayBuffer());
    expect([bytes.toString("ascii", 0, 4), bytes.readUInt32LE(24), bytes.readUInt32LE(40), response.headers.get("x-ms-deployment-name")]).toEqual(["RIFF", 24_000, 48_000, "tts-prod"]);
  });

  it("transcriptions and translations from the deployment route", async () => {
    const az = client("azm-sdk");
    const { data, response } = await az.audio.transcriptions.create({ model: "whisper-prod", file: await wav() }).withResponse();
    expect([data.text, new URL(response.url).pathname.endsWith("/openai/deployments/whisper-prod/audio/transcriptions")]).toEqual(["Heard through Azure.", true]);
    const srt = await az.audio.translations.create({ model: "whisper-prod", file: await wav(), response_format: "srt" });
    expect(String(srt)).toMatch(/^1\n00:00:00,000 --> 00:00:0\d,\d{3}\nHeard through Azure\.\n/);
  });

  it("a 429 on a transcription is retried by the SDK and the retry answered", async () => {
    const base = endpoint("azm-sdk-429");
    const az = new AzureOpenAI({ endpoint: base, apiKey: "azure-key", apiVersion: VERSION });
    expect((await az.audio.transcriptions.create({ model: "whisper-prod", file: await wav() })).text).toBe("After the retry.");
    expect((await h.journal("azm-sdk-429", new URL(base).pathname.split("/").at(-1)!)).map((e) => [e.provider, e.endpoint, e.status])).toEqual([
      ["azure", "transcriptions", 429],
      ["azure", "transcriptions", 200],
    ]);
  });
});

describe("AzureOpenAI: stored responses", () => {
  it("responses.retrieve and responses.delete on /openai/responses/{id}; a deleted one is a NotFoundError", async () => {
    const az = client("azm-sdk");
    const created = await az.responses.create({ model: "prod-4o", input: "Remember this" });
    const { data, response } = await az.responses.retrieve(created.id).withResponse();
    expect([data.id, data.output_text, new URL(response.url).pathname.endsWith(`/openai/responses/${created.id}`), new URL(response.url).searchParams.get("api-version")]).toEqual([
      created.id,
      "Kept for later.",
      true,
      VERSION,
    ]);
    await az.responses.delete(created.id);
    await expect(az.responses.retrieve(created.id)).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe("AzureOpenAI: the gateway's refusals as typed errors", () => {
  it("a malformed api-version is a NotFoundError; a deployment name Azure cannot have is DeploymentNotFound; no key is an AuthenticationError", async () => {
    const version = await client("azm-sdk", { apiVersion: "2024-13-99" })
      .images.generate({ model: "dalle3", prompt: "x" })
      .catch((e: unknown) => e);
    expect([version instanceof NotFoundError, (version as NotFoundError).code, (version as NotFoundError).message]).toEqual([true, "404", "404 Resource not found"]);
    const deployment = await client("azm-sdk", { deployment: "no such!" })
      .audio.speech.create({ model: "tts-1", voice: "alloy", input: "x" })
      .catch((e: unknown) => e);
    expect([deployment instanceof NotFoundError, (deployment as NotFoundError).code]).toEqual([true, "DeploymentNotFound"]);
    const anon = await client("azm-sdk")
      .audio.transcriptions.create({ model: "whisper-prod", file: await wav() }, { headers: { "api-key": null } })
      .catch((e: unknown) => e);
    expect([anon instanceof AuthenticationError, (anon as AuthenticationError).status, (anon as AuthenticationError).code]).toEqual([true, 401, "401"]);
  });
});
