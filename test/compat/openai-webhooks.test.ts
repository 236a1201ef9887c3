/**
 * OpenAI webhooks through the official `openai` SDK, both runtimes: endpoints made, listed, changed, rotated and
 * deleted with `client.webhooks`; the events a background response (completed, cancelled), a batch and a test raise
 * reach a receiver on this machine, signed so `client.webhooks.unwrap` accepts them (with the old secret too while it
 * is kept); a delivery the receiver refuses is tried again under the same `webhook-id`; refusals in the API's shape.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import OpenAI, { toFile } from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { namespaceKey } from "../support/namespaces";
import { until } from "../support/until";
import { startHarness, type Harness } from "./harness";

interface Delivery {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let h: Harness;
let receiver: Server;
const deliveries: Delivery[] = [];
/** Paths the receiver refuses (503) this many more times. */
const refusals = new Map<string, number>();

const hook = (path: string) => `http://127.0.0.1:${(receiver.address() as AddressInfo).port}${path}`;
const client = (prefix = "") => new OpenAI({ apiKey: "sk-test", baseURL: `${h.url}${prefix}/v1`, maxRetries: 0 });
const at = (path: string) => deliveries.filter((d) => d.path === path);
/** A batch of one chat line, made with `c` (its end raises `batch.completed`). */
async function oneLineBatch(c: OpenAI) {
  const line = { custom_id: "a", method: "POST", url: "/v1/chat/completions", body: { model: "gpt-4.1", messages: [{ role: "user", content: "hi" }] } };
  const input = await c.files.create({ file: await toFile(Buffer.from(`${JSON.stringify(line)}\n`), "in.jsonl"), purpose: "batch" });
  return c.batches.create({ input_file_id: input.id, endpoint: "/v1/chat/completions", completion_window: "24h" });
}
const headersOf = (d: Delivery) => new Headers(Object.entries(d.headers).map(([k, v]) => [k, String(v)]));

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const path = req.url ?? "/";
      deliveries.push({ path, headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      const left = refusals.get(path) ?? 0;
      if (left > 0) refusals.set(path, left - 1);
      res.writeHead(left > 0 ? 503 : path.endsWith("/teapot") ? 418 : 200).end("ok");
    });
  });
  await new Promise<void>((r) => receiver.listen(0, "127.0.0.1", r));
  h = await startHarness({ WEBHOOK_RETRY_MS: "20" });
  await h.upload(
    { name: "wh-bg", async: { processingMs: 200 }, steps: [{ consume: false, respond: { text: "Done in the background." } }] },
    { name: "wh-slow", async: { processingMs: 1500 }, steps: [{ consume: false, respond: { text: "Slow." } }] },
    {
      name: "wh-agent",
      steps: [
        { id: "call", match: { turn: 1 }, respond: { toolCalls: [{ name: "get_weather", arguments: { city: "Paris" } }] } },
        { id: "answer", respond: { text: "Sunny." } },
      ],
    },
  );
}, 120_000);
afterAll(async () => {
  await h?.stop();
  await new Promise((r) => receiver?.close(r));
});

describe("webhook endpoints", () => {
  it("are made with their secret once, then listed, retrieved, changed and deleted without it", async () => {
    const c = client();
    const made = await c.webhooks.create({ name: "crud", url: hook("/crud"), event_types: ["response.completed", "batch.completed", "response.completed"] });
    expect(Object.keys(made)).toEqual(["id", "object", "created_at", "updated_at", "name", "url", "event_types", "signing_secret_hint", "signing_secret"]);
    expect(made).toMatchObject({ object: "webhook_endpoint", name: "crud", url: hook("/crud"), event_types: ["response.completed", "batch.completed"] });
    expect(made.id).toMatch(/^whe_[0-9a-f]{32}$/);
    expect(made.signing_secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(made.signing_secret_hint).toBe(`whsec_…${made.signing_secret.slice(-4)}`);
    expect(made.updated_at).toBe(made.created_at);

    const got = await c.webhooks.retrieve(made.id);
    expect(got).not.toHaveProperty("signing_secret");
    expect(got).toMatchObject({ id: made.id, name: "crud", signing_secret_hint: made.signing_secret_hint });
    const listed = [];
    for await (const e of c.webhooks.list()) listed.push(e.id);
    expect(listed).toContain(made.id);

    const same = await c.webhooks.update(made.id, { name: "crud" });
    expect(same.updated_at).toBe(made.updated_at);
    const renamed = await c.webhooks.update(made.id, { name: "renamed", event_types: ["batch.failed"] });
    expect(renamed).toMatchObject({ name: "renamed", url: hook("/crud"), event_types: ["batch.failed"] });
    expect(renamed.updated_at).toBeGreaterThanOrEqual(made.updated_at ?? 0);

    expect(await c.webhooks.delete(made.id)).toEqual({ id: made.id, object: "webhook_endpoint.deleted", deleted: true });
    await expect(c.webhooks.retrieve(made.id)).rejects.toMatchObject({ status: 404, error: { message: `No webhook endpoint found with id '${made.id}'.` } });
  });

  it("lists the event types an endpoint may subscribe to", async () => {
    const types = await client().webhooks.eventTypes.list();
    expect(types.object).toBe("list");
    expect(types.data).toHaveLength(27);
    expect(types.data.slice(0, 8)).toEqual([
      "batch.completed",
      "batch.failed",
      "batch.expired",
      "batch.cancelled",
      "response.completed",
      "response.failed",
      "response.cancelled",
      "response.incomplete",
    ]);
    expect(types.data.slice(17, 26)).toEqual([
      "agent.environment.ready",
      "agent.environment.failed",
      "agent.environment.suspended",
      "agent.environment.expired",
      "agent.session.created",
      "agent.session.action_required",
      "agent.session.in_progress",
      "agent.session.idle",
      "agent.session.failed",
    ]);
  });

  it("refuses what the API refuses, and hosts this deployment does not allow", async () => {
    const c = client();
    const refused = (p: Promise<unknown>) =>
      p.then(
        () => undefined,
        (e: { status: number; error: unknown }) => ({ status: e.status, error: e.error }),
      );
    expect(await refused(c.webhooks.create({ name: "x", url: hook("/x"), event_types: ["response.done" as "response.completed"] }))).toMatchObject({
      status: 400,
      error: { type: "invalid_request_error", code: "invalid_value", param: "event_types[0]" },
    });
    expect(await refused(c.webhooks.create({ name: "x", url: hook("/x"), event_types: [] }))).toMatchObject({ status: 400, error: { code: "empty_array", param: "event_types" } });
    expect(await refused(c.webhooks.create({ url: hook("/x"), event_types: ["batch.completed"] } as never))).toMatchObject({
      status: 400,
      error: { message: "Missing required parameter: 'name'.", param: "name" },
    });
    expect(await refused(c.webhooks.create({ name: "x", url: "ftp://127.0.0.1/x", event_types: ["batch.completed"] }))).toMatchObject({
      status: 400,
      error: { message: "Invalid 'url': string does not match pattern. Expected a string that matches the pattern '^https://'.", param: "url" },
    });
    const far = (await refused(c.webhooks.create({ name: "x", url: "https://hooks.example.com/x", event_types: ["batch.completed"] }))) as { status: number; error: { message: string } };
    expect(far.status).toBe(400);
    expect(far.error.message).toContain("'hooks.example.com' are not allowed on this deployment");
    expect(far.error.message).toContain("WEBHOOK_ALLOWED_HOSTS");
    expect(await refused(c.webhooks.create({ name: "x", url: hook("/x"), event_types: ["batch.completed"], colour: "red" } as never))).toMatchObject({
      status: 400,
      error: { message: "Unrecognized request argument supplied: colour" },
    });
  });
});

describe("deliveries", () => {
  it("test: a sample event signed with the endpoint's secret; the endpoint's status answered", async () => {
    const c = client();
    const ok = await c.webhooks.create({ name: "test", url: hook("/test"), event_types: ["batch.completed"] });
    const result = await c.webhooks.test(ok.id, { event_type: "fine_tuning.job.succeeded" });
    expect(result).toEqual({ object: "webhook_endpoint.test", webhook_endpoint_id: ok.id, event_type: "fine_tuning.job.succeeded", status_code: 200, success: true });
    const [d] = at("/test");
    expect(d?.headers["user-agent"]).toBe("OpenAI/1.0 (+https://platform.openai.com/docs/webhooks)");
    expect(d?.headers["content-type"]).toBe("application/json");
    expect(d?.headers["webhook-id"]).toMatch(/^wh_[0-9a-f]{32}$/);
    const event = await c.webhooks.unwrap(d!.body, headersOf(d!), ok.signing_secret);
    expect(Object.keys(JSON.parse(d!.body))).toEqual(["object", "id", "type", "created_at", "data"]);
    expect(event).toMatchObject({ object: "event", type: "fine_tuning.job.succeeded" });
    expect(event.id).toMatch(/^evt_[0-9a-f]{32}$/);
    expect((event.data as { id: string }).id).toMatch(/^ftjob-/);
    await expect(c.webhooks.unwrap(d!.body, headersOf(d!), "whsec_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=")).rejects.toThrow(/signature/);

    const teapot = await c.webhooks.create({ name: "teapot", url: hook("/teapot"), event_types: ["batch.completed"] });
    expect((await c.webhooks.test(teapot.id, { event_type: "batch.completed" })).status_code).toBe(418);
    await c.webhooks.delete(ok.id);
    await c.webhooks.delete(teapot.id);
  });

  it("a background response's end reaches the endpoints subscribed to it, once, when it is done", async () => {
    const c = client("/s/wh-bg/bg1");
    const sub = await c.webhooks.create({ name: "bg", url: hook("/bg"), event_types: ["response.completed", "response.cancelled"] });
    const other = await c.webhooks.create({ name: "batches only", url: hook("/bg-other"), event_types: ["batch.completed"] });
    const created = await c.responses.create({ model: "gpt-4.1", input: "Work on it.", background: true });
    expect(created.status).toBe("queued");
    const [d] = await until(
      () => at("/bg").filter((x) => x.body.includes(created.id)),
      (xs) => xs.length > 0,
      { ms: 15_000 },
    );
    const event = await c.webhooks.unwrap(d!.body, headersOf(d!), sub.signing_secret);
    expect(event).toMatchObject({ type: "response.completed", data: { id: created.id } });
    expect(event.created_at).toBeGreaterThanOrEqual(created.created_at);
    expect((await c.responses.retrieve(created.id)).status).toBe("completed");
    expect(at("/bg-other")).toHaveLength(0);
    await c.webhooks.delete(sub.id);
    await c.webhooks.delete(other.id);
  });

  it("an agent session's changes of state reach the endpoints subscribed to them", async () => {
    const c = client("/s/wh-agent/a1");
    const sub = await c.webhooks.create({
      name: "agents",
      url: hook("/agents"),
      event_types: ["agent.session.created", "agent.session.action_required", "agent.session.in_progress", "agent.session.idle"],
    });
    const tool = { type: "function" as const, name: "get_weather", description: "Weather", parameters: { type: "object", properties: { city: { type: "string" } } } };
    const session = await c.beta.agents.sessions.create({ agent: { model: "gpt-5.5", tools: [tool] }, environment: { type: "none" }, input: "Paris?" });
    expect(session.status).toBe("requires_action");
    const [action] = session.required_actions as { call_id: string; turn_id: string }[];
    await c.beta.agents.sessions.events.create(session.id, {
      events: [{ type: "agent.session.input.tool_result", turn_id: action!.turn_id, call_id: action!.call_id, success: true, output: "sunny" }],
    });
    const got = await until(
      () => at("/agents").filter((x) => x.body.includes(session.id)),
      (xs) => xs.length >= 5,
      { ms: 15_000 },
    );
    const events = await Promise.all(got.map((d) => c.webhooks.unwrap(d.body, headersOf(d), sub.signing_secret)));
    // Raised at once, each its own delivery: they may arrive in any order.
    expect(events.map((e) => e.type).sort()).toStrictEqual(["agent.session.action_required", "agent.session.created", "agent.session.idle", "agent.session.in_progress", "agent.session.in_progress"]);
    expect(events.find((e) => e.type === "agent.session.created")!.data).toStrictEqual({ id: session.id, environment_type: "none" });
    expect(events.find((e) => e.type === "agent.session.action_required")!.data).toStrictEqual({ id: session.id, required_action: { type: "function_call" } });
    expect(events.find((e) => e.type === "agent.session.idle")!.data).toStrictEqual({ id: session.id, environment_type: "none" });
    await c.webhooks.delete(sub.id);
  });

  it("a cancel before the run is done sends response.cancelled in place of its end", async () => {
    const c = client("/s/wh-slow/bg2");
    const sub = await c.webhooks.create({ name: "cancel", url: hook("/cancel"), event_types: ["response.completed", "response.cancelled"] });
    const created = await c.responses.create({ model: "gpt-4.1", input: "Slow.", background: true });
    await c.responses.cancel(created.id);
    const [d] = await until(
      () => at("/cancel"),
      (xs) => xs.length > 0,
      { ms: 15_000 },
    );
    expect(await c.webhooks.unwrap(d!.body, headersOf(d!), sub.signing_secret)).toMatchObject({ type: "response.cancelled", data: { id: created.id } });
    // Past the run's own end (1.5 s after it was made), still the one event.
    await new Promise((r) => setTimeout(r, 2000));
    expect(at("/cancel").map((x) => JSON.parse(x.body).type)).toEqual(["response.cancelled"]);
    await c.webhooks.delete(sub.id);
  });

  it("a delivery refused is tried again under the same webhook-id, newly signed", async () => {
    const c = client();
    refusals.set("/retry", 2);
    const sub = await c.webhooks.create({ name: "retry", url: hook("/retry"), event_types: ["batch.completed"] });
    const batch = await oneLineBatch(c);
    const tries = await until(
      () => at("/retry"),
      (xs) => xs.length >= 3,
      { ms: 15_000 },
    );
    expect(tries).toHaveLength(3);
    // The admin API shows the attempts, newest first, with what the endpoint answered.
    type Report = { endpoints: { id: string }[]; deliveries: { endpoint: string; attempt: number; status?: number; retry: boolean; deliveryId: string }[] };
    const report = await until(
      async () => (await (await h.admin("/webhooks")).json()) as Report,
      (r) => r.deliveries.filter((x) => x.endpoint === sub.id).length === 3,
      { ms: 15_000 },
    );
    expect(report.endpoints.map((e) => e.id)).toContain(sub.id);
    const mine = report.deliveries.filter((x) => x.endpoint === sub.id);
    expect(mine.map((x) => [x.attempt, x.status, x.retry])).toEqual([
      [3, 200, false],
      [2, 503, true],
      [1, 503, true],
    ]);
    expect(new Set(mine.map((x) => x.deliveryId))).toEqual(new Set([tries[0]!.headers["webhook-id"]]));
    expect(new Set(tries.map((t) => t.headers["webhook-id"])).size).toBe(1);
    expect(new Set(tries.map((t) => t.body)).size).toBe(1);
    for (const t of tries) expect(await c.webhooks.unwrap(t.body, headersOf(t), sub.signing_secret)).toMatchObject({ type: "batch.completed", data: { id: batch.id } });
    expect((await c.batches.retrieve(batch.id)).status).toBe("completed");
    await c.webhooks.delete(sub.id);
  });

  it("after a rotation that keeps the old secret, deliveries verify with either", async () => {
    const c = client();
    const sub = await c.webhooks.create({ name: "rotate", url: hook("/rotate"), event_types: ["batch.completed"] });
    const rotated = await c.webhooks.rotateSecret(sub.id, { keep_old_secret_active_for_24_hours: true });
    expect(rotated.signing_secret).not.toBe(sub.signing_secret);
    expect(rotated.id).toBe(sub.id);
    await c.webhooks.test(sub.id, { event_type: "batch.completed" });
    const [d] = at("/rotate");
    expect(String(d?.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    await expect(c.webhooks.unwrap(d!.body, headersOf(d!), rotated.signing_secret)).resolves.toMatchObject({ type: "batch.completed" });
    await expect(c.webhooks.unwrap(d!.body, headersOf(d!), sub.signing_secret)).resolves.toMatchObject({ type: "batch.completed" });

    const again = await c.webhooks.rotateSecret(sub.id);
    await c.webhooks.test(sub.id, { event_type: "batch.completed" });
    const last = at("/rotate")[1]!;
    expect(String(last.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    await expect(c.webhooks.unwrap(last.body, headersOf(last), again.signing_secret)).resolves.toMatchObject({ type: "batch.completed" });
    await expect(c.webhooks.unwrap(last.body, headersOf(last), rotated.signing_secret)).rejects.toThrow(/signature/);
    await c.webhooks.delete(sub.id);
  });
});

describe("namespaces", () => {
  it("each namespace keeps its own endpoints, and its events go to them alone; a deleted namespace's go with it", async () => {
    const a = new OpenAI({ apiKey: await namespaceKey(h.admin, "wh-a", "run"), baseURL: `${h.url}/v1`, maxRetries: 0 });
    const b = new OpenAI({ apiKey: await namespaceKey(h.admin, "wh-b", "run"), baseURL: `${h.url}/v1`, maxRetries: 0 });
    const mine = await a.webhooks.create({ name: "a", url: hook("/ns-a"), event_types: ["batch.completed"] });
    const theirs = await b.webhooks.create({ name: "b", url: hook("/ns-b"), event_types: ["batch.completed"] });
    const ids = async (c: OpenAI) => {
      const out: string[] = [];
      for await (const e of c.webhooks.list()) out.push(e.id);
      return out;
    };
    expect(await ids(a)).toEqual([mine.id]);
    expect(await ids(b)).toEqual([theirs.id]);
    expect(await ids(client())).not.toContain(mine.id);
    await expect(b.webhooks.retrieve(mine.id)).rejects.toMatchObject({ status: 404 });

    const batch = await oneLineBatch(a);
    const [d] = await until(
      () => at("/ns-a"),
      (xs) => xs.length > 0,
      { ms: 15_000 },
    );
    expect(await a.webhooks.unwrap(d!.body, headersOf(d!), mine.signing_secret)).toMatchObject({ type: "batch.completed", data: { id: batch.id } });
    expect(at("/ns-b")).toHaveLength(0);

    expect((await h.admin("/namespaces/wh-a", { method: "DELETE" })).status).toBe(200);
    const again = new OpenAI({ apiKey: await namespaceKey(h.admin, "wh-a", "run"), baseURL: `${h.url}/v1`, maxRetries: 0 });
    expect(await ids(again)).toEqual([]);
  });
});
