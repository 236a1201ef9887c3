/**
 * Multipart garbage at the upload routes (image edits and variations, transcriptions, translations): seeded
 * mutations of a valid form — cut, bytes flipped, line breaks dropped, boundaries changed — are answered with a 4xx in
 * OpenAI's shape (or a 200 when the mutation left a valid form), never a 5xx or a reset, on both runtimes.
 */
import { describe, expect, it } from "vitest";
import { seededRandom } from "../../src/util/hash";
import { call } from "./helpers";

const PATHS = ["/v1/images/edits", "/v1/images/variations", "/v1/audio/transcriptions", "/v1/audio/translations"];

function validForm(path: string): string {
  const file = path.includes("audio") ? ["file", "a.wav", "audio/wav"] : ["image", "a.png", "image/png"];
  const fields = path.includes("audio")
    ? [["model", "whisper-1"]]
    : [
        ["model", "dall-e-2"],
        ["prompt", "p"],
        ["response_format", "b64_json"],
        ["size", "256x256"],
      ];
  const parts = fields.map(([k, v]) => `--BOUND\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  parts.push(`--BOUND\r\nContent-Disposition: form-data; name="${file[0]}"; filename="${file[1]}"\r\nContent-Type: ${file[2]}\r\n\r\n\x89PNG\r\n\x1a\n\x00\x00\r\n`);
  return `${parts.join("")}--BOUND--\r\n`;
}

function mutate(text: string, r: () => number): { body: string; type: string } {
  let body = text;
  let type = "multipart/form-data; boundary=BOUND";
  const kind = Math.floor(r() * 7);
  const at = Math.floor(r() * body.length);
  if (kind === 0) body = body.slice(0, at);
  if (kind === 1) body = body.slice(0, at) + String.fromCharCode(Math.floor(r() * 256)) + body.slice(at + 1);
  if (kind === 2) body = body.replace(/\r\n/g, r() < 0.5 ? "\n" : "");
  if (kind === 3)
    type = [
      "multipart/form-data; boundary=",
      "multipart/form-data; boundary=OTHER",
      'multipart/form-data; boundary="BOUND',
      "multipart/mixed; boundary=BOUND",
      `multipart/form-data; boundary=${"x".repeat(80)}`,
    ][Math.floor(r() * 5)]!;
  if (kind === 4) body = body.replace(/name="[^"]*"/, r() < 0.5 ? "name=" : 'name=""');
  if (kind === 5) body = body.repeat(1 + Math.floor(r() * 3));
  if (kind === 6) body = body.replace("--BOUND--", "--BOUND");
  return { body, type };
}

describe("multipart garbage at the upload routes", () => {
  it("a valid form answers 200; mutations answer 200 or a 4xx in OpenAI's shape, never 5xx", async () => {
    const r = seededRandom(33);
    const bad: string[] = [];
    for (const path of PATHS) {
      const ok = await call(path, { method: "POST", headers: { authorization: "Bearer sk", "content-type": "multipart/form-data; boundary=BOUND" }, body: validForm(path) });
      expect(ok.status, `${path} ${await ok.clone().text()}`).toBe(200);
      await ok.arrayBuffer();
      for (let i = 0; i < 40; i++) {
        const { body, type } = mutate(validForm(path), r);
        const res = await call(path, { method: "POST", headers: { authorization: "Bearer sk", "content-type": type }, body });
        const text = await res.text();
        if (res.status >= 500) bad.push(`${path} #${i} → ${res.status} ${text.slice(0, 100)}`);
        else if (res.status !== 200) {
          const e = (JSON.parse(text) as { error?: { message?: unknown; type?: unknown } }).error;
          if (typeof e?.message !== "string" || e.type !== "invalid_request_error") bad.push(`${path} #${i} → ${res.status} ${text.slice(0, 100)}`);
        }
      }
    }
    expect(bad).toEqual([]);
  }, 120_000);
});
