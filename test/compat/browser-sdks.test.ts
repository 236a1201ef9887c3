/**
 * The SDKs' browser modes in a real headless Chromium (playwright-core), against both runtimes: a page served from a
 * second origin runs the official `openai` SDK (`dangerouslyAllowBrowser`) and `@anthropic-ai/sdk` (browser mode),
 * bundled for it with esbuild, and streams scripted answers into the page; reads a scripted 429's headers; opens a
 * Realtime socket with an ephemeral key a test backend minted. An origin not allowed cannot read anything.
 *
 * Needs Debian's `chromium` at /usr/bin/chromium (`.ci/run` installs it); skipped with a message without it.
 */
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHarness, type Harness } from "./harness";

const CHROMIUM = "/usr/bin/chromium";
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const have = existsSync(CHROMIUM);
if (!have) console.warn(`browser SDK test skipped: ${CHROMIUM} not found (apt-get install chromium)`);

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const TEXT = "Streamed into the page from a scripted step.";

let h: Harness;
let site: Server;
let siteOrigin: string;
let browser: Browser;
let page: Page;

/** Serves the page and its bundle on its own origin (`localhost`, where the mock listens on 127.0.0.1). */
async function servePage(): Promise<void> {
  const { build } = await import("esbuild");
  const bundle = await build({ entryPoints: [`${ROOT}test/compat/browser/page.ts`], bundle: true, format: "iife", platform: "browser", target: "es2022", write: false, logLevel: "silent" });
  const js = bundle.outputFiles[0]!.text;
  site = createServer((req, res) => {
    if (req.url === "/page.js") return void res.writeHead(200, { "content-type": "text/javascript" }).end(js);
    res.writeHead(200, { "content-type": "text/html" }).end('<!doctype html><html><body><script src="/page.js"></script></body></html>');
  });
  await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
  siteOrigin = `http://localhost:${(site.address() as AddressInfo).port}`;
}

describe.skipIf(!have)("the SDKs in a browser page on another origin", () => {
  beforeAll(async () => {
    await servePage();
    h = await startHarness({ CORS_ORIGINS: siteOrigin });
    await h.upload(
      { name: "browser-sdk", steps: [{ consume: false, respond: { text: TEXT } }] },
      { name: "browser-429", steps: [{ failures: [{ kind: "rate_limit", retryAfterMs: 2500 }], respond: { text: "after" } }] },
    );
    const { chromium } = await import("playwright-core");
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
    page = await browser.newPage();
    page.setDefaultTimeout(20_000);
    await page.goto(`${siteOrigin}/`);
    await page.waitForFunction("typeof globalThis.mock === 'object'");
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await h?.stop();
    await new Promise((resolve) => site?.close(resolve));
  });

  it("the openai SDK streams a chat completion into the page", async () => {
    const text = await page.evaluate(`mock.openaiStream(${JSON.stringify(`${h.url}/s/browser-sdk/chat/v1`)})`);
    expect(text).toBe(TEXT);
    expect(await page.textContent("#openai")).toBe(TEXT);
    expect((await h.journal("browser-sdk", "chat")).map((e) => [e.endpoint, e.stream, e.outcome])).toEqual([["chat.completions", true, "response"]]);
  });

  it("the Anthropic SDK in browser mode streams a message into the page (and reads its request id)", async () => {
    const text = (await page.evaluate(`mock.anthropicStream(${JSON.stringify(`${h.url}/s/browser-sdk/anthropic`)})`)) as string;
    const [streamed, stop, requestId] = text.split("|");
    expect([streamed, stop]).toEqual([TEXT, "end_turn"]);
    expect(requestId).toMatch(/^req_/);
    const journal = await h.journal("browser-sdk", "anthropic");
    expect(journal.map((e) => [e.endpoint, e.outcome])).toEqual([["messages", "response"]]);
    expect(journal[0]!.request.headers["anthropic-dangerous-direct-browser-access"]).toBe("true");
  });

  it("a scripted 429 is read by the page: the SDK's RateLimitError with retry-after and the rate-limit headers", async () => {
    const err = await page.evaluate(`mock.rateLimited(${JSON.stringify(`${h.url}/s/browser-429/page/v1`)})`);
    expect(err).toMatchObject({ rateLimitError: true, status: 429, retryAfter: "3", retryAfterMs: "2500", remaining: "0", requestId: true });
  });

  it("a Realtime socket opened from the page with an ephemeral key a backend minted", async () => {
    const minted = await fetch(`${h.url}/s/browser-sdk/realtime/v1/realtime/client_secrets`, {
      method: "POST",
      headers: { authorization: "Bearer sk-backend", "content-type": "application/json" },
      body: JSON.stringify({ expires_after: { anchor: "created_at", seconds: 60 }, session: { type: "realtime", model: "gpt-realtime" } }),
    });
    const { value } = (await minted.json()) as { value: string };
    const wsUrl = `${h.url.replace("http", "ws")}/v1/realtime?model=gpt-realtime`;
    const result = await page.evaluate(`mock.realtime(${JSON.stringify(wsUrl)}, ${JSON.stringify(value)})`);
    expect(result).toBe(`realtime|${TEXT}`);
    expect((await h.journal("browser-sdk", "realtime")).map((e) => [e.endpoint, e.outcome])).toEqual([["realtime", "response"]]);
  });

  it("the same page on an origin not allowed reads nothing (the browser's CORS failure)", async () => {
    const other = await browser.newPage();
    await other.goto(`${siteOrigin.replace("localhost", "127.0.0.1")}/`);
    await other.waitForFunction("typeof globalThis.mock === 'object'");
    const init = {
      method: "POST",
      headers: { authorization: "Bearer sk-test", "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-4.1", messages: [{ role: "user", content: "hi" }] }),
    };
    expect(await other.evaluate(`mock.rawFetch(${JSON.stringify(`${h.url}/s/browser-sdk/denied/v1/chat/completions`)}, ${JSON.stringify(init)})`)).toBe("TypeError");
    expect(await page.evaluate(`mock.rawFetch(${JSON.stringify(`${h.url}/s/browser-sdk/allowed/v1/chat/completions`)}, ${JSON.stringify(init)})`)).toMatch(/^200 /);
    await other.close();
  });
});
