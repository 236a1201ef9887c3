/**
 * Abuse over the three WebSocket protocols beyond socket-garbage.test.ts (issue 34), on both runtimes: messages far
 * over the HTTP body limit, events out of order, a flood of garbage sent without waiting, and clients closing with
 * every kind of code mid-stream. Each gets the protocol's own error event or close code; the server never crashes and
 * the next connection answers a turn.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "../../src/http/body";
import { MAX_SOCKET_MESSAGE_BYTES } from "../../src/sockets/limits";
import { upload } from "./helpers";
import { openSocket, until, type TestSocket } from "./socket-helpers";

const LIVE = "/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent?key=k";
/** Over the 10 MiB an HTTP body may have. */
const HUGE = "x".repeat(12 * 1024 * 1024);
const SETUP = { setup: { model: "models/gemini-2.5-flash", generationConfig: { responseModalities: ["TEXT"] } } };
const say = (text: string) => ({ type: "conversation.item.create", item: { type: "message", role: "user", content: [{ type: "input_text", text }] } });

beforeAll(async () => {
  await upload({
    name: "sock-abuse",
    steps: [
      { id: "slow", match: { lastUserMessage: { contains: "slow" } }, consume: false, respond: { text: "one two three four five six seven eight", stream: { chunkDelayMs: 30 } } },
      { id: "any", consume: false, respond: { text: "Still here." } },
    ],
  });
});

async function socket(path: string, headers: Record<string, string> = { authorization: "Bearer sk-test" }): Promise<TestSocket> {
  const s = await openSocket(path, headers);
  if (s instanceof Response) throw new Error(`refused: ${s.status} ${await s.text()}`);
  return s;
}

async function realtime(session: string): Promise<TestSocket> {
  const s = await socket(`/s/sock-abuse/${session}/v1/realtime?model=gpt-realtime`);
  expect((await s.next()).type).toBe("session.created");
  return s;
}

/** A Realtime turn on `s`: its answered text. */
async function realtimeTurn(s: TestSocket, text = "hi"): Promise<string> {
  s.send(say(text));
  s.send({ type: "response.create" });
  const done = (await until(s, (m) => m.type === "response.done")).at(-1);
  return done.response.output[0].content[0].text;
}

async function responsesTurn(s: TestSocket, input = "hi"): Promise<string> {
  s.send({ type: "response.create", model: "gpt-4.1", input });
  const done = (await until(s, (m) => m.type === "response.completed" || m.type === "error")).at(-1);
  return done.response.output[0].content[0].text;
}

async function liveTurn(session: string): Promise<string> {
  const s = await socket(`/s/sock-abuse/${session}${LIVE}`, {});
  s.send(SETUP);
  expect(await s.next()).toEqual({ setupComplete: {} });
  s.send({ clientContent: { turns: [{ role: "user", parts: [{ text: "hi" }] }], turnComplete: true } });
  const messages = await until(s, (m) => m.serverContent?.turnComplete === true);
  s.close();
  return messages
    .flatMap((m) => m.serverContent?.modelTurn?.parts ?? [])
    .map((p: { text: string }) => p.text)
    .join("");
}

/** A text message of exactly `bytes` UTF-8 bytes: `shape` padded out with "x". */
function exactly(bytes: number, shape: (pad: string) => unknown): string {
  const bare = JSON.stringify(shape("")).length;
  return JSON.stringify(shape("x".repeat(bytes - bare)));
}

describe("messages over the HTTP body limit (12 MiB)", () => {
  it("Realtime: an unknown type is an error event, a huge user item is added, and the turn after answers", async () => {
    const s = await realtime("huge-rt");
    s.send({ type: "nope", pad: HUGE });
    expect((await s.next()).error).toMatchObject({ type: "invalid_request_error", code: "invalid_value", param: "type" });
    s.send(say(HUGE));
    const added = await s.next();
    expect([added.type, added.item.content[0].text.length]).toEqual(["conversation.item.added", HUGE.length]);
    expect(await realtimeTurn(s)).toBe("Still here.");
    s.close();
  });

  it("Responses WebSocket mode takes HTTP's 10 MiB: exactly that is answered, one byte over closes 1009; the next socket answers (issue 51)", async () => {
    const s = await socket("/s/sock-abuse/huge-resp/v1/responses");
    const atCap = exactly(MAX_BODY_BYTES, (pad) => ({ type: "nope", pad }));
    s.send(atCap);
    expect(await s.next()).toMatchObject({ type: "error", status: 400, error: { type: "invalid_request_error", code: "invalid_event_type", param: "type" } });
    expect(await responsesTurn(s)).toBe("Still here.");
    s.send(exactly(MAX_BODY_BYTES + 1, (pad) => ({ type: "response.create", model: "gpt-4.1", input: pad })));
    expect(await s.closed).toEqual({ code: 1009, reason: "message too big" });
    const after = await socket("/s/sock-abuse/huge-resp-after/v1/responses");
    expect(await responsesTurn(after)).toBe("Still here.");
    after.close();
  });

  it("Gemini Live takes HTTP's 10 MiB: a setup of exactly that completes; one byte over closes 1009; the next socket answers (issue 51)", async () => {
    const s = await socket(`/s/sock-abuse/huge-live${LIVE}`, {});
    s.send(exactly(MAX_BODY_BYTES, (pad) => ({ setup: { ...SETUP.setup, systemInstruction: { parts: [{ text: pad }] } } })));
    expect(await s.next()).toEqual({ setupComplete: {} });
    s.send(exactly(MAX_BODY_BYTES + 1, (pad) => ({ realtimeInput: { text: pad } })));
    expect(await s.closed).toEqual({ code: 1009, reason: "message too big" });
    expect(await liveTurn("huge-live-after")).toBe("Still here.");
  });

  it("a 12 MiB message, over HTTP's limit: Realtime takes it (above); the Responses WebSocket mode and Gemini Live close 1009", async () => {
    const resp = await socket("/s/sock-abuse/huge-resp-12/v1/responses");
    resp.send({ type: "nope", pad: HUGE });
    expect(await resp.closed).toEqual({ code: 1009, reason: "message too big" });
    const live = await socket(`/s/sock-abuse/huge-live-12${LIVE}`, {});
    live.send({ setup: { ...SETUP.setup, systemInstruction: { parts: [{ text: HUGE }] } } });
    expect(await live.closed).toEqual({ code: 1009, reason: "message too big" });
  });
});

describe(`messages over the socket cap (MAX_SOCKET_MESSAGE_BYTES, ${MAX_SOCKET_MESSAGE_BYTES} bytes)`, () => {
  /** A text message of exactly `bytes` UTF-8 bytes: an unknown event padded out. */
  const sized = (bytes: number, shape: (pad: string) => unknown) => {
    const bare = JSON.stringify(shape("")).length;
    return JSON.stringify(shape("x".repeat(bytes - bare)));
  };

  it("Realtime: a message of exactly the cap is answered; one byte over closes 1009 'message too big'; the next socket answers", async () => {
    const s = await realtime("cap-rt");
    const atCap = sized(MAX_SOCKET_MESSAGE_BYTES, (pad) => ({ type: "nope", pad }));
    expect(new TextEncoder().encode(atCap).byteLength).toBe(MAX_SOCKET_MESSAGE_BYTES);
    s.send(atCap);
    expect((await s.next()).error).toMatchObject({ code: "invalid_value", param: "type" });
    // Two 2-byte characters take the message one byte over the cap while its length is one under it.
    const over = sized(MAX_SOCKET_MESSAGE_BYTES - 1, (pad) => ({ type: "nope", pad: `éé${pad}` }));
    expect([over.length, new TextEncoder().encode(over).byteLength]).toEqual([MAX_SOCKET_MESSAGE_BYTES - 1, MAX_SOCKET_MESSAGE_BYTES + 1]);
    s.send(over);
    expect(await s.closed).toEqual({ code: 1009, reason: "message too big" });
    expect(await realtimeTurn(await realtime("cap-rt-after"))).toBe("Still here.");
  }, 60_000);

  it("Responses WebSocket mode and Gemini Live: one byte over the cap closes 1009 'message too big'", async () => {
    const resp = await socket("/s/sock-abuse/cap-resp/v1/responses");
    resp.send(sized(MAX_SOCKET_MESSAGE_BYTES + 1, (pad) => ({ type: "response.create", model: "gpt-4.1", input: pad })));
    expect(await resp.closed).toEqual({ code: 1009, reason: "message too big" });
    const live = await socket(`/s/sock-abuse/cap-live${LIVE}`, {});
    live.send(SETUP);
    expect(await live.next()).toEqual({ setupComplete: {} });
    live.send(sized(MAX_SOCKET_MESSAGE_BYTES + 1, (pad) => ({ realtimeInput: { text: pad } })));
    expect(await live.closed).toEqual({ code: 1009, reason: "message too big" });
    expect(await liveTurn("cap-live-after")).toBe("Still here.");
  }, 60_000);
});

describe("client values echoed in error messages", () => {
  it("Realtime and Responses WebSocket mode quote a short unknown type whole and a long one cut to 64 characters", async () => {
    const long = `response.${"y".repeat(5000)}`;
    const cut = `${long.slice(0, 64)}...`;
    const rt = await realtime("echo-rt");
    rt.send({ type: "response.nope" });
    expect((await rt.next()).error.message).toMatch(/^Invalid value: 'response\.nope'\. Supported values are/);
    rt.send({ type: long });
    expect((await rt.next()).error.message).toBe(
      `Invalid value: '${cut}'. Supported values are: 'session.update', 'conversation.item.create', 'conversation.item.delete', 'response.create', and 'response.cancel'.`,
    );
    rt.send({ type: "conversation.item.delete", item_id: `item_${"z".repeat(5000)}` });
    expect((await rt.next()).error.message).toBe(`Item with item_id 'item_${"z".repeat(59)}...' not found.`);
    rt.close();
    const resp = await socket("/s/sock-abuse/echo-resp/v1/responses");
    resp.send({ type: long });
    expect((await resp.next()).error.message).toBe(`Unsupported event type '${cut}': this connection accepts 'response.create'.`);
    resp.close();
  });
});

describe("events out of order", () => {
  it("Realtime: cancel with nothing active, delete of an unknown item, a second response.create while one runs", async () => {
    const s = await realtime("order-rt");
    s.send({ type: "response.cancel", event_id: "evt_c" });
    expect((await s.next()).error).toEqual({
      type: "invalid_request_error",
      code: "response_cancel_not_active",
      message: "Cancellation failed: no active response found.",
      param: null,
      event_id: "evt_c",
    });
    s.send({ type: "conversation.item.delete", item_id: "item_nope" });
    expect((await s.next()).error).toMatchObject({ code: "item_not_found", param: "item_id", message: "Item with item_id 'item_nope' not found." });
    s.send(say("hi"));
    expect((await s.next()).type).toBe("conversation.item.added");
    s.send({ type: "response.create" });
    s.send({ type: "response.create" });
    const events = await until(s, (m) => m.type === "response.done");
    expect(events.filter((m) => m.type === "error").map((m) => m.error.code)).toEqual(["conversation_already_has_active_response"]);
    expect(events.filter((m) => m.type === "response.created")).toHaveLength(1);
    expect(events.at(-1).response.output[0].content[0].text).toBe("Still here.");
    expect(await realtimeTurn(s)).toBe("Still here.");
    s.close();
  });

  it("Responses WebSocket mode: an unknown previous_response_id is 404; a second response.create in flight is refused; the first completes", async () => {
    const s = await socket("/s/sock-abuse/order-resp/v1/responses");
    s.send({ type: "response.create", model: "gpt-4.1", input: "hi", previous_response_id: "resp_nope" });
    expect(await s.next()).toMatchObject({ type: "error", status: 404, error: { code: "previous_response_not_found", param: "previous_response_id" } });
    s.send({ type: "response.create", model: "gpt-4.1", input: "hi" });
    s.send({ type: "response.create", model: "gpt-4.1", input: "hi" });
    const events = await until(s, (m) => m.type === "response.completed");
    expect(events.filter((m) => m.type === "error").map((m) => m.status)).toEqual([400]);
    expect(events.filter((m) => m.type === "response.created")).toHaveLength(1);
    expect(await responsesTurn(s)).toBe("Still here.");
    s.close();
  });

  it("Gemini Live: content before setup, a second setup, an unknown message: each a 1007 close naming it", async () => {
    const reasons: string[] = [];
    for (const [i, [before, message]] of (
      [
        [false, { clientContent: { turns: [{ role: "user", parts: [{ text: "hi" }] }], turnComplete: true } }],
        [false, { realtimeInput: { text: "hi" } }],
        [true, SETUP],
        [true, { nope: {} }],
      ] as const
    ).entries()) {
      const s = await socket(`/s/sock-abuse/order-live-${i}${LIVE}`, {});
      if (before) {
        s.send(SETUP);
        expect(await s.next()).toEqual({ setupComplete: {} });
      }
      s.send(message);
      const closed = await s.closed;
      expect(closed.code).toBe(1007);
      reasons.push(closed.reason);
    }
    expect(reasons).toEqual([
      "The first message must be setup.",
      "The first message must be setup.",
      "setup must be the first and only setup message.",
      "Unknown message: expected setup, clientContent, realtimeInput or toolResponse.",
    ]);
    expect(await liveTurn("order-live-after")).toBe("Still here.");
  });
});

describe("a flood of garbage sent without waiting", () => {
  it("Realtime and Responses answer one error per message, in order, then a turn", async () => {
    const garbage = ["{nope", "[]", "null", '{"type":7}', '{"type":"nope"}', "x".repeat(100_000)];
    const rt = await realtime("flood-rt");
    const resp = await socket("/s/sock-abuse/flood-resp/v1/responses");
    for (let i = 0; i < 300; i++) {
      rt.send(garbage[i % garbage.length]);
      resp.send(garbage[i % garbage.length]);
      if (i % 50 === 0) {
        rt.sendBinary(new Uint8Array([0xff, 0, 1]));
        resp.sendBinary(new Uint8Array([0xff, 0, 1]));
      }
    }
    for (const s of [rt, resp]) {
      const errors = await Promise.all(Array.from({ length: 306 }, () => s.next()));
      expect(errors.filter((m) => m.type !== "error")).toEqual([]);
    }
    expect(await realtimeTurn(rt)).toBe("Still here.");
    expect(await responsesTurn(resp)).toBe("Still here.");
    rt.close();
    resp.close();
  });
});

describe("clients closing mid-stream with any code", () => {
  for (const code of [1000, 1001, 3000, 4000, 4999]) {
    it(`close ${code} while a paced answer streams: the server goes on; the same session and the next socket answer`, async () => {
      const rt = await realtime(`close-rt-${code}`);
      rt.send(say("slow please"));
      rt.send({ type: "response.create" });
      await until(rt, (m) => m.type === "response.output_text.delta");
      rt.close(code, "bye");
      const resp = await socket(`/s/sock-abuse/close-resp-${code}/v1/responses`);
      resp.send({ type: "response.create", model: "gpt-4.1", input: "slow please" });
      await until(resp, (m) => m.type === "response.output_text.delta");
      resp.close(code, "bye");
      const live = await socket(`/s/sock-abuse/close-live-${code}${LIVE}`, {});
      live.send(SETUP);
      await live.next();
      live.send({ clientContent: { turns: [{ role: "user", parts: [{ text: "slow please" }] }], turnComplete: true } });
      await until(live, (m) => m.serverContent?.modelTurn !== undefined);
      live.close(code, "bye");
      const again = await realtime(`close-rt-${code}`);
      expect(await realtimeTurn(again)).toBe("Still here.");
      again.close();
      expect(await responsesTurn(await socket(`/s/sock-abuse/close-resp-${code}/v1/responses`))).toBe("Still here.");
      expect(await liveTurn(`close-live-${code}-after`)).toBe("Still here.");
    });
  }
});
