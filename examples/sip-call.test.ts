// A phone line on OpenAI's Realtime API over SIP: the app's webhook handler accepts calls from known numbers (its
// agent then talks on the call's sideband socket, with the OpenAI Agents SDK) and rejects the rest — tested against
// mockllm, where the test rings the calls.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { OpenAIRealtimeSIP, RealtimeAgent, RealtimeSession } from "@openai/agents/realtime";
import { afterAll, beforeAll, expect, it } from "vitest";
import OpenAI from "openai";
import { scenario, startMockLLM, type MockLLM } from "mockllm";

const frontDesk = scenario("front-desk").step((s) => s.text("Front desk, how can I help?"));

const agent = new RealtimeAgent({ name: "Desk", instructions: "You answer the front desk phone." });
const config = { outputModalities: ["text" as const] };

/** The code under test: answers `realtime.call.incoming` — callers from 415 get the agent, others a busy signal. */
function phoneApp(openai: OpenAI, secret: () => string, socketURL: (callId: string) => string, calls: Map<string, RealtimeSession>): Server {
  return createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    try {
      const headers = new Headers(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      const event = await openai.webhooks.unwrap(body, headers, secret());
      res.writeHead(200).end();
      if (event.type !== "realtime.call.incoming") return;
      const { call_id, sip_headers } = event.data;
      const from = sip_headers.find((h) => h.name === "From")?.value ?? "";
      if (!from.includes("+1415")) return void (await openai.realtime.calls.reject(call_id, { status_code: 486 }));
      await openai.realtime.calls.accept(call_id, await OpenAIRealtimeSIP.buildInitialConfig(agent, { model: "gpt-realtime", config }));
      const session = new RealtimeSession(agent, { transport: new OpenAIRealtimeSIP(), model: "gpt-realtime", config });
      await session.connect({ apiKey: "sk-test", callId: call_id, url: socketURL(call_id) });
      calls.set(call_id, session);
    } catch {
      if (!res.headersSent) res.writeHead(400).end(); // not signed by OpenAI
    }
  });
}

let mock: MockLLM;
let app: Server;
let secret = "";
const calls = new Map<string, RealtimeSession>();

beforeAll(async () => {
  mock = await startMockLLM({ scenarios: [frontDesk] });
  const openai = new OpenAI({ apiKey: "sk-test", baseURL: `${mock.url}/v1` });
  // In production the socket is wss://api.openai.com/v1/realtime?call_id=…; here it is the mock's.
  app = phoneApp(
    openai,
    () => secret,
    (id) => `${mock.url.replace("http", "ws")}/v1/realtime?call_id=${id}`,
    calls,
  );
  await new Promise<void>((r) => app.listen(0, "127.0.0.1", r));
  const endpoint = await openai.webhooks.create({ name: "phone", url: `http://127.0.0.1:${(app.address() as AddressInfo).port}/sip`, event_types: ["realtime.call.incoming"] });
  secret = endpoint.signing_secret;
});
afterAll(async () => {
  for (const session of calls.values()) session.close();
  await new Promise((r) => app.close(r));
  await mock.stop();
});

async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const value = await read();
    if (done(value)) return value;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error("timed out");
}

it("answers a known caller with the agent and gives anyone else a busy signal", async () => {
  // No phone rings a mock: the test rings the calls, and the app hears them as it would from OpenAI.
  const known = await mock.admin.ringCall({ scenario: "front-desk", session: "call-1", sipHeaders: [{ name: "From", value: "sip:+14155550100@trunk.example.com" }] });
  const unknown = await mock.admin.ringCall({ sipHeaders: [{ name: "From", value: "sip:+12125550100@trunk.example.com" }] });
  expect([known.endpoints, unknown.endpoints]).toEqual([1, 1]);

  expect(
    (
      await until(
        () => mock.admin.call(unknown.call_id),
        (c) => c.status !== "ringing",
      )
    ).reject_status_code,
  ).toBe(486);
  const session = await until(
    () => calls.get(known.call_id),
    (s) => s !== undefined,
  );
  expect((await mock.admin.call(known.call_id)).status).toBe("accepted");

  session!.sendMessage("Hello?");
  const history = await until(
    () => session!.history,
    (items) => items.some((i) => i.type === "message" && i.role === "assistant" && i.status === "completed"),
  );
  expect(history.at(-1)).toMatchObject({ role: "assistant", content: [{ type: "output_text", text: "Front desk, how can I help?" }] });
});
