/**
 * A step id outside printable ASCII (issue 51 point 10): `x-mockllm-step` carries it percent-encoded as UTF-8, on
 * both runtimes — it was a 500 on Node (a header value refuses U+2600 and a newline) and, on a Worker, a workerd
 * warning per answer or a 500 for a control character. Printable ASCII ids go as they are.
 */
import { describe, expect, it } from "vitest";
import { headerText } from "../../src/http/header-text";
import { admin, chat, upload, userTurn } from "./helpers";

describe("x-mockllm-step for any step id", () => {
  it.each([
    ["fox", "fox"],
    ["Wetter ☀", "Wetter %E2%98%80"],
    ["天気", "%E5%A4%A9%E6%B0%97"],
    ["a\nb\tc", "a%0Ab%09c"],
    ["100% é", "100%25 %C3%A9"],
  ])("%j → %j, which decodeURIComponent reads back", async (id, header) => {
    const name = `ht-${header.length}-${id.length}`;
    await upload({ name, steps: [{ id, consume: false, respond: { text: "ok" } }] });
    const res = await chat(userTurn("hi"), `/s/${name}/h1`);
    expect([res.status, res.headers.get("x-mockllm-step"), res.headers.get("x-mockllm-outcome")]).toEqual([200, header, "response"]);
    expect(((await res.json()) as { choices: { message: { content: string } }[] }).choices[0]!.message.content).toBe("ok");
    expect(decodeURIComponent(header)).toBe(id);
    expect(headerText(id)).toBe(header);
  });
});

describe("scripted response headers", () => {
  it("an upload whose headers no HTTP answer can carry is refused, naming each (it was a 500 on every answer)", async () => {
    const doc = {
      name: "ht-bad-headers",
      steps: [
        { respond: { text: "a", headers: { "x-weather": "Wetter ☀", "x-lines": "a\nb", "bad name": "v" } } },
        { failures: [{ kind: "rate_limit", headers: { "x-note": "café" } }], respond: { text: "b" } },
      ],
    };
    const res = await admin("/scenarios", { method: "POST", body: JSON.stringify([doc]) });
    const body = (await res.json()) as { error: { issues: { path: string; message: string }[] } };
    expect(res.status).toBe(400);
    expect(body.error.issues.map((i) => i.message).sort()).toEqual([
      "a header name is letters, digits and !#$%&'*+-.^_`|~ only",
      "a header value is printable ASCII: percent-encode other text",
      "a header value is printable ASCII: percent-encode other text",
      "a header value is printable ASCII: percent-encode other text",
    ]);
  });

  it("printable ASCII values (tabs too) are sent as written", async () => {
    await upload({ name: "ht-good-headers", steps: [{ consume: false, respond: { text: "a", headers: { "x-weather": "Wetter%20%E2%98%80", "x-tab": "a\tb" } } }] });
    const res = await chat(userTurn("hi"), "/s/ht-good-headers/g1");
    expect([res.status, res.headers.get("x-weather"), res.headers.get("x-tab")]).toEqual([200, "Wetter%20%E2%98%80", "a\tb"]);
  });
});
