/**
 * ChatKit through the official `openai` SDK (`client.beta.chatkit`), on both runtimes: a backend creates a session
 * (every default the API resolves, a fresh `ek_` secret, the `OpenAI-Beta` header the SDK sends), cancels it, and
 * lists threads, which only the widget makes (none here: an empty page, a thread id a 404); the real refusals;
 * sessions are per namespace.
 */
import OpenAI, { BadRequestError, NotFoundError } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { namespaceKey, rootAdmin } from "../support/namespaces";
import { startHarness, type Harness } from "./harness";

let h: Harness;
const client = (apiKey = "sk-test") => new OpenAI({ apiKey, baseURL: `${h.url}/v1`, maxRetries: 0 });

beforeAll(async () => {
  h = await startHarness();
}, 120_000);
afterAll(() => h?.stop());

describe("ChatKit sessions", () => {
  it("are created with the API's defaults resolved and a new secret each, then cancelled once", async () => {
    const c = client();
    const before = Math.floor(Date.now() / 1000);
    const s = await c.beta.chatkit.sessions.create({ user: "device-42", workflow: { id: "wf_support" } });
    expect(Object.keys(s)).toStrictEqual(["id", "object", "expires_at", "client_secret", "workflow", "user", "rate_limits", "max_requests_per_1_minute", "status", "chatkit_configuration"]);
    expect(s).toMatchObject({
      object: "chatkit.session",
      workflow: { id: "wf_support", version: null, state_variables: null, tracing: { enabled: true } },
      user: "device-42",
      rate_limits: { max_requests_per_1_minute: 10 },
      max_requests_per_1_minute: 10,
      status: "active",
      chatkit_configuration: {
        automatic_thread_titling: { enabled: true },
        file_upload: { enabled: false, max_file_size: 512, max_files: 10 },
        history: { enabled: true, recent_threads: null },
      },
    });
    expect(s.id).toMatch(/^cksess_[0-9a-f]{40}$/);
    expect(s.client_secret).toMatch(/^ek_[A-Za-z0-9_-]{48}$/);
    expect(s.expires_at - before).toBeGreaterThanOrEqual(600);
    expect(s.expires_at - before).toBeLessThanOrEqual(601);
    const again = await c.beta.chatkit.sessions.create({ user: "device-42", workflow: { id: "wf_support" } });
    expect([again.id === s.id, again.client_secret === s.client_secret]).toStrictEqual([false, false]);

    const cancelled = await c.beta.chatkit.sessions.cancel(s.id);
    expect(cancelled).toStrictEqual({ ...s, status: "cancelled" });
    expect(await c.beta.chatkit.sessions.cancel(s.id)).toStrictEqual({ ...s, status: "cancelled" });
    await expect(c.beta.chatkit.sessions.cancel("cksess_nope")).rejects.toMatchObject({ status: 404, error: { message: "ChatKit session with id 'cksess_nope' not found." } });
  });

  it("carry what was asked: workflow version, state and tracing, lifetime, rate limit, configuration", async () => {
    const s = await client().beta.chatkit.sessions.create({
      user: "u",
      workflow: { id: "wf_x", version: "3", state_variables: { plan: "pro", seats: 5, beta: true }, tracing: { enabled: false } },
      expires_after: { anchor: "created_at", seconds: 3600 },
      rate_limits: { max_requests_per_1_minute: 60 },
      chatkit_configuration: { automatic_thread_titling: { enabled: false }, file_upload: { enabled: true, max_file_size: 16, max_files: 20 }, history: { enabled: true, recent_threads: 10 } },
    });
    expect(s).toMatchObject({
      workflow: { id: "wf_x", version: "3", state_variables: { plan: "pro", seats: 5, beta: true }, tracing: { enabled: false } },
      rate_limits: { max_requests_per_1_minute: 60 },
      max_requests_per_1_minute: 60,
      chatkit_configuration: { automatic_thread_titling: { enabled: false }, file_upload: { enabled: true, max_file_size: 16, max_files: 20 }, history: { enabled: true, recent_threads: 10 } },
    });
    expect(s.expires_at - Math.floor(Date.now() / 1000)).toBeGreaterThanOrEqual(3599);
  });

  it("refuse what the API refuses, in its words", async () => {
    const c = client();
    const refused = (body: unknown) => c.beta.chatkit.sessions.create(body as never).catch((e: unknown) => e);
    expect(await refused({ workflow: { id: "wf" } })).toMatchObject({ status: 400, error: { message: "Missing required parameter: 'user'.", param: "user" } });
    expect(await refused({ user: "u" })).toMatchObject({ status: 400, error: { param: "workflow" } });
    expect(await refused({ user: "u", workflow: { id: "wf" }, scope: { project: "a" } })).toMatchObject({
      status: 400,
      error: { message: "Unrecognized request argument supplied: scope", param: "scope" },
    });
    const big = await refused({ user: "u", workflow: { id: "wf" }, chatkit_configuration: { file_upload: { max_file_size: 1024 } } });
    expect(big).toBeInstanceOf(BadRequestError);
    expect(big).toMatchObject({ error: { param: "chatkit_configuration.file_upload.max_file_size", code: "integer_above_max_value" } });
    expect(await refused({ user: "u", workflow: { id: "wf" }, expires_after: { anchor: "now", seconds: 5 } })).toMatchObject({ error: { param: "expires_after.anchor" } });
  });

  it("are per namespace: another key's session is a 404", async () => {
    const admin = rootAdmin((path, init) => fetch(`${h.url}${path}`, init), h.adminToken);
    const a = client(await namespaceKey(admin, "ck-a"));
    const b = client(await namespaceKey(admin, "ck-b"));
    const s = await a.beta.chatkit.sessions.create({ user: "u", workflow: { id: "wf" } });
    await expect(b.beta.chatkit.sessions.cancel(s.id)).rejects.toBeInstanceOf(NotFoundError);
    expect((await a.beta.chatkit.sessions.cancel(s.id)).status).toBe("cancelled");
  });
});

describe("ChatKit threads", () => {
  it("list none (the widget makes them); a thread id is a 404 on every route", async () => {
    const c = client();
    const page = await c.beta.chatkit.threads.list({ user: "device-42", limit: 5 });
    expect(page.data).toStrictEqual([]);
    expect(page.has_more).toBe(false);
    const notFound = { status: 404, error: { message: "ChatKit thread with id 'cthr_1' not found.", param: "thread_id" } };
    await expect(c.beta.chatkit.threads.retrieve("cthr_1")).rejects.toMatchObject(notFound);
    await expect(c.beta.chatkit.threads.delete("cthr_1")).rejects.toMatchObject(notFound);
    await expect(c.beta.chatkit.threads.listItems("cthr_1")).rejects.toMatchObject(notFound);
    await expect(c.beta.chatkit.threads.list({ limit: 500 })).rejects.toMatchObject({ status: 400, error: { param: "limit" } });
  });
});
