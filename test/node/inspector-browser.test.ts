/**
 * The inspector in a real browser (headless Chromium through playwright-core) against the Node runtime, driven as a
 * new user would: type the token, load the scenarios, open a scenario and a session, watch the journal fill while a
 * scripted agent run goes on, see verify turn green, expand an entry, reset.
 *
 * Needs Debian's `chromium` at /usr/bin/chromium (`.ci/run` installs it); skipped with a message without it.
 * Screenshots go to a temporary folder; `UPDATE_SCREENSHOTS=1` writes them to docs/ for the README instead.
 */
import { existsSync, mkdirSync, mkdtempSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import type { RunningServer } from "../../src/hosts/node/server";
import { startQuietServer } from "../support/server";
import { AdminClient } from "../../src/client/admin/client";

const CHROMIUM = "/usr/bin/chromium";
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const TOKEN = "inspector-browser-token";
const have = existsSync(CHROMIUM);
if (!have) console.warn(`inspector browser test skipped: ${CHROMIUM} not found (apt-get install chromium)`);

const shots = process.env.UPDATE_SCREENSHOTS === "1" ? fileURLToPath(new URL("../../docs/", import.meta.url)) : mkdtempSync(join(tmpdir(), "mockllm-inspector-"));
mkdirSync(shots, { recursive: true });

const DEMO = {
  name: "support-agent",
  description: "Looks up an order with a tool, then answers; the lookup is rate limited once.",
  steps: [
    {
      id: "lookup",
      match: { lastUserMessage: { contains: "order" } },
      failures: [{ kind: "rate_limit" }],
      respond: { toolCalls: [{ name: "get_order", arguments: { id: "A-1042" } }] },
    },
    {
      id: "answer",
      match: { toolResult: { name: "get_order" } },
      respond: { text: "Your order A-1042 shipped yesterday and arrives Friday." },
    },
  ],
};

let server: RunningServer;
let browser: Browser;
let page: Page;

async function chat(session: string, messages: unknown[]): Promise<number> {
  const res = await fetch(`${server.url}/s/support-agent/${session}/v1/chat/completions`, {
    method: "POST",
    headers: { authorization: "Bearer sk-test", "content-type": "application/json" },
    body: JSON.stringify({
      model: "gpt-4o",
      messages,
      tools: [{ type: "function", function: { name: "get_order", parameters: { type: "object", properties: {} } } }],
    }),
  });
  await res.text();
  return res.status;
}

const ASK = { role: "user", content: "Where is my order A-1042?" };

/** The agent's second turn: the tool call and its result. */
function toolTurn(callId: string, name = "get_order") {
  return [
    ASK,
    { role: "assistant", content: null, tool_calls: [{ id: callId, type: "function", function: { name, arguments: '{"id":"A-1042"}' } }] },
    { role: "tool", tool_call_id: callId, content: '{"status":"shipped","eta":"Friday"}' },
  ];
}

/** A full-page screenshot from the top (the header is sticky). */
async function shot(name: string): Promise<void> {
  await page.evaluate("window.scrollTo(0, 0)");
  await page.screenshot({ path: join(shots, name), fullPage: true });
}

async function text(selector: string): Promise<string> {
  return (await page.locator(selector).first().textContent()) ?? "";
}

describe.skipIf(!have)("inspector in Chromium", () => {
  beforeAll(async () => {
    server = await startQuietServer({ adminToken: TOKEN });
    const res = await fetch(`${server.url}/admin/scenarios/support-agent`, {
      method: "PUT",
      headers: { authorization: `Bearer ${TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify(DEMO),
    });
    expect(res.status).toBe(200);
    const { chromium } = await import("playwright-core");
    browser = await chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
    page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    page.setDefaultTimeout(15_000);
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it("loads the scenarios with the token typed in, keeping it in the browser only", async () => {
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    page.on("console", (m) => {
      if (m.type() === "error") errors.push(m.text());
    });
    await page.goto(`${server.url}/`);
    expect(await text("#scenarios-empty")).toBe("Enter the admin token and load the scenarios.");
    await page.fill("#token", TOKEN);
    await page.click("#connect");
    await page.waitForSelector('.scenario-item[data-name="support-agent"]');
    expect(await text('.scenario-item[data-name="support-agent"] .tag')).toBe("uploaded");
    expect(await page.evaluate('[sessionStorage.getItem("mockllm-admin-token"), localStorage.getItem("mockllm-admin-token")]')).toEqual([TOKEN, null]);
    expect(await page.content()).not.toContain(TOKEN); // in the password field's value, never in the markup
    expect(errors).toEqual([]);
  });

  it("opens a scenario: steps with coverage, no sessions yet", async () => {
    await page.click('.scenario-item[data-name="support-agent"] a');
    await page.waitForSelector('#steps tr[data-step="answer"]');
    expect(await text("#scenario-title")).toBe("support-agent");
    expect(await text("#scenario-meta")).toMatch(/^uploaded · version [0-9a-f]{16}$/);
    expect(await page.locator("#steps tbody tr.unused").count()).toBe(2);
    expect(await page.isVisible("#sessions-empty")).toBe(true);
    expect(await text("#scenario-source")).toContain('"id": "lookup"');
  });

  it("watches a run: the session appears, the journal fills, verify turns green", async () => {
    expect(await chat("run-1", [ASK])).toBe(429); // the scripted rate limit
    await page.waitForSelector('.session-row[data-session="run-1"]');
    await page.click('.session-row[data-session="run-1"] a');
    await page.waitForSelector('.entry[data-seq="1"]');
    expect(await text('.entry[data-seq="1"] .outcome')).toBe("failure");
    expect(await text('.entry[data-seq="1"] .http')).toBe("429");
    expect(await text("#verify-summary")).toMatch(/^mockllm verify: FAILED: .*1 step never used, 1 step left after a scripted failure$/m);

    // The agent retries, gets the tool call, sends the tool result and gets the answer.
    const retry = await fetch(`${server.url}/s/support-agent/run-1/v1/chat/completions`, {
      method: "POST",
      headers: { authorization: "Bearer sk-test", "content-type": "application/json" },
      body: JSON.stringify({ model: "gpt-4o", messages: [ASK], tools: [{ type: "function", function: { name: "get_order", parameters: {} } }] }),
    });
    const callId = ((await retry.json()) as { choices: { message: { tool_calls: { id: string }[] } }[] }).choices[0]!.message.tool_calls[0]!.id;
    expect(await chat("run-1", toolTurn(callId))).toBe(200);

    await page.waitForSelector('.entry[data-seq="3"]');
    await page.waitForSelector("#verify-summary.pass");
    expect(await text("#verify-summary")).toMatch(/^mockllm verify: ok: scenario "support-agent" session "run-1" .*: 3 requests, all 2 steps used, no mismatches$/);
    expect(await text("#verify-badge")).toBe("✓ verified");
    expect(await text('.entry[data-seq="2"] .answer')).toBe('→ get_order({"id":"A-1042"})');
    expect(await text('.entry[data-seq="3"] .ask')).toBe('tool results: get_order → "{\\"status\\":\\"shipped\\",\\"eta\\":\\"Friday\\"}"');
    expect(await text('.entry[data-seq="3"] .step')).toBe("step answer");

    await page.click('.entry[data-seq="3"] summary');
    const expanded = await text('.entry[data-seq="3"] .cols');
    expect(expanded).toContain('"authorization": "[redacted]"');
    expect(expanded).toContain(`"toolCallId": "${callId}"`);
    expect(expanded).toContain('"text": "Your order A-1042 shipped yesterday and arrives Friday."');
    await shot("inspector-session.png");
  });

  it("a failing run shows why, and the scenario view shows each session's verify status", async () => {
    // This agent calls the wrong tool: no step answers a lookup_order result.
    expect(await chat("run-2", [ASK])).toBe(429);
    expect(await chat("run-2", [ASK])).toBe(200);
    expect(await chat("run-2", toolTurn("call_x", "lookup_order"))).toBe(400);
    await page.goto(`${server.url}/#/s/support-agent/run-2`);
    await page.waitForSelector('.entry[data-seq="3"].outcome-mismatch');
    await page.waitForSelector("#verify-summary.fail");
    const summary = await text("#verify-summary");
    expect(summary).toContain('  - "answer" (step 2) matches toolResult { name "get_order" }');
    expect(summary).toContain('tool results: lookup_order (call_x) → "{\\"status\\":\\"shipped\\",\\"eta\\":\\"Friday\\"}"');
    expect(await text('.entry[data-seq="3"] .reasons')).toContain('no step matches; nearest step "answer" failed');
    expect(await text('.entry[data-seq="3"] .step')).toBe("nearest step answer");
    await page.click('.entry[data-seq="3"] summary');
    await shot("inspector-verify-failed.png");

    await page.waitForSelector('.session-row[data-session="run-2"] .badge.fail');
    expect(await text('.session-row[data-session="run-1"] .badge')).toBe("✓ verified");
    expect(await text('.session-row[data-session="run-2"] .badge')).toBe("✗ 1 unused, 1 mismatch");
    expect(await text('#steps tr[data-step="answer"] td.bad')).toBe("1");
    await page.locator("#scenario").screenshot({ path: join(shots, "inspector-scenario.png") });
  });

  it("a link with the key in its fragment opens the session in a fresh browser, no token typed, key out of the address", async () => {
    const link = new AdminClient({ url: server.url, token: TOKEN }).inspectorURL("support-agent", "run-2");
    expect(link).toBe(`${server.url}/#scenario=support-agent&session=run-2&key=${TOKEN}`);
    const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
    try {
      const fresh = await context.newPage();
      const urls: string[] = [];
      fresh.on("request", (r) => urls.push(r.url()));
      await fresh.goto(link);
      await fresh.waitForSelector('.entry[data-seq="3"].outcome-mismatch');
      await fresh.waitForSelector("#verify-summary.fail");
      expect(await fresh.locator("#session-title").textContent()).toBe("support-agent / run-2");
      expect(fresh.url()).toBe(`${server.url}/#/s/support-agent/run-2`);
      expect(await fresh.evaluate("location.href.includes('key=')")).toBe(false);
      expect(await fresh.evaluate('[sessionStorage.getItem("mockllm-admin-token"), localStorage.getItem("mockllm-admin-token")]')).toEqual([TOKEN, null]);
      expect(await fresh.inputValue("#token")).toBe(TOKEN);
      expect(await fresh.textContent("#status")).toBe("");
      expect(urls.filter((u) => u.includes(TOKEN))).toEqual([]);
      expect(urls).toContain(`${server.url}/admin/sessions/support-agent/run-2/requests`);
    } finally {
      await context.close();
    }
  });

  it("reset empties the session's journal and verify says nothing ran", async () => {
    await page.goto(`${server.url}/#/s/support-agent/run-1`);
    await page.waitForSelector('.entry[data-seq="3"]');
    await page.click("#reset");
    await page.waitForSelector("#journal-empty:not([hidden])");
    expect(await page.locator(".entry").count()).toBe(0);
    expect(await text("#verify-summary")).toContain("No request reached this session");
    expect(await text("#status")).toBe("reset support-agent/run-1");
  });

  it("a session no request reached says it has not run (the server's 404), with no error shown", async () => {
    await page.goto(`${server.url}/#/s/support-agent/nobody`);
    await page.waitForSelector("#journal-empty:not([hidden])");
    await page.locator("#verify-summary", { hasText: "This session has not run" }).waitFor();
    expect(await text("#verify-summary")).toBe("This session has not run: no request reached /s/support-agent/nobody yet.");
    expect(await text("#verify-badge")).toBe("not run");
    expect(await page.isVisible("#session")).toBe(true);
    expect(await page.locator("#status.error").count()).toBe(0);
    expect(await page.locator(".entry").count()).toBe(0);
  });

  it("the webhooks view shows the project's endpoints and each delivery attempt with what the endpoint answered", async () => {
    await page.goto(`${server.url}/#/webhooks`);
    await page.waitForSelector("#endpoints-empty:not([hidden])");
    expect(await text("#webhooks-meta")).toBe("0 endpoints \u00b7 0 waiting");
    expect(await page.isVisible("#scenario")).toBe(false);

    // Two endpoints on a receiver of this test's: one takes what it is sent, one refuses it.
    const receiver = createServer((req, res) => {
      req.resume();
      res.writeHead(req.url === "/refuse" ? 503 : 204).end();
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    try {
      const ids: string[] = [];
      for (const [name, path] of [
        ["orders", "/take"],
        ["audit", "/refuse"],
      ] as const) {
        const made = await fetch(`${server.url}/v1/webhook_endpoints`, {
          method: "POST",
          headers: { authorization: "Bearer sk-test", "content-type": "application/json" },
          body: JSON.stringify({ name, url: base + path, event_types: ["batch.completed"] }),
        });
        expect(made.status).toBe(200);
        const id = ((await made.json()) as { id: string }).id;
        ids.push(id);
        const sent = await fetch(`${server.url}/v1/webhook_endpoints/${id}/test`, {
          method: "POST",
          headers: { authorization: "Bearer sk-test", "content-type": "application/json" },
          body: JSON.stringify({ event_type: "batch.completed" }),
        });
        expect(sent.status).toBe(200);
      }
      await page.locator("#webhooks-meta", { hasText: "2 endpoints" }).waitFor(); // the view refreshes itself
      await page.waitForSelector(".delivery-row:nth-child(2)");
      expect(await text("#webhooks-meta")).toBe("2 endpoints \u00b7 0 waiting");
      expect(await page.locator(".endpoint-row").evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll("td")].map((td) => td.textContent)))).toEqual(
        expect.arrayContaining([
          ["orders", `${base}/take`, "batch.completed", ids[0]],
          ["audit", `${base}/refuse`, "batch.completed", ids[1]],
        ]),
      );
      const rows = await page.locator(".delivery-row").evaluateAll((trs) => trs.map((tr) => [tr.className, ...[...tr.querySelectorAll("td")].slice(2).map((td) => td.textContent)]));
      // Newest first: the refused test was sent last; a test is not tried again.
      expect(rows).toEqual([
        ["delivery-row failed", `${base}/refuse`, "1", "503", "given up"],
        ["delivery-row", `${base}/take`, "1", "204", ""],
      ]);
      expect(await text(".delivery-row td:nth-child(2)")).toMatch(/^batch\.completedevt_[0-9a-f]+$/);
      expect(await page.locator("#status.error").count()).toBe(0);
      await shot("inspector-webhooks.png");
    } finally {
      receiver.close();
    }
  });
});
