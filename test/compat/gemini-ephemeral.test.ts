/**
 * Gemini Live ephemeral tokens through `@google/genai` on both runtimes: a backend mints one with
 * `ai.authTokens.create` (`POST /v1alpha/auth_tokens`), a client opens Live with it as its API key (the SDK connects
 * to `BidiGenerateContentConstrained?access_token=auth_tokens/…`) and plays the minting request's scenario and
 * session; an expired token, or one past `newSessionExpireTime`, is refused before the upgrade.
 */
import { GoogleGenAI, Modality, type LiveServerMessage } from "@google/genai";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import WebSocket from "ws";
import { mintEphemeral } from "../../src/util/ephemeral";
import { until } from "../support/until";
import { ADMIN_TOKEN, startHarness, type Harness } from "./harness";

let h: Harness;

beforeAll(async () => {
  h = await startHarness();
  await h.upload({ name: "live-eph", steps: [{ consume: false, respond: { text: "Live, through a token." } }] });
  vi.spyOn(console, "warn").mockImplementation(() => {}); // the SDK warns that ephemeral tokens are experimental
});
afterAll(() => h?.stop());

/** A Live turn as a browser holding only the token makes it. */
async function liveTurn(token: string): Promise<string> {
  const ai = new GoogleGenAI({ apiKey: token, httpOptions: { baseUrl: h.url, apiVersion: "v1alpha" } });
  const messages: LiveServerMessage[] = [];
  const session = await ai.live.connect({
    model: "gemini-2.5-flash-live",
    config: { responseModalities: [Modality.TEXT] },
    callbacks: { onmessage: (m) => messages.push(m), onerror: () => {}, onclose: () => {} },
  });
  session.sendClientContent({ turns: [{ role: "user", parts: [{ text: "hi" }] }], turnComplete: true });
  await until(
    () => messages,
    (all) => all.some((m) => m.serverContent?.turnComplete === true),
    { every: 10 },
  );
  session.close();
  return messages
    .flatMap((m) => m.serverContent?.modelTurn?.parts ?? [])
    .map((p) => p.text)
    .join("");
}

/** The HTTP status a raw upgrade with `?access_token=` gets (101 when it opens). */
function upgradeStatus(token: string): Promise<number> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${h.url.replace("http", "ws")}/ws/google.ai.generativelanguage.v1alpha.GenerativeService.BidiGenerateContentConstrained?access_token=${token}`);
    ws.on("unexpected-response", (_req, res) => resolve(res.statusCode ?? 0));
    ws.on("open", () => {
      ws.close();
      resolve(101);
    });
    ws.on("error", () => {});
  });
}

describe("Gemini auth tokens", () => {
  it("ai.authTokens.create mints an auth_tokens/… name that opens Live on the minting session", async () => {
    const backend = new GoogleGenAI({ apiKey: "g-backend", httpOptions: { baseUrl: `${h.url}/s/live-eph/page-1`, apiVersion: "v1alpha" } });
    const token = await backend.authTokens.create({
      config: { uses: 1, expireTime: new Date(Date.now() + 30 * 60_000).toISOString(), newSessionExpireTime: new Date(Date.now() + 60_000).toISOString() },
    });
    expect(token.name).toMatch(/^auth_tokens\/[A-Za-z0-9_-]+\.[0-9a-f]{32}$/);
    expect(await liveTurn(token.name!)).toBe("Live, through a token.");
    expect((await h.journal("live-eph", "page-1")).map((e) => [e.endpoint, e.outcome])).toEqual([["bidiGenerateContent", "response"]]);
  });

  it("expired, past newSessionExpireTime, or altered: 401 before the upgrade; a bad expireTime is a 400", async () => {
    const now = Math.floor(Date.now() / 1000);
    expect(await upgradeStatus(await mintEphemeral("auth_tokens/", ADMIN_TOKEN, { kind: "live", iat: now - 100, exp: now - 1 }))).toBe(401);
    expect(await upgradeStatus(await mintEphemeral("auth_tokens/", ADMIN_TOKEN, { kind: "live", iat: now - 100, exp: now + 600, newSessionExp: now - 1 }))).toBe(401);
    expect(await upgradeStatus(await mintEphemeral("auth_tokens/", "another-server", { kind: "live", iat: now, exp: now + 600 }))).toBe(401);
    // An OpenAI client secret does not open Live.
    expect(await upgradeStatus(await mintEphemeral("auth_tokens/", ADMIN_TOKEN, { kind: "realtime", iat: now, exp: now + 600 }))).toBe(401);
    const bad = await fetch(`${h.url}/v1alpha/auth_tokens`, {
      method: "POST",
      headers: { "x-goog-api-key": "g", "content-type": "application/json" },
      body: JSON.stringify({ expireTime: "tomorrow" }),
    });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { status: string } }).error.status).toBe("INVALID_ARGUMENT");
    const noKey = await fetch(`${h.url}/v1alpha/auth_tokens`, { method: "POST", body: "{}" });
    expect(noKey.status).toBe(403);
  });
});
