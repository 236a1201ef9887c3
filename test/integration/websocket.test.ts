/**
 * The three WebSocket surfaces over raw sockets on both runtimes (workerd: the session Durable Object holds the socket
 * with the hibernation API; Node: `ws`): refusals before the upgrade, selection without a prefix, scripted failures
 * on the wire, journal and verify after socket turns.
 */
import { describe, expect, it } from "vitest";
import { admin, RUNTIME, upload } from "./helpers";
import { openSocket, until, type TestSocket } from "./socket-helpers";

const KEY = { authorization: "Bearer sk-test" };

await upload(
  {
    name: "sock-verify",
    steps: [
      { id: "a", match: { lastUserMessage: "first" }, respond: { text: "One." } },
      { id: "b", match: { lastUserMessage: "second" }, respond: { text: "Two." } },
      { id: "never", match: { lastUserMessage: "never sent" }, respond: { text: "x" } },
    ],
  },
  { name: "sock-break", steps: [{ consume: false, failures: [{ kind: "network_error", afterChunks: 3 }], respond: { text: "a b c d e f" } }] },
  { name: "sock-garbled", steps: [{ consume: false, failures: [{ kind: "invalid_response", afterChunks: 2 }], respond: { text: "a b c d" } }] },
  { name: "sock-header", steps: [{ respond: { text: "Selected by header." } }] },
  { name: "sock-late", steps: [{ failures: [{ kind: "timeout", delayMs: 60 }], respond: { text: "Late." } }] },
  { name: "sock-http", steps: [{ failures: [{ kind: "http", status: 418, body: { error: { message: "teapot" } } }], respond: { text: "x" } }] },
  { name: "sock-live", steps: [{ respond: { text: "Live without a session name." } }] },
  {
    name: "sock-oob",
    steps: [
      { id: "oob", match: { lastUserMessage: "Summarize." }, respond: { text: "Out of band." } },
      { id: "main", match: { lastUserMessage: "kept" }, respond: { text: "In the conversation." } },
    ],
  },
);

async function socket(path: string, headers: Record<string, string> = KEY, protocols: string[] = []): Promise<TestSocket> {
  const s = await openSocket(path, headers, protocols);
  if (s instanceof Response) throw new Error(`refused: ${s.status} ${await s.text()}`);
  return s;
}

const create = (input: string, extra: Record<string, unknown> = {}) => ({ type: "response.create", model: "gpt-4.1", input, ...extra });
const terminal = (m: any) => ["response.completed", "response.failed", "error"].includes(m?.type);

describe("upgrade refusals (plain HTTP, before any socket)", () => {
  it.each([
    { what: "Responses without a key", path: "/v1/responses", headers: {}, status: 401, message: "You didn't provide an API key." },
    { what: "Realtime without a model", path: "/v1/realtime", headers: KEY, status: 400, message: "Missing required parameter: 'model'." },
    {
      what: "Live without a key",
      path: "/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent",
      headers: {},
      status: 403,
      message: "Method doesn't allow unregistered callers",
    },
    { what: "an invalid scenario name", path: "/s/Bad_Name/x/v1/responses", headers: KEY, status: 400, message: "invalid" },
    { what: "an invalid x-mock-session", path: "/v1/responses", headers: { ...KEY, "x-mock-session": "../up" }, status: 400, message: 'invalid session name \\"../up' },
    {
      what: "a long x-mock-session, shown cut",
      path: "/v1/responses",
      headers: { ...KEY, "x-mock-session": "s".repeat(3000) },
      status: 400,
      message: `invalid session name \\"${"s".repeat(80)}… (3000 characters)\\": names match`,
    },
  ])("$what: $status", async ({ path, headers, status, message }) => {
    const res = await openSocket(path, headers);
    expect(res).toBeInstanceOf(Response);
    expect((res as Response).status).toBe(status);
    expect(await (res as Response).text()).toContain(message);
  });
});

describe("Responses WebSocket mode over a raw socket", () => {
  it("journals each turn and verify sees the steps used", async () => {
    const s = await socket("/s/sock-verify/v1/responses");
    s.send(create("first"));
    const one = await until(s, terminal);
    expect(one.at(-1).response.output[0].content[0].text).toBe("One.");
    s.send(create("second", { store: false }));
    const two = await until(s, terminal);
    expect(two.at(-1).response.output[0].content[0].text).toBe("Two.");
    s.close();
    const journal = (await (await admin("/sessions/sock-verify/default/requests")).json()) as any[];
    expect(journal.map((e) => [e.step, e.request.method, e.endpoint, e.request.headers.authorization])).toEqual([
      ["a", "WS", "responses", "[redacted]"],
      ["b", "WS", "responses", "[redacted]"],
    ]);
    const verify = (await (await admin("/sessions/sock-verify/default/verify")).json()) as any;
    expect(verify).toMatchObject({ ok: false, requests: 2, mismatches: [], unusedSteps: [{ id: "never" }] });
  });

  it("selects by the x-mock-scenario header without a prefix", async () => {
    const s = await socket("/v1/responses", { ...KEY, "x-mock-scenario": "sock-header", "x-mock-session": "h1" });
    s.send(create("anything"));
    const events = await until(s, terminal);
    expect(events.at(-1).response.output[0].content[0].text).toBe("Selected by header.");
    s.close();
  });

  it("a scripted network_error sends the first events, then drops the connection", async () => {
    const s = await socket("/s/sock-break/n/v1/responses");
    s.send(create("go"));
    const closed = await s.closed;
    expect(s.received.map((m) => m.type)).toEqual(["response.created", "response.in_progress", "response.output_item.added"]);
    expect(closed.code).toBe(RUNTIME === "workers" ? 1011 : 1006);
  });

  it("a scripted invalid_response sends broken JSON after the first events", async () => {
    const s = await socket("/s/sock-garbled/g/v1/responses");
    s.send(create("go"));
    const events = await until(s, (m) => typeof m === "string");
    expect(events.map((m) => (typeof m === "string" ? m : m.type))).toEqual(["response.created", "response.in_progress", '{"mockllm": "invalid_response", "choices": [']);
    s.close();
  });

  it("answers bad JSON and unknown events with error events, and keeps the socket open", async () => {
    const s = await socket("/s/sock-header/bad/v1/responses");
    s.send("{nope");
    expect(await s.next()).toMatchObject({ type: "error", status: 400, error: { type: "invalid_request_error" } });
    s.send({ type: "response.steer" });
    expect(await s.next()).toMatchObject({ type: "error", status: 400, error: { code: "invalid_event_type", param: "type" } });
    s.send(create("still here"));
    expect((await until(s, terminal)).at(-1).type).toBe("response.completed");
    s.close();
  });
});

describe("more scripted failures over a socket", () => {
  it("timeout: the answer comes after delayMs", async () => {
    const s = await socket("/s/sock-late/t/v1/responses");
    const t0 = Date.now();
    s.send(create("go"));
    const events = await until(s, terminal);
    expect(events.at(-1).response.output[0].content[0].text).toBe("Late.");
    expect(Date.now() - t0).toBeGreaterThanOrEqual(55);
    s.close();
  });

  it("http: an error event with the scripted status and body", async () => {
    const s = await socket("/s/sock-http/h/v1/responses");
    s.send(create("go"));
    expect(await s.next()).toEqual({ type: "error", status: 418, error: { type: "invalid_request_error", code: null, message: '{"error":{"message":"teapot"}}', param: null } });
    s.close();
    const journal = (await (await admin("/sessions/sock-http/h/requests")).json()) as any[];
    expect(journal.map((e) => [e.outcome, e.status])).toEqual([["failure", 418]]);
  });
});

describe("Realtime and Live over raw sockets", () => {
  it("Live under /s/{scenario} without a session: setup, then a text turn", async () => {
    const s = await socket("/s/sock-live/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent?key=k", {});
    s.send({ setup: { model: "models/gemini-2.5-flash", generationConfig: { responseModalities: ["TEXT"] } } });
    expect(await s.next()).toEqual({ setupComplete: {} });
    s.send({ realtimeInput: { text: "hi" } });
    const messages = await until(s, (m) => m.serverContent?.turnComplete === true);
    expect(
      messages
        .flatMap((m) => m.serverContent?.modelTurn?.parts ?? [])
        .map((p: { text: string }) => p.text)
        .join(""),
    ).toBe("Live without a session name.");
    s.close();
    const journal = (await (await admin("/sessions/sock-live/default/requests")).json()) as any[];
    expect(journal.map((e) => [e.provider, e.endpoint, e.request.body])).toEqual([["gemini", "bidiGenerateContent", { realtimeInput: { text: "hi" } }]]);
  });

  it("Realtime: session.created first, the realtime sub-protocol echoed", async () => {
    const s = await socket("/s/sock-header/rt/v1/realtime?model=gpt-realtime", {}, ["realtime", "openai-insecure-api-key.sk-test"]);
    expect(s.protocol).toBe("realtime");
    expect(await s.next()).toMatchObject({ type: "session.created", session: { object: "realtime.session", model: "gpt-realtime" } });
    s.close();
  });

  it("Realtime: an out-of-band response sees only its own input and adds nothing; a deleted item is gone", async () => {
    const s = await socket("/s/sock-oob/o/v1/realtime?model=gpt-realtime");
    await s.next();
    const say = (text: string) => ({ type: "conversation.item.create", item: { type: "message", role: "user", content: [{ type: "input_text", text }] } });
    s.send(say("dropped"));
    const added = (await until(s, (m) => m.type === "conversation.item.done"))[0].item;
    s.send({ type: "conversation.item.delete", item_id: added.id });
    expect(await s.next()).toMatchObject({ type: "conversation.item.deleted", item_id: added.id });
    s.send(say("kept"));
    await until(s, (m) => m.type === "conversation.item.done");
    s.send({ type: "response.create", response: { conversation: "none", input: [{ type: "message", role: "user", content: [{ type: "input_text", text: "Summarize." }] }] } });
    const oob = await until(s, (m) => m.type === "response.done");
    expect(oob.at(-1).response).toMatchObject({ conversation_id: "", status: "completed", output: [{ content: [{ text: "Out of band." }] }] });
    s.send({ type: "response.create" });
    const main = await until(s, (m) => m.type === "response.done");
    expect(main.at(-1).response.output[0].content[0].text).toBe("In the conversation.");
    s.close();
    const journal = (await (await admin("/sessions/sock-oob/o/requests")).json()) as any[];
    expect(journal.map((e) => [e.step, e.turn])).toEqual([
      ["oob", 1],
      ["main", 1],
    ]);
  });

  it("Live: a first message other than setup closes with 1007", async () => {
    const s = await socket("/s/sock-header/live/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent?key=k", {});
    s.send({ clientContent: { turns: [], turnComplete: true } });
    expect(await s.closed).toEqual({ code: 1007, reason: "The first message must be setup." });
  });
});
