/**
 * Webhooks' runtime-free parts: the Standard Webhooks signature (against node:crypto's HMAC and the `openai` SDK's
 * own check), the queue of one project (replacement by key, fan-out to the subscribed endpoints, retries and their
 * backoff, its bounds), the event's JSON and the hosts an endpoint may name.
 */
import { createHmac } from "node:crypto";
import OpenAI from "openai";
import { describe, expect, it, vi } from "vitest";
import type { Runtime } from "../../src/runtime/types";
import { raiseEvent, type WebhookHub } from "../../src/webhooks/hub";
import { MapStore } from "../../src/tenancy/registry-core";
import { DELIVERY_LOG, MAX_ATTEMPTS, MAX_ENDPOINTS, MAX_PENDING, WebhookCore, liveSecrets, type EndpointRecord } from "../../src/webhooks/core";
import { eventJson, SAMPLE_SIP_HEADERS, sampleEvent, type EventType } from "../../src/webhooks/events";
import { urlRefusal } from "../../src/webhooks/hosts";
import { newSecret, secretHint, signature, signatureHeader } from "../../src/webhooks/sign";
import { deliveryLogger, queueEvent } from "../../src/webhooks/send";

const endpoint = (id: string, types: EventType[], extra: Partial<EndpointRecord> = {}): EndpointRecord => ({
  id,
  name: id,
  url: `http://127.0.0.1:9/${id}`,
  eventTypes: types,
  createdAt: 1,
  updatedAt: 1,
  stamp: Number(id.replace(/\D/g, "")) || 1,
  secret: "whsec_c2VjcmV0",
  ...extra,
});
const event = (type: EventType, dataId: string) => ({ id: `evt_${dataId}`, type, createdAt: 1_750_000_000, dataId });

describe("signing", () => {
  it("is HMAC-SHA256 of id.timestamp.body under the secret's bytes, base64 after v1,", async () => {
    const secret = newSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const body = eventJson(event("batch.completed", "batch_1"));
    const key = Buffer.from(secret.slice(6), "base64");
    const expected = createHmac("sha256", key).update(`wh_1.1750000000.${body}`).digest("base64");
    expect(await signature(secret, "wh_1", 1_750_000_000, body)).toBe(`v1,${expected}`);
    // A secret without the prefix is keyed by its UTF-8 bytes, as the SDKs read one.
    expect(await signature("plain", "wh_1", 5, "{}")).toBe(`v1,${createHmac("sha256", "plain").update("wh_1.5.{}").digest("base64")}`);
    expect(secretHint("whsec_abcdWXYZ")).toBe("whsec_…WXYZ");
  });

  it("is what the openai SDK's verifySignature accepts, with two secrets as two signatures", async () => {
    const [a, b] = [newSecret(), newSecret()];
    const body = eventJson(event("response.completed", "resp_1"));
    const ts = Math.floor(Date.now() / 1000);
    const header = await signatureHeader([a, b], "wh_2", ts, body);
    expect(header.split(" ")).toHaveLength(2);
    const headers = new Headers({ "webhook-id": "wh_2", "webhook-timestamp": String(ts), "webhook-signature": header });
    const client = new OpenAI({ apiKey: "k" });
    await expect(client.webhooks.unwrap(body, headers, a)).resolves.toEqual({ object: "event", id: "evt_resp_1", type: "response.completed", created_at: 1_750_000_000, data: { id: "resp_1" } });
    await expect(client.webhooks.unwrap(body, headers, b)).resolves.toMatchObject({ type: "response.completed" });
    await expect(client.webhooks.unwrap(body, headers, newSecret())).rejects.toThrow(/signature/);
  });

  it("a sample event names an object of its kind", () => {
    expect(sampleEvent("batch.failed", 2_000).dataId).toMatch(/^batch_[0-9a-f]{32}$/);
    expect(sampleEvent("eval.run.canceled", 2_000)).toMatchObject({ type: "eval.run.canceled", createdAt: 2 });
    expect(sampleEvent("response.incomplete", 0).id).toMatch(/^evt_[0-9a-f]{32}$/);
  });

  it("a realtime.call.incoming carries the call's data as the SDKs type it: call_id and the INVITE's headers", async () => {
    const e = sampleEvent("realtime.call.incoming", 3_000);
    const parsed = JSON.parse(eventJson(e)) as { data: unknown };
    expect(parsed.data).toStrictEqual({ call_id: e.dataId, sip_headers: [...SAMPLE_SIP_HEADERS] });
    expect(e.dataId).toMatch(/^rtc_[0-9a-f]{32}$/);
    const secret = newSecret();
    const ts = Math.floor(Date.now() / 1000);
    const body = eventJson(e);
    const headers = new Headers({ "webhook-id": "wh_3", "webhook-timestamp": String(ts), "webhook-signature": await signatureHeader([secret], "wh_3", ts, body) });
    const unwrapped = await new OpenAI({ apiKey: "k" }).webhooks.unwrap(body, headers, secret);
    expect(unwrapped.type === "realtime.call.incoming" && unwrapped.data.call_id).toBe(e.dataId);
  });
});

describe("the queue", () => {
  it("keeps nothing while the project has no endpoint", () => {
    const core = new WebhookCore(new MapStore());
    expect(core.schedule("response:r1", 100, event("response.completed", "r1"))).toBe("no endpoints");
    expect(core.nextDue()).toBeUndefined();
  });

  it("an object's later event replaces what waited under its key", () => {
    const core = new WebhookCore(new MapStore());
    core.create(endpoint("whe_1", ["response.completed", "response.cancelled"]));
    expect(core.schedule("response:r1", 1000, event("response.completed", "r1"))).toBe("queued");
    expect(core.schedule("response:r1", 500, event("response.cancelled", "r1"))).toBe("queued");
    expect(core.nextDue()).toBe(500);
    expect(core.takeDue(499, 10)).toEqual([]);
    const sends = core.takeDue(500, 10);
    expect(sends.map((s) => [s.event.type, s.endpointId, s.attempt])).toEqual([["response.cancelled", "whe_1", 1]]);
    expect(core.nextDue()).toBeUndefined();
    expect(core.takeDue(10_000, 10)).toEqual([]);
  });

  it("fans an event out to the endpoints subscribed to its type when it is due, each delivery its own id", () => {
    const core = new WebhookCore(new MapStore());
    core.create(endpoint("whe_1", ["batch.completed"]));
    core.create(endpoint("whe_2", ["response.completed"]));
    core.create(endpoint("whe_3", ["batch.completed", "batch.failed"], { url: "http://127.0.0.1:9/three" }));
    core.schedule("batch:b1", 10, event("batch.completed", "b1"));
    core.schedule("batch:b2", 20, event("batch.failed", "b2"));
    const sends = core.takeDue(20, 10);
    expect(sends.map((s) => [s.event.dataId, s.endpointId, s.url])).toEqual([
      ["b1", "whe_1", "http://127.0.0.1:9/whe_1"],
      ["b1", "whe_3", "http://127.0.0.1:9/three"],
      ["b2", "whe_3", "http://127.0.0.1:9/three"],
    ]);
    expect(new Set(sends.map((s) => s.deliveryId)).size).toBe(3);
    for (const s of sends) expect(s.deliveryId).toMatch(/^wh_[0-9a-f]{32}$/);
  });

  it("an endpoint made after the event was raised still gets it; one deleted before it is due does not", () => {
    const core = new WebhookCore(new MapStore());
    core.create(endpoint("whe_1", ["batch.completed"]));
    core.schedule("batch:b1", 10, event("batch.completed", "b1"));
    core.create(endpoint("whe_2", ["batch.completed"]));
    expect(core.delete("whe_1")).toBe(true);
    expect(core.takeDue(10, 10).map((s) => s.endpointId)).toEqual(["whe_2"]);
  });

  it("retries after 1, 2, 4 and 8 intervals under the same delivery id, then gives up", () => {
    const core = new WebhookCore(new MapStore());
    core.create(endpoint("whe_1", ["batch.completed"]));
    core.schedule("batch:b1", 0, event("batch.completed", "b1"));
    let [s] = core.takeDue(0, 10);
    const id = s!.deliveryId;
    const dues: number[] = [];
    let now = 0;
    while (core.retry(s!, now, 100)) {
      const due = core.nextDue()!;
      dues.push(due - now);
      now = due;
      [s] = core.takeDue(now, 10);
      expect(s!.deliveryId).toBe(id);
    }
    expect(dues).toEqual([100, 200, 400, 800]);
    expect(s!.attempt).toBe(MAX_ATTEMPTS);
    expect(core.nextDue()).toBeUndefined();
  });

  it("a retry goes to its endpoint as it stands now, and not at all once it is deleted", () => {
    const core = new WebhookCore(new MapStore());
    core.create(endpoint("whe_1", ["batch.completed"]));
    core.schedule("batch:b1", 0, event("batch.completed", "b1"));
    const [s] = core.takeDue(0, 10);
    core.retry(s!, 0, 10);
    core.update({ ...endpoint("whe_1", ["batch.completed"]), url: "http://127.0.0.1:9/moved" });
    expect(core.takeDue(10, 10).map((x) => x.url)).toEqual(["http://127.0.0.1:9/moved"]);
    core.retry(s!, 10, 10);
    core.delete("whe_1");
    expect(core.takeDue(100, 10)).toEqual([]);
  });

  it("bounds endpoints and waiting deliveries", () => {
    const core = new WebhookCore(new MapStore());
    for (let i = 1; i <= MAX_ENDPOINTS; i++) expect(core.create(endpoint(`whe_${i}`, ["batch.completed"]))).toBe(true);
    expect(core.create(endpoint("whe_x", ["batch.completed"]))).toBe(false);
    expect(core.endpoints()).toHaveLength(MAX_ENDPOINTS);
    core.delete("whe_1");
    expect(core.create(endpoint("whe_y", ["batch.completed"]))).toBe(true);

    const small = new WebhookCore(new MapStore());
    small.create(endpoint("whe_1", ["batch.completed"]));
    for (let i = 0; i < MAX_PENDING; i++) small.schedule(`batch:${i}`, 1_000 + i, event("batch.completed", String(i)));
    expect(small.schedule("batch:over", 5, event("batch.completed", "over"))).toBe("full");
    const lines: unknown[] = [];
    expect(queueEvent(small, "batch:over", 5, "batch.completed", "over", (line) => lines.push(line))).toBe(false);
    expect(lines).toMatchObject([{ type: "batch.completed", attempt: 0, error: "10000 deliveries already wait in this project: not sent", retry: false }]);
    // Replacing one that waits is not an addition.
    expect(small.schedule("batch:0", 5, event("batch.cancelled", "0"))).toBe("queued");
    expect(small.nextDue()).toBe(5);
  });

  it("remembers the last DELIVERY_LOG attempts, newest first", () => {
    const core = new WebhookCore(new MapStore());
    for (let i = 1; i <= DELIVERY_LOG + 5; i++) {
      core.remember({ at: "t", event: `evt_${i}`, type: "batch.completed", endpoint: "whe_1", url: "u", deliveryId: "wh_1", attempt: 1, status: 200, retry: false });
    }
    const kept = core.deliveries();
    expect(kept).toHaveLength(DELIVERY_LOG);
    expect(kept[0]?.event).toBe(`evt_${DELIVERY_LOG + 5}`);
    expect(kept.at(-1)?.event).toBe("evt_6");
  });

  it("signs with the previous secret too while it stays valid", () => {
    const e = endpoint("whe_1", ["batch.completed"], { secret: "new", previous: { secret: "old", untilMs: 1000 } });
    expect(liveSecrets(e, 999)).toEqual(["new", "old"]);
    expect(liveSecrets(e, 1000)).toEqual(["new"]);
  });
});

describe("the hosts an endpoint may name", () => {
  it("by default: loopback and the request's own host, any port, http or https", () => {
    expect(urlRefusal("http://127.0.0.1:4000/hook", {}, "127.0.0.1:8787")).toBeUndefined();
    expect(urlRefusal("http://localhost:3000/hook", {}, "mock.example.com")).toBeUndefined();
    expect(urlRefusal("http://app.localhost/hook", {}, "mock.example.com")).toBeUndefined();
    expect(urlRefusal("http://[::1]:3000/hook", {}, "mock.example.com")).toBeUndefined();
    expect(urlRefusal("https://mock.example.com:8443/hook", {}, "mock.example.com")).toBeUndefined();
    expect(urlRefusal("https://hooks.example.com/hook", {}, "mock.example.com")).toEqual({ host: "hooks.example.com" });
    expect(urlRefusal("ftp://127.0.0.1/hook", {}, "127.0.0.1")).toEqual({ pattern: true });
    expect(urlRefusal("not a url", {}, "127.0.0.1")).toEqual({ pattern: true });
  });

  it("WEBHOOK_ALLOWED_HOSTS replaces the default: hosts, host:port, or *", () => {
    const vars = { WEBHOOK_ALLOWED_HOSTS: "hooks.example.com, ci.example.com:8443" };
    expect(urlRefusal("https://hooks.example.com/x", vars, "mock")).toBeUndefined();
    expect(urlRefusal("https://ci.example.com:8443/x", vars, "mock")).toBeUndefined();
    expect(urlRefusal("https://ci.example.com/x", vars, "mock")).toEqual({ host: "ci.example.com" });
    expect(urlRefusal("http://127.0.0.1:3000/x", vars, "mock")).toEqual({ host: "127.0.0.1:3000" });
    expect(urlRefusal("https://anything.example/x", { WEBHOOK_ALLOWED_HOSTS: "*" }, "mock")).toBeUndefined();
  });
});

describe("the delivery log", () => {
  it("writes every delivery not taken; those taken only with REQUEST_LOG=json", () => {
    const lines: string[] = [];
    const line = (status: number | undefined) => ({
      event: "evt_1",
      type: "batch.completed",
      endpoint: "whe_1",
      attempt: 1,
      retry: false,
      ...(status === undefined ? { error: "refused" } : { status }),
    });
    const quiet = deliveryLogger({}, (l) => lines.push(l));
    quiet(line(200));
    quiet(line(503));
    quiet(line(undefined));
    expect(lines.map((l) => JSON.parse(l))).toEqual([
      { mockllm: "webhook", ...line(503) },
      { mockllm: "webhook", ...line(undefined) },
    ]);
    lines.length = 0;
    deliveryLogger({ REQUEST_LOG: " JSON " }, (l) => lines.push(l))(line(204));
    expect(lines.map((l) => JSON.parse(l))).toEqual([{ mockllm: "webhook", ...line(204) }]);
  });
});

describe("raising an event", () => {
  it("never fails the request that raised it: a hub that cannot be reached is logged", async () => {
    const failing = { schedule: () => Promise.reject(new Error("object unreachable")) } as unknown as WebhookHub;
    const rt = { webhooks: () => failing } as unknown as Runtime;
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      await expect(raiseEvent(rt, "batch:b1", 0, "batch.completed", "b1")).resolves.toBeUndefined();
      expect(JSON.parse(String(logged.mock.calls[0]?.[0]))).toEqual({ mockllm: "webhook", type: "batch.completed", data: "b1", error: "the event could not be queued: object unreachable" });
    } finally {
      logged.mockRestore();
    }
    // A runtime without webhooks: nothing to do.
    await expect(raiseEvent({} as Runtime, "batch:b1", 0, "batch.completed", "b1")).resolves.toBeUndefined();
  });
});
