/**
 * Incoming SIP calls on the Realtime API, both runtimes, through the official `openai` SDK: a call rung with
 * `POST /admin/realtime/calls` reaches the project's endpoint as `realtime.call.incoming` (signed, `data.call_id` and
 * `sip_headers`), the backend accepts it with `client.realtime.calls.accept`, and its sideband WebSocket
 * (`/v1/realtime?call_id=…`) plays the call's scenario and session with the accepted configuration; `refer`, `hangup`
 * and `reject` move the call on, and `GET /admin/realtime/calls/{id}` shows where it stands; the refusals (WebRTC's
 * offer among them).
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { OpenAIRealtimeSIP, RealtimeAgent, RealtimeSession } from "@openai/agents/realtime";
import OpenAI, { BadRequestError, NotFoundError } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { namespaceKey, rootAdmin } from "../support/namespaces";
import { until } from "../support/until";
import { startHarness, type Harness } from "./harness";

let h: Harness;
let receiver: Server;
const received: { headers: IncomingHttpHeaders; body: string }[] = [];

const SCENARIOS = [
  {
    name: "phone-line",
    steps: [{ id: "greet", match: { endpoint: "realtime", system: "You answer the phone." }, respond: { text: "Thanks for calling. How can I help?" } }],
  },
  { name: "front-desk", steps: [{ id: "desk", match: { system: "You answer the front desk phone." }, respond: { text: "Front desk, how can I help?" } }] },
];

const client = (apiKey = "sk-test") => new OpenAI({ apiKey, baseURL: `${h.url}/v1`, maxRetries: 0 });
const headersOf = (d: { headers: IncomingHttpHeaders }) => new Headers(Object.entries(d.headers).map(([k, v]) => [k, String(v)]));

async function ring(body: unknown, token = h.adminToken): Promise<{ status: number; json: Record<string, any> }> {
  const res = await fetch(`${h.url}/admin/realtime/calls`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, json: (await res.json()) as Record<string, any> };
}

async function callState(id: string): Promise<Record<string, any>> {
  return (await (await fetch(`${h.url}/admin/realtime/calls/${id}`, { headers: { authorization: `Bearer ${h.adminToken}` } })).json()) as Record<string, any>;
}

type Event = { type: string; [k: string]: any };

/** The call's sideband socket: its events as they come, or the upgrade's refusal. */
function sideband(callId: string): Promise<{ ws: WebSocket; events: Event[] } | { status: number; body: string }> {
  const ws = new WebSocket(`${h.url.replace("http", "ws")}/v1/realtime?call_id=${encodeURIComponent(callId)}`, { headers: { authorization: "Bearer sk-test" } });
  const events: Event[] = [];
  ws.on("message", (d) => events.push(JSON.parse(String(d)) as Event));
  return new Promise((resolve, reject) => {
    ws.on("open", () => resolve({ ws, events }));
    ws.on("unexpected-response", (_req, res) => {
      let body = "";
      res.on("data", (c: Buffer) => (body += c.toString("utf8")));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    ws.on("error", reject);
  });
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  h = await startHarness();
  await h.upload(...SCENARIOS);
}, 120_000);
afterAll(async () => {
  await h?.stop();
  await new Promise((r) => receiver?.close(r));
});

describe("an incoming SIP call", () => {
  it("rings the project's endpoint; accepted, its sideband socket plays the call's session; referred, then hung up", async () => {
    const c = client();
    const endpoint = await c.webhooks.create({ name: "calls", url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/calls`, event_types: ["realtime.call.incoming"] });
    const from = { name: "From", value: "sip:+14155550100@trunk.example.com" };
    const rung = await ring({ scenario: "phone-line", session: "call-1", sip_headers: [from] });
    expect(rung.status).toBe(201);
    expect(rung.json).toMatchObject({ status: "ringing", scenario: "phone-line", session: "call-1", sip_headers: [from], endpoints: 1 });
    const callId = rung.json.call_id as string;
    expect(callId).toMatch(/^rtc_[0-9a-f]{32}$/);

    await until(
      async () => received.length,
      (n) => n > 0,
    );
    const event = await c.webhooks.unwrap(received[0]!.body, headersOf(received[0]!), endpoint.signing_secret);
    expect(event.type).toBe("realtime.call.incoming");
    expect(event.type === "realtime.call.incoming" && event.data).toStrictEqual({ call_id: callId, sip_headers: [from] });

    await c.realtime.calls.accept(callId, { type: "realtime", model: "gpt-realtime", instructions: "You answer the phone.", output_modalities: ["text"] });
    const accepted = await callState(callId);
    expect(accepted).toMatchObject({ status: "accepted", accepted_session: { model: "gpt-realtime", instructions: "You answer the phone.", output_modalities: ["text"] } });
    const again = await c.realtime.calls.accept(callId, { type: "realtime" }).catch((e: unknown) => e);
    expect(again).toBeInstanceOf(BadRequestError);
    expect(again).toMatchObject({ error: { message: `Call '${callId}' is accepted: accept needs a call that is ringing.`, param: "call_id" } });

    const socket = await sideband(callId);
    if (!("ws" in socket)) throw new Error(`refused: ${socket.status} ${socket.body}`);
    await until(
      () => socket.events.length,
      (n) => n > 0,
    );
    expect(socket.events[0]).toMatchObject({ type: "session.created", session: { model: "gpt-realtime", instructions: "You answer the phone.", output_modalities: ["text"] } });
    socket.ws.send(JSON.stringify({ type: "conversation.item.create", item: { type: "message", role: "user", content: [{ type: "input_text", text: "Hello?" }] } }));
    socket.ws.send(JSON.stringify({ type: "response.create" }));
    await until(
      () => socket.events.filter((e) => e.type === "response.done").length,
      (n) => n > 0,
    );
    const done = socket.events.find((e) => e.type === "response.done")!;
    expect(done.response.output[0].content[0].text).toBe("Thanks for calling. How can I help?");
    socket.ws.close();
    const journal = await h.journal("phone-line", "call-1");
    expect(journal.map((e) => [e.step, e.outcome])).toStrictEqual([["greet", "response"]]);

    await c.realtime.calls.refer(callId, { target_uri: "tel:+14155550123" });
    expect(await callState(callId)).toMatchObject({ status: "referred", refer_target_uri: "tel:+14155550123" });
    await c.realtime.calls.hangup(callId);
    expect((await callState(callId)).status).toBe("ended");
    await expect(c.realtime.calls.hangup(callId)).rejects.toMatchObject({ status: 400, error: { message: `Call '${callId}' is ended: hangup needs a call that is accepted or referred.` } });
    expect(await sideband(callId)).toMatchObject({ status: 400 });
  });

  it("rejected with a SIP status (603 unless given); a rejected or unknown call is refused everywhere", async () => {
    const c = client();
    const one = (await ring({ scenario: "phone-line" })).json.call_id as string;
    await c.realtime.calls.reject(one, { status_code: 486 });
    expect(await callState(one)).toMatchObject({ status: "rejected", reject_status_code: 486 });
    await expect(c.realtime.calls.accept(one, { type: "realtime" })).rejects.toMatchObject({ status: 400, error: { message: `Call '${one}' is rejected: accept needs a call that is ringing.` } });
    const refused = await sideband(one);
    expect(refused).toMatchObject({ status: 400 });
    expect(JSON.parse((refused as { body: string }).body)).toMatchObject({ error: { message: `Call '${one}' is rejected: a WebSocket needs a call that is accepted.` } });

    const two = (await ring({})).json.call_id as string;
    await c.realtime.calls.reject(two);
    expect((await callState(two)).reject_status_code).toBe(603);
    const three = (await ring({})).json.call_id as string;
    await expect(c.realtime.calls.reject(three, { status_code: 200 })).rejects.toMatchObject({ status: 400, error: { param: "status_code", code: "integer_below_min_value" } });
    await expect(c.realtime.calls.accept(three, { type: "transcription" as "realtime" })).rejects.toMatchObject({ status: 400, error: { param: "type" } });
    await expect(c.realtime.calls.refer(three, { target_uri: "tel:+1" })).rejects.toMatchObject({
      status: 400,
      error: { message: `Call '${three}' is ringing: refer needs a call that is accepted.` },
    });

    await expect(c.realtime.calls.accept("rtc_nope", { type: "realtime" })).rejects.toBeInstanceOf(NotFoundError);
    await expect(c.realtime.calls.hangup("rtc_nope")).rejects.toMatchObject({ status: 404, error: { message: "Call with id 'rtc_nope' not found." } });
    expect(await sideband("rtc_nope")).toMatchObject({ status: 404 });
    // WebRTC (an SDP offer) is said to be out of reach, not answered as an unknown URL.
    await expect(c.realtime.calls.create({ sdp: "v=0\r\n" })).rejects.toMatchObject({
      status: 404,
      error: { message: expect.stringContaining("WebRTC calls (POST /v1/realtime/calls with an SDP offer) are not served") },
    });
  });

  it("the OpenAI Agents SDK answers it: buildInitialConfig, calls.accept, a RealtimeSession over OpenAIRealtimeSIP", async () => {
    const callId = (await ring({ scenario: "front-desk", session: "agents" })).json.call_id as string;
    const agent = new RealtimeAgent({ name: "Desk", instructions: "You answer the front desk phone." });
    const config = { outputModalities: ["text" as const] };
    await client().realtime.calls.accept(callId, await OpenAIRealtimeSIP.buildInitialConfig(agent, { model: "gpt-realtime", config }));
    const session = new RealtimeSession(agent, { transport: new OpenAIRealtimeSIP(), model: "gpt-realtime", config });
    // The SDK's own URL is wss://api.openai.com/v1/realtime?call_id=…; `url` points it here.
    await session.connect({ apiKey: "sk-test", callId, url: `${h.url.replace("http", "ws")}/v1/realtime?call_id=${callId}` });
    try {
      session.sendMessage("Hello?");
      const said = await until(
        () => session.history,
        (items) => items.some((i) => i.type === "message" && i.role === "assistant" && i.status === "completed"),
      );
      expect(said.map((i) => (i.type === "message" ? [i.role, i.content.map((c) => ("text" in c ? c.text : c.type))] : [i.type]))).toStrictEqual([
        ["user", ["Hello?"]],
        ["assistant", ["Front desk, how can I help?"]],
      ]);
    } finally {
      session.close();
    }
    expect((await h.journal("front-desk", "agents")).map((e) => [e.step, e.outcome])).toStrictEqual([["desk", "response"]]);
  });

  it("rings in the namespace of the key that rang it; admin refusals", async () => {
    const admin = rootAdmin((path, init) => fetch(`${h.url}${path}`, init), h.adminToken);
    const keyA = await namespaceKey(admin, "calls-a");
    const keyB = await namespaceKey(admin, "calls-b");
    const rung = await ring({ scenario: "phone-line" }, keyA);
    expect(rung.json.endpoints).toBe(0); // no endpoint in that project: said, not silently dropped
    await expect(client(keyB).realtime.calls.accept(rung.json.call_id, { type: "realtime" })).rejects.toBeInstanceOf(NotFoundError);
    await client(keyA).realtime.calls.accept(rung.json.call_id, { type: "realtime" });

    expect(await ring({ scenario: "bad name!" })).toMatchObject({ status: 400 });
    expect(await ring({ session: "s" })).toMatchObject({ status: 400, json: { error: { message: "session: needs a scenario" } } });
    expect(await ring({ sip_headers: [{ name: "", value: "x" }] })).toMatchObject({
      status: 400,
      json: { error: { message: "sip_headers[0]: expected { name: a non-empty string, value: a string }" } },
    });
    expect(await ring({ phone: "+1" })).toMatchObject({ status: 400, json: { error: { message: 'unknown key "phone": expected scenario, session, sip_headers' } } });
    const res = await fetch(`${h.url}/admin/realtime/calls/rtc_none`, { headers: { authorization: `Bearer ${h.adminToken}` } });
    expect(res.status).toBe(404);
    // No body at all: every field is optional (the default responder plays it).
    const bare = await fetch(`${h.url}/admin/realtime/calls`, { method: "POST", headers: { authorization: `Bearer ${h.adminToken}` } });
    expect(bare.status).toBe(201);
    expect(((await bare.json()) as { status: string; scenario?: string }).scenario).toBeUndefined();
  });
});
