/**
 * The inspector in Chromium with a namespace key: a `read` key typed in sees only its namespace's scenarios and
 * sessions (and may not reset), the root token sees the `default` namespace. Needs /usr/bin/chromium, as
 * inspector-browser.test.ts.
 */
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import type { RunningServer } from "../../src/hosts/node/server";
import { createNamespace, mintKey, type RootAdmin } from "../support/namespaces";
import { startQuietServer } from "../support/server";

const CHROMIUM = "/usr/bin/chromium";
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const TOKEN = "inspector-ns-token";
const have = existsSync(CHROMIUM);
if (!have) console.warn(`inspector namespace browser test skipped: ${CHROMIUM} not found (apt-get install chromium)`);

const said = (name: string, text: string) => ({ name, steps: [{ id: "hi", consume: false, respond: { text } }] });

let server: RunningServer;
let browser: Browser;
const keys: Record<string, string> = {};

async function send(path: string, bearer: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${server.url}${path}`, { ...init, headers: { authorization: `Bearer ${bearer}`, "content-type": "application/json" } });
}

const root: RootAdmin = (path, init) => send(`/admin${path}`, TOKEN, init);

async function run(scenario: string, session: string, bearer: string): Promise<void> {
  const res = await send(`/s/${scenario}/${session}/v1/chat/completions`, bearer, { method: "POST", body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hi" }] }) });
  expect(res.status).toBe(200);
  await res.text();
}

/** A fresh page (its own sessionStorage) connected with `credential`. */
async function connect(credential: string): Promise<{ page: Page; errors: string[] }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.goto(`${server.url}/`);
  await page.fill("#token", credential);
  await page.click("#connect");
  return { page, errors };
}

/** Waits until the status line starts with `prefix` (an HTTP status). */
function statusStarts(page: Page, prefix: string): Promise<unknown> {
  return page.locator("#status", { hasText: new RegExp(`^${prefix} `) }).waitFor();
}

async function scenarioNames(page: Page): Promise<string[]> {
  return (await page.locator(".scenario-item").evaluateAll((els) => els.map((e) => e.getAttribute("data-name") ?? ""))).sort();
}

describe.skipIf(!have)("inspector with a namespace key, in Chromium", () => {
  beforeAll(async () => {
    server = await startQuietServer({ adminToken: TOKEN });
    await createNamespace(root, "team-a");
    for (const scope of ["admin", "read"]) keys[scope] = (await mintKey(root, "team-a", scope)).key;
    expect((await send("/admin/scenarios/team-only", keys.admin!, { method: "PUT", body: JSON.stringify(said("team-only", "for team A")) })).status).toBe(200);
    expect((await send("/admin/scenarios/root-only", TOKEN, { method: "PUT", body: JSON.stringify(said("root-only", "for default")) })).status).toBe(200);
    await run("team-only", "team-run", keys.admin!);
    await run("root-only", "root-run", TOKEN);
    const { chromium } = await import("playwright-core");
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("a read key sees only its namespace's uploads and sessions, and may not reset", async () => {
    const { page, errors } = await connect(keys.read!);
    await page.waitForSelector('.scenario-item[data-name="team-only"]');
    const names = await scenarioNames(page);
    expect(names).toContain("team-only");
    expect(names).not.toContain("root-only");
    expect(await page.locator('.scenario-item[data-name="team-only"] .tag').first().textContent()).toBe("uploaded");
    await page.click('.scenario-item[data-name="team-only"] a');
    await page.waitForSelector('.session-row[data-session="team-run"]');
    expect(await page.locator(".session-row").count()).toBe(1);
    await page.click('.session-row[data-session="team-run"] a');
    await page.waitForSelector('.entry[data-seq="1"]');
    await page.click('.entry[data-seq="1"] summary');
    const expanded = (await page.locator('.entry[data-seq="1"] .cols').first().textContent()) ?? "";
    expect(expanded).toContain('"x-mockllm-key-id"');
    expect(expanded).not.toContain(keys.admin!.slice(16));
    await page.click("#reset");
    await statusStarts(page, "403");
    expect(await page.locator("#status").textContent()).toBe("403 a read key may only read (GET) (this key's scope does not allow it)");
    expect(await page.locator(".entry").count()).toBe(1);
    // Another namespace's (here: the default's) session by URL: not found, like a name that never existed.
    await page.goto(`${server.url}/#/s/root-only/root-run`);
    await statusStarts(page, "404");
    expect(await page.locator("#status").textContent()).toBe('404 scenario "root-only" not found');
    // Nothing of the session shown before stays on screen.
    expect(await page.locator(".entry").count()).toBe(0);
    expect(await page.isVisible("#session")).toBe(false);
    expect(await page.isVisible("#scenario")).toBe(false);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("the root token sees the default namespace, not the team's", async () => {
    const { page, errors } = await connect(TOKEN);
    await page.waitForSelector('.scenario-item[data-name="root-only"]');
    const names = await scenarioNames(page);
    expect(names).toContain("root-only");
    expect(names).not.toContain("team-only");
    await page.click('.scenario-item[data-name="root-only"] a');
    await page.waitForSelector('.session-row[data-session="root-run"]');
    expect(await page.locator(".session-row").count()).toBe(1);
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it("a link with a namespace key opens that namespace's session, no key typed", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${server.url}/#scenario=team-only&session=team-run&key=${encodeURIComponent(keys.read!)}`);
    await page.waitForSelector('.entry[data-seq="1"]');
    expect(await page.locator("#session-title").textContent()).toBe("team-only / team-run");
    expect(page.url()).toBe(`${server.url}/#/s/team-only/team-run`);
    expect(await scenarioNames(page)).not.toContain("root-only");
    expect(await page.evaluate('sessionStorage.getItem("mockllm-admin-token")')).toBe(keys.read!);
    await context.close();
  });

  it("a run key is told it has no admin access", async () => {
    const { page } = await connect((await mintKey(root, "team-a", "run")).key);
    await statusStarts(page, "403");
    expect(await page.locator("#status").textContent()).toBe("403 a run key may call provider routes only (this key's scope does not allow it)");
    expect(await page.locator(".scenario-item").count()).toBe(0);
    await page.context().close();
  });
});
