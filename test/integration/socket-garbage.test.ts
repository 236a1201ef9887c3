/**
 * Garbage over the three WebSocket protocols, on both runtimes: seeded tables of malformed client messages (fields of
 * the wrong type — objects with a `toString`, arrays, numbers, null —, huge values, nesting past the limit, binary
 * frames, text that is not a JSON object). Each gets the protocol's own error — an `error` event on the Responses
 * WebSocket mode and on Realtime, which keep the socket; a 1007 close on Gemini Live — and a valid turn answers after.
 */
import { describe, expect, it } from "vitest";
import { seededRandom } from "../../src/util/hash";
import { upload } from "./helpers";
import { openSocket, until, type TestSocket } from "./socket-helpers";

await upload({ name: "sock-garbage", steps: [{ consume: false, respond: { text: "Still here." } }] });

const LIVE = "/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent?key=k";

async function socket(path: string, headers: Record<string, string> = { authorization: "Bearer sk-test" }): Promise<TestSocket> {
  const s = await openSocket(path, headers);
  if (s instanceof Response) throw new Error(`refused: ${s.status} ${await s.text()}`);
  return s;
}

/** Values of every JSON kind but the one a field takes. */
const NOT_STRING: unknown[] = [{ toString: 1 }, { toString: null }, { valueOf: {} }, [], ["a"], 0, -1.5, 1e308, true, false, null, {}];
const NOT_OBJECT: unknown[] = ["x", "", 0, 7.5, true, [], [{}], ["a", 1]];
const NOT_ARRAY: unknown[] = ["x", 3, false, { toString: 1 }, { length: 2, 0: "a" }];
const deep = (n: number): unknown => JSON.parse(`${"[".repeat(n)}${"]".repeat(n)}`);

type Case = { what: string; message: unknown } | { what: string; binary: Uint8Array };

/** Sets `value` at `path` in a copy of `base`. */
function at(base: Record<string, unknown>, path: (string | number)[], value: unknown): Record<string, unknown> {
  const copy = structuredClone(base);
  let node: any = copy;
  for (const k of path.slice(0, -1)) node = node[k];
  node[path.at(-1)!] = value;
  return copy;
}

/** `count` cases drawn (seeded) from templates × wrong values, plus the fixed ones every protocol gets. */
function table(seed: number, count: number, templates: { base: Record<string, unknown>; path: (string | number)[]; wrong: unknown[] }[]): Case[] {
  const r = seededRandom(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)]!;
  const cases: Case[] = [
    { what: "not JSON", message: "{nope" },
    { what: "a JSON array", message: "[1,2]" },
    { what: "a JSON string", message: '"response.create"' },
    { what: "null", message: "null" },
    { what: "nesting past the limit", message: JSON.stringify({ type: deep(200) }) },
    { what: "a binary frame", binary: new Uint8Array([0, 1, 2, 255]) },
    { what: "a binary frame of JSON", binary: new TextEncoder().encode('{"type":"response.create"}') },
  ];
  while (cases.length < count) {
    const t = pick(templates);
    const value = pick(t.wrong);
    cases.push({ what: `${t.path.join(".")} = ${JSON.stringify(value)?.slice(0, 40)}`, message: at(t.base, t.path, value) });
  }
  return cases;
}

function sendCase(s: TestSocket, c: Case): void {
  if ("binary" in c) s.sendBinary(c.binary);
  else s.send(typeof c.message === "string" ? c.message : JSON.stringify(c.message));
}

const HUGE = "x".repeat(300_000);

describe("Realtime: each malformed client event gets an invalid_request_error event; the socket keeps working", () => {
  it("the issue's two events: an object `type`, an object `item_id`", async () => {
    const s = await socket("/s/sock-garbage/rt-issue/v1/realtime?model=gpt-realtime");
    expect((await s.next()).type).toBe("session.created");
    s.send('{"type":{"toString":1}}');
    expect(await s.next()).toMatchObject({
      type: "error",
      error: { type: "invalid_request_error", code: "invalid_type", param: "type", message: "Invalid type for 'type': expected a string, but got an object instead.", event_id: null },
    });
    s.send({ type: "conversation.item.delete", item_id: { toString: null }, event_id: "evt_1" });
    expect(await s.next()).toMatchObject({
      type: "error",
      error: { type: "invalid_request_error", code: "invalid_type", param: "item_id", message: "Invalid type for 'item_id': expected a string, but got an object instead.", event_id: "evt_1" },
    });
    s.send({ type: "response.create" });
    const done = (await until(s, (m) => m.type === "response.done")).at(-1);
    expect(done.response.output[0].content[0].text).toBe("Still here.");
    s.close();
  });

  const say = { type: "conversation.item.create", item: { type: "message", role: "user", content: [{ type: "input_text", text: "hi" }] } };
  const cases = table(20261126, 200, [
    { base: { type: "x" }, path: ["type"], wrong: [...NOT_STRING, HUGE, "", "response.steer"] },
    { base: { type: "conversation.item.delete", item_id: "x" }, path: ["item_id"], wrong: [...NOT_STRING, HUGE] },
    { base: { type: "session.update", session: {} }, path: ["event_id"], wrong: NOT_STRING.filter((v) => v !== null) },
    { base: { type: "session.update", session: {} }, path: ["session"], wrong: NOT_OBJECT },
    { base: { type: "session.update", session: { instructions: "x" } }, path: ["session", "instructions"], wrong: NOT_STRING.filter((v) => v !== null) },
    { base: { type: "session.update", session: { output_modalities: ["text"] } }, path: ["session", "output_modalities"], wrong: [...NOT_ARRAY, [{ toString: 1 }], ["video"]] },
    { base: say, path: ["item"], wrong: NOT_OBJECT },
    { base: say, path: ["item", "type"], wrong: [...NOT_STRING, "audio"] },
    { base: say, path: ["item", "role"], wrong: [...NOT_STRING, "tool"] },
    { base: say, path: ["item", "content"], wrong: NOT_ARRAY },
    { base: say, path: ["item", "content", 0], wrong: NOT_OBJECT },
    { base: say, path: ["item", "content", 0, "text"], wrong: NOT_STRING.filter((v) => v !== null) },
    { base: { type: "response.create", response: {} }, path: ["response"], wrong: NOT_OBJECT },
    { base: { type: "response.create", response: { instructions: "x" } }, path: ["response", "instructions"], wrong: NOT_STRING.filter((v) => v !== null) },
    { base: { type: "response.create", response: { input: [] } }, path: ["response", "input"], wrong: NOT_ARRAY },
    { base: { type: "response.create", response: { metadata: {} } }, path: ["response", "metadata"], wrong: NOT_OBJECT },
    { base: { type: "response.cancel" }, path: ["response_id"], wrong: NOT_STRING.filter((v) => v !== null) },
  ]);

  it(`${cases.length} seeded cases on one socket, then a turn`, async () => {
    const s = await socket("/s/sock-garbage/rt-table/v1/realtime?model=gpt-realtime");
    expect((await s.next()).type).toBe("session.created");
    for (const c of cases) {
      sendCase(s, c);
      const answer = await s.next();
      expect({ what: c.what, type: answer.type, error: answer.error?.type }).toEqual({ what: c.what, type: "error", error: "invalid_request_error" });
    }
    s.send({ type: "conversation.item.create", item: { type: "message", role: "user", content: [{ type: "input_text", text: "and now?" }] } });
    s.send({ type: "response.create" });
    const done = (await until(s, (m) => m.type === "response.done")).at(-1);
    expect(done.response.output[0].content[0].text).toBe("Still here.");
    s.close();
  });
});

describe("Responses WebSocket mode: each malformed message gets an error event with status 400; the socket keeps working", () => {
  const create = { type: "response.create", model: "gpt-4.1", input: "hi" };
  const cases = table(20261127, 200, [
    { base: { type: "x" }, path: ["type"], wrong: [...NOT_STRING, HUGE, "response.cancel"] },
    { base: create, path: ["model"], wrong: NOT_STRING.filter((v) => v !== null) },
    { base: create, path: ["input"], wrong: [{ toString: 1 }, 3, true] },
    { base: { ...create, input: [{ type: "message", role: "user", content: "hi" }] }, path: ["input", 0], wrong: ["x", 1, [], null] },
    { base: { ...create, input: [{ type: "message", role: "user", content: "hi" }] }, path: ["input", 0, "content"], wrong: [{ toString: 1 }, 1, true] },
    { base: { ...create, input: [{ type: "function_call_output", call_id: "c", output: "o" }] }, path: ["input", 0, "call_id"], wrong: NOT_STRING },
    { base: { ...create, previous_response_id: "resp_x" }, path: ["previous_response_id"], wrong: [{ toString: 1 }, 1, [], true] },
    { base: { ...create, tools: [] }, path: ["tools"], wrong: ["x", 1, { toString: 1 }] },
    { base: { ...create, instructions: "x" }, path: ["instructions"], wrong: [{ toString: 1 }, 1, [], true] },
    { base: { ...create, previous_response_id: "resp_x" }, path: ["previous_response_id"], wrong: [HUGE] },
  ]);

  it(`${cases.length} seeded cases on one socket, then a turn`, async () => {
    const s = await socket("/s/sock-garbage/resp-table/v1/responses");
    for (const c of cases) {
      sendCase(s, c);
      const answer = await s.next();
      expect({ what: c.what, type: answer.type, status: answer.status, error: answer.error?.type }).toEqual({ what: c.what, type: "error", status: 400, error: "invalid_request_error" });
    }
    s.send(create);
    const done = (await until(s, (m) => m.type === "response.completed" || m.type === "error")).at(-1);
    expect(done.response.output[0].content[0].text).toBe("Still here.");
    s.close();
  });
});

describe("Gemini Live: each malformed message closes with 1007; the next socket answers", () => {
  const setup = { setup: { model: "models/gemini-2.5-flash", generationConfig: { responseModalities: ["TEXT"] } } };
  const content = { clientContent: { turns: [{ role: "user", parts: [{ text: "hi" }] }], turnComplete: true } };
  const cases = table(20261128, 40, [
    { base: setup, path: ["setup"], wrong: NOT_OBJECT },
    { base: setup, path: ["setup", "model"], wrong: NOT_STRING },
    { base: setup, path: ["setup", "generationConfig", "responseModalities"], wrong: [...NOT_ARRAY, [{ toString: 1 }]] },
    { base: content, path: ["clientContent"], wrong: NOT_OBJECT },
    { base: content, path: ["clientContent", "turns"], wrong: NOT_ARRAY },
    { base: content, path: ["clientContent", "turns", 0, "parts"], wrong: NOT_ARRAY },
    { base: content, path: ["clientContent", "turns", 0, "parts", 0, "text"], wrong: NOT_STRING.filter((v) => v !== null) },
    { base: content, path: ["clientContent", "turnComplete"], wrong: ["yes", 1, { toString: 1 }] },
    { base: { clientContent: { turns: [{ role: "user", parts: [{ text: "hi" }] }] } }, path: ["clientContent", "turns", 0, "parts", 0, "text"], wrong: NOT_STRING.filter((v) => v !== null) },
    { base: { realtimeInput: { text: "hi" } }, path: ["realtimeInput", "text"], wrong: NOT_STRING.filter((v) => v !== null) },
    { base: { toolResponse: { functionResponses: [] } }, path: ["toolResponse", "functionResponses"], wrong: NOT_ARRAY },
    { base: { toolResponse: { functionResponses: [{ name: "f", response: {} }] } }, path: ["toolResponse", "functionResponses", 0, "name"], wrong: NOT_STRING.filter((v) => v !== null) },
  ]);

  it(`${cases.length} seeded cases, one socket each (after a setup, unless the case is the setup)`, async () => {
    for (const [i, c] of cases.entries()) {
      const s = await socket(`/s/sock-garbage/live-${i}${LIVE}`, {});
      const isSetup = "message" in c && typeof c.message === "object" && c.message !== null && "setup" in c.message;
      if (!isSetup) {
        s.send(setup);
        expect(await s.next()).toEqual({ setupComplete: {} });
      }
      sendCase(s, c);
      expect({ what: c.what, code: (await s.closed).code }).toEqual({ what: c.what, code: 1007 });
    }
    const s = await socket(`/s/sock-garbage/live-after${LIVE}`, {});
    s.send(setup);
    await s.next();
    s.send(content);
    const messages = await until(s, (m) => m.serverContent?.turnComplete === true);
    expect(
      messages
        .flatMap((m) => m.serverContent?.modelTurn?.parts ?? [])
        .map((p: { text: string }) => p.text)
        .join(""),
    ).toBe("Still here.");
    s.close();
  });
});
