/**
 * OpenAI images on both runtimes: real PNG/JPEG/WebP bytes of the asked size, `url` answers served by the mock itself
 * (also under a scenario prefix), the models' limits, multipart edits, streaming, scripting and the journal.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { admin, call, upload } from "./helpers";
import { decodePng, fromBase64, jpegSize } from "./media-helpers";
import { namedEvents } from "../support/sse";

const AUTH = { authorization: "Bearer sk-test" };

function generate(body: unknown, prefix = ""): Promise<Response> {
  return call(`${prefix}/v1/images/generations`, { method: "POST", headers: { ...AUTH, "content-type": "application/json" }, body: JSON.stringify(body) });
}

function edit(fields: Record<string, string>, files: [string, string, string, number][], prefix = ""): Promise<Response> {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  for (const [name, filename, type, size] of files) form.append(name, new Blob([new Uint8Array(size)], { type }), filename);
  return call(`${prefix}/v1/images/edits`, { method: "POST", headers: AUTH, body: form });
}

beforeAll(async () => {
  await upload(
    { name: "img-any", steps: [{ match: { endpoint: "images" }, consume: false, respond: {} }] },
    {
      name: "img-script",
      steps: [
        { id: "fox", match: { endpoint: "images", lastUserMessage: { contains: "fox" } }, respond: { image: { color: "#3366ff", revisedPrompt: "A small red fox, digital art" } } },
        { id: "busy", match: { endpoint: "images" }, failures: [{ kind: "rate_limit", retryAfterMs: 2000 }], respond: {} },
      ],
    },
  );
}, 60_000);

describe("generations", () => {
  it("gpt-image-1 answers b64 PNG bytes of the asked size with usage", async () => {
    const res = await generate({ model: "gpt-image-1", prompt: "a lighthouse", size: "1536x1024", quality: "high" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(Object.keys(body)).toEqual(["created", "background", "output_format", "quality", "size", "data", "usage"]);
    expect(body).toMatchObject({ background: "opaque", output_format: "png", quality: "high", size: "1536x1024" });
    expect(body.usage).toEqual({
      input_tokens: 3,
      input_tokens_details: { text_tokens: 3, image_tokens: 0 },
      output_tokens: 6240,
      output_tokens_details: { text_tokens: 0, image_tokens: 6240 },
      total_tokens: 6243,
    });
    const png = await decodePng(fromBase64(body.data[0].b64_json));
    expect([png.width, png.height, png.colorType, png.crcOk]).toEqual([1536, 1024, 2, true]);
    expect(png.raw.length).toBe(1024 * (1 + 1536 * 3));
    const again = (await (await generate({ model: "gpt-image-1", prompt: "a lighthouse", size: "1536x1024", quality: "high" })).json()) as any;
    expect(again.data[0].b64_json).toBe(body.data[0].b64_json);
  });

  it("jpeg and webp output formats are real files of that format", async () => {
    const j = (await (await generate({ model: "gpt-image-1", prompt: "x", output_format: "jpeg", size: "1024x1536" })).json()) as any;
    const jpeg = fromBase64(j.data[0].b64_json);
    expect([jpeg[0], jpeg[1], jpeg.at(-2), jpeg.at(-1)]).toEqual([0xff, 0xd8, 0xff, 0xd9]);
    expect(jpegSize(jpeg)).toEqual({ width: 1024, height: 1536 });
    const w = (await (await generate({ model: "gpt-image-1", prompt: "x", output_format: "webp", background: "transparent" })).json()) as any;
    expect(w).toMatchObject({ output_format: "webp", background: "transparent", size: "1024x1024", quality: "medium" });
    const webp = fromBase64(w.data[0].b64_json);
    expect(String.fromCharCode(...webp.subarray(0, 4), ...webp.subarray(8, 16))).toBe("RIFFWEBPVP8L");
  });

  it("dall-e-2 answers a url the mock serves, also under a scenario prefix", async () => {
    const body = (await (await generate({ prompt: "a cat", n: 2, size: "256x256" }, "/s/img-any")).json()) as any;
    expect(Object.keys(body)).toEqual(["created", "data"]);
    expect(body.data).toHaveLength(2);
    const [a, b] = body.data.map((d: any) => d.url as string);
    expect(a).toMatch(/^http:\/\/[^/]+\/s\/img-any\/v1\/images\/files\/img-256x256-[0-9a-f]{6}\.png$/);
    expect(a).not.toBe(b);
    const res = await call(new URL(a).pathname);
    expect(res.headers.get("content-type")).toBe("image/png");
    const png = await decodePng(new Uint8Array(await res.arrayBuffer()));
    expect([png.width, png.height, png.crcOk]).toEqual([256, 256, true]);
    const unprefixed = await call(new URL(a).pathname.replace("/s/img-any", ""));
    expect(new Uint8Array(await unprefixed.arrayBuffer())).toEqual(new Uint8Array(await (await call(new URL(a).pathname)).arrayBuffer()));
    expect((await call("/v1/images/files/img-99999x1-000000.png")).status).toBe(404);
  });

  it("the models' limits answer OpenAI's 400s", async () => {
    const cases: [unknown, string, string][] = [
      [{ model: "dall-e-3", prompt: "x", n: 2 }, "n", "You must provide n=1 for this model."],
      [{ model: "dall-e-2", prompt: "x", n: 11 }, "n", "Invalid 'n': integer above maximum value. Expected a value <= 10, but got 11 instead."],
      [{ model: "dall-e-2", prompt: "x", size: "1536x1024" }, "size", "Invalid value: '1536x1024'. Supported values are: '256x256', '512x512', and '1024x1024'."],
      [{ model: "dall-e-2", prompt: "y".repeat(1001) }, "prompt", "Invalid 'prompt': string too long. Expected a string with maximum length 1000, but got a string with length 1001 instead."],
      [{ model: "gpt-image-1", prompt: "x", response_format: "url" }, "response_format", "Unknown parameter: 'response_format'."],
      [{ model: "dall-e-3", prompt: "x", stream: true }, "stream", "Unknown parameter: 'stream'."],
      [{ model: "gpt-image-1" }, "prompt", "Missing required parameter: 'prompt'."],
      [{ model: "gpt-image-1", prompt: "x", output_compression: 101 }, "output_compression", "Invalid 'output_compression': expected a value between 0 and 100, but got 101 instead."],
      [{ model: "gpt-image-1", prompt: "x", background: "transparent", output_format: "jpeg" }, "background", "Transparent background is not supported for output_format 'jpeg'. Use 'png' or 'webp'."],
      [{ model: "gpt-image-1", prompt: 3 }, "prompt", "Invalid value for 'prompt': Invalid input: expected string, received number."],
    ];
    for (const [body, param, message] of cases) {
      const res = await generate(body);
      expect(res.status).toBe(400);
      const err = ((await res.json()) as any).error;
      expect([err.type, err.param, err.message]).toEqual(["invalid_request_error", param, message]);
    }
  });

  it("streams partial images then the completed event for gpt-image-1", async () => {
    const res = await generate({ model: "gpt-image-1", prompt: "waves", stream: true, partial_images: 2, size: "1024x1024", quality: "low" });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const text = await res.text();
    const events = namedEvents(text);
    expect(events.map((e) => [e.event, e.data.type, e.data.partial_image_index])).toEqual([
      ["image_generation.partial_image", "image_generation.partial_image", 0],
      ["image_generation.partial_image", "image_generation.partial_image", 1],
      ["image_generation.completed", "image_generation.completed", undefined],
    ]);
    expect(events[2]!.data.usage.output_tokens).toBe(272);
    const png = await decodePng(fromBase64(events[2]!.data.b64_json));
    expect([png.width, png.height]).toEqual([1024, 1024]);
  });
});

describe("edits and variations (multipart)", () => {
  it("an edit with image[] files and a mask answers like a generation; usage counts the input images", async () => {
    const res = await edit({ model: "gpt-image-1", prompt: "add a hat", size: "1024x1024" }, [
      ["image[]", "a.png", "image/png", 100],
      ["image[]", "b.webp", "image/webp", 10],
      ["mask", "m.png", "image/png", 5],
    ]);
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.usage.input_tokens_details).toEqual({ text_tokens: 3, image_tokens: 130 });
    expect((await decodePng(fromBase64(body.data[0].b64_json))).width).toBe(1024);
  });

  it("refuses what the API refuses", async () => {
    const cases: [Record<string, string>, [string, string, string, number][], string][] = [
      [{ model: "gpt-image-1", prompt: "p" }, [], "Missing required parameter: 'image'."],
      [
        { model: "gpt-image-1", prompt: "p" },
        [["image", "a.gif", "image/gif", 4]],
        "Invalid file 'image': unsupported mimetype ('image/gif'). Supported file formats are 'image/jpeg', 'image/png', and 'image/webp'.",
      ],
      [{ model: "dall-e-2", prompt: "p" }, [["image", "a.jpg", "image/jpeg", 4]], "Uploaded image must be a PNG and less than 4 MB."],
    ];
    for (const [fields, files, message] of cases) {
      const res = await edit(fields, files);
      expect(res.status).toBe(400);
      expect(((await res.json()) as any).error.message).toBe(message);
    }
  });

  it("a variation of a dall-e-2 PNG: the file's name is the user message", async () => {
    const form = new FormData();
    form.append("image", new Blob([new Uint8Array(8)], { type: "image/png" }), "fox.png");
    form.append("response_format", "b64_json");
    const res = await call("/s/img-script/var-1/v1/images/variations", { method: "POST", headers: AUTH, body: form });
    expect(res.headers.get("x-mockllm-step")).toBe("fox");
    const png = await decodePng(fromBase64(((await res.json()) as any).data[0].b64_json));
    expect([...png.raw.subarray(1, 4)]).toEqual([0x33, 0x66, 0xff]);
  });

  it("an upload past 32 MiB is a 413 in OpenAI's shape, refused from its declared length", async () => {
    const res = await edit({ model: "gpt-image-1", prompt: "p" }, [["image", "big.png", "image/png", 32 * 1024 * 1024 + 1]]);
    expect(res.status).toBe(413);
    expect(((await res.json()) as any).error).toMatchObject({ type: "invalid_request_error", code: "request_too_large" });
  });

  it("malformed multipart is a 400 in OpenAI's shape", async () => {
    const bodies: [string, string][] = [
      ["multipart/form-data; boundary=X", '--X\r\nContent-Disposition: form-data; name="prompt"\r\n\r\nhi'],
      ["multipart/form-data; boundary=X", "no delimiter at all"],
      ["multipart/form-data", "--X--"],
      ["multipart/form-data; boundary=X", "--X\r\nContent-Type: text/plain\r\n\r\nx\r\n--X--"],
    ];
    for (const [type, body] of bodies) {
      const res = await call("/v1/images/edits", { method: "POST", headers: { ...AUTH, "content-type": type }, body });
      expect(res.status).toBe(400);
      expect(((await res.json()) as any).error.type).toBe("invalid_request_error");
    }
  });
});

describe("scripted", () => {
  it("matches on the prompt, colours the picture, revises the prompt; then fails with 429 and retry headers; journals a summary", async () => {
    const ok = (await (await generate({ model: "dall-e-3", prompt: "a fox", response_format: "b64_json" }, "/s/img-script/s1")).json()) as any;
    expect(ok.data[0].revised_prompt).toBe("A small red fox, digital art");
    const png = await decodePng(fromBase64(ok.data[0].b64_json));
    expect([...png.raw.subarray(0, 7)]).toEqual([0, 0x33, 0x66, 0xff, 0x33, 0x66, 0xff]);
    const busy = await edit({ model: "gpt-image-1", prompt: "more" }, [["image", "in.png", "image/png", 3]], "/s/img-script/s1");
    expect(busy.status).toBe(429);
    expect([busy.headers.get("retry-after"), busy.headers.get("retry-after-ms")]).toEqual(["2", "2000"]);
    expect(((await busy.json()) as any).error.code).toBe("rate_limit_exceeded");
    const retried = await edit({ model: "gpt-image-1", prompt: "more" }, [["image", "in.png", "image/png", 3]], "/s/img-script/s1");
    expect(retried.status).toBe(200);
    const journal = (await (await admin("/sessions/img-script/s1/requests")).json()) as any[];
    expect(journal.map((j) => [j.step, j.status])).toEqual([
      ["fox", 200],
      ["busy", 429],
      ["busy", 200],
    ]);
    expect(journal[1].request.body).toEqual({ model: "gpt-image-1", prompt: "more", image: { filename: "in.png", type: "image/png", size: 3 } });
    const verify = (await (await admin("/sessions/img-script/s1/verify")).json()) as any;
    expect(verify, JSON.stringify(verify)).toMatchObject({ ok: true });
  });
});
