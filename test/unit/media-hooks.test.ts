/**
 * The two generic surface hooks the media surfaces brought: `readBody` (here the bounded multipart reader, whose
 * summary is what parse and the journal see) and `renderRaw` (a non-JSON answer, also cut short by the
 * `network_error` and `invalid_response` failures).
 */
import { describe, expect, it } from "vitest";
import { apiError } from "../../src/http/errors";
import { parseForm, readFormBody, MAX_FORM_PARTS } from "../../src/http/multipart";
import { openaiChat } from "../../src/providers/openai/chat";
import type { ChatRequest } from "../../src/providers/openai/chat/wire";
import type { ProviderSurface, RenderContext } from "../../src/providers/types";
import { renderOutcome } from "../../src/turn/render";
import { resolveReply } from "../../src/scenario/engine";
import type { Failure } from "../../src/scenario/schema";

const enc = new TextEncoder();
const form = (text: string) => enc.encode(text.replace(/\n/g, "\r\n"));

describe("parseForm", () => {
  it("fields, files (name, type, size — no bytes), repeated names, a quoted filename with a semicolon", () => {
    const body = form(
      'preamble\n--B\nContent-Disposition: form-data; name="model"\n\nwhisper-1\n--B\nContent-Disposition: form-data; name="image[]"; filename="a;b.png"\nContent-Type: image/png\n\n\x89PNG\n--B\nContent-Disposition: form-data; name="image[]"; filename="c.png"\n\n\n--B\nContent-Disposition: form-data; name="empty"\n\n\n--B--\nepilogue',
    );
    expect(parseForm(body, "B")).toEqual({
      ok: true,
      form: {
        model: "whisper-1",
        "image[]": [
          { filename: "a;b.png", type: "image/png", size: 5 },
          { filename: "c.png", type: "application/octet-stream", size: 0 },
        ],
        empty: "",
      },
    });
  });

  it("part names that Object.prototype has are the form's own fields, as sent (issue 34)", () => {
    const names = ["__proto__", "constructor", "toString", "valueOf", "hasOwnProperty"];
    const body = form(`${names.map((n) => `--B\nContent-Disposition: form-data; name="${n}"\n\n${n}-value\n`).join("")}--B\nContent-Disposition: form-data; name="toString"\n\nagain\n--B--`);
    const parsed = parseForm(body, "B");
    if (!parsed.ok) throw new Error(parsed.message);
    expect(Object.getPrototypeOf(parsed.form)).toBe(Object.prototype);
    expect(Object.keys(parsed.form)).toEqual(names);
    expect(JSON.parse(JSON.stringify(parsed.form))).toEqual(
      JSON.parse('{"__proto__":"__proto__-value","constructor":"constructor-value","toString":["toString-value","again"],"valueOf":"valueOf-value","hasOwnProperty":"hasOwnProperty-value"}'),
    );
  });

  it("refuses what is not a form, each with its reason", () => {
    const cases: [string, string][] = [
      ["no delimiter", "the multipart body has no boundary delimiter"],
      ['--B\nContent-Disposition: form-data; name="a"\n\nx', "the multipart body has no closing boundary"],
      ['--Bxx\nContent-Disposition: form-data; name="a"\n\nx\n--B--', "a boundary delimiter is not followed by a line break"],
      ['--B\nContent-Disposition: form-data; name="a"', "a part's headers do not end"],
      ["--B\nContent-Type: text/plain\n\nx\n--B--", "a part has no form-data name"],
      ['--B\nContent-Disposition: attachment; name="a"\n\nx\n--B--', "a part has no form-data name"],
    ];
    for (const [text, message] of cases) expect(parseForm(form(text), "B")).toEqual({ ok: false, message });
    const many = `${'--B\nContent-Disposition: form-data; name="a"\n\nx\n'.repeat(MAX_FORM_PARTS + 1)}--B--`;
    expect(parseForm(form(many), "B")).toEqual({ ok: false, message: `the form has more than ${MAX_FORM_PARTS} parts` });
  });
});

describe("readFormBody", () => {
  const tooLarge = (n: number | undefined) => apiError("payload_too_large", `too large: ${n}`);
  const post = (body: BodyInit, headers: Record<string, string>) => new Request("http://x/", { method: "POST", body, headers });

  it("a declared length past the limit is refused before reading; a chunked body once it passes the limit", async () => {
    expect(await readFormBody(post("x".repeat(20), { "content-type": "multipart/form-data; boundary=B", "content-length": "20" }), 10, tooLarge)).toEqual({ ok: false, error: tooLarge(20) });
    const chunks = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < 4; i++) c.enqueue(new Uint8Array(8));
        c.close();
      },
    });
    const chunked = new Request("http://x/", { method: "POST", body: chunks, headers: { "content-type": 'multipart/form-data; boundary="B"' }, duplex: "half" } as RequestInit);
    expect(await readFormBody(chunked, 10, tooLarge)).toEqual({ ok: false, error: tooLarge(undefined) });
  });

  it("summarises the form as the body's value and text; refuses other content types and a missing boundary with 400s", async () => {
    const ok = await readFormBody(
      post(form('--B\nContent-Disposition: form-data; name="file"; filename="a.wav"\nContent-Type: audio/wav\n\nRIFF\n--B--'), { "content-type": "multipart/form-data; boundary=B" }),
      1000,
      tooLarge,
    );
    expect(ok).toEqual({ ok: true, value: { file: { filename: "a.wav", type: "audio/wav", size: 4 } }, text: '{"file":{"filename":"a.wav","type":"audio/wav","size":4}}', summary: true });
    for (const type of ["application/json", "multipart/form-data"]) {
      const res = await readFormBody(post("{}", { "content-type": type }), 100, tooLarge);
      expect(res.ok ? 0 : res.error.code).toBe("invalid_request");
    }
  });
});

describe("renderRaw", () => {
  const raw: ProviderSurface<ChatRequest> = { ...openaiChat, renderRaw: () => ({ body: Uint8Array.of(1, 2, 3, 4, 5, 6), contentType: "audio/wav" }) };
  const answer = async (outcome: "reply" | Failure) => {
    const parsed = raw.parse({ model: "m", messages: [{ role: "user", content: "x" }] }, new Headers(), { path: "/v1/chat/completions", query: new URLSearchParams() });
    if (!parsed.ok) throw new Error(parsed.error.message);
    const reply = resolveReply(undefined, { respond: { text: "t" } }, parsed.request, "seed");
    const ctx: RenderContext<ChatRequest> = { wire: parsed.wire, request: parsed.request, requestId: "req_1", created: 1 };
    const pending: Promise<unknown>[] = [];
    const exec = { waitUntil: (p: Promise<unknown>) => void pending.push(p) };
    const res = await renderOutcome(raw, outcome === "reply" ? { kind: "reply", reply } : { kind: "failure", failure: outcome, reply, attempt: 1 }, ctx, exec);
    const bytes = await res.arrayBuffer().then(
      (b) => [...new Uint8Array(b)],
      () => "broken",
    );
    return [res.status, res.headers.get("content-type"), bytes];
  };

  it("answers the raw body with its content type; broken and malformed answers send its first half", async () => {
    expect(await answer("reply")).toEqual([200, "audio/wav", [1, 2, 3, 4, 5, 6]]);
    expect(await answer({ kind: "invalid_response" })).toEqual([200, "audio/wav", [1, 2, 3]]);
    expect((await answer({ kind: "network_error" })).slice(0, 2)).toEqual([200, "audio/wav"]);
  });

  it("a surface without it (or answering undefined) keeps its JSON", async () => {
    const json = { ...raw, renderRaw: () => undefined };
    const parsed = json.parse({ model: "m", messages: [{ role: "user", content: "x" }] }, new Headers(), { path: "/v1/chat/completions", query: new URLSearchParams() });
    if (!parsed.ok) throw new Error(parsed.error.message);
    const reply = resolveReply(undefined, { respond: { text: "t" } }, parsed.request, "seed");
    const res = await renderOutcome(json, { kind: "reply", reply }, { wire: parsed.wire, request: parsed.request, requestId: "r", created: 1 }, { waitUntil: () => {} });
    expect(res.headers.get("content-type")).toBe("application/json");
  });
});
