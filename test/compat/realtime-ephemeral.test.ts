/**
 * Realtime ephemeral keys (contract section 11): a backend mints an `ek_…` client secret with the official SDK, a
 * browser-style socket opens `/v1/realtime` with it (sub-protocol or Bearer) and plays the scenario and session of
 * the minting request; an expired, altered or revoked key, and the key on any other route, get a 401.
 */
import OpenAI, { AuthenticationError, BadRequestError } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { mintEphemeral } from "../../src/util/ephemeral";
import { ADMIN_TOKEN, startHarness, type Harness } from "./harness";

type Event = Record<string, any>;

let h: Harness;

const SCRIPT = { name: "rt-eph", steps: [{ consume: false, respond: { text: "Hello from the bound session." } }] };

/** A session's journal length; 0 for a session that holds nothing (the admin API answers 404 for it). */
async function journalLength(res: Response): Promise<number> {
  const body = (await res.json()) as unknown;
  return Array.isArray(body) ? body.length : res.status === 404 ? 0 : -1;
}

beforeAll(async () => {
  h = await startHarness();
  await h.upload(SCRIPT);
});
afterAll(() => h?.stop());

const backend = (key = "sk-backend", prefix = "/s/rt-eph/browser-1") => new OpenAI({ apiKey: key, baseURL: `${h.url}${prefix}/v1`, maxRetries: 0 });

/** Opens a socket as a browser does (the key in a sub-protocol), says something, and collects events to `response.done`. */
async function browserTurn(key: string, path = "/v1/realtime?model=gpt-realtime", how: "subprotocol" | "bearer" = "subprotocol"): Promise<{ status?: number; events: Event[] }> {
  const url = `${h.url.replace("http", "ws")}${path}`;
  const ws = how === "subprotocol" ? new WebSocket(url, ["realtime", `openai-insecure-api-key.${key}`]) : new WebSocket(url, { headers: { authorization: `Bearer ${key}` } });
  const events: Event[] = [];
  return new Promise((resolve, reject) => {
    ws.on("unexpected-response", (_req, res) => {
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve({ status: res.statusCode, events: [JSON.parse(body)] }));
    });
    ws.on("error", reject);
    ws.on("message", (data) => {
      const event = JSON.parse(String(data)) as Event;
      if (process.env.DEBUG_EPH) console.log(JSON.stringify(event).slice(0, 300));
      events.push(event);
      if (event.type === "session.created") {
        ws.send(JSON.stringify({ type: "conversation.item.create", item: { type: "message", role: "user", content: [{ type: "input_text", text: "hi" }] } }));
        ws.send(JSON.stringify({ type: "response.create", response: { output_modalities: ["text"] } }));
      }
      if (event.type === "response.done") {
        ws.close();
        resolve({ events });
      }
    });
  });
}

describe("minting", () => {
  it("POST /v1/realtime/client_secrets: the GA shape, as the SDK types it", async () => {
    const before = Math.floor(Date.now() / 1000);
    const secret = await backend().realtime.clientSecrets.create({
      expires_after: { anchor: "created_at", seconds: 120 },
      session: { type: "realtime", model: "gpt-realtime", instructions: "Be brief.", output_modalities: ["text"] },
    });
    expect(secret.value).toMatch(/^ek_[A-Za-z0-9_-]+\.[0-9a-f]{32}$/);
    expect(secret.expires_at - before).toBeGreaterThanOrEqual(120);
    expect(secret.expires_at - before).toBeLessThanOrEqual(121);
    expect(secret.session).toMatchObject({ type: "realtime", object: "realtime.session", model: "gpt-realtime", instructions: "Be brief.", output_modalities: ["text"] });
    expect(secret.session.id).toMatch(/^sess_[0-9a-f]{24}$/);
  });

  it("defaults to 600 seconds and a realtime session; bounds 10–7200 as the real API's", async () => {
    const before = Math.floor(Date.now() / 1000);
    const secret = await backend().realtime.clientSecrets.create({});
    expect(secret.expires_at - before).toBeGreaterThanOrEqual(600);
    expect(secret.expires_at - before).toBeLessThanOrEqual(601);
    expect(secret.session.type).toBe("realtime");
    for (const [seconds, code] of [
      [5, "integer_below_min_value"],
      [7201, "integer_above_max_value"],
    ] as const) {
      const err = await backend()
        .realtime.clientSecrets.create({ expires_after: { anchor: "created_at", seconds } })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(BadRequestError);
      expect([(err as BadRequestError).code, (err as BadRequestError).param]).toEqual([code, "expires_after.seconds"]);
    }
    const noKey = await fetch(`${h.url}/v1/realtime/client_secrets`, { method: "POST", body: "{}" });
    expect(noKey.status).toBe(401);
  });
});

describe("using", () => {
  it("a browser socket with the key plays the scenario and session the key was minted on", async () => {
    const { value } = await backend().realtime.clientSecrets.create({ session: { type: "realtime", model: "gpt-realtime-mini", instructions: "Be brief.", output_modalities: ["text"] } });
    const { events } = await browserTurn(value, "/v1/realtime");
    // The session the key carries is the socket's: its model (the URL names none), its instructions.
    expect(events[0]!.session).toMatchObject({ type: "realtime", object: "realtime.session", model: "gpt-realtime-mini", instructions: "Be brief.", output_modalities: ["text"] });
    expect(events[0]!.session.id).toMatch(/^sess_/);
    expect(events.find((e) => e.type === "response.output_text.done")?.text).toBe("Hello from the bound session.");
    const journal = await h.journal("rt-eph", "browser-1");
    expect(journal.map((e) => [e.endpoint, e.outcome])).toEqual([["realtime", "response"]]);
    // As the Bearer too (a native client), and from a socket URL with no prefix at all.
    const bearer = await browserTurn(value, "/realtime?model=gpt-realtime", "bearer");
    expect(bearer.events.at(-1)?.type).toBe("response.done");
    expect((await h.journal("rt-eph", "browser-1")).length).toBe(2);
  });

  it("expired, altered or foreign-signed keys are refused with a 401 before the upgrade", async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = await mintEphemeral("ek_", ADMIN_TOKEN, { kind: "realtime", iat: now - 700, exp: now - 100, scenario: "rt-eph", session: "late" });
    const late = await browserTurn(expired);
    expect(late.status).toBe(401);
    expect(late.events[0]!.error).toMatchObject({ type: "invalid_request_error", code: "invalid_api_key", message: "The ephemeral key has expired. Mint a new one and connect with it." });
    const foreign = await mintEphemeral("ek_", "another-server", { kind: "realtime", iat: now, exp: now + 600 });
    const forged = await browserTurn(foreign);
    expect([forged.status, forged.events[0]!.error.code]).toEqual([401, "invalid_api_key"]);
    const { value } = await backend().realtime.clientSecrets.create({});
    const altered = await browserTurn(`${value.slice(0, -1)}${value.endsWith("0") ? "1" : "0"}`);
    expect(altered.status).toBe(401);
    expect(await journalLength(await h.admin("/sessions/rt-eph/late/requests"))).toBe(0);
  });

  it("a key opens the Realtime socket only: any other route answers 401", async () => {
    const { value } = await backend().realtime.clientSecrets.create({});
    const err = await new OpenAI({ apiKey: value, baseURL: `${h.url}/v1`, maxRetries: 0 }).chat.completions
      .create({ model: "gpt-4.1", messages: [{ role: "user", content: "hi" }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthenticationError);
  });
});

describe("namespaces", () => {
  let keyA: string;
  let keyB: string;
  let idA: string;
  beforeAll(async () => {
    for (const ns of ["eph-a", "eph-b"]) expect((await h.admin("/namespaces", { method: "POST", body: JSON.stringify({ name: ns }) })).status).toBe(201);
    const a = (await (await h.admin("/namespaces/eph-a/keys", { method: "POST", body: JSON.stringify({ scope: "admin" }) })).json()) as { id: string; key: string };
    const b = (await (await h.admin("/namespaces/eph-b/keys", { method: "POST", body: JSON.stringify({ scope: "admin" }) })).json()) as { id: string; key: string };
    [keyA, idA, keyB] = [a.key, a.id, b.key];
    const only = { name: "rt-eph", steps: [{ consume: false, respond: { text: "Namespace A's answer." } }] };
    const put = await fetch(`${h.url}/admin/scenarios/rt-eph`, { method: "PUT", headers: { authorization: `Bearer ${keyA}`, "content-type": "application/json" }, body: JSON.stringify(only) });
    expect(put.status).toBe(200);
  });

  it("a key minted with a namespace key plays that namespace's scenario and journals there; revoked with it", async () => {
    const { value } = await backend(keyA, "/s/rt-eph/ns-session").realtime.clientSecrets.create({});
    const { events } = await browserTurn(value);
    expect(events.find((e) => e.type === "response.output_text.done")?.text).toBe("Namespace A's answer.");
    const inA = await fetch(`${h.url}/admin/sessions/rt-eph/ns-session/requests`, { headers: { authorization: `Bearer ${keyA}` } });
    expect(await journalLength(inA)).toBe(1);
    const inB = await fetch(`${h.url}/admin/sessions/rt-eph/ns-session/requests`, { headers: { authorization: `Bearer ${keyB}` } });
    expect(await journalLength(inB)).toBe(0);
    expect(await journalLength(await h.admin("/sessions/rt-eph/ns-session/requests"))).toBe(0);
    // Another namespace's key beside it is refused, not guessed between.
    const url = `${h.url.replace("http", "ws")}/v1/realtime?model=gpt-realtime`;
    const mixed = await new Promise<number>((resolve) => {
      const ws = new WebSocket(url, ["realtime", `openai-insecure-api-key.${value}`], { headers: { authorization: `Bearer ${keyB}` } });
      ws.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
      ws.on("open", () => resolve(101));
    });
    expect(mixed).toBe(401);
    expect((await h.admin(`/namespaces/eph-a/keys/${idA}`, { method: "DELETE" })).status).toBe(200);
    const revoked = await browserTurn(value);
    expect(revoked.status).toBe(401);
  });
});
