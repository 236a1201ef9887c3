/**
 * Azure OpenAI's images, audio and stored-response routes on both runtimes (issue 35's follow-up): the deployment
 * and v1 forms, what `model` matchers and the journal see, Azure's headers and annotations on images, its image
 * prompt block and filtered image, the gateway's refusals (api-version, auth, deployment name) in Azure's shape, the
 * 429 naming the operation, and multipart garbage answered in the relayed OpenAI shape, never a 5xx.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { seededRandom } from "../../src/util/hash";
import { AZURE_KEY as KEY, AZURE_JSON as JSON_KEY, SAFE, UUID, deploymentRoute, post } from "./azure-helpers";
import { admin, call, upload } from "./helpers";
import { decodePng, fromBase64, parseWav } from "./media-helpers";

const VERSION = "2025-04-01-preview";
const IMAGE_RESULTS = { hate: SAFE, self_harm: SAFE, sexual: SAFE, violence: SAFE };
const PROMPT_RESULTS = { hate: SAFE, profanity: { detected: false, filtered: false }, self_harm: SAFE, sexual: SAFE, violence: SAFE };

beforeAll(async () => {
  await upload(
    {
      name: "azm",
      steps: [
        { id: "img", consume: false, match: { provider: "azure", endpoint: "images", model: "dalle3-prod" }, respond: { image: { color: "#102030", revisedPrompt: "A lighthouse at dusk." } } },
        { id: "gpt-img", consume: false, match: { provider: "azure", endpoint: "images", model: "image-prod" }, respond: { image: {} } },
        { id: "tts", consume: false, match: { provider: "azure", endpoint: "speech", model: "tts-prod" }, respond: { speech: { durationMs: 500 } } },
        { id: "stt", consume: false, match: { provider: "azure", endpoint: "transcriptions" }, respond: { transcript: "Azure heard this." } },
        { id: "resp", consume: false, match: { provider: "azure", endpoint: "responses" }, respond: { text: "Stored on Azure." } },
      ],
    },
    { name: "azm-block", steps: [{ consume: false, failures: [{ kind: "content_filter", on: "prompt", categories: ["sexual"] }], respond: { image: {} } }] },
    { name: "azm-cut", steps: [{ consume: false, failures: [{ kind: "content_filter", on: "completion", categories: ["violence"] }], respond: { image: {} } }] },
    { name: "azm-429", steps: [{ consume: false, failures: [{ kind: "rate_limit", retryAfterMs: 3000 }], respond: { image: {} } }] },
  );
}, 60_000);

const deployment = deploymentRoute(VERSION);

function form(fields: Record<string, string>, file: [name: string, filename: string, type: string]): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  f.append(file[0], new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0])], { type: file[2] }), file[1]);
  return f;
}

interface Entry {
  provider: string;
  endpoint: string;
  outcome: string;
  status: number;
  canonical: { model: string };
}

async function journal(scenario: string, session: string): Promise<(Entry & { model: string })[]> {
  const entries = (await (await admin(`/sessions/${scenario}/${session}/requests`)).json()) as Entry[];
  return entries.map((e) => ({ ...e, model: e.canonical.model }));
}

describe("Azure images", () => {
  it("a deployment route answers DALL·E 3 with Azure's annotations on each image, its headers, the deployment as model; journalled as azure/images", async () => {
    const res = await post(`/s/azm/i1${deployment("dalle3-prod", "images/generations")}`, { model: "dall-e-3", prompt: "a lighthouse", response_format: "b64_json" });
    expect(res.status).toBe(200);
    expect([UUID.test(res.headers.get("x-request-id") ?? ""), res.headers.get("x-ms-region"), res.headers.get("x-ms-deployment-name"), res.headers.get("x-mockllm-step")]).toEqual([
      true,
      "East US",
      "dalle3-prod",
      "img",
    ]);
    const body = (await res.json()) as { created: number; data: Record<string, unknown>[] };
    expect(Object.keys(body)).toEqual(["created", "data"]);
    const [item] = body.data;
    expect(Object.keys(item!)).toEqual(["b64_json", "content_filter_results", "prompt_filter_results", "revised_prompt"]);
    expect([item!.content_filter_results, item!.prompt_filter_results, item!.revised_prompt]).toEqual([IMAGE_RESULTS, PROMPT_RESULTS, "A lighthouse at dusk."]);
    const png = await decodePng(fromBase64(String(item!.b64_json)));
    expect([png.width, png.height, [...png.raw.subarray(1, 4)]]).toEqual([1024, 1024, [0x10, 0x20, 0x30]]);
    expect((await journal("azm", "i1")).map((r) => [r.provider, r.endpoint, r.model, r.outcome, r.status])).toEqual([["azure", "images", "dalle3-prod", "response", 200]]);
  });

  it("the v1 route takes the deployment from the body; a GPT image answer keeps its usage, keys sorted; a url points at a file the mock serves", async () => {
    const res = await post("/s/azm/i2/openai/v1/images/generations", { model: "image-prod", prompt: "a cat", size: "1024x1536", quality: "low" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown> & { data: Record<string, unknown>[] };
    expect(Object.keys(body)).toEqual(["background", "created", "data", "output_format", "quality", "size", "usage"]);
    expect([body.size, body.quality, Object.keys(body.data[0]!)]).toEqual(["1024x1536", "low", ["b64_json", "content_filter_results", "prompt_filter_results"]]);
    const url = await post(deployment("any-dalle", "images/generations"), { model: "dall-e-3", prompt: "a dog", response_format: "url" });
    const link = String(((await url.json()) as { data: { url: string }[] }).data[0]!.url);
    const file = await call(new URL(link).pathname);
    expect([file.status, file.headers.get("content-type")]).toEqual([200, "image/png"]);
    expect((await decodePng(new Uint8Array(await file.arrayBuffer()))).width).toBe(1024);
  });

  it("a deployment whose name says DALL·E 3 or 2 is held to that model's limits; any other name to a GPT image model's", async () => {
    const wide = await post("/s/azm/i4/openai/v1/images/generations", { model: "dalle3-prod", prompt: "wide", size: "1792x1024", response_format: "b64_json" });
    const item = ((await wide.json()) as { data: { b64_json: string; revised_prompt: string }[] }).data[0]!;
    expect([wide.status, (await decodePng(fromBase64(item.b64_json))).width, item.revised_prompt]).toEqual([200, 1792, "A lighthouse at dusk."]);
    const two = await post(deployment("prod-dall-e-2", "images/generations", VERSION), { prompt: "small", size: "256x256", n: 2, response_format: "b64_json" });
    expect([two.status, ((await two.json()) as { data: unknown[] }).data.length]).toEqual([200, 2]);
    const gpt = await post(deployment("image-prod", "images/generations"), { prompt: "wide", size: "1792x1024" });
    expect([gpt.status, ((await gpt.json()) as { error: { param: string } }).error.param]).toEqual([400, "size"]);
    expect((await journal("azm", "i4")).map((r) => r.model)).toEqual(["dalle3-prod"]);
  });

  it("edits: a multipart upload on the deployment route", async () => {
    const res = await call(`/s/azm/i3${deployment("dalle3-prod", "images/edits")}`, {
      method: "POST",
      headers: KEY,
      body: form({ model: "gpt-image-1", prompt: "darker" }, ["image", "in.png", "image/png"]),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { b64_json: string; content_filter_results: unknown }[] };
    expect(body.data[0]!.content_filter_results).toEqual(IMAGE_RESULTS);
    expect([...(await decodePng(fromBase64(body.data[0]!.b64_json))).raw.subarray(1, 4)]).toEqual([0x10, 0x20, 0x30]);
  });

  it("a blocked prompt is Azure's 400 content_policy_violation with inner_error ResponsibleAIPolicyViolation", async () => {
    const res = await post(`/s/azm-block/b1${deployment("dalle3", "images/generations")}`, { model: "dall-e-3", prompt: "something" });
    expect([res.status, UUID.test(res.headers.get("apim-request-id") ?? "")]).toEqual([400, true]);
    expect(await res.json()).toEqual({
      error: {
        code: "content_policy_violation",
        inner_error: {
          code: "ResponsibleAIPolicyViolation",
          content_filter_results: { hate: SAFE, jailbreak: { detected: false, filtered: false }, self_harm: SAFE, sexual: { filtered: true, severity: "medium" }, violence: SAFE },
        },
        message: "Your request was rejected as a result of our safety system. Your prompt may contain text that is not allowed by our safety system.",
        type: "invalid_request_error",
      },
    });
    expect((await journal("azm-block", "b1")).map((r) => [r.provider, r.endpoint, r.outcome, r.status])).toEqual([["azure", "images", "failure", 400]]);
  });

  it("a filtered image is the documented answer: no data, an error with code contentFilter", async () => {
    const res = await post(`/s/azm-cut/c1${deployment("dalle3", "images/generations")}`, { model: "dall-e-3", prompt: "something" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { created: number; error: unknown };
    expect(Object.keys(body)).toEqual(["created", "error"]);
    expect(body.error).toEqual({ code: "contentFilter", message: "Generated image was filtered as a result of our safety system." });
  });

  it("a scripted 429 names the images operation and the api-version", async () => {
    const res = await post(`/s/azm-429/r1${deployment("dalle3", "images/generations")}`, { model: "dall-e-3", prompt: "x" });
    expect([res.status, res.headers.get("retry-after"), res.headers.get("x-ratelimit-remaining-requests")]).toEqual([429, "3", "0"]);
    const { error } = (await res.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe("429");
    expect(error.message).toMatch(/^Requests to the ImageGenerations_Create Operation under Azure OpenAI API version 2025-04-01-preview have exceeded .* Please retry after 3 seconds\./);
  });
});

describe("Azure audio", () => {
  it("speech on the deployment route: WAV bytes with Azure's headers; on v1 with the body's model", async () => {
    const res = await post(`/s/azm/a1${deployment("tts-prod", "audio/speech")}`, { model: "tts-1", input: "hello there", voice: "alloy", response_format: "wav" });
    expect([res.status, res.headers.get("content-type"), res.headers.get("x-ms-deployment-name"), res.headers.get("x-mockllm-step")]).toEqual([200, "audio/wav", "tts-prod", "tts"]);
    expect(parseWav(new Uint8Array(await res.arrayBuffer())).dataBytes).toBe(24_000);
    const v1 = await post("/s/azm/a1/openai/v1/audio/speech", { model: "tts-prod", input: "hello there", voice: "alloy", response_format: "pcm" });
    expect([v1.status, v1.headers.get("content-type"), (await v1.arrayBuffer()).byteLength]).toEqual([200, "audio/pcm", 24_000]);
    expect((await journal("azm", "a1")).map((r) => [r.provider, r.endpoint, r.model])).toEqual([
      ["azure", "speech", "tts-prod"],
      ["azure", "speech", "tts-prod"],
    ]);
  });

  it("transcriptions and translations: multipart on the deployment route (the form's model may be left out) and on v1", async () => {
    const t = await call(`/s/azm/a2${deployment("whisper-prod", "audio/transcriptions")}`, { method: "POST", headers: KEY, body: form({}, ["file", "clip.wav", "audio/wav"]) });
    expect([t.status, ((await t.json()) as { text: string }).text]).toEqual([200, "Azure heard this."]);
    const tr = await call(`/s/azm/a2${deployment("whisper-prod", "audio/translations")}`, {
      method: "POST",
      headers: KEY,
      body: form({ model: "whisper-1", response_format: "text" }, ["file", "clip.wav", "audio/wav"]),
    });
    expect([tr.status, tr.headers.get("content-type")?.split(";")[0], await tr.text()]).toEqual([200, "text/plain", "Azure heard this.\n"]);
    const v1 = await call("/s/azm/a2/openai/v1/audio/transcriptions", { method: "POST", headers: KEY, body: form({ model: "whisper-prod" }, ["file", "clip.wav", "audio/wav"]) });
    expect(((await v1.json()) as { text: string }).text).toBe("Azure heard this.");
    expect((await journal("azm", "a2")).map((r) => [r.provider, r.endpoint, r.model])).toEqual([
      ["azure", "transcriptions", "whisper-prod"],
      ["azure", "transcriptions", "whisper-prod"],
      ["azure", "transcriptions", "whisper-prod"],
    ]);
  });
});

describe("Azure stored responses", () => {
  it("GET and DELETE /openai/responses/{id} (and the v1 form) serve what a Responses call stored, with Azure's headers", async () => {
    const created = await post(`/s/azm/s1/openai/responses?api-version=${VERSION}`, { model: "prod-4o", input: "Remember this" });
    const { id } = (await created.json()) as { id: string };
    const got = await call(`/openai/responses/${id}?api-version=${VERSION}`, { headers: KEY });
    expect([got.status, UUID.test(got.headers.get("x-request-id") ?? ""), got.headers.get("x-ms-region")]).toEqual([200, true, "East US"]);
    const body = (await got.json()) as { id: string; output: { content: { text: string }[] }[] };
    expect([body.id, body.output[0]!.content[0]!.text]).toEqual([id, "Stored on Azure."]);
    const v1 = await call(`/openai/v1/responses/${id}`, { headers: { authorization: "Bearer azure-key" } });
    expect(((await v1.json()) as { id: string }).id).toBe(id);
    const replay = await call(`/openai/responses/${id}?api-version=${VERSION}&stream=true`, { headers: KEY });
    expect([replay.headers.get("content-type"), (await replay.text()).includes("event: response.completed")]).toEqual(["text/event-stream; charset=utf-8", true]);
    const deleted = await call(`/openai/responses/${id}?api-version=${VERSION}`, { method: "DELETE", headers: KEY });
    expect(await deleted.json()).toEqual({ id, object: "response.deleted", deleted: true });
    const gone = await call(`/openai/v1/responses/${id}`, { headers: KEY });
    expect([gone.status, await gone.json()]).toEqual([404, { error: { message: `Response with id '${id}' not found.`, type: "invalid_request_error", param: null, code: "not_found" } }]);
  });

  it("the gateway's refusals come first, in Azure's shape: no api-version (404), a dated one on v1 (400), no key (401), a wrong method (405); a malformed id is the service's 400", async () => {
    const id = "resp_0123456789abcdef0123456789abcdef";
    const none = await call(`/openai/responses/${id}`, { headers: KEY });
    expect([none.status, await none.json()]).toEqual([404, { error: { code: "404", message: "Resource not found" } }]);
    const dated = await call(`/openai/v1/responses/${id}?api-version=2024-10-21`, { headers: KEY });
    expect([dated.status, await dated.json()]).toEqual([400, { error: { code: "BadRequest", message: "API version not supported" } }]);
    const anon = await call(`/openai/responses/${id}?api-version=${VERSION}`);
    expect([anon.status, ((await anon.json()) as { error: { code: string } }).error.code]).toEqual([401, "401"]);
    const put = await call(`/openai/responses/${id}?api-version=${VERSION}`, { method: "PUT", headers: KEY });
    expect([put.status, ((await put.json()) as { error: object }).error]).toEqual([405, { code: "405", message: `Use GET or DELETE for /openai/responses/${id}.` }]);
    const putV1 = await call(`/openai/v1/responses/${id}`, { method: "PUT", headers: KEY });
    expect([putV1.status, ((await putV1.json()) as { error: object }).error]).toEqual([405, { code: "405", message: `Use GET or DELETE for /openai/v1/responses/${id}.` }]);
    const badId = await call(`/openai/v1/responses/not-an-id`, { headers: KEY });
    expect([badId.status, ((await badId.json()) as { error: { type: string; param: string } }).error]).toEqual([400, expect.objectContaining({ type: "invalid_request_error" })]);
  });
});

describe("Azure gateway on the media routes", () => {
  it("api-version missing or malformed: 404; no key: 401; a deployment name Azure cannot have: DeploymentNotFound; variations: not an Azure route", async () => {
    const body = { model: "dall-e-3", prompt: "x" };
    const missing = await post(deployment("dalle3", "images/generations", null), body);
    expect([missing.status, await missing.json()]).toEqual([404, { error: { code: "404", message: "Resource not found" } }]);
    const malformed = await post(deployment("tts", "audio/speech", "latest"), { model: "tts-1", input: "x", voice: "alloy" });
    expect(malformed.status).toBe(404);
    const anon = await call(deployment("whisper", "audio/transcriptions"), { method: "POST", body: form({ model: "whisper-1" }, ["file", "a.wav", "audio/wav"]) });
    expect([anon.status, ((await anon.json()) as { error: { code: string; message: string } }).error.code]).toEqual([401, "401"]);
    const bad = await post(deployment("no%20such!", "images/generations"), body);
    expect([bad.status, ((await bad.json()) as { error: { code: string } }).error.code]).toEqual([404, "DeploymentNotFound"]);
    const dated = await post("/openai/v1/audio/speech?api-version=2024-10-21", { model: "tts-1", input: "x", voice: "alloy" });
    expect([dated.status, ((await dated.json()) as { error: { code: string } }).error.code]).toEqual([400, "BadRequest"]);
    const variations = await call(deployment("dalle2", "images/variations"), { method: "POST", headers: KEY, body: form({ model: "dall-e-2" }, ["image", "a.png", "image/png"]) });
    expect([variations.status, ((await variations.json()) as { error: { code: string } }).error.code]).toEqual([404, "404"]);
  });

  it("the service's refusals are relayed in OpenAI's shape: an invalid image size, a speech format, a transcription without a file", async () => {
    const size = await post(deployment("dalle3", "images/generations"), { model: "dall-e-3", prompt: "x", size: "12x12" });
    expect([size.status, ((await size.json()) as { error: { type: string; param: string } }).error]).toEqual([400, expect.objectContaining({ type: "invalid_request_error", param: "size" })]);
    const noFile = await call(deployment("whisper", "audio/transcriptions"), {
      method: "POST",
      headers: KEY,
      body: (() => {
        const f = new FormData();
        f.append("model", "whisper-1");
        return f;
      })(),
    });
    expect([noFile.status, ((await noFile.json()) as { error: { param: string } }).error.param]).toEqual([400, "file"]);
  });

  it("JSON garbage at the Azure images and speech routes: a 4xx with an error message and code, Azure's headers, never a 5xx", async () => {
    const nest = (n: number) => `${"[".repeat(n)}${"]".repeat(n)}`;
    const bodies: [string, number][] = [
      ...["", "{", "null", "[]", "42", '"str"', "{}", "\u0000\u0001binary", '{"prompt":7}', '{"prompt":"x","n":"two"}', '{"input":{"toString":1},"voice":[]}', `{"prompt":${nest(200)}}`].map(
        (b): [string, number] => [b, 400],
      ),
      [" ".repeat(10 * 1024 * 1024 + 1), 413],
    ];
    const paths = [deployment("dalle3", "images/generations"), deployment("tts", "audio/speech"), "/openai/v1/images/generations", "/openai/v1/audio/speech"];
    const bad: string[] = [];
    for (const path of paths) {
      for (const [body, status] of bodies) {
        const res = await call(path, { method: "POST", headers: JSON_KEY, body });
        const text = await res.text();
        let e: { message?: unknown; code?: unknown } | undefined;
        try {
          e = (JSON.parse(text) as { error?: typeof e }).error;
        } catch {
          e = undefined;
        }
        if (res.status !== status || typeof e?.message !== "string" || e.code === undefined || !UUID.test(res.headers.get("apim-request-id") ?? "")) {
          bad.push(`${path} ${body.slice(0, 30)} → ${res.status} ${text.slice(0, 100)}`);
        }
      }
    }
    expect(bad).toEqual([]);
  }, 120_000);

  it("a scenario prefix without a session never takes `openai` for the session on the new routes", async () => {
    const res = await post(`/s/azm${deployment("tts-prod", "audio/speech")}`, { input: "hello there", voice: "alloy", response_format: "pcm" });
    expect([res.status, res.headers.get("x-mockllm-step"), (await res.arrayBuffer()).byteLength]).toEqual([200, "tts", 24_000]);
    const stored = await call(`/s/azm/openai/v1/responses/resp_0123456789abcdef0123456789abcdef`, { headers: KEY });
    expect([stored.status, ((await stored.json()) as { error: { message: string } }).error.message]).toEqual([404, "Response with id 'resp_0123456789abcdef0123456789abcdef' not found."]);
  });

  it("multipart garbage at the Azure upload routes: 200 or a 4xx with an error message, never a 5xx", async () => {
    const r = seededRandom(35);
    const paths = [
      deployment("dalle2", "images/edits"),
      deployment("whisper", "audio/transcriptions"),
      deployment("whisper", "audio/translations"),
      "/openai/v1/images/edits",
      "/openai/v1/audio/transcriptions",
    ];
    const valid = (path: string) => {
      const audio = path.includes("audio");
      const fields = audio
        ? [["model", "whisper-1"]]
        : [
            ["model", "dall-e-2"],
            ["prompt", "p"],
            ["size", "256x256"],
          ];
      const parts = fields.map(([k, v]) => `--B\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
      parts.push(
        `--B\r\nContent-Disposition: form-data; name="${audio ? "file" : "image"}"; filename="${audio ? "a.wav" : "a.png"}"\r\nContent-Type: ${audio ? "audio/wav" : "image/png"}\r\n\r\n\x89PNG\r\n\x1a\n\x00\r\n`,
      );
      return `${parts.join("")}--B--\r\n`;
    };
    const bad: string[] = [];
    for (const path of paths) {
      const ok = await call(path, { method: "POST", headers: { ...KEY, "content-type": "multipart/form-data; boundary=B" }, body: valid(path) });
      expect(ok.status, `${path} ${await ok.clone().text()}`).toBe(200);
      await ok.arrayBuffer();
      for (let i = 0; i < 24; i++) {
        const text = valid(path);
        const at = Math.floor(r() * text.length);
        const kind = i % 4;
        const body =
          kind === 0
            ? text.slice(0, at)
            : kind === 1
              ? text.slice(0, at) + String.fromCharCode(Math.floor(r() * 256)) + text.slice(at + 1)
              : kind === 2
                ? text.replace(/\r\n/g, "\n")
                : text.replace("--B--", "--B");
        const type = i % 7 === 6 ? "multipart/form-data; boundary=" : "multipart/form-data; boundary=B";
        const res = await call(path, { method: "POST", headers: { ...KEY, "content-type": type }, body });
        const answer = await res.text();
        if (res.status >= 500) bad.push(`${path} #${i} → ${res.status} ${answer.slice(0, 100)}`);
        else if (res.status !== 200) {
          const e = (JSON.parse(answer) as { error?: { message?: unknown; type?: unknown } }).error;
          if (typeof e?.message !== "string" || e.type !== "invalid_request_error" || !UUID.test(res.headers.get("apim-request-id") ?? ""))
            bad.push(`${path} #${i} → ${res.status} ${answer.slice(0, 100)}`);
        }
      }
    }
    expect(bad).toEqual([]);
  }, 120_000);
});
