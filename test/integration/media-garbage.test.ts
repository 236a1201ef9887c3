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

/** One part: its headers, then its body. */
const part = (headers: string, body: string) => `--BOUND\r\n${headers}\r\n\r\n${body}\r\n`;
const field = (name: string, value: string) => part(`Content-Disposition: form-data; name="${name}"`, value);
const file = (name: string, filename = "a.png") => part(`Content-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: image/png`, "\x89PNG\r\n\x1a\n\x00\x00");
const END = "--BOUND--\r\n";
const FORM = "multipart/form-data; boundary=BOUND";

/** Forms each upload route must refuse with a 400 in OpenAI's shape (`fileName` is the route's file part). */
function refusedForms(path: string): [string, string, string][] {
  const audio = path.includes("audio");
  const fileName = audio ? "file" : "image";
  const fields = audio ? field("model", "whisper-1") : field("model", "dall-e-2") + field("prompt", "p");
  return [
    ["no boundary parameter", "multipart/form-data", fields + file(fileName) + END],
    ["an empty boundary", "multipart/form-data; boundary=", fields + file(fileName) + END],
    ["a boundary over 70 characters", `multipart/form-data; boundary=${"b".repeat(71)}`, fields + file(fileName) + END],
    ["no closing delimiter", FORM, fields + file(fileName)],
    ["a part cut inside its headers", FORM, `${fields}--BOUND\r\nContent-Disposition: form-data; name="${fileName}"; filena`],
    ["a part cut inside its body", FORM, `${fields}--BOUND\r\nContent-Disposition: form-data; name="${fileName}"; filename="a"\r\n\r\n\x89PN`],
    ["a part without Content-Disposition", FORM, fields + part("Content-Type: image/png", "x") + END],
    ["a part whose disposition is not form-data", FORM, fields + part(`Content-Disposition: attachment; name="${fileName}"`, "x") + END],
    ["a part with an empty name", FORM, fields + part('Content-Disposition: form-data; name=""', "x") + END],
    ["the file under a wrong part name", FORM, fields + file(audio ? "image" : "file") + END],
    ["no file at all", FORM, fields + END],
    ["the model as a file", FORM, file("model") + file(fileName) + END],
    ["300 parts (over the 256 allowed)", FORM, fields + file(fileName) + field("x", "y").repeat(300) + END],
    ["a part header of 200 KB", FORM, fields + part(`Content-Disposition: form-data; name="${fileName}"; filename="a.png"\r\nX-Pad: ${"p".repeat(200_000)}`, "x").replace(fileName, "nope") + END],
    ["a body that is JSON", FORM, JSON.stringify({ model: "whisper-1", file: "x" })],
    ["only the closing delimiter", FORM, END],
  ];
}

describe("multipart forms the upload routes refuse, one table per route", () => {
  it("each is a 400 in OpenAI's shape naming the problem; a valid form answers after", async () => {
    const bad: string[] = [];
    for (const path of PATHS) {
      for (const [what, type, body] of refusedForms(path)) {
        const res = await call(path, { method: "POST", headers: { authorization: "Bearer sk", "content-type": type }, body });
        const text = await res.text();
        const e = res.status === 400 ? (JSON.parse(text) as { error?: { message?: unknown; type?: unknown } }).error : undefined;
        if (typeof e?.message !== "string" || e.type !== "invalid_request_error") bad.push(`${path} ${what} → ${res.status} ${text.slice(0, 120)}`);
      }
      const ok = await call(path, { method: "POST", headers: { authorization: "Bearer sk", "content-type": FORM }, body: validForm(path) });
      expect(ok.status, path).toBe(200);
      await ok.arrayBuffer();
    }
    expect(bad).toEqual([]);
  });

  it("part names that are Object.prototype's own (__proto__, constructor, toString, valueOf) are plain fields, never a 5xx", async () => {
    const bad: string[] = [];
    for (const path of PATHS) {
      for (const name of ["__proto__", "constructor", "toString", "valueOf", "hasOwnProperty"]) {
        for (const extra of [field(name, "x"), file(name), field(name, "x") + field(name, "y")]) {
          const body = validForm(path).replace(END, extra + END);
          const res = await call(path, { method: "POST", headers: { authorization: "Bearer sk", "content-type": FORM }, body });
          const text = await res.text();
          if (res.status !== 200) bad.push(`${path} ${name} ${extra.length} → ${res.status} ${text.slice(0, 120)}`);
        }
      }
    }
    expect(bad).toEqual([]);
  });
});
