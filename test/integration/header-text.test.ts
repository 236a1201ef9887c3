/**
 * A step id outside printable ASCII (issue 51 point 10): `x-mockllm-step` carries it percent-encoded as UTF-8, on
 * both runtimes — it was a 500 on Node (a header value refuses U+2600 and a newline) and, on a Worker, a workerd
 * warning per answer or a 500 for a control character. Printable ASCII ids go as they are.
 */
import { describe, expect, it } from "vitest";
import { headerText } from "../../src/http/header-text";
import { chat, upload, userTurn } from "./helpers";

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
